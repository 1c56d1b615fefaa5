"""Counterbalancing: both positions within one of each other at every HIT and paradigm."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from blimpgen.validate.balance import balanced_orientation

edges_strategy = st.lists(st.tuples(st.integers(0, 12), st.sampled_from("abcdefg")), max_size=120)


def _imbalance(edges: list[tuple[int, str]], sides: list[int]) -> int:
    counts: Counter = Counter()
    for (left, right), side in zip(edges, sides, strict=True):
        delta = 1 if side else -1
        counts[("L", left)] += delta
        counts[("R", right)] += delta
    return max((abs(v) for v in counts.values()), default=0)


@given(edges_strategy, st.integers(0, 2**32))
def test_balance_every_vertex_within_one(edges: list[tuple[int, str]], seed: int) -> None:
    sides = balanced_orientation(edges, random.Random(seed))
    assert len(sides) == len(edges)
    assert set(sides) <= {0, 1}
    assert _imbalance(edges, sides) <= 1


def test_balance_same_seed_same_sides() -> None:
    edges = [(hit, uid) for hit in range(9) for uid in "abcd" for _ in range(2)] + [(0, "e")]
    first = balanced_orientation(edges, random.Random("s"))
    assert first == balanced_orientation(edges, random.Random("s"))
    assert _imbalance(edges, first) <= 1


def test_balance_is_not_one_fixed_pattern() -> None:
    edges = [(hit, uid) for hit in range(6) for uid in "abc"]
    patterns = {tuple(balanced_orientation(edges, random.Random(seed))) for seed in range(10)}
    assert len(patterns) > 1
