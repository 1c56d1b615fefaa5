"""The sampling checks behind ``blimpgen check`` (the CLI side is in tests/cli/test_author_cli.py)."""

from __future__ import annotations

import math
import random

import pytest

from blimpgen.authoring.check import (
    check_paradigms,
    estimate_capacity,
    repeats_unlikely,
    spec_files,
    stratified_capacity,
)
from blimpgen.errors import SpecErrors


@pytest.mark.parametrize("population", [10, 50, 400])
def test_check_estimate_capacity_recovers_population(population: int) -> None:
    rng = random.Random(population)
    draws = 300
    unique = len({rng.randrange(population) for _ in range(draws)})
    assert 0.6 * population <= estimate_capacity(draws, unique) <= 1.6 * population


def test_check_stratified_capacity_counts_a_rare_answer_drawn_first_as_its_own_space() -> None:
    """A suite that draws one of five answers first repeats the items of a rare answer (5 of them)
    although the others have a thousand each: the whole-sample estimate is far too small."""
    import random
    from collections import Counter

    rng = random.Random(0)
    sizes = [5, 1000, 1000, 1000, 1000]
    strata = [Counter() for _ in sizes]
    for _ in range(300):
        answer = rng.randrange(len(sizes))
        strata[answer][(answer, rng.randrange(sizes[answer]))] += 1
    whole = Counter()
    for stratum in strata:
        whole.update(stratum)
    assert estimate_capacity(300, len(whole)) < 1000 <= stratified_capacity(strata)
    # items made under two values of the first slot: not strata, the whole sample decides
    shared = [Counter({"a": 50, "b": 50}), Counter({"a": 50, "c": 50})]
    assert stratified_capacity(shared) == pytest.approx(estimate_capacity(200, 3))


def test_check_estimate_capacity_without_repeats_is_unbounded() -> None:
    assert estimate_capacity(300, 300) == math.inf


def test_check_missing_path_is_an_error() -> None:
    with pytest.raises(SpecErrors, match="no/such: no such file or folder"):
        spec_files(("no/such",))


def test_check_slot_that_never_fills(tmp_path, mini_lexicon) -> None:
    (tmp_path / "never.yaml").write_text(
        "uid: never\nfield: syntax\nlinguistics_term: t\ndescription: d\ncontrast: [noun]\nslots:\n"
        "  noun: {kind: word, where: \"N and mass and not mass\"}\ngood: '{{ noun }}.'\nbad: '{{ noun }} x.'\n"
    )
    report = check_paradigms((tmp_path,), mini_lexicon, n=10, attempts=20)
    assert report.lines() == [
        f"{tmp_path}/never.yaml:7: slots.noun: no lexicon entry satisfies this slot's "
        f"constraints in 20 attempts (check features and references)"
    ]


@pytest.mark.parametrize(
    "draws, unique, n, flagged",
    [
        (85, 81, 1000, False),  # 4 repeats: about what 1,000 equally likely items give in 85 draws
        (300, 6, 100, True),  # 6 sentences seen over and over: far fewer than 100
        (300, 200, 1000, True),
        (300, 300, 10, False),  # no repeat at all
    ],
)
def test_check_repeats_unlikely_needs_evidence(draws: int, unique: int, n: int, flagged: bool) -> None:
    assert repeats_unlikely(draws, unique, n) is flagged


SUITE = """\
uid: tiny_probe
item: multiple_choice
field: semantics
linguistics_term: comparison
description: A demo suite.
slots:
  x: {kind: number, min: 1, max: 9}
  y: {kind: number, min: 1, max: 9, distinct: [x]}
context: "Is {{ x }} [MASK] than {{ y }}?"
candidates: [smaller, larger]
answer: "{{ 'smaller' if x < y else 'larger' }}"
"""


def test_check_probe_suites_are_checked_like_paradigms(tmp_path, mini_lexicon) -> None:
    (tmp_path / "tiny_probe.yaml").write_text(SUITE)
    report = check_paradigms((tmp_path,), mini_lexicon, n=10, attempts=50)
    assert report.ok and report.summary() == "1 probe suites OK", report.lines()
    report = check_paradigms((tmp_path,), mini_lexicon, n=500, attempts=200)
    assert report.lines() == [
        f"{tmp_path}/tiny_probe.yaml:6: slots: too small a space for 500 items: about 71 "
        "unique items (estimated from 200 samples)"
    ]


@pytest.mark.parametrize(
    "change, expected",
    [
        (("min: 1, max: 9, distinct", "min: 20, max: 9, distinct"), ":8: slots.y: "),
        (("'smaller' if", "'tiny' if"), ":11: answer: the answer rendered as 'tiny'"),
    ],
)
def test_check_probe_suite_problems_are_located(tmp_path, mini_lexicon, change, expected) -> None:
    (tmp_path / "tiny_probe.yaml").write_text(SUITE.replace(*change))
    report = check_paradigms((tmp_path,), mini_lexicon, n=10, attempts=50)
    assert not report.ok and report.lines()[0].startswith(f"{tmp_path}/tiny_probe.yaml{expected}"), report.lines()
