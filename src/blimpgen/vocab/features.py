"""The feature inventory: which features exist, their values, and which categories carry them.

The inventory lives in ``data/features.yaml`` (documented there, one place for every feature).
Lexicon rows, overlays and spec constraints are all checked against it, so a misspelt feature
or value is a load error with a did-you-mean, never a silent mismatch at sampling time.

Feature types: ``bool`` (bare flag), ``enum`` (one value), ``set`` (several values), ``formula``
(a constraint-language expression, e.g. a selectional restriction), ``form`` (a spelled word
form overriding derivation), ``text`` and ``relation``.

A ``relation`` links a word to other words of its ``target`` category by lemma (``isa=bird``,
``antonym=cold``). Its value is a frozenset of lemmas, so the constraint language treats it
like a ``set`` feature (``lemma = noun.isa``: "my lemma is one of noun's isa lemmas") and a
bare relation name means "has at least one". The loader checks every lemma against the target
category; ``symmetric`` relations are completed both ways, ``disjoint`` ones may not share a
pair, and a ``closure_of`` relation is derived as the transitive closure of another (ancestors
from isa), which also rejects cycles. See :mod:`blimpgen.vocab.relations`.

Ordinal enums list their values in order: ``SIZE_ORDER`` is the ``size`` scale, smallest first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from blimpgen._yaml import load_yaml_text
from blimpgen.errors import LexiconError, SpecError, did_you_mean

FEATURE_TYPES = ("bool", "enum", "set", "formula", "form", "text", "relation")
# Attributes every word has, usable in constraints like features, never declared in the inventory.
PSEUDO_FEATURES = ("category", "lemma", "text", "id")
# The values of the ``size`` feature, smallest first (a test keeps it equal to features.yaml);
# specs compare sizes by rank: SIZE_ORDER.index(a.size) < SIZE_ORDER.index(b.size).
SIZE_ORDER = ("tiny", "small", "medium", "large", "huge")
_KEYS = {"type", "categories", "values", "doc", "derived", "target", "symmetric", "disjoint", "closure_of"}
# Names a formula (``number = noun.number``) and a lexicon row (``name=value; flag``) can write.
FEATURE_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
CATEGORY_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
VALUE_RE = re.compile(r"^[A-Za-z0-9_'][A-Za-z0-9_'\-]*$")
# The constraint language's keywords and the pseudo-features every word has.
RESERVED_NAMES = frozenset({"and", "or", "not", "fits", "takes", "category", "text", "id"})
_RELATION_KEYS = ("target", "symmetric", "disjoint", "closure_of")


@dataclass(frozen=True)
class Feature:
    """One declared feature."""

    name: str
    type: str
    categories: frozenset[str]
    values: tuple[str, ...] = ()
    doc: str = ""
    derived: bool = False
    target: str = ""
    symmetric: bool = False
    disjoint: tuple[str, ...] = ()
    closure_of: str = ""

    def rank(self, value: str) -> int:
        """Position of ``value`` in the declared order of values (ordinal enums such as size).

        Raises:
            SpecError: ``value`` is not one of the feature's values.
        """
        try:
            return self.values.index(value)
        except ValueError:
            raise SpecError(f"{self.name} has no value {value!r}{did_you_mean(value, self.values)}") from None


@dataclass(frozen=True)
class FeatureInventory:
    """All features and categories of a lexicon.

    Args:
        categories: category name -> description.
        features: feature name -> :class:`Feature`.
        source: file the inventory came from, for messages.
    """

    categories: dict[str, str]
    features: dict[str, Feature]
    source: str = "features.yaml"

    def feature(self, name: str) -> Feature:
        """Return a declared feature.

        Raises:
            SpecError: unknown feature, with did-you-mean.
        """
        try:
            return self.features[name]
        except KeyError:
            raise SpecError(
                f"unknown feature {name!r}{did_you_mean(name, list(self.features) + list(PSEUDO_FEATURES))}"
            ) from None

    def canonical(self) -> str:
        """Everything about the inventory that changes what a lexicon means (docs left out), as text.

        Categories and features in name order; each feature's values in their declared order
        (``rank`` and the probe suites' answers depend on it).
        """
        lines = ["categories " + " ".join(sorted(self.categories))]
        for name in sorted(self.features):
            f = self.features[name]
            lines.append(
                "\t".join(
                    [
                        name,
                        f.type,
                        ",".join(sorted(f.categories)),
                        ",".join(f.values),
                        str(f.derived),
                        f.target,
                        str(f.symmetric),
                        ",".join(f.disjoint),
                        f.closure_of,
                    ]
                )
            )
        return "\n".join(lines) + "\n"

    def check_value(self, feature: Feature, value: str) -> list[str]:
        """Return the error messages for ``value`` as a value of ``feature`` (empty when fine)."""
        if feature.type in ("enum", "set"):
            parts = [v.strip() for v in value.split(",")] if feature.type == "set" else [value]
            return [
                f"{feature.name} has no value {p!r}{did_you_mean(p, feature.values)}"
                for p in parts
                if p not in feature.values
            ]
        if feature.type == "bool" and value not in ("true", "false"):
            return [f"{feature.name} is a flag; write it bare or as {feature.name}=true/false"]
        if feature.type in ("form", "text") and (not value or any(c.isspace() for c in value.strip(" "))):
            return [f"{feature.name} needs a single word, got {value!r}"]
        if feature.type == "relation":
            parts = [v.strip() for v in value.split(",")]
            if not all(parts) or any(c.isspace() for p in parts for c in p):
                message = f"{feature.name} needs comma-separated {feature.target} lemmas ({feature.name}=a,b)"
                return [f"{message}, got {value!r}"]
        return []

    def merged(self, extra: dict[str, Any], source: str) -> FeatureInventory:
        """Return a copy extended by an overlay's ``features:`` mapping (no redefinition)."""
        categories = dict(self.categories)
        features = dict(self.features)
        for cat, desc in (extra.get("categories") or {}).items():
            if not isinstance(cat, str) or not CATEGORY_NAME_RE.match(cat):
                raise LexiconError(
                    f"category name {cat!r} must be letters, digits and _, starting with a letter",
                    source,
                    key=f"categories.{cat}",
                )
            categories.setdefault(cat, str(desc))
        for name, raw in (extra.get("features") or {}).items():
            if name in features:
                raise LexiconError(
                    f"feature {name!r} is already declared in {self.source}", source, key=f"features.{name}"
                )
            features[name] = _parse_feature(name, raw, categories, source)
        problems = _relation_problems(features)
        if problems:
            name, message = problems[0]
            raise LexiconError(message, source, key=f"features.{name}")
        return FeatureInventory(categories, features, self.source)


def _parse_feature(name: str, raw: Any, categories: dict[str, str], source: str) -> Feature:
    where = f"features.{name}"
    if not isinstance(name, str) or not FEATURE_NAME_RE.match(name) or name in RESERVED_NAMES:
        why = (
            "is a reserved word"
            if name in RESERVED_NAMES
            else "must be lowercase letters, digits and _, starting with a letter"
        )
        raise LexiconError(
            f"feature name {name!r} {why} (formulas and lexicon rows must be able to write it)", source, key=where
        )
    if not isinstance(raw, dict):
        raise LexiconError("a feature must be a mapping with type, categories and doc", source, key=where)
    unknown = set(raw) - _KEYS
    if unknown:
        raise LexiconError(f"unknown key {sorted(unknown)[0]!r}", source, key=where)
    ftype = raw.get("type")
    if ftype not in FEATURE_TYPES:
        raise LexiconError(f"type must be one of {', '.join(FEATURE_TYPES)}", source, key=where + ".type")
    cats = raw.get("categories") or []
    if not isinstance(cats, list):
        raise LexiconError(f"categories must be a list (e.g. [{cats}])", source, key=where + ".categories")
    bad = [c for c in cats if c not in categories]
    if bad:
        raise LexiconError(
            f"unknown category {bad[0]!r}{did_you_mean(str(bad[0]), categories)}", source, key=where + ".categories"
        )
    raw_values = raw.get("values") or []
    if not isinstance(raw_values, list):
        raise LexiconError(f"values must be a list (e.g. [{raw_values}])", source, key=where + ".values")
    values = tuple(str(v) for v in raw_values)
    odd = next((v for v in values if not VALUE_RE.match(v)), None)
    if odd is not None:
        raise LexiconError(
            f"value {odd!r} must be letters, digits, _, ' and - (formulas and lexicon rows must be able to write it)",
            source,
            key=where + ".values",
        )
    if len(set(values)) != len(values):
        raise LexiconError("values must not repeat", source, key=where + ".values")
    if ftype in ("enum", "set") and not values:
        raise LexiconError(f"{ftype} feature needs values", source, key=where + ".values")
    if not raw.get("doc"):
        raise LexiconError("every feature needs a doc string", source, key=where + ".doc")
    if ftype != "relation":
        misplaced = [k for k in _RELATION_KEYS if k in raw]
        if misplaced:
            raise LexiconError(f"{misplaced[0]} is only for relation features", source, key=f"{where}.{misplaced[0]}")
        return Feature(name, ftype, frozenset(cats), values, str(raw["doc"]), bool(raw.get("derived", False)))
    target = str(raw.get("target") or "")
    if target not in categories:
        raise LexiconError(
            f"a relation needs target: one of the categories{did_you_mean(target, categories)}",
            source,
            key=where + ".target",
        )
    disjoint = raw.get("disjoint") or []
    if not isinstance(disjoint, list):
        raise LexiconError("disjoint must be a list of relation features", source, key=where + ".disjoint")
    return Feature(
        name,
        ftype,
        frozenset(cats),
        values,
        str(raw["doc"]),
        bool(raw.get("derived", False)),
        target=target,
        symmetric=bool(raw.get("symmetric", False)),
        disjoint=tuple(str(d) for d in disjoint),
        closure_of=str(raw.get("closure_of") or ""),
    )


def _relation_problems(features: dict[str, Feature]) -> list[tuple[str, str]]:
    """(feature, message) for relation declarations that do not fit together."""
    problems = []
    relations = {n: f for n, f in features.items() if f.type == "relation"}
    for name, f in relations.items():
        if (f.symmetric or f.closure_of) and f.categories != {f.target}:
            message = f"a symmetric or closure relation links words of one category: categories must be [{f.target}]"
            problems.append((name, message))
        for other in f.disjoint:
            if other not in relations or relations[other].target != f.target:
                message = f"disjoint names {other!r}, not a relation to {f.target}{did_you_mean(other, relations)}"
                problems.append((name, message))
        if f.closure_of:
            base = relations.get(f.closure_of)
            if base is None or base.target != f.target or base.closure_of:
                message = (
                    f"closure_of names {f.closure_of!r}, not a written relation to {f.target}"
                    f"{did_you_mean(f.closure_of, relations)}"
                )
                problems.append((name, message))
            if not f.derived:
                problems.append((name, "a closure_of relation is computed by the loader: add derived: true"))
        elif f.derived:
            problems.append((name, "a derived relation needs closure_of (the relation it closes)"))
    return problems


def parse_inventory(text: str, source: str) -> FeatureInventory:
    """Parse an inventory document (the format of ``data/features.yaml``).

    Raises:
        SpecError: on any malformed declaration, with its location.
    """
    raw, table = load_yaml_text(text, source)
    if not isinstance(raw, dict) or set(raw) != {"categories", "features"}:
        raise LexiconError("the inventory needs exactly two keys: categories and features", source, 1)
    categories = {str(k): str(v) for k, v in raw["categories"].items()}
    features = {}
    for name, spec in raw["features"].items():
        try:
            features[name] = _parse_feature(name, spec, categories, source)
        except SpecError as exc:
            exc.line = table.line_of(("features", name))
            raise LexiconError(exc.message, source, exc.line, exc.key) from None
    problems = _relation_problems(features)
    if problems:
        name, message = problems[0]
        raise LexiconError(message, source, table.line_of(("features", name)), f"features.{name}")
    return FeatureInventory(categories, features, source)


@cache
def load_inventory() -> FeatureInventory:
    """Load the shipped inventory (cached)."""
    path = resources.files("blimpgen.vocab") / "data" / "features.yaml"
    return parse_inventory(path.read_text(encoding="utf-8"), "vocab/data/features.yaml")
