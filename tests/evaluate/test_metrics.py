"""Judging and intervals."""

from __future__ import annotations

import pytest

from blimpgen.evaluate.metrics import judge, mean_interval, wilson_interval


@pytest.mark.parametrize(
    "good,bad,tie,expected",
    [
        (-1, -2, "wrong", 1.0),
        (-2, -1, "right", 0.0),
        (-1, -1, "wrong", 0.0),
        (-1, -1, "half", 0.5),
        (-1, -1, "right", 1.0),
    ],
)
def test_metrics_judge(good, bad, tie, expected):
    assert judge(good, bad, tie) == expected


def test_metrics_wilson_interval_known_value():
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and 0.6 < low < 0.8


def test_metrics_mean_interval_contains_the_mean_and_is_wider_with_fewer_items():
    wide, narrow = mean_interval([(1, 2), (1, 2)]), mean_interval([(50, 100), (50, 100)])
    assert wide[0] < narrow[0] < 0.5 < narrow[1] < wide[1]
    assert mean_interval([]) == (0.0, 1.0)
