"""The bitset index computes exactly what the reference closures compute."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from blimpgen.vocab import query
from blimpgen.vocab.index import positions

ATOMS = ["N", "V", "PN", "animate", "human", "mass", "class=food", "class=food,artifact", "number=pl",
         "gender=m", "gender != subj.gender", "gender ~ subj.gender", "number = subj.number",
         "fits(verb.arg2)", "takes(arg1, subj)", "subj.animate", "lemma != subj.lemma", "plural_type=regular",
         "vform=past", "frames=transitive"]


@st.composite
def formulas(draw, depth: int = 0) -> str:
    if depth > 2 or draw(st.booleans()):
        return draw(st.sampled_from(ATOMS))
    op = draw(st.sampled_from(["and", "or", "not"]))
    if op == "not":
        return f"not ({draw(formulas(depth + 1))})"
    return f"({draw(formulas(depth + 1))}) {op} ({draw(formulas(depth + 1))})"


@settings(max_examples=150)
@given(formula=formulas(), subj_index=st.integers(0, 40), verb_index=st.integers(0, 40))
def test_index_matches_closures(mini_lexicon, formula: str, subj_index: int, verb_index: int) -> None:
    lx = mini_lexicon
    nouns, verbs = lx.category("N") + lx.category("PN"), lx.category("V")
    bindings = {"subj": nouns[subj_index % len(nouns)], "verb": verbs[verb_index % len(verbs)]}

    def resolve(ref: query.Ref):
        value = bindings.get(ref.path[0])
        for part in ref.path[1:]:
            value = None if value is None else value.get(part)
        return value

    node = query.parse(formula)
    predicate = query.compile_formula(node, lx.categories)
    expected = [i for i, w in enumerate(lx.words) if predicate(w, resolve)]
    assert positions(lx.index.evaluate(node, resolve)) == expected


def test_index_positions_roundtrip() -> None:
    for indices in ([], [0], [1, 7, 8, 9, 63, 64, 1000]):
        bits = sum(1 << i for i in indices)
        assert positions(bits) == indices
