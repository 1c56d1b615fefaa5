"""Balanced factorial designs: every cell equally often, each pair recording its levels."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blimpgen.errors import OptionError
from blimpgen.generators.catalog import Catalog
from blimpgen.generators.design import balanced
from blimpgen.generators.generate import generate_records
from blimpgen.generators.source import slot_violations

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


# ----------------------------------------------------------------------------- shipped designs
DESIGNS = [
    "determiner_noun_agreement_adjective",
    "filler_gap_depth",
    "npi_licensor_distance",
    "subject_verb_agreement_attractor_distance",
    "subject_verb_agreement_plausibility",
]
PREPOSITIONS = {"near", "behind", "beside", "next"}
ADVERBS = {"probably", "certainly", "clearly", "really"}


@cache
def shipped(uid: str):
    return Catalog().build([uid])[0]


def levels_in_text(uid: str, pair) -> dict[str, str]:
    """The levels a pair's sentences show, read from the words alone (each design's own reading)."""
    good, bad = pair.sentence_good.rstrip(".?").split(), pair.sentence_bad.rstrip(".?").split()
    if uid.startswith("subject_verb_agreement"):
        after_head = good[2]  # The HEAD ...
        shown = {"attractor": "rc" if after_head == "that" else "pp" if after_head in PREPOSITIONS else "none"}
        if uid.endswith("distance"):
            shown["distance"] = "separated" if ADVERBS & set(good) else "adjacent"
        else:
            shown["meaning"] = "colorless" if pair.lexicon_mode == "colorless" else "plausible"
        return shown
    if uid == "determiner_noun_agreement_adjective":
        demonstrative = max(i for i, word in enumerate(good) if word in {"this", "that", "these", "those"})
        return {
            "number": "singular" if good[demonstrative] in {"this", "that"} else "plural",
            "adjective": "present" if len(good) - demonstrative == 3 else "absent",
        }
    if uid == "npi_licensor_distance":
        assert "ever" in good and "ever" in bad and "not" in good and "not" not in bad
        return {"licensor": "same_clause" if good[good.index("not") + 1] == "ever" else "clause_up"}
    assert uid == "filler_gap_depth"
    assert good[good.index(next(w for w in good if w in {"who", "what"}))] in {"who", "what"}
    return {"depth": ["zero", "one", "two"][good.count("that")]}  # the bridges' complementizers


def test_design_shipped_designs_stay_out_of_blimp() -> None:
    from blimpgen.grammar import ParadigmSpec, load_shipped_designs, load_shipped_specs

    catalog = Catalog()
    assert catalog.design_names() == DESIGNS == sorted(load_shipped_designs())
    assert not set(DESIGNS) & set(catalog.names()) and len(catalog.names(ParadigmSpec)) == 67
    assert not set(DESIGNS) & set(load_shipped_specs())
    for uid in DESIGNS:
        assert catalog.get(uid).design is not None and catalog.get(uid).file.startswith("grammar/designs/")


@pytest.mark.parametrize("uid", DESIGNS)
def test_design_shipped_cells_are_what_their_text_shows(uid: str) -> None:
    source = balanced(shipped(uid))
    made = list(generate_records(source, 20 * source.cells, seed=5))
    assert set(Counter(tuple(pair.levels.items()) for pair, _ in made).values()) == {20}
    for pair, bindings in made:
        fields = {"sentence_good": pair.sentence_good, "sentence_bad": pair.sentence_bad}
        assert source.violations(bindings) == [] and source.findings(bindings, fields) == [], pair
        assert levels_in_text(uid, pair) == pair.levels, pair


@settings(max_examples=10)
@given(uid=st.sampled_from(DESIGNS), per_cell=st.integers(1, 4), seed=st.integers(0, 2**31), subset=st.booleans())
def test_design_balanced_for_any_n_and_seed(uid: str, per_cell: int, seed: int, subset: bool) -> None:
    """Every cell (of the chosen ones) equally often, whatever n and seed; each pair's levels are
    the ones its words show; prefixes are as balanced as they can be."""
    paradigm = shipped(uid)
    factor, levels = paradigm.design.factors[0]
    chosen = {factor: list(levels[:2])} if subset else None
    source = balanced(paradigm, chosen)
    assert source.cells == len(paradigm.bodies) // len(levels) * (2 if subset else len(levels))
    made = [pair for pair, _ in generate_records(source, per_cell * source.cells, seed)]
    counts = Counter(tuple(pair.levels.items()) for pair in made)
    assert len(counts) == source.cells and set(counts.values()) == {per_cell}
    assert all(pair.levels[factor] in levels[:2] for pair in made) or not subset
    first = Counter(tuple(pair.levels.items()) for pair in made[: source.cells])
    assert set(first.values()) == {1}
    for pair in made:
        assert levels_in_text(uid, pair) == pair.levels, pair


def test_design_subset_order_and_errors() -> None:
    from blimpgen.generators.design import parse_design

    paradigm = shipped("subject_verb_agreement_attractor_distance")
    source = balanced(paradigm, parse_design(["full", "attractor=rc,none", "distance=separated"]))
    made = [pair.levels for pair, _ in generate_records(source, 4, seed=0)]
    assert made == [{"attractor": "none", "distance": "separated"}, {"attractor": "rc", "distance": "separated"}] * 2
    assert parse_design(["full"]) == {} and parse_design(["a=x", "a=y,x"]) == {"a": ["x", "y"]}
    for values, message in [
        (["attractor"], "--design takes full or FACTOR=LEVEL,LEVEL (e.g. attractor=none,pp), got 'attractor'"),
        (["attractor="], "got 'attractor='"),
    ]:
        with pytest.raises(OptionError, match=re.escape(message)):
            parse_design(values)
    with pytest.raises(OptionError, match="has no factor 'atractor'; did you mean 'attractor'"):
        balanced(paradigm, {"atractor": ["pp"]})
    with pytest.raises(OptionError, match="factor 'attractor' has no level 'p'; did you mean 'pp'"):
        balanced(paradigm, {"attractor": ["p"]})


def test_design_plausibility_cells_choose_their_lexicon() -> None:
    """The colorless cells sample from the colorless view (meaning-free pairs the default lexicon
    refuses), record it, and keep the grammar; the plausible cells are the default lexicon's."""
    paradigm = shipped("subject_verb_agreement_plausibility")
    modes = {body.variant.name: body.lexicon.mode for body in paradigm.bodies}
    assert modes == {name: "colorless" if "meaning=colorless" in name else "default" for name in modes}
    plain = Catalog().build(["subject_verb_agreement_attractor_distance"])[0]
    made = list(generate_records(balanced(paradigm), 6 * 30, seed=2))
    relaxed = 0
    for pair, bindings in made:
        assert pair.lexicon_mode == ("colorless" if pair.levels["meaning"] == "colorless" else None)
        fields = {"sentence_good": pair.sentence_good, "sentence_bad": pair.sentence_bad}
        assert paradigm.violations(bindings) == [] and paradigm.findings(bindings, fields) == [], pair
        if pair.levels["meaning"] == "colorless" and pair.levels["attractor"] == "none":
            twin = plain.bodies[0]  # attractor=none,distance=adjacent: the same slots, the default lexicon
            relaxed += bool(slot_violations(twin.slots, bindings))
    assert relaxed >= 20  # of 30: most colorless pairs break a selectional restriction


def test_design_several_paradigms_share_the_chosen_factors() -> None:
    from blimpgen.generators.design import balanced_all

    sources = [shipped("filler_gap_depth"), shipped("subject_verb_agreement_attractor_distance")]
    depth, agreement = balanced_all(sources, {"attractor": ["pp"]})
    assert (depth.cells, agreement.cells) == (3, 2)  # no attractor factor: every cell
    with pytest.raises(OptionError, match="no paradigm given has a factor 'atractor'; did you mean 'attractor'"):
        balanced_all(sources, {"atractor": ["pp"]})
    with pytest.raises(OptionError, match="has no factor 'atractor'; did you mean 'attractor'"):
        balanced_all(sources[1:], {"atractor": ["pp"]})
