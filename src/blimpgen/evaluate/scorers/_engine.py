"""The causal scoring engine: shared-prefix groups, length-sorted batches, gathered log-probs.

A *group* is a set of token sequences (the two sentences of a pair) that share a prefix of
``P`` tokens. Pass 1 feeds each group's prefix once (batched over groups) and keeps its
key/value cache; pass 2 feeds each member's remaining tokens, except the last, on top of a
copy of its group's cache. Position ``j`` predicts token ``j + 1``; only positions whose next
token is scored reach the output layer, and each such position is projected once even when
the two members predict different tokens from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class _Plan:
    members: list[int]  # item indices
    prefix: int         # P: tokens fed in pass 1
    suffix: int         # longest member remainder fed in pass 2


def _common_prefix(seqs: Sequence[Sequence[int]]) -> int:
    first = seqs[0]
    n = min(len(s) for s in seqs)
    for i in range(n):
        if any(s[i] != first[i] for s in seqs[1:]):
            return i
    return n


def _plans(items: Sequence[tuple[tuple[int, ...], int]], groups: Sequence[Sequence[int]]) -> list[_Plan]:
    plans = []
    for members in groups:
        live = [m for m in members if len(items[m][0]) >= 2 and items[m][1] <= len(items[m][0]) - 1]
        if not live:
            continue
        seqs = [items[m][0] for m in live]
        prefix = min(_common_prefix(seqs), min(len(s) for s in seqs) - 1)
        if prefix < 1:  # nothing shared: score each member alone
            plans.extend(_Plan([m], len(items[m][0]) - 1, 0) for m in live)
            continue
        plans.append(_Plan(live, prefix, max(len(s) - 1 - prefix for s in seqs)))
    plans.sort(key=lambda p: (p.prefix, p.suffix))
    return plans


def _batches(plans: list[_Plan], budget: int) -> list[list[_Plan]]:
    batches: list[list[_Plan]] = []
    current: list[_Plan] = []
    prefix = suffix = rows = 0
    for plan in plans:
        new_prefix, new_suffix = max(prefix, plan.prefix), max(suffix, plan.suffix)
        new_rows = rows + (len(plan.members) if plan.suffix else 0)
        if current and (len(current) + 1) * new_prefix + new_rows * new_suffix > budget:
            batches.append(current)
            current, prefix, suffix, rows = [], 0, 0, 0
            new_prefix, new_suffix = plan.prefix, plan.suffix
            new_rows = len(plan.members) if plan.suffix else 0
        current.append(plan)
        prefix, suffix, rows = new_prefix, new_suffix, new_rows
    if current:
        batches.append(current)
    return batches


def run_groups(scorer: Any, items: Sequence[tuple[tuple[int, ...], int]],
               groups: Sequence[Sequence[int]]) -> list[list[float]]:
    """Log-probabilities of each item's tokens ``ids[start:]``.

    Args:
        scorer: a :class:`~blimpgen.evaluate.scorers.hf_causal.CausalLMScorer`.
        items: unique ``(token ids, first scored index)`` pairs.
        groups: item indices that share a prefix (each item in at least one group).

    Returns:
        Per item, one natural-log probability per scored token.
    """
    torch = scorer._torch
    out: list[list[float]] = [[0.0] * max(0, len(ids) - start) for ids, start in items]
    with torch.inference_mode():
        for batch in _batches(_plans(items, groups), scorer.batch_tokens):
            _run_batch(scorer, torch, items, batch, out)
    return out


def _run_batch(scorer: Any, torch: Any, items: Sequence[tuple[tuple[int, ...], int]],
               batch: list[_Plan], out: list[list[float]]) -> None:
    device = scorer.input_device
    pad = scorer.tokenizer.pad_token_id if scorer.tokenizer.pad_token_id is not None else 0
    width = max(plan.prefix for plan in batch)
    ids = torch.full((len(batch), width), pad, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for row, plan in enumerate(batch):
        ids[row, :plan.prefix] = torch.tensor(items[plan.members[0]][0][:plan.prefix])
        mask[row, :plan.prefix] = 1
    positions = torch.arange(width).expand(len(batch), width)
    # right padding under causal attention never reaches a real position, so pass 1 needs no mask
    # (and takes the fused causal attention path); pass 2 masks the padded cache slots
    states, cache = scorer.forward_hidden(ids.to(device), None, positions.to(device), None)

    # pass 1 selections: (row, position) -> unique state; each wanted value -> (state, target, item, slot)
    selection = _Selection()
    for row, plan in enumerate(batch):
        for m in plan.members:
            seq, start = items[m]
            for j in range(max(start - 1, 0), min(plan.prefix, len(seq) - 1)):
                selection.add((row, j), seq[j + 1], m, j + 1 - start)
    _emit(scorer, torch, states, selection, out)

    # pass 2: each member's remainder on a copy of its group's cache
    rows = [(row, m) for row, plan in enumerate(batch) for m in plan.members
            if len(items[m][0]) - 1 > plan.prefix]
    if not rows:
        return
    length = max(len(items[m][0]) - 1 - batch[row].prefix for row, m in rows)
    ids2 = torch.full((len(rows), length), pad, dtype=torch.long)
    mask2 = torch.zeros((len(rows), length), dtype=torch.long)
    positions2 = torch.zeros((len(rows), length), dtype=torch.long)
    selection = _Selection()
    for r, (row, m) in enumerate(rows):
        seq, start = items[m]
        prefix = batch[row].prefix
        fed = seq[prefix:len(seq) - 1]
        ids2[r, :len(fed)] = torch.tensor(fed)
        mask2[r, :len(fed)] = 1
        positions2[r, :len(fed)] = torch.arange(prefix, prefix + len(fed))
        for j in range(len(fed)):
            if prefix + j + 1 >= start:
                selection.add((r, j), seq[prefix + j + 1], m, prefix + j + 1 - start)
    index = torch.tensor([row for row, _ in rows], device=device)
    cache.batch_select_indices(index)
    full_mask = torch.cat([mask.to(device)[index], mask2.to(device)], dim=1)
    states2, _ = scorer.forward_hidden(ids2.to(device), full_mask, positions2.to(device), cache)
    _emit(scorer, torch, states2, selection, out)


class _Selection:
    """Wanted log-probs, with each (row, position) state projected once."""

    def __init__(self) -> None:
        self.keys: dict[tuple[int, int], int] = {}
        self.state_rows: list[int] = []
        self.state_cols: list[int] = []
        self.rows: list[int] = []
        self.targets: list[int] = []
        self.slots: list[tuple[int, int]] = []

    def add(self, key: tuple[int, int], target: int, item: int, slot: int) -> None:
        index = self.keys.get(key)
        if index is None:
            index = self.keys[key] = len(self.state_rows)
            self.state_rows.append(key[0])
            self.state_cols.append(key[1])
        self.rows.append(index)
        self.targets.append(target)
        self.slots.append((item, slot))


def _emit(scorer: Any, torch: Any, states: Any, selection: _Selection, out: list[list[float]]) -> None:
    from blimpgen.evaluate.scorers._torch import gather_logprobs

    if not selection.rows:
        return
    device = states.device
    picked = states[torch.tensor(selection.state_rows, device=device), torch.tensor(selection.state_cols, device=device)]
    values = gather_logprobs(scorer.head_logits, picked, torch.tensor(selection.rows, device=device),
                             torch.tensor(selection.targets, device=device), scorer.vocab_size).tolist()
    for (item, slot), value in zip(selection.slots, values):
        out[item][slot] = value
