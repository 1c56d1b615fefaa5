"""Checks on scored records that refuse a result which would be wrong without a warning.

Scorers check their inputs (tokenizer, context length); what only shows once everything is
scored is checked here, before anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from blimpgen.errors import ResultError
from blimpgen.evaluate.scoring.base import Scorer

# A run of at least this many pairs (items) in which every one ties is refused: no working model
# ties that often, but a broken one (an empty tokenizer, a truncated n-gram file) ties them all.
# Below it, a handful of ties can be a deliberate test of the tie policy.
ALL_TIES_MIN_PAIRS = 10


def check_not_all_ties(records: Sequence[dict[str, Any]], noun: str, scorer: Scorer) -> None:
    """Refuse a run of at least :data:`ALL_TIES_MIN_PAIRS` records that all tie.

    Every tie is decided by the tie policy alone, so such a run measures nothing; it is what a
    model with a broken tokenizer or a damaged n-gram file produces.

    Args:
        records: per-pair (``tie``, ``pair_id``) or per-item (``tie``, ``item_id``) records.
        noun: ``pair`` or ``item``, for the message.
        scorer: the scorer that produced them.

    Raises:
        ResultError: naming the count, the scorer and the first record.
    """
    if len(records) < ALL_TIES_MIN_PAIRS or not all(r["tie"] for r in records):
        return
    first = records[0]
    example = first.get("pair_id") or first.get("item_id")
    what = "good and bad" if noun == "pair" else "the answer and the best other candidate"
    note = ("; a bag-of-words scorer such as unigram ties every pair whose sentences have the same words"
            if noun == "pair" else "")
    raise ResultError(f"every {noun} tied: in all {len(records)} {noun}s (e.g. {example}) {what} got equal scores "
                      f"from {scorer.name} ({first.get('model') or 'no model'}), so accuracy would only reflect "
                      f"the tie policy; check the model/tokenizer (or n-gram file){note}")
