"""Colorless relaxation of formulas: semantic literals hold where they stand, grammar stays."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blimpgen.vocab import load_lexicon, query
from blimpgen.vocab.modes import FALSE, PLAUSIBILITY_FEATURES, TRUE, colorless_lexicon, relax, relaxed_literals


@pytest.mark.parametrize(
    ("formula", "relaxed", "dropped"),
    [
        ("(N and (human or domestic=pet)) or PN", "N or PN", ["domestic=pet"]),
        (
            "N and plural_type=regular and not class=group,institution and fits(lex.arg1)",
            "N and plural_type=regular and not class=group,institution",
            ["fits(lex.arg1)"],
        ),
        ("N and not animate and not fits(verb.arg1)", "N and not animate", ["fits(verb.arg1)"]),
        ("V and reflexive and takes(arg2, subj)", "V and reflexive", ["takes(arg2, subj)"]),
        ("N and number=sg and place = where.place", "N and number=sg", ["place=where.place"]),
        ("N and lemma != leaf.ancestors", "N", ["lemma!=leaf.ancestors"]),
        ("N and not (domestic=pet and human)", "N", ["domestic=pet"]),  # the relaxed literal is false here
        ("N and not (domestic=pet or human)", "N and not human", ["domestic=pet"]),
        ("gender ~ subj.gender and number = subj.number", "gender ~ subj.gender and number = subj.number", []),
    ],
)
def test_modes_relax_drops_only_semantic_literals(formula: str, relaxed: str, dropped: list[str]) -> None:
    node = query.parse(formula)
    assert relax(node) == query.parse(relaxed)
    assert relaxed_literals(node) == dropped


@pytest.mark.parametrize(
    ("formula", "constant"),
    [
        ("fits(v.arg2)", TRUE),
        ("not fits(v.arg2)", TRUE),
        ("takes(arg1, s) or V", TRUE),
        ("not (domestic=pet and V)", TRUE),
    ],
)
def test_modes_relax_to_constants(formula: str, constant: query.Node) -> None:
    assert relax(query.parse(formula)) == constant


def test_modes_constants_evaluate_in_both_evaluators() -> None:
    lexicon = load_lexicon()
    word = lexicon.words[0]
    assert lexicon.index.evaluate(TRUE, None) == lexicon.index.all and lexicon.index.evaluate(FALSE, None) == 0
    categories = lexicon.categories
    assert query.compile_formula(TRUE, categories)(word, None)
    assert not query.compile_formula(FALSE, categories)(word, None)


def test_modes_plausibility_features_are_declared() -> None:
    features = load_lexicon().inventory.features
    assert PLAUSIBILITY_FEATURES <= set(features)
    # Features with a grammatical reflex stay (see blimpgen.vocab.modes).
    assert not PLAUSIBILITY_FEATURES & {
        "animate",
        "human",
        "gender",
        "class",
        "number",
        "mass",
        "frames",
        "obligatory_object",
        "never_transitive",
        "reflexive",
        "scene",
        "habitual",
    }


ATOMS = st.sampled_from(
    [
        "N",
        "V",
        "PN",
        "human",
        "animate",
        "mass",
        "number=sg",
        "domestic=pet",
        "class=food",
        "taxon=bird",
        "size=small",
        "place=in",
        "isa",
        "occupation=medicine",
        "gender=m,f",
    ]
)


def formulas() -> st.SearchStrategy[str]:
    return st.recursive(
        ATOMS,
        lambda inner: st.one_of(
            st.tuples(inner, inner).map(lambda ab: f"({ab[0]} and {ab[1]})"),
            st.tuples(inner, inner).map(lambda ab: f"({ab[0]} or {ab[1]})"),
            inner.map(lambda a: f"not {a}"),
        ),
        max_leaves=6,
    )


@given(formula=formulas())
def test_modes_relax_accepts_a_superset_and_mentions_no_semantics(formula: str) -> None:
    lexicon = load_lexicon()
    node = query.parse(formula)
    relaxed = relax(node)
    before, after = lexicon.index.evaluate(node, None), lexicon.index.evaluate(relaxed, None)
    assert before & ~after == 0, f"{formula}: relaxing lost words"
    assert relaxed_literals(relaxed) == []
    if not relaxed_literals(node):
        assert relaxed == node


def test_modes_colorless_view_shares_words() -> None:
    lexicon = load_lexicon()
    view = colorless_lexicon(lexicon)
    assert view.mode == "colorless" and lexicon.mode == "default"
    assert view.words is lexicon.words and view.fingerprint == lexicon.fingerprint
