"""Cloze probes for causal language models: option log-probabilities and the next-token distribution.

A left-to-right model cannot see the text right of the blank, so an option's log-probability
is that of its tokens after the left context (the ordinary scoring path), and the top tokens
and ranks come from the next-token distribution after the left context. The left context's
trailing spaces move onto the option (:func:`~blimpgen.evaluate.scoring.base.blank_continuation`),
so the distribution is read where a word-initial token is expected.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from blimpgen.evaluate.scoring.base import BlankQuery, BlankScores, Scorer, blank_continuation
from blimpgen.evaluate.scoring.scorers._torch import encode_query

LOGITS_BUDGET = 1 << 26  # bound on rows x positions x vocabulary logits held at once


def causal_blank_tokens(scorer: Any, query: BlankQuery) -> list[tuple[str, ...]]:
    """The tokens each option is scored as after ``query.left``."""
    out = []
    for option in query.options:
        _, ids = encode_query(scorer.tokenizer, blank_continuation(query.left, option))
        out.append(tuple(scorer.tokenizer.convert_ids_to_tokens(ids)))
    return out


def causal_blank(scorer: Any, queries: Sequence[BlankQuery], top_k: int = 0) -> list[BlankScores]:
    """Option log-probabilities via ``scorer.score``; with ``top_k``, the top tokens and ranks too.

    ``top`` and ``ranks`` stay empty for a query with no left context when the scorer
    prepends no BOS token (there is nothing to predict from).
    """
    if top_k <= 0:
        return Scorer.blank(scorer, queries)
    options = sum(len(query.options) for query in queries)
    share = options / max(1, options + len(queries))  # the option pass, then one row per context
    with scorer.stage(0.0, share):
        scored = Scorer.blank(scorer, queries)
    contexts: dict[str, tuple[int, ...]] = {}
    option_ids: list[list[int | None]] = []  # per query and option: its id when it is one token
    wanted: dict[str, set[int]] = {}
    for query in queries:
        context = query.left.rstrip()
        ids = tuple(scorer.tokenizer.encode(context, add_special_tokens=False)) if context else ()
        if scorer.prefix_id is not None:
            ids = (scorer.prefix_id, *ids)
        if ids:
            contexts[context] = ids
        singles = []
        for option in query.options:
            _, text = encode_query(scorer.tokenizer, blank_continuation(query.left, option))
            singles.append(text[0] if len(text) == 1 else None)
        option_ids.append(singles)
        wanted.setdefault(context, set()).update(i for i in singles if i is not None)
    with scorer.stage(share, 1.0):
        found = _next_token(scorer, contexts, wanted, top_k)
    out = []
    for query, scores, singles in zip(queries, scored, option_ids):
        context = query.left.rstrip()
        if context not in found:
            out.append(scores)
            continue
        top, ranks = found[context]
        out.append(BlankScores(scores.logprobs, top, tuple(None if i is None else ranks[i] for i in singles)))
    return out


def _next_token(
    scorer: Any, contexts: dict[str, tuple[int, ...]], wanted: dict[str, set[int]], top_k: int
) -> dict[str, tuple[tuple[str, ...], dict[int, int]]]:
    """Per context: the decoded top tokens after it, and the ranks of the wanted token ids."""
    torch = scorer._torch
    names = sorted(contexts, key=lambda c: len(contexts[c]))
    device = scorer.model.get_input_embeddings().weight.device
    pad = scorer.tokenizer.pad_token_id if scorer.tokenizer.pad_token_id is not None else 0
    vocabulary = max(1, getattr(scorer.model.config, "vocab_size", None) or len(scorer.tokenizer))
    found: dict[str, tuple[tuple[str, ...], dict[int, int]]] = {}
    spans, start = [], 0
    while start < len(names):
        end = start + 1
        while end < len(names):
            rows, width = end - start + 1, len(contexts[names[end]])  # length-sorted: last is longest
            if rows * width > scorer.batch_tokens or rows * width * vocabulary > LOGITS_BUDGET:
                break
            end += 1
        spans.append((start, end))
        start = end
    with torch.inference_mode():
        for done, (start, end) in enumerate(spans, 1):
            batch = names[start:end]
            width = len(contexts[batch[-1]])
            ids = torch.full((len(batch), width), pad, dtype=torch.long)
            mask = torch.zeros((len(batch), width), dtype=torch.long)
            for r, name in enumerate(batch):
                ids[r, : len(contexts[name])] = torch.tensor(contexts[name])
                mask[r, : len(contexts[name])] = 1
            logits = scorer.model(input_ids=ids.to(device), attention_mask=mask.to(device)).logits
            last = torch.tensor([len(contexts[name]) - 1 for name in batch], device=logits.device)
            logprobs = torch.log_softmax(logits[torch.arange(len(batch), device=logits.device), last].float(), dim=-1)
            top_ids = torch.topk(logprobs, min(top_k, logprobs.shape[-1])).indices.tolist()
            for r, name in enumerate(batch):
                row = logprobs[r]
                ranks = {i: 1 + int((row > row[i]).sum().item()) for i in wanted[name]}
                found[name] = (tuple(scorer.tokenizer.decode([i]).strip() for i in top_ids[r]), ranks)
            scorer.report_batch(done, len(spans))
    return found
