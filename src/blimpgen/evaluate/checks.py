"""Checks on scored rows that refuse a result which would be wrong without a warning.

Scorers check their inputs (tokenizer, context length) and tasks check their records (0-token
sentences, candidates a model cannot score); what only shows once everything is scored is
checked here, before anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from blimpgen.errors import ResultError
from blimpgen.evaluate.scoring.base import Scorer
from blimpgen.evaluate.tasks.base import EvalTask

# A run of at least this many pairs (items) in which every one ties is refused: no working model
# ties that often, but a broken one (an empty tokenizer, a truncated n-gram file) ties them all.
# Below it, a handful of ties can be a deliberate test of the tie policy.
ALL_TIES_MIN_PAIRS = 10


def check_not_all_ties(rows: Sequence[Any], task: EvalTask, scorer: Scorer) -> None:
    """Refuse a run of at least :data:`ALL_TIES_MIN_PAIRS` rows that all tie.

    Every tie is decided by the tie policy alone, so such a run measures nothing; it is what a
    model with a broken tokenizer or a damaged n-gram file produces.

    Args:
        rows: scored rows (``tie``, ``record_id``, ``model``).
        task: the task that scored them (its ``noun``, ``tie_sides`` and ``tie_note`` word the message).
        scorer: the scorer that produced them.

    Raises:
        ResultError: naming the count, the scorer and the first row.
    """
    if len(rows) < ALL_TIES_MIN_PAIRS or not all(row.tie for row in rows):
        return
    first, noun = rows[0], task.noun
    raise ResultError(
        f"every {noun} tied: in all {len(rows)} {noun}s (e.g. {first.record_id}) {task.tie_sides} got "
        f"equal scores from {scorer.name} ({first.model or 'no model'}), so accuracy would only "
        f"reflect the tie policy; check the model/tokenizer (or n-gram file){task.tie_note}"
    )
