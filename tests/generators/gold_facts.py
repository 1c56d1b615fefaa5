"""Gold answers of the fact-based probe suites, recomputed from the raw tables.

Each function reads what the item says (its question or context), looks the answer up in the
TSV files of ``vocab/data/facts/`` (parsed here with :mod:`csv`, not by the loader under test)
and in the lexicon's features, and checks what the suite promises about its candidates (one
right answer, distractors that are wrong for a recorded reason). ``test_probes`` compares the
result with the item's ``answer``.
"""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from functools import cache
from importlib import resources

FREQUENCIES = ("never", "rarely", "sometimes", "often", "always")
# how a property reads in a question (our own statement of vocab/facts.py's frames)
FRAMES = {
    "found_in": ("is usually found ", "is not usually found "),
    "used_to": ("is used to ", "is not used to "),
    "made_of": ("is made of ", "is not made of "),
    "has_part": ("has ", "does not have "),
}


@cache
def raw(name: str) -> tuple[dict[str, str], ...]:
    """The rows of ``vocab/data/facts/NAME.tsv`` as dicts (comments and blank lines skipped)."""
    text = (resources.files("blimpgen.vocab") / "data" / "facts" / f"{name}.tsv").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return tuple({k: v.strip() for k, v in row.items()} for row in csv.DictReader(lines, delimiter="\t"))


def _nouns(lexicon) -> dict[str, object]:
    return {w.lemma: w for w in lexicon.words if w.category == "N" and w.get("number") == "sg"}


# ---------------------------------------------------------------- Always-Never


def gold_always_never(item, b, lexicon) -> str:
    """The rule nearest the noun up the isa tree (never a taxonomy node, never a skip)."""
    match = re.fullmatch(r"(?:(?:A|An) )?(.+?) (?:is \[MASK\]|\[MASK\] (\w+)) (.+)\.", item.context)
    assert match, item.context
    subject, verb, obj = match.group(1), match.group(2) or "is", match.group(3)
    nouns = _nouns(lexicon)
    lemma = subject if subject in nouns else subject[0].lower() + subject[1:]  # a capitalised mass noun
    assert lemma in nouns, item.context
    assert not any(lemma in (w.get("isa") or ()) for w in nouns.values()), f"{lemma} is a taxonomy node"
    rules = defaultdict(set)
    for row in raw("frequency"):
        if (row["verb"], row["object"]) == (verb, obj):
            rules[row["subject"]].add(row["frequency"])
    level, seen = {lemma}, {lemma}
    while level:
        found = set().union(*(rules.get(x, set()) for x in level))
        if found:
            assert len(found) == 1, (lemma, found)
            answer = found.pop()
            assert answer in FREQUENCIES, (lemma, answer)  # a skip is never asked
            assert item.group == f"{verb} {obj}"
            return answer
        level = {p for x in level for p in (nouns[x].get("isa") or ()) if x in nouns} - seen
        seen |= level
    raise AssertionError(f"no rule reaches {lemma} for {verb} {obj}")


# ---------------------------------------------------------------- Antonym Negation


def gold_antonym(item, b, lexicon) -> str:
    """'not' for an antonym pair, 'really' for a synonym pair, from word_pairs.tsv or the
    lexicon's adjective features (a pair is in exactly one of them)."""
    pair = b["pair"]
    first, second, category = pair.get("first"), pair.get("second"), pair.get("category")
    written = {
        r["relation"]
        for r in raw("word_pairs")
        if r["category"] == category and {r["first"], r["second"]} == {first, second}
    }
    features = set()
    if category == "A":
        adjectives = {w.lemma: w for w in lexicon.words if w.category == "A"}
        for relation in ("antonym", "synonym"):
            if second in (adjectives[first].get(relation) or ()) or first in (adjectives[second].get(relation) or ()):
                features.add(relation)
    assert len(written | features) == 1 and not (written and features), (first, second, written, features)
    relation = (written | features).pop()
    assert item.group.endswith(f"{relation}s")
    match = re.fullmatch(r"(\w+) (was|is) \[MASK\] (.+), (\w+) (was|is) really (.+)\.", item.context)
    assert match and match.group(4) == match.group(1).lower() and match.group(5) == match.group(2), item.context
    subject = match.group(1)
    nouns = _nouns(lexicon)
    genders = {nouns[w].get("gender") for w in (first, second) if category == "N"} & {"m", "f"}
    if genders == {"m"}:
        assert subject == "He", item.context
    elif genders == {"f"}:
        assert subject == "She", item.context
    return "not" if relation == "antonym" else "really"


# ---------------------------------------------------------------- Property Conjunction


@cache
def properties() -> tuple[dict[str, set[tuple[str, str]]], dict[str, set[str]]]:
    """concept -> {(relation, value)}, concept -> {relations it is described for}."""
    has: dict[str, set[tuple[str, str]]] = defaultdict(set)
    described: dict[str, set[str]] = defaultdict(set)
    for row in raw("properties"):
        has[row["concept"]].add((row["relation"], row["value"]))
        described[row["concept"]].add(row["relation"])
    return has, described


def _property(phrase: str, negated: bool) -> tuple[str, str]:
    for relation, frames in FRAMES.items():
        if phrase.startswith(frames[negated]):
            return relation, phrase[len(frames[negated]) :]
    raise AssertionError(f"no relation reads {phrase!r}")


def _conjunction(item) -> tuple[tuple[str, str], tuple[str, str], bool]:
    match = re.fullmatch(r"What (.+) (and|but) (.+)\?", item.context)
    assert match, item.context
    but = match.group(2) == "but"
    return _property(match.group(1), False), _property(match.group(3), but), but


@cache
def explicit_lacks() -> dict[str, set[tuple[str, str]]]:
    """concept -> the (relation, value) it explicitly lacks: the rows of lacks.tsv, and every material
    of properties.tsv other than its one made_of (a missing row of properties is never a lack)."""
    has, _ = properties()
    lacked: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for row in raw("lacks"):
        for value in row["values"].split(","):
            lacked[row["concept"]].add((row["relation"], value.strip()))
    materials = {v for props in has.values() for r, v in props if r == "made_of"}
    for concept, props in has.items():
        own = {v for r, v in props if r == "made_of"}
        if len(own) == 1:
            lacked[concept] |= {("made_of", m) for m in materials - own}
    return lacked


def gold_property_conjunction(item, b, lexicon) -> str:
    """The one candidate with both properties; each other has one and explicitly lacks the other."""
    first, second, but = _conjunction(item)
    assert not but and first[0] != second[0]
    has, _ = properties()
    lacked = explicit_lacks()
    both = [c for c in item.candidates if first in has[c] and second in has[c]]
    assert len(both) == 1, (item.context, item.candidates)
    others = [c for c in item.candidates if c != both[0]]
    assert sorted([first in has[c], second in has[c]] for c in others) == [[False, True], [True, False]]
    for c in others:  # the missing property is a written lack (lacks.tsv, another material), not a gap
        missing = second if first in has[c] else first
        assert missing in lacked[c], (c, missing, item.context)
    return both[0]


def gold_property_conjunction_but_not(item, b, lexicon) -> str:
    """The one candidate with the first property and, explicitly, without the second."""
    first, second, but = _conjunction(item)
    assert but and first[0] != second[0]
    has, _ = properties()
    lacked = explicit_lacks()
    right = [c for c in item.candidates if first in has[c] and second in lacked[c]]
    assert len(right) == 1, (item.context, item.candidates)
    for c in item.candidates:  # every other candidate fails by a written fact
        if c != right[0]:
            assert second in has[c] or first in lacked[c], (c, item.context)
    return right[0]


# ---------------------------------------------------------------- Encyclopedic


@cache
def countries() -> tuple[dict[str, dict], dict[str, list[str]]]:
    """country -> row (languages a set); language -> countries with it (shared_languages adds a stand-in)."""
    table, speakers = {}, defaultdict(list)
    for row in raw("countries"):
        languages = {x.strip() for x in row["languages"].split(",")}
        table[row["country"]] = {**row, "languages": languages}
        for language in languages:
            speakers[language].append(row["country"])
    for row in raw("shared_languages"):
        speakers[row["language"]].append(f"elsewhere: {row['elsewhere']}")
    return table, speakers


def _by_capital(capital: str) -> dict:
    table, _ = countries()
    found = [row for row in table.values() if row["capital"] == capital]
    assert len(found) == 1, capital
    return found[0]


def _named_by(language: str) -> dict:
    table, speakers = countries()
    assert len(speakers[language]) == 1, (language, speakers[language])  # the language names one country
    return table[speakers[language][0]]


def _one_of(candidates, right: set[str]) -> str:
    found = [c for c in candidates if c in right]
    assert len(found) == 1, (candidates, right)
    return found[0]


def gold_encyclopedic_composition(item, b, lexicon) -> str:
    """Two hops through countries.tsv: language -> country -> capital; capital -> country -> continent
    or language."""
    table, _ = countries()
    q = item.context
    if m := re.fullmatch(r"What is the capital of the country where (.+) is an official language\?", q):
        capitals = {row["capital"] for row in table.values()}
        assert set(item.candidates) <= capitals
        return _one_of(item.candidates, {_named_by(m.group(1))["capital"]})
    if m := re.fullmatch(r"On which continent is the country whose capital is (.+)\?", q):
        return _one_of(item.candidates, {_by_capital(m.group(1))["continent"]})
    if m := re.fullmatch(r"What is an official language of the country whose capital is (.+)\?", q):
        return _one_of(item.candidates, _by_capital(m.group(1))["languages"])
    raise AssertionError(f"no template reads {q!r}")


def gold_encyclopedic_facts(item, b, lexicon) -> str:
    """One hop through countries.tsv."""
    table, _ = countries()
    q = item.context
    if m := re.fullmatch(r"What is the capital of (.+)\?", q):
        return _one_of(item.candidates, {table[m.group(1)]["capital"]})
    if m := re.fullmatch(r"Of which country is (.+) the capital\?", q):
        return _one_of(item.candidates, {_by_capital(m.group(1))["country"]})
    if m := re.fullmatch(r"On which continent is (.+)\?", q):
        return _one_of(item.candidates, {table[m.group(1)]["continent"]})
    if m := re.fullmatch(r"What is an official language of (.+)\?", q):
        return _one_of(item.candidates, table[m.group(1)]["languages"])
    if m := re.fullmatch(r"In which country is (.+) an official language\?", q):
        return _one_of(item.candidates, {_named_by(m.group(1))["country"]})
    raise AssertionError(f"no template reads {q!r}")


GOLD_FACTS = {
    "olmpics_always_never": gold_always_never,
    "olmpics_antonym_negation": gold_antonym,
    "olmpics_property_conjunction": gold_property_conjunction,
    "olmpics_property_conjunction_but_not": gold_property_conjunction_but_not,
    "olmpics_encyclopedic_composition": gold_encyclopedic_composition,
    "olmpics_encyclopedic_facts": gold_encyclopedic_facts,
}


# ---------------------------------------------------------------- Ettinger-style suites


def gold_cprag_uses(item, b, lexicon) -> str:
    """The one thing properties.tsv lists for the use sentence 1 names; a foil of its class and one
    of no class it has, neither listed for the use."""
    match = re.fullmatch(r"(\w+) (?:needed|wanted|had) to (.+?)\. .+ the \[MASK\]\.", item.context)
    assert match, item.context
    use = match.group(2)
    users = {r["concept"] for r in raw("properties") if r["relation"] == "used_to" and r["value"] == use}
    assert len(users) == 1, (use, users)
    nouns = _nouns(lexicon)

    def classes(lemma):
        return set(nouns[lemma].get("class") or ()) - {"artifact"}

    expected = users.pop()
    within, between = item.foils
    able = {r["use"]: {x.strip() for x in r["able"].split(",")} for r in raw("uses")}[use]
    assert expected in able and not able & set(item.foils), (use, item.foils)  # no foil could do the job
    assert expected not in item.foils and classes(expected)
    assert classes(within) & classes(expected), (within, expected)
    assert classes(between) and not classes(between) & classes(expected), (between, expected)
    assert item.expected == (expected,)
    pronoun = {"m": "he", "f": "she"}[next(w for w in lexicon.words if w.text == match.group(1)).get("gender")]
    assert f" {pronoun} " in f" {item.context.split('. ', 1)[1].lower()}", item.context
    return expected


# verbs an animal does in an ordinary reading (eats, feeds its young, hunts, catches, climbs, digs, builds a
# nest, sings): an animal as their reversed agent reads well ('which member the wolf had fed')
ANIMAL_VERBS = frozenset({"eat", "drink", "chew", "taste", "feed", "hunt", "catch", "climb", "dig", "build", "sing"})
# nouns that name a person by nothing, or only by a relation to something unnamed ('the member': of what?)
VAGUE_AGENTS = frozenset(
    {"member", "person", "adult", "individual", "guy", "agent", "official", "specialist", "partner", "relative"}
)


def gold_role_reversal(item, b, lexicon) -> str:
    """The verb's participle; the agent fits its agent restriction and not its patient one, the
    patient the other way round, and the reversed context swaps the two nouns."""
    from blimpgen.vocab.query import evaluate

    match = re.fullmatch(r"(\w+) (.+) which (\w+) the (\w+) had \[MASK\]\.", item.context)
    assert match, item.context
    name, frame, patient, agent = match.groups()
    assert item.reversed_context == f"{name} {frame} which {agent} the {patient} had [MASK]."
    verb = b["verb"]
    nouns, categories = _nouns(lexicon), frozenset(lexicon.inventory.categories)
    agent_noun, patient_noun = nouns[agent], nouns[patient]
    assert evaluate(verb.get("arg1"), agent_noun, categories) and not evaluate(verb.get("arg2"), agent_noun, categories)
    assert evaluate(verb.get("arg2"), patient_noun, categories)
    assert not evaluate(verb.get("arg1"), patient_noun, categories)
    # the reversed agent cannot do the verb at all (role_verbs.tsv), nor is a person past babyhood or, for
    # a verb animals do, an animal; the agent is no vague noun (our own statement of the suite's rules)
    row = {r["verb"]: r for r in raw("role_verbs")}[verb.lemma]
    assert not evaluate(row["able"], patient_noun, categories), (verb.lemma, patient)
    assert evaluate(row["objects"], patient_noun, categories), (verb.lemma, patient)
    assert not patient_noun.get("human") or patient_noun.get("age") == "baby", (verb.lemma, patient)
    assert not (verb.lemma in ANIMAL_VERBS and "animal" in (patient_noun.get("class") or ())), (verb.lemma, patient)
    assert agent not in VAGUE_AGENTS, agent
    assert verb.get("vform") == "en" and "transitive" in verb.get("frames")  # the past participle
    assert item.arguments == (patient, agent) and item.expected == (verb.text,)
    return verb.text


def gold_neg_nat(item, b, lexicon) -> str:
    """The true completion: the thing's hypernym when affirmative, the denied category when negated;
    natural items deny what look_alikes.tsv says the thing is taken for."""
    match = re.fullmatch(r"An? (\w+) is (not )?an? \[MASK\]\.", item.context)
    assert match, item.context
    thing, negated = match.group(1), bool(match.group(2))
    nouns = _nouns(lexicon)
    ancestors = set(nouns[thing].get("ancestors") or ())
    look_alike = {r["thing"]: r["mistaken_for"] for r in raw("look_alikes")}[thing]
    true, false = (item.bad, item.good) if negated else (item.good, item.bad)
    assert true in nouns[thing].get("isa") and false not in ancestors | {thing}, (true, false)
    natural = false == look_alike
    assert item.group == f"{'natural' if natural else 'less natural'}, {'negated' if negated else 'affirmative'}"
    if not natural:  # an arbitrary category: not the look-alike, nor above or under it
        near = {look_alike, *(nouns[look_alike].get("ancestors") or ())}
        assert false not in near and look_alike not in (nouns[false].get("ancestors") or ()), (thing, false)
    assert item.expected == (() if negated else (true,))
    for option in item.candidates:  # each option has its own a/an
        article = item.context_for(option).partition(" [MASK]")[0].split()[-1]
        assert article == ("an" if option[0] in "aeiou" else "a"), item.context_for(option)
    return false if negated else true


GOLD_FACTS.update({"cprag_uses": gold_cprag_uses, "role_reversal": gold_role_reversal, "neg_nat": gold_neg_nat})
