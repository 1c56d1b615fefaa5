"""The constraint language: small boolean formulas over word features.

Used in paradigm specs (slot constraints) and inside the lexicon (selectional restrictions)::

    N and animate and not human            # category, flags, negation
    class=food,drink or mass               # a value list means "any of"
    number = subj.number                   # a reference to a feature of an earlier slot
    gender ~ subj.gender                   # ~ : equal, or either side lacks the feature
    fits(verb.arg2)                        # satisfies the formula stored in verb's arg2
    takes(arg1, subj)                      # this word's own arg1 formula accepts subj
    not noun.animate                       # a flag of an earlier slot (here: the noun is inanimate)
    N and isa                              # a bare relation: has at least one (a noun with a hypernym)
    lemma = leaf.isa                       # my lemma is one of leaf's isa lemmas (a relation is a set)
    isa = parent.lemma                     # a noun that is a kind of parent (parent in my isa)

Grammar::

    expr   := conj ('or' conj)*
    conj   := neg ('and' neg)*
    neg    := 'not' neg | '(' expr ')' | call | test
    call   := 'fits' '(' ref ')' | 'takes' '(' NAME ',' slot_or_ref ')'
    test   := NAME [('=' | '!=' | '~') value (',' value)*]  |  ref   (a flag or relation of an earlier slot)
    value  := NAME | ref            ref := NAME '.' NAME ('.' NAME)*

A bare NAME is a category (``N``), a boolean feature (``animate``) or a relation feature, true
when the word relates to at least one word (``isa``); a bare reference is likewise true when the
referenced flag is true or the referenced relation is non-empty. Formulas are parsed once
and compiled to Python closures; a formula's top-level conjuncts without references can be
evaluated once per lexicon and cached (see :func:`split_static`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from blimpgen.errors import SpecError, did_you_mean

TOKEN_RE = re.compile(r"\s*(?:(?P<op>!=|[=~(),])|(?P<name>[A-Za-z0-9_'][A-Za-z0-9_'\-]*(?:\.[A-Za-z0-9_'\-]+)*))")
KEYWORDS = {"and", "or", "not", "fits", "takes"}


class FeatureSource(Protocol):
    """Anything whose features a formula can test (a Word, or a phrase through its head)."""

    def get(self, name: str) -> Any: ...


@dataclass(frozen=True)
class Ref:
    """A reference to an earlier slot's feature or attribute: ``subj.number``."""

    path: tuple[str, ...]

    def __str__(self) -> str:
        return ".".join(self.path)


# AST nodes are tuples: ("or", a, b, ...), ("and", ...), ("not", x), ("test", name, op, values),
# ("fits", Ref), ("takes", feature, Ref), ("flag", Ref) - a referenced flag is true (or relation non-empty).
# Plain tuples, hashable and cheap to cache on; their items differ by the node's kind, hence Any.
Node = tuple[Any, ...]


def tokenize(text: str) -> list[str]:
    """Split a formula into tokens.

    Raises:
        SpecError: at the first character that cannot start a token.
    """
    tokens: list[str] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        match = TOKEN_RE.match(text, pos)
        if not match or match.end() == pos:
            raise SpecError(f"unexpected {text[pos:].strip()[:12]!r} at column {pos + 1} in {text!r}")
        tokens.append(match.group("op") or match.group("name"))
        pos = match.end()
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            found = "end of formula" if token is None else repr(token)
            want = repr(expected) if expected else "more"
            raise SpecError(f"expected {want}, found {found} in {self.text!r}")
        self.pos += 1
        return token

    def parse(self) -> Node:
        if not self.tokens:
            raise SpecError("empty formula")
        node = self.expr()
        if self.peek() is not None:
            raise SpecError(f"unexpected {self.peek()!r} in {self.text!r}")
        return node

    def expr(self) -> Node:
        items = [self.conj()]
        while self.peek() == "or":
            self.take()
            items.append(self.conj())
        return items[0] if len(items) == 1 else ("or", *items)

    def conj(self) -> Node:
        items = [self.neg()]
        while self.peek() == "and":
            self.take()
            items.append(self.neg())
        return items[0] if len(items) == 1 else ("and", *items)

    def neg(self) -> Node:
        token = self.peek()
        if token == "not":
            self.take()
            return ("not", self.neg())
        if token == "(":
            self.take()
            node = self.expr()
            self.take(")")
            return node
        if token in ("fits", "takes"):
            self.take()
            self.take("(")
            if token == "fits":
                node = ("fits", self.ref())
            else:
                feature = self.name()
                self.take(",")
                node = ("takes", feature, self.ref())
            self.take(")")
            return node
        name = self.name()
        if "." in name:
            if self.peek() in ("=", "!=", "~"):
                raise SpecError(f"a reference ({name}) goes on the right: write 'feature = {name}'")
            return ("flag", Ref(tuple(name.split("."))))
        if self.peek() in ("=", "!=", "~"):
            op = self.take()
            values = [self.value()]
            while self.peek() == ",":
                self.take()
                values.append(self.value())
            return ("test", name, op, tuple(values))
        return ("test", name, None, ())

    def name(self) -> str:
        token = self.take()
        if token in KEYWORDS or not TOKEN_RE.fullmatch(token) or token in "=~(),":
            raise SpecError(f"expected a name, found {token!r} in {self.text!r}")
        return token

    def ref(self) -> Ref:
        return Ref(tuple(self.name().split(".")))

    def value(self) -> str | Ref:
        token = self.name()
        return Ref(tuple(token.split("."))) if "." in token else token


@lru_cache(maxsize=4096)
def parse(text: str) -> Node:
    """Parse a formula into its AST (cached).

    Raises:
        SpecError: on a syntax error, naming the offending token.
    """
    return _Parser(str(text)).parse()


def refs(node: Node) -> list[Ref]:
    """All references in a formula, in order."""
    kind = node[0]
    if kind in ("or", "and"):
        return [r for child in node[1:] for r in refs(child)]
    if kind == "not":
        return refs(node[1])
    if kind in ("fits", "flag"):
        return [node[1]]
    if kind == "takes":
        return [node[2]]
    return [v for v in node[3] if isinstance(v, Ref)]


def feature_names(node: Node) -> set[str]:
    """Features (and ``category``) a reference-free formula tests."""
    kind = node[0]
    if kind in ("or", "and"):
        return set().union(*(feature_names(c) for c in node[1:]))
    if kind == "not":
        return feature_names(node[1])
    if kind == "test":
        name, op = node[1], node[2]
        if op is None and name[:1].isupper():
            return {"category"}
        return {name}
    return set()


def split_static(node: Node) -> tuple[list[Node], list[Node]]:
    """Split top-level conjuncts into those without and those with references."""
    conjuncts = list(node[1:]) if node[0] == "and" else [node]
    static = [c for c in conjuncts if not refs(c)]
    dynamic = [c for c in conjuncts if refs(c)]
    return static, dynamic


def check(node: Node, inventory: Any, slots: Iterable[str] | None = None) -> list[str]:
    """Return error messages for unknown categories, features, values or slot names.

    Args:
        node: a parsed formula.
        inventory: the :class:`~blimpgen.vocab.features.FeatureInventory`.
        slots: names references may start with; ``None`` forbids references (lexicon formulas).
    """
    from blimpgen.vocab.features import PSEUDO_FEATURES

    errors: list[str] = []
    slot_names = set(slots or ())

    def check_ref(ref: Ref) -> None:
        if slots is None:
            errors.append(f"references ({ref}) are not allowed here")
        elif ref.path[0] not in slot_names:
            errors.append(
                f"unknown slot {ref.path[0]!r} in {ref}"
                f"{did_you_mean(ref.path[0], slot_names)} (only earlier slots can be referenced)"
            )

    def visit(n: Node) -> None:
        kind = n[0]
        if kind in ("or", "and"):
            for child in n[1:]:
                visit(child)
        elif kind == "not":
            visit(n[1])
        elif kind in ("fits", "flag"):
            check_ref(n[1])
        elif kind == "takes":
            feat = inventory.features.get(n[1])
            if feat is None or feat.type != "formula":
                formulas = [f for f, v in inventory.features.items() if v.type == "formula"]
                errors.append(f"takes() needs a formula feature, not {n[1]!r}{did_you_mean(n[1], formulas)}")
            check_ref(n[2])
        else:
            _, name, op, values = n
            if op is None:
                if name in inventory.categories:
                    return
                feat = inventory.features.get(name)
                if feat is None:
                    errors.append(
                        f"unknown category or feature {name!r}"
                        f"{did_you_mean(name, list(inventory.categories) + list(inventory.features))}"
                    )
                elif feat.type not in ("bool", "relation"):
                    example = f"{name}={feat.values[0]}" if feat.values else f"{name}=..."
                    article = "an" if feat.type[0] in "aeiou" else "a"
                    errors.append(
                        f"{name!r} is {article} {feat.type} feature; compare it, e.g. {example} (only "
                        f"categories, flags and relations stand bare; a bare relation means "
                        f"'has at least one')"
                    )
                return
            if name in PSEUDO_FEATURES:
                if name == "category":
                    for v in values:
                        if not isinstance(v, Ref) and v not in inventory.categories:
                            errors.append(f"unknown category {v!r}{did_you_mean(v, inventory.categories)}")
                for v in values:
                    if isinstance(v, Ref):
                        check_ref(v)
                return
            feat = inventory.features.get(name)
            if feat is None:
                errors.append(
                    f"unknown feature {name!r}{did_you_mean(name, list(inventory.features) + list(PSEUDO_FEATURES))}"
                )
                return
            for v in values:
                if isinstance(v, Ref):
                    check_ref(v)
                elif feat.type in ("enum", "set") and v not in feat.values:
                    errors.append(f"{name} has no value {v!r}{did_you_mean(v, feat.values)}")
                elif feat.type == "bool" and v not in ("true", "false"):
                    errors.append(f"{name} is a flag: write {name}, not {name} or {name}=true/false")
                elif feat.type == "relation" and v in ("true", "false"):
                    errors.append(
                        f"{name} is a relation: write {name} (has one) or not {name}, "
                        f"or compare it with lemmas ({name}=x, lemma = slot.{name})"
                    )

    visit(node)
    return errors


Resolver = Callable[[Ref], Any]
Predicate = Callable[[FeatureSource, "Resolver | None"], bool]


def resolve_ref(resolver: Resolver | None, ref: Ref) -> Any:
    """The value ``ref`` stands for, by ``resolver``.

    Raises:
        SpecError: when there is no resolver: the formula was taken for reference-free, and
            :func:`check` with ``slots=None`` should have refused it.
    """
    if resolver is None:
        raise SpecError(f"references ({ref}) are not allowed here")
    return resolver(ref)


def _wanted_set(values: Iterable[Any]) -> frozenset[Any]:
    """Normalise comparison values: sets are flattened, booleans become "true"/"false"."""
    out: set[Any] = set()
    for w in values:
        if w is None:
            continue
        if isinstance(w, frozenset):
            out |= w
        elif isinstance(w, bool):
            out.add("true" if w else "false")
        else:
            out.add(w)
    return frozenset(out)


def present(value: Any) -> bool:
    """What a bare name or reference tests: a true flag, or a relation (set) with a member."""
    return value is True or (isinstance(value, frozenset) and bool(value))


def _matches(value: Any, wanted: frozenset[Any]) -> bool:
    if value is None:
        return False
    if isinstance(value, bool):
        return ("true" if value else "false") in wanted
    if isinstance(value, frozenset):
        return not value.isdisjoint(wanted)
    return value in wanted


def compile_formula(node: Node, categories: frozenset[str]) -> Predicate:
    """Compile an AST into ``predicate(word, resolve) -> bool``.

    ``resolve(ref)`` returns the referenced value (a feature value, a formula string, or a
    word/phrase for ``takes``); it may be ``None`` for formulas without references.
    """
    kind = node[0]
    if kind == "or":
        parts = [compile_formula(c, categories) for c in node[1:]]
        return lambda w, r: any(p(w, r) for p in parts)
    if kind == "and":
        parts = [compile_formula(c, categories) for c in node[1:]]
        return lambda w, r: all(p(w, r) for p in parts)
    if kind == "not":
        inner = compile_formula(node[1], categories)
        return lambda w, r: not inner(w, r)
    if kind == "fits":
        ref = node[1]

        def fits(w: FeatureSource, r: Resolver | None) -> bool:
            formula = resolve_ref(r, ref)
            return formula is not None and evaluate(formula, w, categories)

        return fits
    if kind == "flag":
        flag_ref = node[1]
        return lambda w, r: present(resolve_ref(r, flag_ref))
    if kind == "takes":
        feature, ref = node[1], node[2]

        def takes(w: FeatureSource, r: Resolver | None) -> bool:
            formula, other = w.get(feature), resolve_ref(r, ref)
            return formula is not None and other is not None and evaluate(formula, other, categories)

        return takes
    _, name, op, values = node
    if op is None:
        if name in categories:
            return lambda w, r: w.get("category") == name
        return lambda w, r: present(w.get(name))
    constants = _wanted_set(v for v in values if not isinstance(v, Ref))
    references = tuple(v for v in values if isinstance(v, Ref))

    def wanted(r: Resolver | None) -> frozenset[Any]:
        return constants | _wanted_set(resolve_ref(r, ref) for ref in references) if references else constants

    if op == "=":
        return lambda w, r: _matches(w.get(name), wanted(r))
    if op == "!=":
        return lambda w, r: not _matches(w.get(name), wanted(r))

    def compatible(w: FeatureSource, r: Resolver | None) -> bool:
        value = w.get(name)
        want = wanted(r)
        return value is None or not want or _matches(value, want)

    return compatible


@lru_cache(maxsize=8192)
def _compiled(text: str, categories: frozenset[str]) -> Predicate:
    return compile_formula(parse(text), categories)


def evaluate(formula: str, word: FeatureSource, categories: frozenset[str]) -> bool:
    """Evaluate a reference-free formula (e.g. a selectional restriction) on a word."""
    return _compiled(formula, categories)(word, None)
