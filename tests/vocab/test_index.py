"""The bitset index computes exactly what the reference closures compute.

The lexicon is mini.tsv plus relations.tsv, so the generated formulas also cover relation
features (bare ``isa``, ``lemma = subj.isa``, ``isa != subj.lemma``, references to adjectives'
antonyms) and the ordinal ``size``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from blimpgen.vocab import query
from blimpgen.vocab.index import nth_set_bit, positions

ATOMS = [
    "N",
    "V",
    "PN",
    "animate",
    "human",
    "mass",
    "class=food",
    "class=food,artifact",
    "number=pl",
    "gender=m",
    "gender != subj.gender",
    "gender ~ subj.gender",
    "number = subj.number",
    "fits(verb.arg2)",
    "takes(arg1, subj)",
    "subj.animate",
    "lemma != subj.lemma",
    "plural_type=regular",
    "vform=past",
    "frames=transitive",
    # relation features: bare (has one), compared with lemmas, referenced both ways, derived ancestors
    "isa",
    "antonym",
    "synonym",
    "isa=bird",
    "isa=bird,boat",
    "lemma = subj.isa",
    "isa = subj.lemma",
    "isa != subj.lemma",
    "isa ~ subj.isa",
    "ancestors = subj.lemma",
    "lemma != subj.ancestors",
    "subj.isa",
    "not subj.ancestors",
    "antonym = adj.lemma",
    "lemma = adj.synonym",
    "adj.antonym",
    "size=tiny,small",
    "size = subj.size",
    "size ~ subj.size",
]


@st.composite
def formulas(draw, depth: int = 0) -> str:
    if depth > 2 or draw(st.booleans()):
        return draw(st.sampled_from(ATOMS))
    op = draw(st.sampled_from(["and", "or", "not"]))
    if op == "not":
        return f"not ({draw(formulas(depth + 1))})"
    return f"({draw(formulas(depth + 1))}) {op} ({draw(formulas(depth + 1))})"


@settings(max_examples=150)
@given(formula=formulas(), subj_index=st.integers(0, 80), verb_index=st.integers(0, 40), adj_index=st.integers(0, 20))
def test_index_matches_closures(
    relations_lexicon, formula: str, subj_index: int, verb_index: int, adj_index: int
) -> None:
    lx = relations_lexicon
    nouns, verbs, adjectives = lx.category("N") + lx.category("PN"), lx.category("V"), lx.category("A")
    bindings = {
        "subj": nouns[subj_index % len(nouns)],
        "verb": verbs[verb_index % len(verbs)],
        "adj": adjectives[adj_index % len(adjectives)],
    }

    def resolve(ref: query.Ref):
        value = bindings.get(ref.path[0])
        for part in ref.path[1:]:
            value = None if value is None else value.get(part)
        return value

    node = query.parse(formula)
    predicate = query.compile_formula(node, lx.categories)
    expected = [i for i, w in enumerate(lx.words) if predicate(w, resolve)]
    assert positions(lx.index.evaluate(node, resolve)) == expected
    refs = list(dict.fromkeys(query.refs(node)))
    assert positions(lx.index.compile(node, refs)([resolve(ref) for ref in refs])) == expected


def test_index_positions_roundtrip() -> None:
    for indices in ([], [0], [1, 7, 8, 9, 63, 64, 1000]):
        bits = sum(1 << i for i in indices)
        assert positions(bits) == indices


@settings(max_examples=300)
@given(indices=st.sets(st.integers(0, 5000), min_size=1), data=st.data())
def test_index_nth_set_bit_is_the_nth_position(indices: set[int], data: st.DataObject) -> None:
    bits = sum(1 << i for i in indices)
    n = data.draw(st.integers(0, len(indices) - 1))
    assert nth_set_bit(bits, n) == sorted(indices)[n]


def test_index_takes_columns_equal_the_union_of_accepting_formulas(relations_lexicon) -> None:
    """The gathered column (one base-2 parse) gives the union of the groups whose formula accepts
    the word, as the plain loop over formulas does."""
    from blimpgen.vocab.index import _Columns

    index = relations_lexicon.index
    for feature in ("arg1", "arg2"):
        index._takes_bits(feature, relations_lexicon.words[0])  # prepares the feature's groups
        columns = _Columns(index, feature)
        assert columns.gather is not None
        plain = _Columns(index, feature)
        plain.gather = None
        for position in range(len(relations_lexicon.words)):
            assert columns.accepting(position) == plain.accepting(position)


def test_index_values_fast_paths_equal_the_word_by_word_scan(relations_lexicon) -> None:
    """Reading the feature dicts (and, for few values, translating codes) builds the same bitsets,
    in the same order, as asking each word."""
    from blimpgen.vocab.index import FeatureIndex

    lx = relations_lexicon
    fast = FeatureIndex(lx.words, lx.categories, lx.index.bool_features)
    plain = FeatureIndex(lx.words, lx.categories, lx.index.bool_features)
    plain._dicts = None
    for feature in [*lx.inventory.features, "category", "lemma", "text", "id", "no_such_feature"]:
        assert fast.values(feature) == plain.values(feature)
        assert list(fast.values(feature)[0]) == list(plain.values(feature)[0])


def test_index_prepared_equals_built_on_first_use(relations_lexicon) -> None:
    """``prepare`` (one pass over the words, before generation forks its workers) builds the same
    bitsets, in the same order, and the same takes tables as asking feature by feature."""
    from blimpgen.vocab.index import FeatureIndex

    lx = relations_lexicon
    prepared = FeatureIndex(lx.words, lx.categories, lx.index.bool_features)
    prepared.prepare(takes=["arg1", "arg2"])
    lazy = FeatureIndex(lx.words, lx.categories, lx.index.bool_features)
    assert prepared._values, "prepare built nothing"
    for feature in [*lx.inventory.features, *prepared._values, "category", "lemma", "no_such_feature"]:
        assert prepared.values(feature) == lazy.values(feature), feature
        assert list(prepared.values(feature)[0]) == list(lazy.values(feature)[0]), feature
    for feature in ("arg1", "arg2"):
        assert feature in prepared._columns
        for word in lx.words:
            assert prepared._takes_bits(feature, word) == lazy._takes_bits(feature, word)


def test_index_prepared_shipped_lexicon_equals_built_on_first_use() -> None:
    from blimpgen.vocab import load_lexicon
    from blimpgen.vocab.index import FeatureIndex

    lx = load_lexicon()
    prepared = FeatureIndex(lx.words, lx.categories, lx.index.bool_features)
    prepared.prepare()
    lazy = FeatureIndex(lx.words, lx.categories, lx.index.bool_features)
    assert len(prepared._values) > 50
    for feature in prepared._values:
        assert prepared.values(feature) == lazy.values(feature), feature
