"""Reductions: per-token log-probabilities -> one score per sentence (or continuation).

``sum`` is BLiMP's score (the log-probability of the sentence). ``mean`` divides by the
token count. ``slor`` (Lau et al. 2017) subtracts the unigram log-probability of the same
tokens before dividing, which removes word-frequency effects from the comparison.
"""

from __future__ import annotations

from typing import Literal, get_args

from blimpgen.errors import OptionError
from blimpgen.evaluate.scoring.base import TokenScores
from blimpgen.evaluate.scoring.scorers.unigram import UnigramModel

Reduction = Literal["sum", "mean", "slor"]
REDUCTIONS: tuple[str, ...] = get_args(Reduction)


def check_reduction(reduction: str, unigram: UnigramModel | None) -> None:
    """Fail early for an unknown reduction or SLOR without its unigram model.

    Raises:
        OptionError: with the valid names or the missing option.
    """
    if reduction not in REDUCTIONS:
        raise OptionError(f"unknown reduction {reduction!r}; expected one of: {', '.join(REDUCTIONS)}")
    if reduction == "slor" and unigram is None:
        raise OptionError("reduction 'slor' needs a unigram model: pass --slor-corpus FILE")


def reduce_scores(scores: TokenScores, reduction: str = "sum", unigram: UnigramModel | None = None) -> float:
    """One number for a sentence's token scores.

    Args:
        scores: per-token log-probabilities.
        reduction: ``sum``, ``mean`` or ``slor``.
        unigram: the unigram model over the scorer's tokens (``slor`` only).

    Raises:
        OptionError: for an unknown reduction, or ``slor`` without ``unigram``.
    """
    check_reduction(reduction, unigram)
    if reduction == "sum":
        return scores.total
    if not len(scores):
        return 0.0
    if reduction == "mean":
        return scores.total / len(scores)
    baseline = sum(unigram.logprob(token) for token in scores.tokens)  # type: ignore[union-attr]
    return (scores.total - baseline) / len(scores)
