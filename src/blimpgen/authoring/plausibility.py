"""``blimpgen audit --plausibility``: which predicate/argument combinations a paradigm produces.

Every acceptable sentence describes one or more *events*: a verb with its subject (``arg1``),
object (``arg2``) and recipient (``arg3``), or an adjective with the noun it describes. This
module reads those links off a paradigm's slots, with no knowledge of particular paradigms:

* a ``verb_group`` with ``subject: S`` links its verb to S as ``arg1``;
* an ``args`` slot links its verb to the object (``arg2``) and recipient (``arg3``), and a
  ``clause`` (also one inside an ``args``) links its own subject, verb and objects;
* a formula ``takes(argN, S)`` in a slot makes that slot's word the predicate and S its
  argument; ``fits(V.argN)`` makes the slot's head an argument of V (a negated ``not fits``
  or ``not takes`` is no link).

It then generates pairs and counts, per paradigm, the class of each argument (a short label
from the noun's features: ``person``, ``person:child``, ``animal:pet``, ``event:disaster``,
``food``...) for each predicate: which *subject class x predicate x object class*
combinations the sampler produces and how often. Combinations are sorted so that the
implausible ones stand out: those the corpus evidence file does not attest come first (when
one is given), then those whose subject is least likely to be an agent (a thing, then an
animal or a small child, then an event or a document, then a person), most frequent first.

The evidence file (built by ``tools/lexicon/count_cooccurrence.py`` from Brown and
WikiText-2) is optional: TAB-separated ``predicate role label count`` lines, where a
``label`` of ``*`` gives the predicate's total for that role.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from blimpgen.errors import DataError, GenerationError
from blimpgen.generators.catalog import Catalog, sources_as
from blimpgen.generators.generate import generate_with_bindings
from blimpgen.generators.kinds.base import Phrase
from blimpgen.generators.kinds.clauses import ArgsKind, Clause
from blimpgen.generators.kinds.verbs import VerbGroupKind
from blimpgen.generators.paradigm import Paradigm
from blimpgen.grammar import ParadigmSpec
from blimpgen.grammar.templates import used_variables
from blimpgen.vocab.lexeme import Word

TAKES_RE = re.compile(r"(not\s+)?takes\(\s*(arg[123])\s*,\s*([A-Za-z_]\w*)\s*\)")
FITS_RE = re.compile(r"(not\s+)?fits\(\s*([A-Za-z_]\w*)\.(arg[123])\s*\)")
ROLES = ("arg1", "arg2", "arg3")
# The most specific class wins when a noun has several (a cod is animal and food: animal).
CLASS_ORDER = (
    "person",
    "animal",
    "plant",
    "food",
    "drink",
    "body_part",
    "document",
    "art",
    "vehicle",
    "clothing",
    "furniture",
    "container",
    "device",
    "tool",
    "building",
    "location",
    "institution",
    "group",
    "event",
    "time",
    "natural_object",
    "substance",
    "abstract",
    "artifact",
)
# How likely an argument of this kind is to act as an agent: lower sorts first (more suspicious).
AGENCY = {"thing": 0, "animal": 1, "young": 1, "cause": 2, "collective": 3, "person": 4}
TOP = 25


@dataclass(frozen=True)
class Link:
    """``role`` of the predicate in slot ``predicate`` is the head of slot ``argument``."""

    predicate: str
    role: str
    argument: str


def label(word: Any) -> str:
    """A short class label for a noun or name, from its features (``person:child``, ``food``)."""
    if word is None:
        return "-"
    if word.get("category") == "PN":
        return "name"
    if word.get("human"):
        age = word.get("age")
        return f"person:{age}" if age else "person"
    classes = word.get("class") or frozenset()
    if "animal" in classes:
        kind = word.get("domestic") or word.get("taxon")
        if isinstance(kind, frozenset):
            kind = ",".join(sorted(kind))
        return f"animal:{kind}" if kind else "animal"
    for name in CLASS_ORDER:
        if name in classes:
            sub = {"event": "event_type", "abstract": "concept"}.get(name)
            value = word.get(sub) if sub else None
            if isinstance(value, frozenset):
                value = ",".join(sorted(value))
            return f"{name}:{value}" if value else name
    return word.get("category") or "?"


def agency(text: str) -> int:
    """Rank of a label on :data:`AGENCY` (how plausible it is as a doer)."""
    head = text.split(":")[0]
    if head in ("person", "name"):
        return AGENCY["young"] if text in ("person:baby", "person:child") else AGENCY["person"]
    if head == "animal":
        return AGENCY["animal"]
    if head in ("institution", "group"):
        return AGENCY["collective"]
    if head in ("event", "document", "art") or text == "-":
        return AGENCY["cause"]
    return AGENCY["thing"]


def good_slots(body: Any) -> set[str]:
    """Slots the acceptable sentence prints (a slot used only in the bad one, such as the wrong
    verb of an argument-structure contrast, describes no event anyone is asked to accept)."""
    source = body.variant.templates().get("sentence_good")
    if not source:
        return {name for name, _ in body.slots}
    return used_variables(source)


def slot_links(paradigm: Paradigm) -> list[list[Link]]:
    """The predicate-argument links each body (variant) of a paradigm declares, between slots
    the acceptable sentence prints."""

    out = []
    for body in paradigm.bodies:
        printed = good_slots(body)
        links: list[Link] = []
        for name, kind in body.slots:
            if isinstance(kind, VerbGroupKind) and kind.params.subject and kind.params.select_subject:
                links.append(Link(name, "arg1", kind.params.subject))
            if isinstance(kind, ArgsKind):
                verb = kind.params.verb
                links += [Link(verb, "arg2", f"{name}.object"), Link(verb, "arg3", f"{name}.recipient")]
            for value in kind.params.model_dump().values():
                if not isinstance(value, str):
                    continue
                links += [Link(name, role, arg) for neg, role, arg in TAKES_RE.findall(value) if not neg]
                links += [Link(pred, role, name) for neg, pred, role in FITS_RE.findall(value) if not neg]
        out.append(
            [
                link
                for link in dict.fromkeys(links)
                if link.predicate.split(".")[0] in printed and link.argument.split(".")[0] in printed
            ]
        )
    return out


def _value(bindings: dict, path: str) -> Any:
    value = bindings.get(path.split(".")[0])
    for part in path.split(".")[1:]:
        if value is None:
            return None
        value = value.parts.get(part) if isinstance(value, Phrase) else None
    return value


def _head(value: Any) -> Word | None:
    """The word a slot value stands for: a word itself, or a phrase's head."""
    if isinstance(value, Word):
        return value
    if isinstance(value, Phrase):
        return value.head if isinstance(value.head, Word) else None
    return None


@dataclass(frozen=True)
class Event:
    """One predicate with the argument words the sentence gives it."""

    predicate: Word
    arguments: tuple[tuple[str, Word], ...]

    def key(self) -> tuple[str, ...]:
        """(predicate, arg1 label, arg2 label, arg3 label); ``-`` for a role not filled."""
        found = dict(self.arguments)
        return (f"{self.predicate.lemma}", *(label(found.get(role)) if role in found else "-" for role in ROLES))


def _nested(value: Any) -> Iterator[Event]:
    """Events inside clause phrases (a clause slot, or an ``args`` that took a that-clause)."""

    if isinstance(value, Clause):
        verb, args = value.parts["verb"], value.parts["args"]
        arguments = [("arg1", _head(value.parts["subject"]))]
        arguments += [(role, _head(args.parts.get(part))) for role, part in (("arg2", "object"), ("arg3", "recipient"))]
        yield Event(verb.head, tuple((r, w) for r, w in arguments if w is not None))
        yield from _nested(args)
    elif isinstance(value, Phrase):
        for part in value.parts.values():
            if isinstance(part, Phrase):
                yield from _nested(part)


def events(links: list[Link], bindings: dict, printed: set[str] | None = None) -> list[Event]:
    """The events of one set of bindings, given its body's links (and the slots the good
    sentence prints, whose clauses are searched for nested events)."""
    by_predicate: dict[str, tuple[Word, dict[str, Word]]] = {}  # slot path -> (its word, role -> argument)
    for link in links:
        argument = _head(_value(bindings, link.argument))
        predicate = _head(_value(bindings, link.predicate))
        if argument is not None and predicate is not None:
            by_predicate.setdefault(link.predicate, (predicate, {}))[1].setdefault(link.role, argument)
    out = [Event(predicate, tuple(sorted(arguments.items()))) for predicate, arguments in by_predicate.values()]
    for name, value in bindings.items():
        if printed is None or name in printed:
            out += list(_nested(value))
    return out


class Evidence:
    """Corpus counts per (predicate, role, label), from a TSV file; empty when there is none."""

    def __init__(self, counts: dict[tuple[str, str, str], int] | None = None, source: str = "") -> None:
        self.counts = counts or {}
        self.source = source

    @classmethod
    def read(cls, path: str | Path) -> Evidence:
        """Read ``predicate<TAB>role<TAB>label<TAB>count`` lines (``#`` comments allowed).

        Raises:
            DataError: on a malformed line, with ``file:line``.
        """
        counts: dict[tuple[str, str, str], int] = {}
        for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 4 or parts[1] not in ROLES or not parts[3].isdigit():
                raise DataError(
                    f"{path}:{number}: expected predicate, role (arg1-3), label and a count, "
                    f"TAB-separated; got {line!r}"
                )
            counts[(parts[0], parts[1], parts[2])] = int(parts[3])
        return cls(counts, str(path))

    def __bool__(self) -> bool:
        return bool(self.counts)

    def attested(self, predicate: str, role: str, text: str) -> int | None:
        """Corpus count of ``text``-class arguments in ``role`` of ``predicate``; ``None`` when the
        predicate is not seen often enough in that role (5 times) for a zero to mean anything."""
        if text == "-" or self.counts.get((predicate, role, "*"), 0) < 5:
            return None
        if text == "name":  # the corpora count common nouns; a first name is a person
            text = "person"
        return self.counts.get((predicate, role, text), 0) + (
            self.counts.get((predicate, role, text.split(":")[0]), 0) if ":" in text else 0
        )


@dataclass
class PlausibilityResult:
    """What one paradigm's sampler produced.

    Attributes:
        uid: the paradigm.
        pairs: pairs generated.
        combinations: (predicate, arg1, arg2, arg3 labels) -> events.
        predicates: predicate lemma -> pairs it occurs in.
        arg1: arg1 label -> events (over every predicate).
        error: why fewer pairs than asked were made, if so.
    """

    uid: str
    pairs: int = 0
    combinations: Counter = field(default_factory=Counter)
    predicates: Counter = field(default_factory=Counter)
    arg1: Counter = field(default_factory=Counter)
    error: str = ""

    def ranked(self, evidence: Evidence | None = None) -> list[tuple[tuple[str, str, str, str], int, list[str]]]:
        """Combinations, most suspicious first, each with its unattested roles (with evidence)."""
        rows = []
        for key, count in self.combinations.items():
            unattested = []
            if evidence:
                unattested = [role for role, text in zip(ROLES, key[1:]) if evidence.attested(key[0], role, text) == 0]
            rows.append((key, count, unattested))
        return sorted(rows, key=lambda r: (not r[2], agency(r[0][1]), -r[1], r[0]))


def audit_plausibility(paradigm: Paradigm, n: int = 1000, seed: int = 0) -> PlausibilityResult:
    """Generate up to ``n`` pairs and count their events; a shortfall is recorded, not raised."""
    result = PlausibilityResult(paradigm.uid)
    links = slot_links(paradigm)
    printed = [good_slots(body) for body in paradigm.bodies]
    try:
        for _, bindings in generate_with_bindings(paradigm, n, seed):
            result.pairs += 1
            branch = bindings.get("#branch", 0)
            found = events(links[branch], bindings, printed[branch])
            for event in found:
                key = event.key()
                result.combinations[key] += 1
                result.arg1[key[1]] += 1
            result.predicates.update({e.predicate.lemma for e in found})
    except GenerationError as exc:
        result.error = f"only {result.pairs} of {n} pairs: {exc}"
    return result


def plausibility_catalog(
    catalog: Catalog, uids: Sequence[str] | None = None, n: int = 1000, seed: int = 0
) -> list[PlausibilityResult]:
    """The plausibility audit of the named paradigms of a catalogue (every paradigm when ``uids`` is None).

    Raises:
        UnknownNameError: for an unknown UID.
        OptionError: for a probe suite: the audit reads the argument links of minimal pairs.
    """
    paradigms = catalog.build(
        uids, ParadigmSpec, purpose="; the plausibility audit reads minimal pairs, not probe items"
    )
    return [audit_plausibility(paradigm, n, seed) for paradigm in sources_as(paradigms, Paradigm)]


def _share(count: int, total: int) -> str:
    return f"{100 * count / total:.0f}%" if total else "-"


def _combination(key: tuple[str, str, str, str]) -> str:
    predicate, *labels = key
    args = [f"{role}={text}" for role, text in zip(ROLES, labels) if text != "-"]
    return f"{predicate}({', '.join(args)})"


def render_text(results: Iterable[PlausibilityResult], evidence: Evidence | None = None, top: int = TOP) -> str:
    """One block per paradigm: subject classes, busiest predicates, combinations (suspicious first)."""
    lines = []
    for r in results:
        events_total = sum(r.combinations.values())
        lines.append(f"{r.uid}: {r.pairs} pairs, {events_total} events, {len(r.combinations)} combinations")
        lines.append("  arg1 classes: " + ", ".join(f"{k} {_share(v, events_total)}" for k, v in r.arg1.most_common(8)))
        lines.append(
            "  predicates (share of pairs): "
            + ", ".join(f"{k} {_share(v, r.pairs)}" for k, v in r.predicates.most_common(6))
        )
        for key, count, unattested in r.ranked(evidence)[:top]:
            mark = f"  unattested: {','.join(unattested)}" if unattested else ""
            lines.append(f"  {count:5d}  {_combination(key)}{mark}")
        if r.error:
            lines.append(f"  note: {r.error}")
    return "\n".join(lines) + "\n"


def render_markdown(
    results: Iterable[PlausibilityResult], n: int, seed: int, evidence: Evidence | None = None, top: int = 8
) -> str:
    """The docs page (``blimpgen audit --plausibility --all --markdown -o docs/plausibility.md``)."""
    results = sorted(results, key=lambda r: r.uid)
    source = f" --evidence {evidence.source}" if evidence else ""
    lines = [
        "# Plausibility audit",
        "",
        f"Generated by `blimpgen audit --plausibility --all -n {n} --seed {seed}{source} --markdown "
        "-o docs/plausibility.md`; do not edit.",
        "Each acceptable sentence describes events: a verb with its subject (arg1), object (arg2) and "
        "recipient (arg3), or an adjective with its noun (arg1). Arguments are shown by class label "
        "(from the noun's features). *Thing subjects* is the share of events whose arg1 is neither a "
        "person, an animal, an institution or group, nor an event, document or work; *animal subjects* "
        "those with an animal arg1. The last column lists the combinations least likely to be "
        "plausible first (a thing or animal as arg1 before a person), most frequent first.",
        "",
        "| UID | pairs | events | combinations | thing subjects | animal subjects | busiest predicates | "
        "combinations to look at first |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        total = sum(r.combinations.values())
        things = sum(v for k, v in r.arg1.items() if agency(k) == AGENCY["thing"] and k != "-")
        animals = sum(v for k, v in r.arg1.items() if k.startswith("animal"))
        busiest = ", ".join(f"{k} {_share(v, r.pairs)}" for k, v in r.predicates.most_common(3))
        worst = "; ".join(f"{_combination(key)} {count}" for key, count, _ in r.ranked(evidence)[:top])
        lines.append(
            f"| `{r.uid}` | {r.pairs} | {total} | {len(r.combinations)} | {_share(things, total)} | "
            f"{_share(animals, total)} | {busiest} | {worst.replace('|', '/')} |"
        )
    return "\n".join(lines) + "\n"
