"""Relation features (isa, ancestors, antonym, synonym) and the ordinal size feature.

Three parts: the loader (load errors with ``file:line``, symmetric completion, the derived
closure), the constraint language (bare relations, lemma comparisons, closures and bitsets
agreeing), and checks of the shipped data that probe suites compute gold answers from.
"""

from __future__ import annotations

from collections import Counter

import pytest

from blimpgen.errors import LexiconError, SpecErrors
from blimpgen.vocab import build_lexicon, load_inventory, load_lexicon, query
from blimpgen.vocab.features import SIZE_ORDER, parse_inventory
from blimpgen.vocab.index import positions

# ----------------------------------------------------------------------------- loading

BAD_RELATIONS = [
    ("robin\tN\tisa=brid\nbird\tN\t", "x.tsv:1: isa: unknown N lemma 'brid'; did you mean 'bird'?"),
    ("robin\tN\tisa=hot\nhot\tA\t", "x.tsv:1: isa: unknown N lemma 'hot'"),  # the target category counts
    ("robin\tN\tisa=robin", "x.tsv:1: isa: 'robin' cannot be its own isa"),
    ("hot\tA\tantonym=hot", "x.tsv:1: antonym: 'hot' cannot be its own antonym"),
    (
        "hot\tA\tantonym=cold\ncold\tA\tsynonym=hot",
        "x.tsv:1: antonym: 'hot' and 'cold' are both antonym and synonym; a pair can only be one",
    ),
    ("a\tN\tisa=b\nb\tN\tisa=c\nc\tN\tisa=a", "x.tsv:1: isa: isa cycle: a -> b -> c -> a"),
    ("robin\tN\tisa", "x.tsv:1: isa: relation feature needs a value (isa=...)"),
    ("robin\tN\tisa=big bird", "x.tsv:1: isa: isa needs comma-separated N lemmas (isa=a,b), got 'big bird'"),
    ("robin\tN\tisa=bird,\nbird\tN", "x.tsv:1: isa: isa needs comma-separated N lemmas"),
    ("robin\tN\tancestors=bird\nbird\tN", "x.tsv:1: ancestors: derived feature"),
    ("hot\tA\tisa=cold\ncold\tA", "x.tsv:1: isa: feature not allowed on A"),
]


@pytest.mark.parametrize("text,message", BAD_RELATIONS)
def test_relations_load_errors_name_file_line_feature(text: str, message: str) -> None:
    with pytest.raises(SpecErrors) as info:
        build_lexicon([("x.tsv", text)], load_inventory())
    assert message in str(info.value)


def test_relations_every_error_is_reported_once() -> None:
    text = "a\tN\tisa=b\nb\tN\tisa=a\nc\tN\tisa=x,y\nhot\tA\tantonym=cold; synonym=cold\ncold\tA"
    with pytest.raises(SpecErrors) as info:
        build_lexicon([("x.tsv", text)], load_inventory())
    lines = str(info.value).splitlines()
    assert len(lines) == 4, lines
    assert sum("cycle" in line for line in lines) == 1


def test_relations_resolve_across_files() -> None:
    lx = build_lexicon([("a.tsv", "robin\tN\tisa=bird"), ("b.tsv", "bird\tN\tisa=animal\nanimal\tN")], load_inventory())
    assert lx.by_id["N:robin:pl"].get("ancestors") == frozenset({"bird", "animal"})


def test_relations_symmetric_completion(relations_lexicon) -> None:
    lx = relations_lexicon
    assert lx.by_id["A:cold:cold"].get("antonym") == frozenset({"hot"})  # written on hot only
    assert lx.by_id["A:chilly:chilly"].get("synonym") == frozenset({"cold"})
    assert lx.by_id["A:big:big"].get("antonym") == frozenset({"tiny"})  # big lives in mini.tsv
    assert lx.by_id["A:small:small"].get("synonym") == frozenset({"tiny"})
    assert lx.by_id["A:hot:hot"].get("synonym") is None  # not transitive: cold~chilly says nothing of hot
    for word in lx.category("A"):
        for name in ("antonym", "synonym"):
            for lemma in word.get(name) or ():
                assert word.lemma in lx.by_id[f"A:{lemma}:{lemma}"].get(name)


def test_relations_ancestors_are_the_isa_closure(relations_lexicon) -> None:
    lx = relations_lexicon
    assert lx.by_id["N:robin:sg"].get("ancestors") == frozenset({"bird", "animal"})
    assert lx.by_id["N:ferry:pl"].get("ancestors") == frozenset({"boat", "vehicle"})
    assert lx.by_id["N:kitten:sg"].get("ancestors") == frozenset({"cat"})  # cat (mini.tsv) is a top here
    assert lx.by_id["N:animal:sg"].get("isa") is None and lx.by_id["N:animal:sg"].get("ancestors") is None


BAD_INVENTORIES = [
    ("isa: {type: relation, categories: [N], doc: d}", "a relation needs target"),
    ("isa: {type: relation, target: X, categories: [N], doc: d}", "a relation needs target"),
    ("size: {type: enum, values: [a], target: N, categories: [N], doc: d}", "target is only for relation features"),
    ("ant: {type: relation, target: A, categories: [A, N], symmetric: true, doc: d}", "categories must be [A]"),
    ("ant: {type: relation, target: A, categories: [A], disjoint: [syn], doc: d}", "disjoint names 'syn'"),
    (
        "up: {type: relation, target: N, categories: [N], closure_of: isa, derived: true, doc: d}",
        "closure_of names 'isa'",
    ),
    (
        "isa: {type: relation, target: N, categories: [N], doc: d}\n  "
        + "up: {type: relation, target: N, categories: [N], closure_of: isa, doc: d}",
        "add derived: true",
    ),
    ("up: {type: relation, target: N, categories: [N], derived: true, doc: d}", "needs closure_of"),
]


@pytest.mark.parametrize("features,message", BAD_INVENTORIES)
def test_relations_inventory_declarations_are_checked(features: str, message: str) -> None:
    text = f"categories: {{N: noun, A: adjective}}\nfeatures:\n  {features}\n"
    with pytest.raises(LexiconError) as info:
        parse_inventory(text, "f.yaml")
    assert message in str(info.value) and str(info.value).startswith("f.yaml:")


def test_relations_overlay_inventory_may_add_relations() -> None:
    inventory = load_inventory().merged(
        {"features": {"meronym": {"type": "relation", "target": "N", "categories": ["N"], "doc": "part of"}}}, "o.yaml"
    )
    lx = build_lexicon([("x.tsv", "wheel\tN\tmeronym=car\ncar\tN")], inventory)
    assert lx.by_id["N:wheel:sg"].get("meronym") == frozenset({"car"})
    with pytest.raises(LexiconError, match="disjoint names 'synonim'"):
        load_inventory().merged(
            {
                "features": {
                    "hyponym": {
                        "type": "relation",
                        "target": "A",
                        "categories": ["A"],
                        "disjoint": ["synonim"],
                        "doc": "d",
                    }
                }
            },
            "o.yaml",
        )


# ----------------------------------------------------------------------------- size


def test_relations_size_order_is_the_declared_order() -> None:
    size = load_inventory().features["size"]
    assert SIZE_ORDER == size.values
    assert [size.rank(v) for v in SIZE_ORDER] == [0, 1, 2, 3, 4]
    with pytest.raises(Exception, match="did you mean 'small'"):
        size.rank("smal")


# ----------------------------------------------------------------------------- the constraint language


@pytest.mark.parametrize(
    "text,message",
    [
        ("size", "'size' is an enum feature; compare it, e.g. size=tiny"),
        ("class", "'class' is a set feature; compare it"),
        ("isa=true", "isa is a relation: write isa (has one) or not isa"),
    ],
)
def test_relations_check_messages(text: str, message: str) -> None:
    problems = query.check(query.parse(text), load_inventory(), slots=None)
    assert any(message in p for p in problems), problems


def test_relations_bare_relations_are_allowed() -> None:
    inventory = load_inventory()
    for text in ("N and isa", "not antonym", "A and synonym and antonym", "ancestors"):
        assert query.check(query.parse(text), inventory, slots=None) == []
    assert query.check(query.parse("lemma = leaf.isa and isa != leaf.lemma and leaf.isa"), inventory, ["leaf"]) == []


def _resolver(bindings: dict):
    def resolve(ref: query.Ref):
        value = bindings.get(ref.path[0])
        for part in ref.path[1:]:
            value = None if value is None else value.get(part)
        return value

    return resolve


def _both(lx, formula: str, **bindings) -> list[str]:
    """Words satisfying ``formula`` by the closures, after checking that the bitsets agree."""
    node = query.parse(formula)
    resolve = _resolver(bindings)
    predicate = query.compile_formula(node, lx.categories)
    expected = [i for i, w in enumerate(lx.words) if predicate(w, resolve)]
    assert positions(lx.index.evaluate(node, resolve)) == expected, formula
    return [lx.words[i].id for i in expected]


def test_relations_formulas_on_the_fixture(relations_lexicon) -> None:
    lx = relations_lexicon
    robin, boat, hot = lx.by_id["N:robin:sg"], lx.by_id["N:boat:sg"], lx.by_id["A:hot:hot"]
    assert _both(lx, "lemma = leaf.isa and number=sg", leaf=robin) == ["N:bird:sg"]
    assert _both(lx, "isa = parent.lemma and number=sg", parent=boat) == ["N:ferry:sg", "N:canoe:sg"]
    assert _both(lx, "lemma = leaf.ancestors and number=sg", leaf=robin) == ["N:animal:sg", "N:bird:sg"]
    assert _both(lx, "A and lemma = adj.antonym", adj=hot) == ["A:cold:cold"]
    assert _both(lx, "A and antonym") == [
        "A:big:big",
        "A:hot:hot",
        "A:cold:cold",
        "A:warm:warm",
        "A:cool:cool",
        "A:tiny:tiny",
    ]
    assert len(_both(lx, "N and isa")) == 2 * 13 - 1  # 13 nouns with isa; milk has one form
    # a bare reference to a relation: the referenced word has one
    assert _both(lx, "N and leaf.isa and number=pl", leaf=robin) == _both(lx, "N and number=pl")
    assert _both(lx, "N and leaf.isa", leaf=lx.by_id["N:animal:sg"]) == []


def test_relations_formulas_on_the_shipped_lexicon() -> None:
    lx = load_lexicon()
    robin, ferry, hot = lx.by_id["N:robin:sg"], lx.by_id["N:ferry:sg"], lx.by_id["A:hot:hot"]
    assert _both(lx, "N and lemma = leaf.isa and number=sg", leaf=robin) == ["N:bird:sg"]
    assert _both(lx, "N and lemma = leaf.ancestors and number=sg", leaf=ferry) == ["N:boat:sg", "N:vehicle:sg"]
    siblings = _both(lx, "N and isa = leaf.isa and lemma != leaf.lemma and number=sg", leaf=ferry)
    assert "N:canoe:sg" in siblings and "N:ferry:sg" not in siblings
    assert _both(lx, "A and lemma = adj.antonym", adj=hot) == ["A:cold:cold"]
    with_isa = _both(lx, "N and isa and number=sg")
    assert len(with_isa) >= 300 and all(lx.by_id[i].get("isa") for i in with_isa)


# ----------------------------------------------------------------------------- the shipped data


@pytest.fixture(scope="module")
def lexicon():
    return load_lexicon()


def _nouns(lexicon) -> dict[str, object]:
    return {x.lemma: x for x in lexicon.lexemes if x.category == "N"}


def _children(nouns) -> dict[str, list[str]]:
    children: dict[str, list[str]] = {}
    for lemma, x in nouns.items():
        for parent in x.features.get("isa", ()):
            children.setdefault(parent, []).append(lemma)
    return children


def test_relations_data_isa_chains_end_at_a_top_within_four_steps(lexicon) -> None:
    nouns = _nouns(lexicon)
    bad = []
    for lemma, x in nouns.items():
        frontier, seen = {lemma}, {lemma}
        for _ in range(4):
            frontier = {p for f in frontier for p in nouns[f].features.get("isa", ())}
            if frontier & seen:
                bad.append(f"{lemma}: cycle")
                break
            seen |= frontier
            if not frontier:
                break
        else:
            if frontier:
                bad.append(f"{x.source}: {lemma} is more than 4 steps from a top")
    assert not bad, "\n".join(bad)


def test_relations_data_isa_targets_are_count_nouns(lexicon) -> None:
    """A category reads 'A robin is a bird' / 'birds': a count noun with a plural (no food, furniture)."""
    nouns = _nouns(lexicon)
    targets = {t for x in nouns.values() for t in x.features.get("isa", ())}
    plural_types = {w.lemma: w.get("plural_type") for w in lexicon.category("N") if w.get("number") == "pl"}
    bad = sorted(
        t for t in targets if nouns[t].features.get("mass") or plural_types.get(t) not in ("regular", "invariant")
    )
    assert not bad


def test_relations_data_taxonomy_is_large_enough(lexicon) -> None:
    nouns = _nouns(lexicon)
    children = _children(nouns)
    tops = {t for t in children if "isa" not in nouns[t].features}
    mids = {c for c in children if c not in tops and set(nouns[c].features["isa"]) & tops}
    leaves = [x for lemma, x in nouns.items() if "isa" in x.features and lemma not in children]
    assert len(leaves) >= 150
    assert len(mids) >= 25, sorted(mids)
    with_three_levels = {t for t in tops if any(c in mids for c in children[t])}
    assert len(with_three_levels) >= 12, sorted(with_three_levels)
    broad = [t for t in tops if sum(c in mids for c in children[t]) >= 4]
    assert len(broad) >= 4, broad
    # "A ferry and a jet are both vehicles": two leaves with different parents, same grandparent
    assert {"boat", "aircraft"} <= set(children["vehicle"]) and "ferry" in children["boat"]


def test_relations_data_children_share_a_class_with_parents(lexicon) -> None:
    """A child shares a semantic class with its parent (carrot and vegetable are food), the check
    that catches a lemma typed under the wrong parent; vegetable isa plant is the one crossing."""
    nouns = _nouns(lexicon)
    crossings = {("vegetable", "plant")}
    bad = [
        f"{x.source}: {lemma} isa {parent}"
        for lemma, x in nouns.items()
        for parent in x.features.get("isa", ())
        if not x.features["class"] & nouns[parent].features["class"] and (lemma, parent) not in crossings
    ]
    assert not bad, "\n".join(bad)


def test_relations_data_size_buckets(lexicon) -> None:
    sized = [x for x in lexicon.lexemes if "size" in x.features]
    counts = Counter(x.features["size"] for x in sized)
    assert len(sized) >= 200 and all(counts[v] >= 25 for v in SIZE_ORDER), counts
    assert [x.lemma for x in sized if x.category != "N" or x.features.get("mass")] == []
    # the buckets order everyday anchors
    nouns = _nouns(lexicon)
    assert (
        SIZE_ORDER.index(nouns["ant"].features["size"])
        < SIZE_ORDER.index(nouns["cat"].features["size"])
        < SIZE_ORDER.index(nouns["person"].features["size"])
        < SIZE_ORDER.index(nouns["elephant"].features["size"])
        < SIZE_ORDER.index(nouns["mountain"].features["size"])
    )


def test_relations_data_adjective_pairs(lexicon) -> None:
    adjectives = {x.lemma: x for x in lexicon.lexemes if x.category == "A"}
    pairs = {
        name: {frozenset((lemma, other)) for lemma, x in adjectives.items() for other in x.features.get(name, ())}
        for name in ("antonym", "synonym")
    }
    assert len(pairs["antonym"]) >= 60 and len(pairs["synonym"]) >= 60
    assert not pairs["antonym"] & pairs["synonym"]
    bad = []
    for lemma, x in adjectives.items():
        antonyms, synonyms = x.features.get("antonym", frozenset()), x.features.get("synonym", frozenset())
        for name, related in (("antonym", antonyms), ("synonym", synonyms)):
            bad += [
                f"{lemma}: {name} {o} is not symmetric"
                for o in related
                if lemma not in adjectives[o].features.get(name, ())
            ]
        # a synonym of one of my antonyms is no synonym of mine (hot~warm and hot<>cold, so warm~cold fails)
        bad += [
            f"{lemma}: {o} is a synonym and a synonym of an antonym"
            for o in synonyms
            if any(o in adjectives[a].features.get("synonym", ()) for a in antonyms)
        ]
    assert not bad, "\n".join(bad)


def test_relations_data_adjective_pairs_describe_common_nouns(lexicon) -> None:
    """'It was not hot, it was really cold.': both adjectives of a pair accept some noun (arg1)."""
    categories = lexicon.categories
    nouns = [w for w in lexicon.category("N") if w.get("number") == "sg"]
    adjectives = {x.lemma: x for x in lexicon.lexemes if x.category == "A"}
    bad = []
    for lemma, x in adjectives.items():
        for name in ("antonym", "synonym"):
            for other in x.features.get(name, ()):
                if lemma > other:
                    continue
                formulas = [adjectives[a].features.get("arg1", "N") for a in (lemma, other)]
                shared = sum(all(query.evaluate(f, w, categories) for f in formulas) for w in nouns)
                if shared < 5:
                    bad.append(f"{lemma} {name} {other}: only {shared} nouns fit both")
    assert not bad, "\n".join(bad)
