"""The causal scoring engine: sentences packed as prefix trees, one forward pass per batch.

Token sequences are sorted by their *fed* tokens (all but the last: nothing is predicted from
it) and packed in that order into rows of at most ``PACK_TOKENS`` tokens. A row holds the
prefix tree (trie) of its sequences in depth-first order: a prefix shared by several sequences
is stored once, whether they are the two sentences of a pair or different pairs that start
alike (``<|endoftext|> The dog ...``). A 4D attention mask lets each token attend to itself and
its ancestors only, and its position id is its depth, so every token sees exactly the context
it has in its own sentence; masked keys get zero weight, and scores equal an unbatched
computation up to float rounding.

Position ``j`` predicts token ``j + 1``. Only tree nodes whose next token is scored reach the
output layer, each once, however many sequences continue from it.

Without sharing (``share=False``, or a model whose positions do not come from
``position_ids``), each row holds one sequence; right padding under causal attention never
reaches a real token, so such batches run without a mask, on the fused causal path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# Tokens per packed row. Longer rows share more (more neighbours in sorted order) but attend
# over more keys. On the 67-paradigm bench (1,340 pairs, 25,484 tokens fed without sharing)
# rows of 128 feed 16,535 tokens: sharing within pairs only fed 19,328, one unbounded tree
# 16,135. Rows of 64 to 512 ran equally fast on a 2-core CPU.
PACK_TOKENS = 128


@dataclass
class _Pack:
    tokens: list[int] = field(default_factory=list)  # trie nodes, depth-first
    depths: list[int] = field(default_factory=list)  # position id of each node
    wanted: list[tuple[int, int, int, int]] = field(default_factory=list)  # (node, target, item, slot)

    @property
    def is_chain(self) -> bool:
        """Whether plain causal attention over the row is already the tree's attention."""
        # a node at depth n - 1 has all n - 1 earlier nodes as ancestors
        return not self.depths or self.depths[-1] == len(self.depths) - 1

    def subtree_ends(self) -> list[int]:
        """For each node, the index just past its subtree (depth-first order keeps it contiguous)."""
        ends = [len(self.depths)] * len(self.depths)
        open_nodes: list[int] = []
        for node, depth in enumerate(self.depths):
            while open_nodes and self.depths[open_nodes[-1]] >= depth:
                ends[open_nodes.pop()] = node
            open_nodes.append(node)
        return ends


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def _packs(items: Sequence[tuple[tuple[int, ...], int]], cap: int, share: bool) -> list[_Pack]:
    # Sorted, a sequence shares the most with its predecessor, so the trie of a row is built by
    # appending each sequence's tokens after its common prefix with the previous one.
    order = sorted(
        (i for i, (ids, start) in enumerate(items) if len(ids) >= 2 and start < len(ids)),
        key=lambda i: items[i][0][:-1],
    )
    packs: list[_Pack] = []
    path: list[int] = []  # node of each depth along the previous sequence
    previous: Sequence[int] = ()
    for item in order:
        ids, start = items[item]
        fed = ids[:-1]
        shared = _common_prefix(previous, fed) if share and packs else 0
        if not packs or not share or (len(packs[-1].tokens) + len(fed) - shared > cap and packs[-1].tokens):
            packs.append(_Pack())
            shared = 0
        pack = packs[-1]
        del path[shared:]
        for depth in range(shared, len(fed)):
            path.append(len(pack.tokens))
            pack.tokens.append(fed[depth])
            pack.depths.append(depth)
        for j in range(max(start - 1, 0), len(fed)):
            pack.wanted.append((path[j], ids[j + 1], item, j + 1 - start))
        previous = fed
    return packs


def _batches(packs: list[_Pack], budget: int) -> list[list[_Pack]]:
    batches: list[list[_Pack]] = []
    width = 0
    for pack in sorted(packs, key=lambda p: len(p.tokens)):
        new_width = max(width, len(pack.tokens))
        if batches and (len(batches[-1]) + 1) * new_width <= budget:
            batches[-1].append(pack)
            width = new_width
        else:
            batches.append([pack])
            width = len(pack.tokens)
    return batches


def run_items(scorer: Any, items: Sequence[tuple[tuple[int, ...], int]], share: bool = True) -> list[list[float]]:
    """Log-probabilities of each item's tokens ``ids[start:]``.

    Args:
        scorer: a :class:`~blimpgen.evaluate.scoring.scorers.hf_causal.CausalLMScorer`.
        items: unique ``(token ids, first scored index)`` pairs.
        share: feed prefixes shared between items once (needs a model that takes a 4D
            attention mask and ``position_ids``).

    Returns:
        Per item, one natural-log probability per scored token.
    """
    torch = scorer._torch
    out: list[list[float]] = [[0.0] * max(0, len(ids) - start) for ids, start in items]
    cap = min(PACK_TOKENS, scorer.batch_tokens)
    with torch.inference_mode():
        batches = _batches(_packs(items, cap, share), scorer.batch_tokens)
        for done, batch in enumerate(batches, 1):
            _run_batch(scorer, torch, batch, out)
            scorer.report_batch(done, len(batches))
    return out


def _tree_mask(torch: Any, batch: list[_Pack], width: int, dtype: Any, device: Any) -> Any:
    """``[rows, 1, width, width]`` additive mask: node ``i`` sees node ``j`` iff ``j`` is ``i`` or its ancestor."""
    index = torch.arange(width)
    ends = (index + 1).repeat(len(batch), 1)  # padding sees only itself
    for row, pack in enumerate(batch):
        ends[row, : len(pack.tokens)] = torch.tensor(pack.subtree_ends())
    # in depth-first order, j is an ancestor-or-self of i iff j <= i < end(j)
    allowed = (index[None, None, :] <= index[None, :, None]) & (index[None, :, None] < ends[:, None, :])
    mask = torch.zeros(allowed.shape, dtype=dtype).masked_fill_(~allowed, torch.finfo(dtype).min)
    return mask[:, None].to(device)


def _run_batch(scorer: Any, torch: Any, batch: list[_Pack], out: list[list[float]]) -> None:
    device = scorer.input_device
    pad = scorer.tokenizer.pad_token_id if scorer.tokenizer.pad_token_id is not None else 0
    width = max(len(pack.tokens) for pack in batch)
    ids = torch.full((len(batch), width), pad, dtype=torch.long)
    positions = torch.zeros((len(batch), width), dtype=torch.long)
    selection = _Selection()
    for row, pack in enumerate(batch):
        ids[row, : len(pack.tokens)] = torch.tensor(pack.tokens)
        positions[row, : len(pack.tokens)] = torch.tensor(pack.depths)
        for node, target, item, slot in pack.wanted:
            selection.add((row, node), target, item, slot)
    mask = None
    if not all(pack.is_chain for pack in batch):
        mask = _tree_mask(torch, batch, width, scorer.model.dtype, device)
    states = scorer.forward_hidden(ids.to(device), mask, positions.to(device))
    _emit(scorer, torch, states, selection, out)


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
    if not selection.rows:
        return
    device = states.device
    picked = states[
        torch.tensor(selection.state_rows, device=device), torch.tensor(selection.state_cols, device=device)
    ]
    values = scorer.head_logprobs(
        picked, torch.tensor(selection.rows, device=device), torch.tensor(selection.targets, device=device)
    ).tolist()
    for (item, slot), value in zip(selection.slots, values):
        out[item][slot] = value
