"""Every bad-spec fixture fails with its expected one-line ``file:line: key: message``."""

from __future__ import annotations

from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError, SpecErrors
from blimpgen.generators import build_paradigm
from blimpgen.grammar.loader import load_spec_file, load_specs

BAD = Path(__file__).resolve().parents[1] / "fixtures" / "bad_specs"

EXPECTED = {
    "agreeing_without_subject": ":11: slots.verb.agreeing: agreeing: true needs a subject",
    "bad_contrast": ":8: contrast[0]: 'nuon' is neither a slot nor a word of the good or bad template; "
                    "did you mean 'noun'?",
    "bad_field": ":2: field: Input should be 'morphology', 'syntax'",
    "bad_param_value": ":11: slots.verb.negation: Input should be 'never', 'optional' or 'always'",
    "bad_slot_name": ":9: slots: slot name '2dem' must be an identifier",
    "duplicate_key": ":15: good: duplicate key 'good' (first written on line 14)",
    "formula_syntax": ":10: slots.subj.head: expected ')', found end of formula in '(N and animate or PN'",
    "forward_reference": ":12: slots.noun.where: unknown slot 'dem' in dem.number",
    "jinja_syntax": ":14: good: template syntax error: unexpected '}'",
    "method_without_block": ":6: one_prefix_method: true needs a one_prefix block of templates",
    "missing_good": ":1: good: missing required key 'good'",
    "not_a_mapping": ":1: a paradigm spec must be a YAML mapping",
    "takes_non_formula": ":12: slots.noun.where: takes() needs a formula feature, not 'animate'",
    "undeclared_variable": ":15: bad: undeclared template variable 'nuon'; did you mean 'noun'?",
    "unknown_feature": ":12: slots.noun.where: unknown category or feature 'animat'; did you mean 'animate'?",
    "unknown_filter": ":15: bad: unknown filter 'flipp'; did you mean 'flip'?",
    "unknown_kind": ":13: slots.dem.kind: unknown slot kind 'wrod'; did you mean 'word'?",
    "unknown_parameter": ":13: slots.dem.wher: unknown parameter 'wher' for kind word; did you mean 'where'?",
    "unknown_top_key": ":4: descripton: unknown key 'descripton'; did you mean 'description'?",
    "unknown_value": ":12: slots.noun.where: plural_type has no value 'regulr'; did you mean 'regular'",
    "unused_slot": ":14: slots.adj: slot 'adj' is used by no template and no other slot",
    "wrong_type": ":5: simple_LM_method: Input should be a valid boolean",
    "yaml_syntax": ":12: YAML syntax error:",
}


def test_bad_specs_every_fixture_has_an_expectation() -> None:
    names = {p.stem for p in BAD.glob("*.yaml")} - {"uid_mismatch"}
    assert names == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_specs_message(name: str, mini_lexicon) -> None:
    path = BAD / f"{name}.yaml"
    with pytest.raises(BlimpgenError) as info:
        build_paradigm(load_spec_file(path), mini_lexicon)
    lines = str(info.value).splitlines()
    expected = f"{path}{EXPECTED[name]}"
    assert any(line.startswith(expected) for line in lines), (expected, lines)
    assert all(line.startswith(str(path)) for line in lines)  # one located line per problem


def test_bad_specs_uid_must_match_file_name(tmp_path: Path) -> None:
    (tmp_path / "uid_mismatch.yaml").write_text((BAD / "uid_mismatch.yaml").read_text())
    with pytest.raises(SpecErrors, match=r"uid_mismatch.yaml:1: uid: uid 'some_other_uid' must match"):
        load_specs((tmp_path,))


def test_bad_specs_duplicate_uid_across_folders(tmp_path: Path) -> None:
    shipped = next((Path(__file__).resolve().parents[2] / "src/blimpgen/grammar/paradigms").rglob(
        "determiner_noun_agreement_1.yaml"))
    (tmp_path / shipped.name).write_text(shipped.read_text())
    with pytest.raises(SpecErrors, match="duplicate UID 'determiner_noun_agreement_1'"):
        load_specs((tmp_path,))
