"""The feature inventory: which features exist, their values, and which categories carry them.

The inventory lives in ``data/features.yaml`` (documented there, one place for every feature).
Lexicon rows, overlays and spec constraints are all checked against it, so a misspelt feature
or value is a load error with a did-you-mean, never a silent mismatch at sampling time.

Feature types: ``bool`` (bare flag), ``enum`` (one value), ``set`` (several values), ``formula``
(a constraint-language expression, e.g. a selectional restriction), ``form`` (a spelled word
form overriding derivation) and ``text``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from blimpgen._yaml import load_yaml_text
from blimpgen.errors import LexiconError, SpecError, did_you_mean

FEATURE_TYPES = ("bool", "enum", "set", "formula", "form", "text")
# Attributes every word has, usable in constraints like features, never declared in the inventory.
PSEUDO_FEATURES = ("category", "lemma", "text", "id")


@dataclass(frozen=True)
class Feature:
    """One declared feature."""

    name: str
    type: str
    categories: frozenset[str]
    values: tuple[str, ...] = ()
    doc: str = ""
    derived: bool = False


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
            raise SpecError(f"unknown feature {name!r}"
                            f"{did_you_mean(name, list(self.features) + list(PSEUDO_FEATURES))}") from None

    def check_value(self, feature: Feature, value: str) -> list[str]:
        """Return the error messages for ``value`` as a value of ``feature`` (empty when fine)."""
        if feature.type in ("enum", "set"):
            parts = [v.strip() for v in value.split(",")] if feature.type == "set" else [value]
            return [f"{feature.name} has no value {p!r}{did_you_mean(p, feature.values)}"
                    for p in parts if p not in feature.values]
        if feature.type == "bool" and value not in ("true", "false"):
            return [f"{feature.name} is a flag; write it bare or as {feature.name}=true/false"]
        if feature.type in ("form", "text") and (not value or any(c.isspace() for c in value.strip(" "))):
            return [f"{feature.name} needs a single word, got {value!r}"]
        return []

    def merged(self, extra: dict[str, Any], source: str) -> FeatureInventory:
        """Return a copy extended by an overlay's ``features:`` mapping (no redefinition)."""
        categories = dict(self.categories)
        features = dict(self.features)
        for cat, desc in (extra.get("categories") or {}).items():
            categories.setdefault(str(cat), str(desc))
        for name, raw in (extra.get("features") or {}).items():
            if name in features:
                raise LexiconError(f"feature {name!r} is already declared in {self.source}", source,
                                   key=f"features.{name}")
            features[name] = _parse_feature(name, raw, categories, source)
        return FeatureInventory(categories, features, self.source)


def _parse_feature(name: str, raw: Any, categories: dict[str, str], source: str) -> Feature:
    where = f"features.{name}"
    if not isinstance(raw, dict):
        raise LexiconError("a feature must be a mapping with type, categories and doc", source, key=where)
    unknown = set(raw) - {"type", "categories", "values", "doc", "derived"}
    if unknown:
        raise LexiconError(f"unknown key {sorted(unknown)[0]!r}", source, key=where)
    ftype = raw.get("type")
    if ftype not in FEATURE_TYPES:
        raise LexiconError(f"type must be one of {', '.join(FEATURE_TYPES)}", source, key=where + ".type")
    cats = raw.get("categories") or []
    bad = [c for c in cats if c not in categories]
    if bad:
        raise LexiconError(f"unknown category {bad[0]!r}{did_you_mean(str(bad[0]), categories)}", source,
                           key=where + ".categories")
    values = tuple(str(v) for v in raw.get("values") or ())
    if ftype in ("enum", "set") and not values:
        raise LexiconError(f"{ftype} feature needs values", source, key=where + ".values")
    if not raw.get("doc"):
        raise LexiconError("every feature needs a doc string", source, key=where + ".doc")
    return Feature(name, ftype, frozenset(cats), values, str(raw["doc"]), bool(raw.get("derived", False)))


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
    return FeatureInventory(categories, features, source)


@cache
def load_inventory() -> FeatureInventory:
    """Load the shipped inventory (cached)."""
    path = resources.files("blimpgen.vocab") / "data" / "features.yaml"
    return parse_inventory(path.read_text(encoding="utf-8"), "vocab/data/features.yaml")
