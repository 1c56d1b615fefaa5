"""The constraint language: parsing, checking against the inventory, and evaluation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blimpgen.errors import SpecError
from blimpgen.vocab import load_inventory, query


@pytest.mark.parametrize(
    "text,expected",
    [
        ("N", ("test", "N", None, ())),
        ("not animate", ("not", ("test", "animate", None, ()))),
        ("class=food,drink", ("test", "class", "=", ("food", "drink"))),
        ("number = subj.number", ("test", "number", "=", (query.Ref(("subj", "number")),))),
        ("fits(verb.arg2)", ("fits", query.Ref(("verb", "arg2")))),
        ("takes(arg1, subj)", ("takes", "arg1", query.Ref(("subj",)))),
        (
            "N and (animate or mass)",
            ("and", ("test", "N", None, ()), ("or", ("test", "animate", None, ()), ("test", "mass", None, ()))),
        ),
    ],
)
def test_query_parse(text: str, expected: tuple) -> None:
    assert query.parse(text) == expected


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "empty formula"),
        ("N and", "expected more"),
        ("(N", "expected ')'"),
        ("N animate", "unexpected 'animate'"),
        ("subj.number = pl", "goes on the right"),
        ("N & animate", "unexpected '&"),
    ],
)
def test_query_parse_errors(text: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        query.parse(text)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "text,message",
    [
        ("animat", "did you mean 'animate'"),
        ("class=fod", "class has no value 'fod'"),
        ("plural", "is a form feature; compare it"),
        ("number = subj.number", "references (subj.number) are not allowed here"),
        ("takes(class, subj)", "takes() needs a formula feature"),
        ("category=X", "unknown category 'X'"),
    ],
)
def test_query_check_errors(text: str, message: str) -> None:
    problems = query.check(query.parse(text), load_inventory(), slots=None)
    assert any(message in p for p in problems), problems


def test_query_check_references_only_to_declared_slots() -> None:
    inventory = load_inventory()
    assert query.check(query.parse("number = subj.number"), inventory, ["subj"]) == []
    assert "unknown slot 'sbj'" in query.check(query.parse("number = sbj.number"), inventory, ["subj"])[0]


class FakeWord(dict):
    def get(self, name, default=None):  # noqa: D102 - mapping with Word's get semantics
        return super().get(name, default)


CATS = frozenset({"N", "V"})


def _eval(text: str, word: dict, bindings: dict | None = None) -> bool:
    predicate = query.compile_formula(query.parse(text), CATS)
    bindings = bindings or {}

    def resolve(ref: query.Ref):
        value = bindings.get(ref.path[0])
        for part in ref.path[1:]:
            value = None if value is None else value.get(part)
        return value

    return predicate(FakeWord(word), resolve)


def test_query_eval_sets_and_values() -> None:
    word = {"category": "N", "class": frozenset({"food", "artifact"}), "number": "pl", "animate": False}
    assert _eval("N and class=food", word)
    assert _eval("class=drink,artifact", word)
    assert not _eval("class=drink", word)
    assert _eval("not animate", word)
    assert _eval("animate=false", word)
    assert not _eval("V", word)


def test_query_eval_compatible_operator_allows_missing_features() -> None:
    subj = FakeWord({"number": "sg"})
    assert _eval("gender ~ subj.gender", {"gender": "m"}, {"subj": subj})
    assert _eval("gender ~ subj.gender", {}, {"subj": FakeWord({"gender": "f"})})
    assert not _eval("gender ~ subj.gender", {"gender": "m"}, {"subj": FakeWord({"gender": "f"})})
    assert not _eval("gender = subj.gender", {"gender": "m"}, {"subj": subj})
    assert _eval("gender != subj.gender", {"gender": "m"}, {"subj": subj})


def test_query_eval_flag_of_an_earlier_slot() -> None:
    assert query.parse("not noun.animate") == ("not", ("flag", query.Ref(("noun", "animate"))))
    assert _eval("noun.animate", {}, {"noun": FakeWord({"animate": True})})
    assert not _eval("noun.animate", {}, {"noun": FakeWord({"animate": False})})
    assert _eval("not noun.animate", {}, {"noun": FakeWord({})})


def test_query_eval_fits_and_takes() -> None:
    verb = FakeWord({"category": "V", "arg2": "class=food", "arg1": "animate"})
    cake = FakeWord({"category": "N", "class": frozenset({"food"})})
    cat = FakeWord({"category": "N", "animate": True})
    assert _eval("fits(verb.arg2)", cake, {"verb": verb})
    assert not _eval("fits(verb.arg2)", cat, {"verb": verb})
    assert _eval("takes(arg1, subj)", verb, {"subj": cat})
    assert not _eval("takes(arg1, subj)", verb, {"subj": cake})
    assert not _eval("fits(verb.arg3)", cake, {"verb": verb})  # missing formula never fits


@given(
    st.lists(st.sampled_from(["animate", "mass", "N", "not human", "class=food"]), min_size=1, max_size=6),
    st.sampled_from([" and ", " or "]),
)
def test_query_parse_is_stable_for_generated_formulas(atoms: list[str], joiner: str) -> None:
    text = joiner.join(atoms)
    node = query.parse(text)
    assert query.refs(node) == []
    static, dynamic = query.split_static(node)
    assert dynamic == [] and static
