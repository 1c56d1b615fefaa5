"""Judging and intervals, shared by every task's summary.

BLiMP reports a phenomenon's accuracy and the overall accuracy as the *mean over paradigms*
(probe suites), not over pairs (items), so every paradigm weighs the same; the summaries do
too (:mod:`~blimpgen.evaluate.tasks.pair_summary`, :mod:`~blimpgen.evaluate.tasks.probe_summary`).
A paradigm's interval is Wilson's score interval (:func:`wilson_interval`). A mean over
paradigms gets a normal interval whose variance sums the paradigms' Agresti-Coull variances
(:func:`mean_interval`), which stays sensible when a paradigm is at 0 % or 100 %.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal, get_args

Z95 = 1.959963984540054
Tie = Literal["wrong", "half", "right"]
TIE_POLICIES: tuple[str, ...] = get_args(Tie)


def judge(score_good: float, score_bad: float, tie: str = "wrong") -> float:
    """1.0 when good beats bad, 0.0 when not; a tie counts per ``tie`` (wrong/half/right)."""
    if score_good > score_bad:
        return 1.0
    if score_good < score_bad:
        return 0.0
    return {"wrong": 0.0, "half": 0.5, "right": 1.0}[tie]


def wilson_interval(correct: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``correct / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = correct / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(groups: list[tuple[float, int]], z: float = Z95) -> tuple[float, float]:
    """Interval of a mean of proportions ``correct / n`` (one per paradigm or suite)."""
    if not groups:
        return (0.0, 1.0)
    mean = sum(c / n for c, n in groups) / len(groups)
    variance = 0.0
    for correct, n in groups:
        adjusted = (correct + z * z / 2) / (n + z * z)
        variance += adjusted * (1 - adjusted) / (n + z * z)
    half = z * math.sqrt(variance) / len(groups)
    return (max(0.0, mean - half), min(1.0, mean + half))


def chance_baseline(candidates: Iterable[Sequence[str]]) -> float | None:
    """Multiple-choice accuracy of a uniform random guess: the mean of 1/K (None for no items)."""
    shares = [1 / len(options) for options in candidates if options]
    return sum(shares) / len(shares) if shares else None


def majority_baseline(items: Iterable[tuple[str, Sequence[str]]]) -> float | None:
    """Multiple-choice accuracy of the majority guess: always the most common answer of the set
    when it is among the item's candidates, else a uniform guess among them (1/K).

    With one candidate set for every item (*younger* / *older*) this is the majority-class
    baseline: a suite where 59 % of the items answer *animal* has a baseline of 0.59 whatever its
    chance. Where the most common answer is rarely a candidate it is close to chance. (A tie for
    the most common answer takes the first in sorted order.) None for no items.

    Args:
        items: (answer, candidates) per item.
    """
    items = list(items)
    if not items:
        return None
    counts = Counter(answer for answer, _ in items)
    mode = min(counts, key=lambda answer: (-counts[answer], answer))
    total = 0.0
    for answer, candidates in items:
        if mode in candidates:
            total += answer == mode
        elif candidates:
            total += 1 / len(candidates)
    return total / len(items)
