"""Relation features (``isa``, ``antonym``, ``synonym``): checking and completing them at load.

A relation row names other words by lemma (``robin  N  isa=bird``). Rows are parsed one at a
time, so only once every file is read can the loader tell whether ``bird`` exists. This module
runs at that point, on the parsed lexemes and before their forms are derived, and

- checks that every named lemma exists in the relation's ``target`` category (did-you-mean
  otherwise) and that no word names itself;
- completes ``symmetric`` relations (``hot antonym=cold`` gives ``cold`` ``antonym=hot``);
- rejects pairs related by two ``disjoint`` relations (a pair both antonym and synonym);
- derives ``closure_of`` relations (``ancestors``, the transitive closure of ``isa``) and
  rejects cycles in the relation they close.

Every problem is a :class:`~blimpgen.errors.LexiconError` at the row that wrote the relation
(``nouns.tsv:12: isa: unknown N lemma 'brid'; did you mean 'bird'?``). Values are rewritten in
place on each lexeme's feature dict, as frozensets of lemmas.
"""

from __future__ import annotations

from collections import defaultdict

from blimpgen.errors import LexiconError, SpecError, did_you_mean
from blimpgen.vocab.features import Feature, FeatureInventory
from blimpgen.vocab.lexeme import Lexeme


def link_relations(lexemes: list[Lexeme], inventory: FeatureInventory) -> list[SpecError]:
    """Check, complete and derive the relation features of ``lexemes`` (in place).

    Returns:
        every problem found, in row order per check.
    """
    relations = [f for f in inventory.features.values() if f.type == "relation"]
    if not relations:
        return []
    by_lemma: dict[str, dict[str, list[Lexeme]]] = defaultdict(lambda: defaultdict(list))
    for lexeme in lexemes:
        by_lemma[lexeme.category][lexeme.lemma].append(lexeme)
    errors: list[SpecError] = []
    written = [f for f in relations if not f.closure_of]
    for feature in written:
        errors += _check_targets(lexemes, feature, by_lemma[feature.target])
    for feature in written:
        if feature.symmetric:
            _complete(lexemes, feature, by_lemma[feature.target])
    pairs = {frozenset((f.name, other)) for f in written for other in f.disjoint}
    for pair in sorted(pairs, key=sorted):
        first, second = sorted(pair)
        errors += _overlaps(lexemes, inventory.features[first], inventory.features[second])
    for feature in relations:
        if feature.closure_of:
            errors += _close(lexemes, feature, inventory.features[feature.closure_of], by_lemma[feature.target])
    return errors


def _check_targets(lexemes: list[Lexeme], feature: Feature, known: dict[str, list[Lexeme]]) -> list[SpecError]:
    errors: list[SpecError] = []
    for lexeme in lexemes:
        value = lexeme.features.get(feature.name)
        if value is None:
            continue
        where = (lexeme.source.file, lexeme.source.line, feature.name)
        keep = set()
        for lemma in sorted(value):
            if lemma not in known:
                errors.append(
                    LexiconError(f"unknown {feature.target} lemma {lemma!r}{did_you_mean(lemma, known)}", *where)
                )
            elif lexeme.category == feature.target and lemma == lexeme.lemma:
                errors.append(LexiconError(f"{lemma!r} cannot be its own {feature.name}", *where))
            else:
                keep.add(lemma)
        _set(lexeme, feature.name, keep)
    return errors


def _complete(lexemes: list[Lexeme], feature: Feature, known: dict[str, list[Lexeme]]) -> None:
    """Add the inverse of every pair of a symmetric relation."""
    for lexeme in lexemes:
        for lemma in lexeme.features.get(feature.name, ()):
            for other in known[lemma]:
                _set(other, feature.name, other.features.get(feature.name, frozenset()) | {lexeme.lemma})


def _overlaps(lexemes: list[Lexeme], feature: Feature, other: Feature) -> list[SpecError]:
    """Pairs related by both ``feature`` and ``other``, reported once, at the first row."""
    errors: list[SpecError] = []
    seen: set[frozenset[str]] = set()
    for lexeme in lexemes:
        both = lexeme.features.get(feature.name, frozenset()) & lexeme.features.get(other.name, frozenset())
        for lemma in sorted(both):
            pair = frozenset((lexeme.lemma, lemma))
            if pair in seen:
                continue
            seen.add(pair)
            errors.append(
                LexiconError(
                    f"{lexeme.lemma!r} and {lemma!r} are both {feature.name} and {other.name}; a pair can only be one",
                    lexeme.source.file,
                    lexeme.source.line,
                    feature.name,
                )
            )
    return errors


def _close(lexemes: list[Lexeme], feature: Feature, base: Feature, known: dict[str, list[Lexeme]]) -> list[SpecError]:
    """Derive ``feature`` as the transitive closure of ``base``; report cycles of ``base``."""
    closure: dict[str, frozenset[str]] = {}
    errors: list[SpecError] = []

    def parents(lemma: str) -> frozenset[str]:
        return frozenset().union(*(x.features.get(base.name, frozenset()) for x in known.get(lemma, ())))

    def visit(lemma: str, path: list[str]) -> frozenset[str]:
        if lemma in closure:
            return closure[lemma]
        if lemma in path:
            raise _Cycle(path[path.index(lemma) :] + [lemma])
        path.append(lemma)
        found: set[str] = set()
        for parent in sorted(parents(lemma)):
            found |= {parent} | visit(parent, path)
        path.pop()
        closure[lemma] = frozenset(found)
        return closure[lemma]

    reported: set[frozenset[str]] = set()
    for lexeme in lexemes:
        if lexeme.category != feature.target or base.name not in lexeme.features:
            continue
        try:
            _set(lexeme, feature.name, visit(lexeme.lemma, []))
        except _Cycle as cycle:
            members = frozenset(cycle.path)
            if members not in reported:
                reported.add(members)
                message = (
                    f"{base.name} cycle: {' -> '.join(cycle.path)}; a chain must end at a word without {base.name}"
                )
                errors.append(LexiconError(message, lexeme.source.file, lexeme.source.line, base.name))
            for lemma in cycle.path:  # so later rows on the same cycle are not reported again
                closure.setdefault(lemma, frozenset())
    return errors


class _Cycle(Exception):
    def __init__(self, path: list[str]) -> None:
        super().__init__(path)
        self.path = path


def _set(lexeme: Lexeme, name: str, value: set[str] | frozenset[str]) -> None:
    if value:
        lexeme.features[name] = frozenset(value)
    else:
        lexeme.features.pop(name, None)
