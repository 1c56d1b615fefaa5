"""Balanced factorial designs: every cell equally often, each pair recording its levels."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from blimpgen.errors import OptionError
from blimpgen.generators.catalog import Catalog
from blimpgen.generators.design import balanced
from blimpgen.generators.generate import generate_records

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
UID = "agreement_attractor_factors"


@cache
def paradigm():
    return Catalog([EXAMPLES]).build([UID])[0]


def test_design_full_is_balanced_and_records_levels() -> None:
    source = balanced(paradigm())
    made = list(generate_records(source, 6 * 25, seed=3))
    cells = [tuple(pair.levels.items()) for pair, _ in made]
    assert set(Counter(cells).values()) == {25} and len(Counter(cells)) == 6
    assert cells[:6] == [tuple(levels.items()) for levels in paradigm().design.cells.values()]  # cells take turns
    assert [pair.pair_id for pair, _ in made] == [f"{UID}-{i:05d}" for i in range(150)]
    for pair, bindings in made:
        fields = {"sentence_good": pair.sentence_good, "sentence_bad": pair.sentence_bad}
        assert source.violations(bindings) == [] and source.findings(bindings, fields) == [], pair
        has_rc = any(slot.startswith("rc.") for slot in pair.slots)
        attractor = "rc" if has_rc else "pp" if "att.head" in pair.slots else "none"
        assert attractor == pair.levels["attractor"]
        assert ("adj" in pair.slots) == (pair.levels["adjective"] == "present")


def test_design_is_reproducible() -> None:
    first = [p.to_dict() for p, _ in generate_records(balanced(paradigm()), 30, seed=1)]
    again = [p.to_dict() for p, _ in generate_records(balanced(paradigm()), 30, seed=1)]
    assert first == again


def test_design_without_balance_still_records_levels() -> None:
    pairs = [pair for pair, _ in generate_records(paradigm(), 60, seed=0)]
    assert all(pair.levels is not None for pair in pairs) and len({tuple(p.levels.items()) for p in pairs}) == 6


@pytest.mark.parametrize("uid", ["npi_present_1"])
def test_design_refuses_paradigms_without_factors(uid: str) -> None:
    with pytest.raises(OptionError, match=f"{uid} has no factors, so --design does not apply to it"):
        balanced(Catalog().build([uid])[0])


def test_design_example_passes_check() -> None:
    from blimpgen.authoring.check import check_paradigms

    report = check_paradigms((str(EXAMPLES),), n=200)
    assert report.ok, report.lines()
