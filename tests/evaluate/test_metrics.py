"""Accuracy, intervals, and BLiMP's mean-over-paradigms aggregation."""

from __future__ import annotations

import pytest

from blimpgen.evaluate.metrics import Outcome, judge, summarize, wilson_interval


@pytest.mark.parametrize("good,bad,tie,expected", [(-1, -2, "wrong", 1.0), (-2, -1, "right", 0.0),
                                                   (-1, -1, "wrong", 0.0), (-1, -1, "half", 0.5),
                                                   (-1, -1, "right", 1.0)])
def test_metrics_judge(good, bad, tie, expected):
    assert judge(good, bad, tie) == expected


def test_metrics_wilson_interval_known_value():
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and 0.6 < low < 0.8


def test_metrics_overall_is_mean_over_paradigms_not_pairs():
    outcomes = [Outcome("a", "p1", "syntax", 1.0)] * 90 + [Outcome("b", "p2", "syntax", 0.0)] * 10
    summary = summarize(outcomes)
    assert summary["overall"]["accuracy"] == pytest.approx(0.5)
    assert summary["overall"]["pair_accuracy"] == pytest.approx(0.9)
    assert summary["paradigms"]["a"]["accuracy"] == 1.0
    assert set(summary["phenomena"]) == {"p1", "p2"}
    overall = summary["overall"]
    assert overall["ci_low"] < 0.5 < overall["ci_high"]


def test_metrics_phenomenon_averages_its_paradigms():
    outcomes = ([Outcome("a", "p", "f", 1.0)] * 4 + [Outcome("b", "p", "f", 1.0), Outcome("b", "p", "f", 0.0)])
    phenomenon = summarize(outcomes)["phenomena"]["p"]
    assert phenomenon["accuracy"] == pytest.approx(0.75)
    assert phenomenon["n_paradigms"] == 2 and phenomenon["n_pairs"] == 6
