"""Derived fact tables: what probe suites sample, computed from the written tables of ``data/facts/``.

Each function is named after the table it makes (``derived:`` in ``facts.yaml``) and returns the
rows and the problems found, each at the ``file:line`` of the written row it comes from:

* ``frequency_facts``: the frequency rules applied down the lexicon's isa tree (Always-Never);
* ``concepts``, ``property_facts``, ``unique_uses``: the properties by concept, as question
  phrases, and the uses only one concept has (Property Conjunction, CPRAG-style contexts);
* ``relation_pairs``: word_pairs and the lexicon's adjective pairs in both orders (Antonym Negation);
* ``country_facts``: one row per country and official language (Encyclopedic Composition);
* ``taxonomy_tops``: the nouns two categories share, with their tree's split (Taxonomy Conjunction);
* ``natural_negations``: look-alikes with the true and the less natural false categories (NEG-NAT-style).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

from blimpgen.errors import LexiconError, SpecError, did_you_mean
from blimpgen.vocab.fact_rows import BaseWords, FactRow, RowsAndErrors, Tables, TableSpec
from blimpgen.vocab.lexeme import Word
from blimpgen.vocab.lexicon import Lexicon
from blimpgen.vocab.morphology import with_article
from blimpgen.vocab.query import evaluate

FREQUENCY_ORDER = ("never", "rarely", "sometimes", "often", "always")


def derive_frequency_facts(
    rows: list[FactRow], spec: TableSpec, lexicon: Lexicon, words: BaseWords, tables: Tables
) -> RowsAndErrors:
    """Expand frequency rules over the ``isa`` taxonomy: a rule on ``bird`` holds for every noun
    below bird; for each noun and predicate the most specific rule wins (the noun's own, else
    the nearest ancestor's). Two rules at the same distance that disagree are an error at both.

    Only nouns without hyponyms in the lexicon are asked: a rule on a taxonomy node is a default
    for the nouns below it, not a fact about the category (*an animal never has horns* is false,
    and *a fish always hatches from an egg* forgets the live-bearing fish the lexicon lacks)."""
    by_subject: dict[tuple[str, str, str], list[FactRow]] = defaultdict(list)
    for row in rows:
        by_subject[(row.get("subject"), row.get("verb"), row.get("object"))].append(row)
    predicates = sorted({(row.get("verb"), row.get("object")) for row in rows})
    out: list[FactRow] = []
    errors: list[SpecError] = []
    nodes = {parent for (category, _), word in words.items() if category == "N" for parent in word.get("isa") or ()}
    for (category, lemma), noun in sorted(words.items()):
        if category != "N" or lemma in nodes:
            continue
        chain = _ancestry(noun, words)
        for verb, obj in predicates:
            for level in chain:
                found = [r for subject in level for r in by_subject.get((subject, verb, obj), ())]
                if not found:
                    continue
                answers = {r.get("frequency") for r in found}
                if len(answers) > 1:
                    listed = ", ".join(f"{x.get('subject')}: {x.get('frequency')}" for x in found)
                    for r in found:
                        file, line = r.source.rsplit(":", 1)
                        errors.append(
                            LexiconError(
                                f"{lemma!r} gets '{verb} {obj}' from rules that disagree at the "
                                f"same distance ({listed}); add a rule for it",
                                file,
                                int(line),
                                "subject",
                            )
                        )
                    break
                rule, frequency = found[0], answers.pop()
                if frequency in FREQUENCY_ORDER:  # one adverb: a span (sometimes-often) or skip is not asked
                    values = {
                        "noun": lemma,
                        "subject": noun.text if noun.get("mass") else with_article(noun.text),
                        "verb": verb,
                        "object": obj,
                        "frequency": frequency,
                        "rule": rule.get("subject"),
                    }
                    out.append(FactRow(spec.name, rule.fact_id + f"/{lemma}", rule.source, values, {"noun": noun}))
                break
    return out, errors


def _ancestry(noun: Word, words: BaseWords) -> list[set[str]]:
    """The noun itself, then its parents, grandparents ... as sets of lemmas, nearest first."""
    levels, current, seen = [{noun.lemma}], {noun.lemma}, {noun.lemma}
    while current:
        parents = set()
        for lemma in current:
            word = words.get(("N", lemma))
            parents |= set(word.get("isa") or ()) if word is not None else set()
        parents -= seen
        if parents:
            levels.append(parents)
        seen |= parents
        current = parents
    return levels


def _root(lemma: str, words: BaseWords) -> tuple[str, str]:
    """(first isa parent, root of the isa tree) of a noun; the noun itself where it has none."""
    word = words.get(("N", lemma))
    parents = sorted(word.get("isa") or ()) if word is not None else []
    parent, top = (parents[0] if parents else lemma), lemma
    seen = {lemma}
    while True:
        node = words.get(("N", top))
        above = sorted(node.get("isa") or ()) if node is not None else []
        if not above or above[0] in seen:
            return parent, top
        top = above[0]
        seen.add(top)


def derive_concepts(
    rows: list[FactRow], spec: TableSpec, lexicon: Lexicon, words: BaseWords, tables: Tables
) -> RowsAndErrors:
    """One row per concept of ``properties``: the set of its properties (``relation:value``), the
    relations it has properties of, what it explicitly lacks (``lacks``), and its place in the isa
    tree (``parent``, ``top``). A concept has at most one ``made_of``: its usual material, so that
    'is not made of X' is true of it for every other material; every other lack is a row of the
    ``lacks`` table, checked by :func:`_written_lacks`."""
    grouped: dict[str, list[FactRow]] = defaultdict(list)
    for row in rows:
        grouped[row.get("concept")].append(row)
    lacked, errors = _written_lacks(grouped, tables.get("lacks", ()))
    materials_used = {row.get("value") for row in rows if row.get("relation") == "made_of"}
    out = []
    for concept, members in grouped.items():
        word = members[0].word("concept")
        if word.get("mass"):
            file, line = members[0].source.rsplit(":", 1)
            errors.append(
                LexiconError(
                    f"{concept!r} is a mass noun; concepts are count nouns (a question's answer, "
                    "'a(n) X' in a context)",
                    file,
                    int(line),
                    "concept",
                )
            )
            continue
        materials = [r for r in members if r.get("relation") == "made_of"]
        if len(materials) > 1:  # 'made of' is the one usual material: with two, 'not made of X' is unclear
            listed = ", ".join(r.get("value") for r in materials)
            for r in materials[1:]:
                file, line = r.source.rsplit(":", 1)
                errors.append(
                    LexiconError(
                        f"{concept!r} has more than one made_of ({listed}); made_of is the one "
                        "usual material: keep it, or leave made_of out where it varies",
                        file,
                        int(line),
                        "value",
                    )
                )
        parent, top = _root(concept, words)
        own_materials = {r.get("value") for r in materials}
        lacks = set(lacked.get(concept, ()))
        if len(own_materials) == 1:  # made of one usual material: not made of any other
            lacks |= {f"made_of:{m}" for m in materials_used - own_materials}
        values = {
            "concept": concept,
            "properties": frozenset(property_key(r) for r in members),
            "relations": frozenset(r.get("relation") for r in members),
            "lacks": frozenset(lacks),
            "parent": parent,
            "top": top,
            "classes": _classes(word),
        }
        out.append(FactRow(spec.name, members[0].fact_id, members[0].source, values, {"concept": word}))
    return out, errors


def _written_lacks(
    grouped: dict[str, list[FactRow]], rows: Iterable[FactRow]
) -> tuple[dict[str, set[str]], list[SpecError]]:
    """concept -> the ``relation:value`` keys its ``lacks`` rows give, and every problem: a concept
    properties does not describe, a value no concept of properties has (a typo would never be
    asked), a value the concept has, or a lacked part that begins the name of one of its parts (a
    bicycle has handlebars: it does not lack 'a handle')."""
    offered: dict[str, set[str]] = defaultdict(set)
    for members in grouped.values():
        for r in members:
            offered[r.get("relation")].add(r.get("value"))
    lacked: dict[str, set[str]] = defaultdict(set)
    errors: list[SpecError] = []
    for row in rows:
        file, line = row.source.rsplit(":", 1)
        concept, relation = row.get("concept"), row.get("relation")

        def problem(message: str, column: str, file: str = file, line: str = line) -> None:
            errors.append(LexiconError(message, file, int(line), column))

        if concept not in grouped:
            problem(f"{concept!r} has no row in properties: what it lacks is never asked", "concept")
            continue
        own = {r.get("value") for r in grouped[concept] if r.get("relation") == relation}
        for value in sorted(row.get("values")):
            if value not in offered[relation]:
                problem(
                    f"no concept of properties has {relation} {value!r}{did_you_mean(value, offered[relation])}",
                    "values",
                )
            elif value in own:
                problem(f"{concept!r} has {relation} {value!r} in properties; it cannot lack it", "values")
            elif relation == "has_part" and (near := _same_part(value, own)):
                problem(
                    f"{concept!r} has {near!r}, which names {value!r} under another name: leave it out of lacks",
                    "values",
                )
            else:
                lacked[concept].add(f"{relation}:{value}")
    return lacked, errors


def _same_part(value: str, parts: Iterable[str]) -> str | None:
    """A part of ``parts`` whose name begins with ``value``'s noun, or the other way round
    (handlebars and a handle, a keyboard and keys): the same part under another name."""

    def stem(text: str) -> str:
        noun = text.split()[-1]
        return noun[:-1] if noun.endswith("s") else noun

    wanted = stem(value)
    for part in sorted(parts):
        other = stem(part)
        if other != wanted and (other.startswith(wanted) or wanted.startswith(other)):
            return part
    return None


def property_key(row: FactRow) -> str:
    """``RELATION:VALUE``, how :data:`concepts` rows list a property."""
    return f"{row.get('relation')}:{row.get('value')}"


def _classes(word: Word) -> frozenset[str]:
    """The lexicon's semantic classes of a noun, but the catch-all ``artifact``."""
    return frozenset(word.get("class") or ()) - {"artifact"}


# How a property reads in a question, and negated: the relation's words, then the value.
PROPERTY_FRAMES = {
    "found_in": ("is usually found {}", "is not usually found {}"),
    "used_to": ("is used to {}", "is not used to {}"),
    "made_of": ("is made of {}", "is not made of {}"),
    "has_part": ("has {}", "does not have {}"),
}


def derive_property_facts(
    rows: list[FactRow], spec: TableSpec, lexicon: Lexicon, words: BaseWords, tables: Tables
) -> RowsAndErrors:
    """The properties with their key (``RELATION:VALUE``) and how they read in a question."""
    out = []
    for row in rows:
        positive, negative = PROPERTY_FRAMES[row.get("relation")]
        values = {
            **row.values(),
            "key": property_key(row),
            "phrase": positive.format(row.get("value")),
            "negated": negative.format(row.get("value")),
            "classes": _classes(row.word("concept")),
        }
        out.append(FactRow(spec.name, row.fact_id, row.source, values, {"concept": row.word("concept")}))
    return out, []


def derive_unique_uses(
    rows: list[FactRow], spec: TableSpec, lexicon: Lexicon, words: BaseWords, tables: Tables
) -> RowsAndErrors:
    """The ``used_to`` facts whose use belongs to one concept only (CPRAG-style expected words),
    each with every thing that could reasonably do the job (``uses``): a foil is none of them.

    Every use of ``properties`` needs a row of ``uses``, and that row must list the concepts
    used for it and name nouns of the lexicon only; a use nothing is used for is an error."""
    users: dict[str, set[str]] = defaultdict(set)
    errors: list[SpecError] = []
    for row in rows:
        if row.get("relation") == "used_to":
            users[row.get("value")].add(row.get("concept"))
    able: dict[str, frozenset[str]] = {}
    for row in tables.get("uses", ()):
        file, line = row.source.rsplit(":", 1)
        use, things = row.get("use"), row.get("able")
        if use not in users:
            errors.append(
                LexiconError(
                    f"no concept of properties is used to {use!r}{did_you_mean(use, users)}",
                    file,
                    int(line),
                    "use",
                )
            )
            continue
        unknown = sorted(t for t in things if ("N", t) not in words)
        missing = sorted(users[use] - things)
        if unknown or missing:
            problem = (
                f"unknown N lemma {unknown[0]!r}{did_you_mean(unknown[0], [lemma for c, lemma in words if c == 'N'])}"
                if unknown
                else f"{', '.join(missing)} is used to {use!r} in properties: list it"
            )
            errors.append(LexiconError(problem, file, int(line), "able"))
        able[use] = things
    out = []
    reported: set[str] = set()
    for row in rows:
        if row.get("relation") != "used_to":
            continue
        use = row.get("value")
        if use not in able:
            if use not in reported:
                reported.add(use)
                file, line = row.source.rsplit(":", 1)
                errors.append(
                    LexiconError(
                        f"the use {use!r} has no row in uses (what else could do it)", file, int(line), "value"
                    )
                )
            continue
        if len(users[use]) == 1:
            _, top = _root(row.get("concept"), words)
            values = {
                "concept": row.get("concept"),
                "use": use,
                "key": property_key(row),
                "top": top,
                "classes": _classes(row.word("concept")),
                "able": able[use],
            }
            out.append(FactRow(spec.name, row.fact_id, row.source, values, {"concept": row.word("concept")}))
    return out, errors


def derive_relation_pairs(
    rows: list[FactRow], spec: TableSpec, lexicon: Lexicon, words: BaseWords, tables: Tables
) -> RowsAndErrors:
    """word_pairs and the lexicon's adjective antonym/synonym pairs, both orders, with the subject
    a sentence about them takes (person: he or she; thing: it) and each word as the sentence
    says it (a noun with a/an unless it is a mass noun, a verb's -ing form)."""

    person, thing = words.get(("N", "man")), words.get(("N", "box"))
    categories = frozenset(lexicon.inventory.categories)
    errors: list[SpecError] = []

    def describes_people(word: Word) -> bool:
        """A human noun; an adjective or verb whose subject may be a man but not a box."""
        if word.category == "N":
            return bool(word.get("human"))
        # an inchoative verb's intransitive subject is its theme (arg2: the door opened)
        formula = word.get("arg2") if word.get("inchoative") else word.get("arg1")
        if person is None or thing is None or formula is None:
            return False
        return evaluate(formula, person, categories) and not evaluate(formula, thing, categories)

    def phrase(word: Word) -> str:
        if word.category == "N":
            return word.text if word.get("mass") else with_article(word.text)
        if word.category == "V":
            form = lexicon.other_form(word, vform="ing")
            return form.text if form is not None else word.text
        return word.text

    pairs: dict[frozenset[str], tuple[str, str, str, str, FactRow | None]] = {}
    for (category, lemma), word in sorted(words.items()):
        if category != "A":
            continue
        for relation in ("antonym", "synonym"):
            for other in sorted(word.get(relation) or ()):
                pairs.setdefault(
                    frozenset((category + lemma, category + other)), (lemma, other, relation, category, None)
                )
    for row in rows:
        category, first, second = row.get("category"), row.get("first"), row.get("second")
        file, line = row.source.rsplit(":", 1)
        key = frozenset((category + first, category + second))
        if first == second:
            errors.append(LexiconError(f"{first!r} cannot pair with itself", file, int(line), "second"))
        elif key in pairs:
            earlier = pairs[key][4]
            where = "the lexicon's features" if earlier is None else earlier.source
            errors.append(
                LexiconError(
                    f"{first}/{second} is already a pair in {where}; write a pair once", file, int(line), "first"
                )
            )
        elif category == "V" and any(row.word(c).get("stative") for c in ("first", "second")):
            errors.append(
                LexiconError(
                    f"{first}/{second}: a stative verb does not take the progressive "
                    "(the suite asks 'was [MASK] V-ing')",
                    file,
                    int(line),
                    "first",
                )
            )
        elif category == "V" and any(
            "intransitive" not in (row.word(c).get("frames") or ()) for c in ("first", "second")
        ):
            errors.append(
                LexiconError(
                    f"{first}/{second}: a verb without the intransitive frame needs an object "
                    "(the suite asks 'was [MASK] V-ing' with none)",
                    file,
                    int(line),
                    "first",
                )
            )
        else:
            pairs[key] = (first, second, row.get("relation"), category, row)
    out = []
    for first, second, relation, category, written in pairs.values():
        a, b = words[(category, first)], words[(category, second)]
        source = written.source if written is not None else str(a.lexeme.source)
        fact_id = written.fact_id if written is not None else f"lexicon:{a.lemma}/{b.lemma}"
        subject = "person" if describes_people(a) and describes_people(b) else "thing"
        genders = {w.get("gender") for w in (a, b)} & {"m", "f"}  # father/dad: he, never she
        if subject == "person" and len(genders) == 1:
            subject = {"m": "male", "f": "female"}[genders.pop()]
        elif subject == "person" and genders:
            file, line = source.rsplit(":", 1)
            errors.append(
                LexiconError(
                    f"{first}/{second}: the two words differ in gender, so no pronoun suits both",
                    file,
                    int(line),
                    "first",
                )
            )
            continue
        for x, y in ((a, b), (b, a)):
            values = {
                "first": x.lemma,
                "second": y.lemma,
                "relation": relation,
                "category": category,
                "subject": subject,
                "first_phrase": phrase(x),
                "second_phrase": phrase(y),
            }
            out.append(FactRow(spec.name, f"{fact_id}/{x.lemma}", source, values, {"first": x, "second": y}))
    return out, errors


def derive_country_facts(
    rows: list[FactRow], spec: TableSpec, lexicon: Lexicon, words: BaseWords, tables: Tables
) -> RowsAndErrors:
    """One row per country and official language, with ``own``: whether no other country lists the
    language, in this table or in ``shared_languages`` (so 'the country where X is an official
    language' names one)."""
    speakers: dict[str, int] = defaultdict(int)
    for row in rows:
        for language in row.get("languages"):
            speakers[language] += 1
    for row in tables.get("shared_languages", ()):
        speakers[row.get("language")] += 1
    return [
        FactRow(
            spec.name,
            f"{row.fact_id}/{language}",
            row.source,
            {**row.values(), "language": language, "own": "yes" if speakers[language] == 1 else "no"},
            {},
        )
        for row in rows
        for language in sorted(row.get("languages"))
    ], []


def derive_taxonomy_tops(
    rows: list[FactRow], spec: TableSpec, lexicon: Lexicon, words: BaseWords, tables: Tables
) -> RowsAndErrors:
    """The nouns with two or more hyponyms that are categories, each with its tree's split. A listed
    root that has a hypernym, and a tree with such a noun that is not listed, are errors."""
    children: dict[str, set[str]] = defaultdict(set)
    for (category, lemma), word in words.items():
        if category == "N":
            for parent in word.get("isa") or ():
                children[parent].add(lemma)
    errors: list[SpecError] = []
    splits: dict[str, str] = {}
    for row in rows:
        file, line = row.source.rsplit(":", 1)
        if row.word("root").get("isa"):
            errors.append(
                LexiconError(
                    f"{row.get('root')!r} is not a root: it is a kind of "
                    f"{', '.join(sorted(row.word('root').get('isa')))}",
                    file,
                    int(line),
                    "root",
                )
            )
        splits[row.get("root")] = row.get("split")
    out = []
    for top in sorted(children):
        categories = frozenset(c for c in children[top] if children.get(c))
        if len(categories) < 2 or ("N", top) not in words:
            continue
        _, root = _root(top, words)
        if root not in splits:
            file = rows[0].source.rsplit(":", 1)[0] if rows else spec.name
            errors.append(
                LexiconError(
                    f"the tree of {top!r} (root {root!r}) is on neither side of the split; "
                    f"add a row '{root}<TAB>train' or '{root}<TAB>dev'",
                    file,
                    1,
                    "root",
                )
            )
            continue
        values = {"top": top, "categories": categories, "root": root, "split": splits[root]}
        out.append(
            FactRow(
                spec.name,
                f"{spec.name}:{top}",
                str(words[("N", top)].lexeme.source),
                values,
                {"top": words[("N", top)]},
            )
        )
    return out, errors


def derive_natural_negations(
    rows: list[FactRow], spec: TableSpec, lexicon: Lexicon, words: BaseWords, tables: Tables
) -> RowsAndErrors:
    """Each look-alike with the thing's true category and the less natural false ones; a thing
    without a hypernym, a mass noun, or a look-alike the thing truly is, are errors."""
    children: dict[str, set[str]] = defaultdict(set)
    for (category, lemma), word in words.items():
        if category == "N":
            for parent in word.get("isa") or ():
                children[parent].add(lemma)
    errors: list[SpecError] = []
    out = []
    for row in rows:
        file, line = row.source.rsplit(":", 1)
        thing, wrong = row.word("thing"), row.get("mistaken_for")
        ancestors = frozenset(thing.get("ancestors") or ())
        if not thing.get("isa") or thing.get("mass"):
            errors.append(
                LexiconError(
                    f"{thing.lemma!r} needs a hypernym in the lexicon (isa) and must be a count "
                    "noun: it is what the affirmative sentence says",
                    file,
                    int(line),
                    "thing",
                )
            )
            continue
        if wrong in ancestors or wrong == thing.lemma:
            errors.append(
                LexiconError(
                    f"a {thing.lemma} is a kind of {wrong} in the lexicon's taxonomy, so denying it is false",
                    file,
                    int(line),
                    "mistaken_for",
                )
            )
            continue
        _, root = _root(thing.lemma, words)
        tree = {
            lemma
            for (category, lemma), word in words.items()
            if category == "N" and (lemma == root or root in (word.get("ancestors") or ())) and children.get(lemma)
        }
        # what the look-alike is and what is under it are as natural to deny (a frog is not a snake)
        near = {wrong, *(row.word("mistaken_for").get("ancestors") or ())}
        near |= {
            lemma
            for (category, lemma), word in words.items()
            if category == "N" and wrong in (word.get("ancestors") or ())
        }
        others = frozenset(tree - ancestors - near - {thing.lemma})
        values = {
            "thing": thing.lemma,
            "category": min(thing.get("isa")),
            "mistaken_for": wrong,
            "ancestors": ancestors,
            "others": others,
        }
        out.append(
            FactRow(
                spec.name,
                row.fact_id,
                row.source,
                values,
                {
                    "thing": thing,
                    "category": words[("N", values["category"])],
                    "mistaken_for": row.word("mistaken_for"),
                },
            )
        )
    return out, errors


Derivation = Callable[[list[FactRow], TableSpec, Lexicon, BaseWords, Tables], RowsAndErrors]
DERIVATIONS: dict[str, Derivation] = {
    "frequency_facts": derive_frequency_facts,
    "concepts": derive_concepts,
    "property_facts": derive_property_facts,
    "unique_uses": derive_unique_uses,
    "relation_pairs": derive_relation_pairs,
    "country_facts": derive_country_facts,
    "taxonomy_tops": derive_taxonomy_tops,
    "natural_negations": derive_natural_negations,
}
