"""Reductions: sum, mean, SLOR."""

from __future__ import annotations

import math

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.evaluate.scoring.base import TokenScores
from blimpgen.evaluate.scoring.reductions import reduce_scores
from blimpgen.evaluate.scoring.scorers.unigram import UnigramModel

SCORES = TokenScores(("a", "b"), (-1.0, -3.0))


@pytest.mark.parametrize("reduction,expected", [("sum", -4.0), ("mean", -2.0)])
def test_reductions_sum_and_mean(reduction, expected):
    assert reduce_scores(SCORES, reduction) == expected


def test_reductions_slor_subtracts_unigram_and_divides_by_length():
    unigram = UnigramModel({"a": 1, "b": 1})
    expected = (-4.0 - 2 * math.log(2 / 5)) / 2
    assert reduce_scores(SCORES, "slor", unigram) == pytest.approx(expected)


def test_reductions_empty_scores_mean_zero():
    assert reduce_scores(TokenScores((), ()), "mean") == 0.0


@pytest.mark.parametrize(
    "reduction,unigram,message",
    [("median", None, "unknown reduction 'median'"), ("slor", None, "needs a unigram model")],
)
def test_reductions_errors(reduction, unigram, message):
    with pytest.raises(BlimpgenError, match=message):
        reduce_scores(SCORES, reduction, unigram)
