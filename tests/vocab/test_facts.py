"""Fact tables: declarations, load-time checks (one located line per problem) and the derived tables."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blimpgen.errors import SpecErrors
from blimpgen.vocab import load_lexicon
from blimpgen.vocab.facts import (
    FREQUENCY_ORDER,
    build_facts,
    load_facts,
    shipped_fact_sources,
)

SCHEMA, TABLES = shipped_fact_sources()
FILES = dict(TABLES)
PREFIX = "vocab/data/facts/"


@pytest.fixture(scope="module")
def lexicon():
    return load_lexicon()


@pytest.fixture(scope="module")
def facts(lexicon):
    return load_facts(lexicon)


def with_table(name: str, text: str) -> list[tuple[str, str]]:
    """The shipped tables with ``name`` (e.g. ``frequency.tsv``) replaced by ``text``."""
    return [(file, text if file == PREFIX + name else body) for file, body in TABLES]


def appended(name: str, row: str) -> tuple[list[tuple[str, str]], int]:
    """The shipped tables with ``row`` added to ``name``, and the line it is on."""
    body = FILES[PREFIX + name].rstrip("\n")
    return with_table(name, body + "\n" + row + "\n"), body.count("\n") + 2


def test_facts_shipped_tables_load_with_every_table_and_column_documented(facts) -> None:
    for name, spec in facts.specs.items():
        assert spec.doc, name
        assert all(column.doc for column in spec.columns.values()), name
        assert facts.table(name), f"{name} is empty"
    assert len(facts.table("relation_pairs")) // 2 >= 300  # the issue: a few hundred relation pairs
    assert len(facts.table("countries")) >= 100


BAD_ROWS = [
    ("frequency.tsv", "bird\thas\tfeathers\tsometimes", "subject: bird/has/feathers repeats line"),
    (
        "frequency.tsv",
        "bird\thas\tbeaks\talway",
        "frequency: 'alway' is not one of never, rarely, sometimes, often, always, never-rarely,",
    ),
    ("frequency.tsv", "birdd\thas\tbeaks\talways", "subject: unknown N lemma 'birdd'; did you mean 'bird'"),
    ("frequency.tsv", "bird\thas\t\talways", "object: empty cell"),
    ("frequency.tsv", "bird\thas", "row: 2 cells but 4 columns"),
    ("frequency.tsv", "bird\thaz\tbeaks\talways", "verb: 'haz' is not one of has, hatches, eats, contains, is"),
    ("word_pairs.tsv", "hot\thot\tantonym\tA", "second: 'hot' cannot pair with itself"),
    ("word_pairs.tsv", "quick\tfast\tsynonym\tA", "first: quick/fast is already a pair in the lexicon's features"),
    ("word_pairs.tsv", "arrive\tleave\tantonym\tV", "first: arrive/leave repeats line"),
    ("word_pairs.tsv", "know\tforget\tantonym\tV", "first: know/forget: a stative verb does not take the progressive"),
    ("word_pairs.tsv", "king\tqueen\tantonym\tN", "first: king/queen: the two words differ in gender"),
    ("word_pairs.tsv", "cat\tdog\topposite\tN", "relation: 'opposite' is not one of antonym, synonym"),
    ("word_pairs.tsv", "hot\tcold\tantonym\tQ", "category: 'Q' is not one of N, A, V"),
    ("properties.tsv", "water\tfound_in\tin a kitchen", "concept: 'water' is a mass noun"),
    ("properties.tsv", "knife\tused_in\tthe kitchen", "relation: 'used_in' is not one of found_in, used_to"),
    ("countries.tsv", "Narnia\tParis\tFrench\tEurope", "capital: Paris repeats line"),
    ("countries.tsv", "Narnia\tCair Paravel\tNarnian\tAntarctica", "continent: 'Antarctica' is not one of Africa"),
    ("countries.tsv", "Narnia\tCair Paravel\tNarnian,\tEurope", "languages: an empty item in 'Narnian,'"),
    ("taxonomy_trees.tsv", "bird\tdev", "root: 'bird' is not a root: it is a kind of animal"),
    ("taxonomy_trees.tsv", "vehicle\tdev", "root: vehicle repeats line"),
    ("look_alikes.tsv", "poodle\tmammal", "mistaken_for: a poodle is a kind of mammal in the lexicon's taxonomy"),
    ("look_alikes.tsv", "animal\tplant", "thing: 'animal' needs a hypernym in the lexicon (isa)"),
    ("frequency.tsv", "bird\thas\tbeaks\talways-never", "frequency: 'always-never' is not one of"),
    ("uses.tsv", "fly a kite\tkite", "use: no concept of properties is used to 'fly a kite'"),
    ("uses.tsv", "plow a field\ttractor", "use: plow a field repeats line"),
    ("lacks.tsv", "jar\tfound_in\tin a kitchen", "values: 'jar' has found_in 'in a kitchen' in properties; it cannot"),
    (
        "lacks.tsv",
        "jar\tfound_in\tin a kitchn",
        "values: no concept of properties has found_in 'in a kitchn'; did you mean",
    ),
    ("lacks.tsv", "sock\thas_part\ta handle", "concept: 'sock' has no row in properties: what it lacks is never asked"),
    ("lacks.tsv", "jar\tmade_of\tmetal", "relation: 'made_of' is not one of found_in, has_part"),
    ("role_verbs.tsv", "arrest\tclass=persn\tN", "able: class has no value 'persn'; did you mean 'person'?"),
    ("role_verbs.tsv", "arrest\tclass=person or\tN", "able: expected more, found end of formula"),
    ("role_verbs.tsv", "arrest\tcolour=red\tN", "able: unknown feature 'colour'"),
    ("role_verbs.tsv", "eat\tclass=person\tN", "verb: eat repeats line"),
    ("role_verbs.tsv", "arrest\tclass=person\tlemma=thief and", "objects: expected more, found end of formula"),
]


@pytest.mark.parametrize("file, row, message", BAD_ROWS)
def test_facts_bad_rows_name_file_line_and_column(lexicon, file, row, message) -> None:
    tables, line = appended(file, row)
    with pytest.raises(SpecErrors) as caught:
        build_facts(SCHEMA, tables, lexicon)
    text = str(caught.value)
    assert f"{PREFIX}{file}:{line}: {message}" in text, text
    assert len([x for x in text.splitlines() if f"{file}:" in x]) >= 1


def test_facts_every_problem_is_reported_at_once(lexicon) -> None:
    body = FILES[PREFIX + "word_pairs.tsv"].rstrip("\n")
    tables = with_table("word_pairs.tsv", body + "\nhot\thot\tantonym\tA\nhott\tcold\tantonym\tA\n")
    with pytest.raises(SpecErrors) as caught:
        build_facts(SCHEMA, tables, lexicon)
    lines = str(caught.value).splitlines()
    assert any("cannot pair with itself" in x for x in lines) and any("unknown A lemma 'hott'" in x for x in lines)


def test_facts_a_header_without_a_declared_column_is_located(lexicon) -> None:
    text = FILES[PREFIX + "shared_languages.tsv"].replace("language\telsewhere", "language\twhere", 1)
    line = next(n for n, x in enumerate(text.splitlines(), 1) if x.startswith("language\t"))
    with pytest.raises(
        SpecErrors,
        match=rf"shared_languages.tsv:{line}: header: the header must name the columns "
        r"of shared_languages: language, elsewhere \(missing \['elsewhere'\]; "
        r"unknown \['where'\]\)",
    ):
        build_facts(SCHEMA, with_table("shared_languages.tsv", text), lexicon)


def test_facts_an_undeclared_table_file_is_an_error(lexicon) -> None:
    with pytest.raises(SpecErrors, match=r"vocab/data/facts/extra.tsv: a table file no table of facts.yaml declares"):
        build_facts(SCHEMA, [*TABLES, (PREFIX + "extra.tsv", "a\tb\n")], lexicon)


@pytest.mark.parametrize(
    "change, message",
    [
        (
            ("    file: frequency.tsv\n", "    file: frequency.tsv\n    colour: red\n"),
            "tables.frequency.colour: unknown key",
        ),
        (
            ("subject: {type: word, category: N,", "subject: {type: wurd, category: N,"),
            "tables.frequency.columns.subject: a column is a mapping with type "
            "(one of word, text, texts, enum, formula)",
        ),
        (
            ("    key: [subject, verb, object]\n", "    key: [subject, verb, objekt]\n"),
            "tables.frequency.key: unknown column 'objekt'; did you mean 'object'",
        ),
    ],
)
def test_facts_schema_errors_name_the_facts_yaml_line(lexicon, change, message) -> None:
    text = SCHEMA[1].replace(*change, 1)
    assert text != SCHEMA[1]
    line = next(n for n, x in enumerate(text.splitlines(), 1) if change[1].splitlines()[-1].strip() in x)
    with pytest.raises(SpecErrors) as caught:
        build_facts((SCHEMA[0], text), TABLES, lexicon)
    assert f"facts.yaml:{line}: {message}" in str(caught.value), str(caught.value)


# ---------------------------------------------------------------- derived tables, recomputed


def nearest_rule(lemma: str, rules: dict[str, str], nouns: dict) -> str | None:
    """The frequency of the rule nearest ``lemma`` up the isa tree (an independent walk)."""
    level, seen = {lemma}, {lemma}
    while level:
        found = {rules[x] for x in level if x in rules}
        if found:
            assert len(found) == 1
            return found.pop()
        level = {p for x in level if x in nouns for p in (nouns[x].get("isa") or ())} - seen
        seen |= level
    return None


ANIMAL_NODES = (
    "animal",
    "mammal",
    "bird",
    "fish",
    "insect",
    "reptile",
    "dog",
    "cat",
    "snake",
    "horse",
    "deer",
    "parrot",
    "ape",
    "robin",
    "eagle",
    "shark",
    "ant",
    "lizard",
    "cow",
    "bat",
)


SPANS = ("never-rarely", "rarely-sometimes", "sometimes-often", "often-always", "sometimes-always")


@settings(max_examples=25, deadline=None)
@given(
    rules=st.dictionaries(
        st.sampled_from(ANIMAL_NODES), st.sampled_from((*FREQUENCY_ORDER, "skip", *SPANS)), max_size=8
    )
)
def test_facts_frequency_rules_reach_each_leaf_from_the_nearest_rule(lexicon, rules) -> None:
    """Every asked noun gets the nearest rule's answer, taxonomy nodes are never asked, nor are nouns
    whose nearest rule is a skip or a span (two neighbouring adverbs as right: not one answer), and
    every leaf a one-adverb rule reaches is asked."""
    text = "subject\tverb\tobject\tfrequency\n" + "".join(f"{s}\thas\tspots\t{f}\n" for s, f in rules.items())
    derived = build_facts(SCHEMA, with_table("frequency.tsv", text), lexicon).table("frequency_facts")
    nouns = {w.lemma: w for w in lexicon.words if w.category == "N" and w.get("number") == "sg"}
    nodes = {p for w in nouns.values() for p in (w.get("isa") or ())}
    asked = {row.get("noun"): row.get("frequency") for row in derived}
    assert len(asked) == len(derived)
    for lemma in nouns:
        expected = None if lemma in nodes else nearest_rule(lemma, rules, nouns)
        assert asked.get(lemma) == (expected if expected in FREQUENCY_ORDER else None), lemma


def test_facts_relation_pairs_are_symmetric_and_come_from_one_source(facts, lexicon) -> None:
    rows = facts.table("relation_pairs")
    seen = {(r.get("first"), r.get("second"), r.get("category")): r.get("relation") for r in rows}
    assert len(seen) == len(rows)
    for (first, second, category), relation in seen.items():
        assert seen[(second, first, category)] == relation
    adjectives = {w.lemma: w for w in lexicon.words if w.category == "A"}
    for lemma, word in adjectives.items():  # every lexicon pair is there, with its relation
        for relation in ("antonym", "synonym"):
            for other in word.get(relation) or ():
                assert seen[(lemma, other, "A")] == relation


def test_facts_relation_pair_subjects_suit_both_words(facts, lexicon) -> None:
    nouns = {w.lemma: w for w in lexicon.words if w.category == "N"}
    for row in facts.table("relation_pairs"):
        if row.get("category") == "N":
            human = all(nouns[row.get(c)].get("human") for c in ("first", "second"))
            assert (row.get("subject") != "thing") == bool(human), row
        genders = (
            {nouns[row.get(c)].get("gender") for c in ("first", "second")} if row.get("category") == "N" else set()
        )
        if "m" in genders:
            assert row.get("subject") == "male", row
        if "f" in genders:
            assert row.get("subject") == "female", row


def test_facts_country_languages_name_a_country_only_when_no_other_has_them(facts) -> None:
    speakers = defaultdict(set)
    for row in facts.table("countries"):
        for language in row.get("languages"):
            speakers[language].add(row.get("country"))
    shared = {row.get("language") for row in facts.table("shared_languages")}
    assert shared <= set(speakers), "shared_languages names languages of countries.tsv only"
    for row in facts.table("country_facts"):
        alone = speakers[row.get("language")] == {row.get("country")} and row.get("language") not in shared
        assert (row.get("own") == "yes") == alone, row


def test_facts_concepts_and_unique_uses_follow_the_properties(facts) -> None:
    by_concept = defaultdict(set)
    users = defaultdict(set)
    for row in facts.table("properties"):
        by_concept[row.get("concept")].add(f"{row.get('relation')}:{row.get('value')}")
        if row.get("relation") == "used_to":
            users[row.get("value")].add(row.get("concept"))
    for row in facts.table("concepts"):
        assert row.get("properties") == by_concept[row.get("concept")]
        assert row.get("relations") == {p.split(":", 1)[0] for p in by_concept[row.get("concept")]}
    unique = {(r.get("concept"), r.get("use")) for r in facts.table("unique_uses")}
    assert unique == {(next(iter(c)), use) for use, c in users.items() if len(c) == 1}


def test_facts_taxonomy_tops_are_the_nouns_two_categories_share(facts, lexicon) -> None:
    nouns = {w.lemma: w for w in lexicon.words if w.category == "N" and w.get("number") == "sg"}
    children: dict[str, set[str]] = {}
    for lemma, word in nouns.items():
        for parent in word.get("isa") or ():
            children.setdefault(parent, set()).add(lemma)
    expected = {top: {c for c in kids if c in children} for top, kids in children.items()}
    expected = {top: cats for top, cats in expected.items() if len(cats) >= 2}
    rows = facts.table("taxonomy_tops")
    assert {r.get("top"): set(r.get("categories")) for r in rows} == expected
    splits = {r.get("root"): r.get("split") for r in facts.table("taxonomy_trees")}
    for row in rows:
        assert row.get("root") in (nouns[row.get("top")].get("ancestors") or set()) | {row.get("top")}
        assert not nouns[row.get("root")].get("isa") and row.get("split") == splits[row.get("root")]


def test_facts_a_tree_on_neither_side_of_the_split_is_an_error(lexicon) -> None:
    text = FILES[PREFIX + "taxonomy_trees.tsv"].replace("vehicle\ttrain\n", "")
    with pytest.raises(
        SpecErrors,
        match=r"taxonomy_trees.tsv:1: root: the tree of 'vehicle' \(root 'vehicle'\) is on "
        r"neither side of the split",
    ):
        build_facts(SCHEMA, with_table("taxonomy_trees.tsv", text), lexicon)


def _replaced(name: str, old: str, new: str) -> tuple[list[tuple[str, str]], int]:
    """The shipped tables with ``old`` replaced by ``new`` in ``name``, and the line it is on."""
    body = FILES[PREFIX + name]
    assert old in body
    line = body[: body.index(old)].count("\n") + 1
    return with_table(name, body.replace(old, new, 1)), line


@pytest.mark.parametrize(
    "name, old, new, message",
    [
        (  # a part the thing has under another name is not lacked (a bicycle's handlebars: a handle)
            "lacks.tsv",
            "bicycle\thas_part\ta blade,",
            "bicycle\thas_part\ta handle, a blade,",
            "values: 'bicycle' has 'handlebars', which names 'a handle' under another name",
        ),
        (  # every thing used for a use could do it
            "uses.tsv",
            "plow a field\ttractor",
            "plow a field\ttruck",
            "able: tractor is used to 'plow a field' in properties: list it",
        ),
        ("uses.tsv", "plow a field\ttractor", "plow a field\ttractor, tractr", "able: unknown N lemma 'tractr'"),
    ],
)
def test_facts_lacks_and_uses_rows_are_checked(lexicon, name, old, new, message) -> None:
    tables, line = _replaced(name, old, new)
    with pytest.raises(SpecErrors) as caught:
        build_facts(SCHEMA, tables, lexicon)
    assert f"{PREFIX}{name}:{line}: {message}" in str(caught.value), str(caught.value)


def test_facts_a_use_without_a_uses_row_is_located_at_its_properties_row(lexicon) -> None:
    tables, _ = _replaced("uses.tsv", "plow a field\ttractor\n", "")
    body = FILES[PREFIX + "properties.tsv"]
    line = body[: body.index("tractor\tused_to\tplow a field")].count("\n") + 1
    with pytest.raises(SpecErrors) as caught:
        build_facts(SCHEMA, tables, lexicon)
    assert f"properties.tsv:{line}: value: the use 'plow a field' has no row in uses" in str(caught.value)


def test_facts_concepts_lack_what_lacks_says_and_every_other_material(facts) -> None:
    """concepts.lacks is the lacks.tsv rows plus, for a thing with one made_of, every other material;
    nothing a thing has is ever in it."""
    lacked = defaultdict(set)
    for row in facts.table("lacks"):
        lacked[row.get("concept")] |= {f"{row.get('relation')}:{v}" for v in row.get("values")}
    materials = {r.get("value") for r in facts.table("properties") if r.get("relation") == "made_of"}
    for row in facts.table("concepts"):
        own = {p.split(":", 1)[1] for p in row.get("properties") if p.startswith("made_of:")}
        expected = lacked[row.get("concept")] | ({f"made_of:{m}" for m in materials - own} if own else set())
        assert row.get("lacks") == expected, row.get("concept")
        assert not row.get("lacks") & row.get("properties"), row.get("concept")
