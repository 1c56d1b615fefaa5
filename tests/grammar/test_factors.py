"""Factors in the spec language: expansion into one branch per cell, with located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from blimpgen.errors import SpecErrors
from blimpgen.grammar.loader import parse_spec

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "agreement_attractor_factors.yaml"

SMALL = """\
uid: small
field: morphology
linguistics_term: subject_verb_agreement
description: d
contrast: [verb]
formulas:
  count_noun: "N and not mass"
slots:
  head: {kind: word, where: "N and plural_type=regular"}
  verb: {kind: verb_group, verb: "frames=intransitive", subject: head, agreeing: true}
factors:
  attractor:
    none: {}
    pp:
      slots:
        att: {kind: dp, head: "@count_noun and number != head.number", distinct: [head]}
      text: "near {{ att }}"
good: "The {{ head }} {{attractor}} {{ verb }}."
bad: "The {{ head }} {{ attractor }} {{ verb | flip('number') }}."
"""


def test_factors_expand_into_one_branch_per_cell() -> None:
    loaded = parse_spec(EXAMPLE.read_text(), "example.yaml")
    design, spec = loaded.design, loaded.spec
    assert design.factors == (("attractor", ("none", "pp", "rc")), ("adjective", ("absent", "present")))
    assert list(design.cells) == [
        f"attractor={a},adjective={b}" for a in ("none", "pp", "rc") for b in ("absent", "present")
    ]
    assert design.cells["attractor=rc,adjective=present"] == {"attractor": "rc", "adjective": "present"}
    cell = spec.branches["attractor=rc,adjective=present"]
    assert list(cell.slots) == ["head", "verb", "args", "att", "rc", "adj"]
    assert cell.good == "The {{ adj }} {{ head }} that {{ att }} {{ rc }} {{ verb }} {{ args }}."
    assert spec.branches["attractor=none,adjective=absent"].good == "The  {{ head }}  {{ verb }} {{ args }}."
    assert spec.slots == {} and spec.contrast == ["verb"]


def test_factors_formulas_and_spacing() -> None:
    loaded = parse_spec(SMALL, "small.yaml")
    cell = loaded.spec.branches["attractor=pp"]
    assert cell.slots["att"]["head"] == "(N and not mass) and number != head.number"
    assert cell.good == "The {{ head }} near {{ att }} {{ verb }}."


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("good:", "branches: {b: {good: x, bad: y}}\ngood:"),
            "small.yaml:18: branches: give factors or branches, not both",
        ),
        (
            ("    pp:\n      slots:", "    pp:\n      colour: red\n      slots:"),
            "small.yaml:14: factors.attractor.pp: a level has slots, text and lexicon only, not ['colour']",
        ),
        (
            ("    none: {}\n", "    none: {lexicon: nonce}\n"),
            "small.yaml:13: factors.attractor.none.lexicon: lexicon: one of default, colorless, "
            "not 'nonce' (nonce words depend on the seed: use gen --lexicon-mode nonce)",
        ),
        (
            ("good:", "  meaning: {plausible: {}, colorless: {lexicon: colorless}}\ngood:"),
            "small.yaml:18: factors.meaning.colorless.lexicon: factor 'attractor' already chooses the lexicon",
        ),
        (("    none: {}\n    pp:", "    pp:"), "small.yaml:12: factors.attractor: a factor needs at least two levels"),
        (
            ("  attractor:", "  head:"),
            "small.yaml:12: factors.head: factor name 'head' must be an identifier that is not a slot",
        ),
    ],
)
def test_factors_errors_are_located(change: tuple[str, str], message: str) -> None:
    text = SMALL.replace(*change)
    if "meaning:" in text:  # two factors that choose the lexicon
        text = text.replace("    none: {}\n", "    none: {lexicon: default}\n")
    assert text != SMALL
    with pytest.raises(SpecErrors) as caught:
        parse_spec(text, "small.yaml")
    assert any(str(error).startswith(message) for error in caught.value.errors), [str(e) for e in caught.value.errors]


def test_factors_level_chooses_the_lexicon_of_its_cells() -> None:
    text = SMALL.replace("good:", "  meaning: {plausible: {}, colorless: {lexicon: colorless}}\ngood:")
    design = parse_spec(text, "small.yaml").design
    assert design.lexicon_factor == "meaning"
    assert design.lexicons == {
        "attractor=none,meaning=plausible": "default",
        "attractor=none,meaning=colorless": "colorless",
        "attractor=pp,meaning=plausible": "default",
        "attractor=pp,meaning=colorless": "colorless",
    }
    assert design.matching({"meaning": ["colorless"]}) == [
        "attractor=none,meaning=colorless",
        "attractor=pp,meaning=colorless",
    ]
    assert parse_spec(SMALL, "small.yaml").design.lexicons == {}


def test_factors_slot_errors_point_at_the_level() -> None:
    from blimpgen.generators.catalog import build_source
    from blimpgen.vocab import load_lexicon

    loaded = parse_spec(SMALL.replace("number != head.number", "numbr != head.number"), "small.yaml")
    with pytest.raises(SpecErrors) as caught:
        build_source(loaded, load_lexicon())
    assert str(caught.value.errors[0]).startswith("small.yaml:16: ")  # the line of the level's slot
    assert "unknown feature 'numbr'; did you mean 'number'?" in str(caught.value.errors[0])
