"""Lexicon rows are checked against the inventory; forms are derived; queries work."""

from __future__ import annotations

from pathlib import Path

import pytest

from blimpgen.errors import SpecErrors
from blimpgen.vocab import build_lexicon, load_inventory

BAD_ROWS = [
    ("cat\tN\tanimat", "x.tsv:1: animat: unknown feature; did you mean 'animate'?"),
    ("cat\tNN\tanimate", "x.tsv:1: category: unknown category 'NN'"),
    ("cat\tN", None),  # two columns is fine: no features
    ("cat\tN\tclass=aminal", "x.tsv:1: class: class has no value 'aminal'"),
    ("cat\tN\tanimate; animate", "x.tsv:1: animate: feature written twice"),
    ("cat\tN\tpast=catted", "x.tsv:1: past: feature not allowed on N"),
    ("cat\tN\tplural_type=regular", "x.tsv:1: plural_type: derived feature"),
    ("cat\tN\thuman", "x.tsv:1: human: human implies animate"),
    ("eat\tV\targ1=animat", "x.tsv:1: arg1: unknown category or feature 'animat'"),
    ("eat\tV\targ1=(animate", "x.tsv:1: arg1: expected ')'"),
    ("eat\tV\tplural", "x.tsv:1: plural: feature not allowed on V"),
    ("eat\tV\tpast", "x.tsv:1: past: form feature needs a value"),
    ("cat\tN\tanimate\textra", "x.tsv:1: expected 3 TAB-separated columns"),
    ("cat\tN\tplural=two words", "x.tsv:1: plural: plural needs a single word"),
]


@pytest.mark.parametrize("row,message", BAD_ROWS)
def test_lexicon_bad_rows_name_file_line_feature(row: str, message: str | None) -> None:
    if message is None:
        assert len(build_lexicon([("x.tsv", row)], load_inventory())) == 2
        return
    with pytest.raises(SpecErrors) as info:
        build_lexicon([("x.tsv", row)], load_inventory())
    assert message in str(info.value)


def test_lexicon_reports_every_error_at_once() -> None:
    text = "# comment\ncat\tN\tanimat\n\ndog\tN\tclass=aminal\n"
    with pytest.raises(SpecErrors) as info:
        build_lexicon([("x.tsv", text)], load_inventory())
    assert [e.line for e in info.value.errors] == [2, 4]


def test_lexicon_duplicate_entries_are_errors() -> None:
    with pytest.raises(SpecErrors, match="duplicate entry N:cat:sg"):
        build_lexicon([("x.tsv", "cat\tN\t\ncat\tN\t")], load_inventory())


def test_lexicon_forms_irregular_wins(mini_lexicon) -> None:
    mouse = mini_lexicon.by_id["N:mouse:pl"]
    assert mouse.text == "mice" and mouse.get("plural_type") == "irregular"
    assert mini_lexicon.by_id["N:cat:pl"].text == "cats"
    assert mini_lexicon.by_id["V:eat:past"].text == "ate"
    assert mini_lexicon.by_id["V:eat:en"].text == "eaten"
    assert mini_lexicon.by_id["V:eat:pres_sg"].text == "eats"
    assert mini_lexicon.by_id["V:eat:ing"].text == "eating"
    assert mini_lexicon.by_id["V:eat:bare"].get("distinct_en") is True
    assert mini_lexicon.by_id["V:cut:bare"].get("syncretic_past") is True
    assert "N:water:pl" not in mini_lexicon.by_id  # mass nouns have one form


def test_lexicon_derived_features(mini_lexicon) -> None:
    # Argument-structure classes are written by hand, never inferred from the listed frames:
    # see (transitive frame only) is not obligatory_object, sleep (intransitive only) is not never_transitive.
    assert mini_lexicon.by_id["V:admire:bare"].get("obligatory_object") is True
    assert mini_lexicon.by_id["V:see:bare"].get("obligatory_object") is False
    assert mini_lexicon.by_id["V:arrive:bare"].get("never_transitive") is True
    assert mini_lexicon.by_id["V:sleep:bare"].get("never_transitive") is False
    assert "strict_transitive" not in mini_lexicon.inventory.features
    assert mini_lexicon.by_id["N:book:sg"].get("gender") == "n"
    assert mini_lexicon.by_id["N:teacher:sg"].get("gender") is None
    assert mini_lexicon.by_id["N:cat:sg"].get("human") is False


def test_lexicon_select_api(mini_lexicon) -> None:
    plural_animates = mini_lexicon.select(category="N", number="pl", animate=True)
    assert plural_animates and all(w.get("number") == "pl" and w.get("animate") for w in plural_animates)
    assert {w.text for w in mini_lexicon.select(where="D and demonstrative", number="pl")} == {"these", "those"}
    assert mini_lexicon.select(category="N", mass=True) == [mini_lexicon.by_id["N:water:sg"]]


def test_lexicon_other_form(mini_lexicon) -> None:
    lx = mini_lexicon
    assert lx.other_form(lx.by_id["D:this:this"], number="*other*").text == "these"
    assert lx.other_form(lx.by_id["AUX:be:was"], number="*other*").text == "were"
    assert lx.other_form(lx.by_id["AUX:be:isn't"], number="*other*").text == "aren't"
    assert lx.other_form(lx.by_id["V:eat:pres_pl"], number="*other*").text == "eats"
    assert lx.other_form(lx.by_id["AUX:have:had"], number="*other*") is None
    assert lx.other_form(lx.by_id["N:water:sg"], number="*other*") is None


def test_lexicon_fingerprint_changes_with_data(tmp_path: Path) -> None:
    a = build_lexicon([("x.tsv", "cat\tN\tanimate")], load_inventory())
    b = build_lexicon([("x.tsv", "cat\tN\tanimate; frequent")], load_inventory())
    assert a.fingerprint != b.fingerprint and len(a.fingerprint) == 12
