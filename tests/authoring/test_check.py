"""The sampling checks behind ``blimpgen check`` (the CLI side is in tests/cli/test_author_cli.py)."""

from __future__ import annotations

import math
import random

import pytest

from blimpgen.authoring.check import check_paradigms, estimate_capacity, spec_files
from blimpgen.errors import SpecErrors


@pytest.mark.parametrize("population", [10, 50, 400])
def test_check_estimate_capacity_recovers_population(population: int) -> None:
    rng = random.Random(population)
    draws = 300
    unique = len({rng.randrange(population) for _ in range(draws)})
    assert 0.6 * population <= estimate_capacity(draws, unique) <= 1.6 * population


def test_check_estimate_capacity_without_repeats_is_unbounded() -> None:
    assert estimate_capacity(300, 300) == math.inf


def test_check_missing_path_is_an_error() -> None:
    with pytest.raises(SpecErrors, match="no/such: no such file or folder"):
        spec_files(("no/such",))


def test_check_slot_that_never_fills(tmp_path, mini_lexicon) -> None:
    (tmp_path / "never.yaml").write_text(
        "uid: never\nfield: syntax\nlinguistics_term: t\ndescription: d\ncontrast: [noun]\nslots:\n"
        "  noun: {kind: word, where: \"N and mass and not mass\"}\ngood: '{{ noun }}.'\nbad: '{{ noun }} x.'\n")
    report = check_paradigms((tmp_path,), mini_lexicon, n=10, attempts=20)
    assert report.lines() == [f"{tmp_path}/never.yaml:7: slots.noun: no lexicon entry satisfies this slot's "
                              f"constraints in 20 attempts (check features and references)"]
