"""Lexicon overlays: user entries (and features) added to the shipped lexicon.

Overlays come from ``--lexicon-overlay FILE`` (repeatable) and
``$BLIMPGEN_LEXICON_OVERLAY`` (``os.pathsep``-separated). An overlay is either

* a ``.tsv`` file of rows in the shipped format (``TEXT<TAB>CATEGORY<TAB>features``), or
* a ``.yaml`` file that may also declare categories and features::

      categories:                     # optional: new categories (name: description)
        CL: "classifier"
      features:                       # optional: new features, declared as in features.yaml
        glowing: {type: bool, categories: [N], doc: "Gives off light."}
      entries:                        # rows: the TSV columns as keys
        - {text: lantern, category: N, features: "class=artifact; glowing"}
        - {text: wug, category: N, features: "class=animal; animate; plural=wugs"}

Every overlay row is checked against the (extended) feature inventory exactly like the shipped
lexicon, with ``file:line`` errors; features already declared cannot be redefined.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from blimpgen._io import read_text
from blimpgen._yaml import load_yaml_text
from blimpgen.errors import LexiconError, SpecError, SpecErrors, did_you_mean
from blimpgen.vocab.features import FeatureInventory, load_inventory
from blimpgen.vocab.lexicon import Lexicon, build_lexicon, load_lexicon, shipped_sources

LEXICON_OVERLAY_ENV = "BLIMPGEN_LEXICON_OVERLAY"
OVERLAY_KEYS = ("categories", "features", "entries")
ENTRY_KEYS = ("text", "category", "features")


def overlay_paths(paths: Iterable[str | Path] = (), environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Overlays given on the command line, then those in ``$BLIMPGEN_LEXICON_OVERLAY``
    (``os.pathsep``-separated, empty entries dropped)."""
    value = (os.environ if environ is None else environ).get(LEXICON_OVERLAY_ENV, "")
    return tuple(str(p) for p in paths) + tuple(p for p in value.split(os.pathsep) if p)


def _read(path: Path) -> str:
    """An overlay's text (a byte-order mark dropped: spreadsheets and Notepad write one)."""
    return read_text(path, error=LexiconError, encoding="utf-8-sig")


def parse_yaml_overlay(text: str, file: str, inventory: FeatureInventory) -> tuple[FeatureInventory, str]:
    """Turn a YAML overlay into an extended inventory and TSV text whose rows keep their YAML lines.

    Raises:
        SpecErrors: every structural problem, each ``file:line: key: message``.
    """
    raw, table = load_yaml_text(text, file)
    if raw is None:
        return inventory, ""
    if not isinstance(raw, dict):
        raise SpecErrors([SpecError("a lexicon overlay must be a mapping with categories, features, entries", file, 1)])
    errors = [
        table.error((key,), f"unknown key {key!r}{did_you_mean(str(key), OVERLAY_KEYS)}")
        for key in raw
        if key not in OVERLAY_KEYS
    ]
    for key in ("categories", "features"):
        if raw.get(key) is not None and not isinstance(raw[key], dict):
            errors.append(table.error((key,), f"{key} must be a mapping"))
    entries = raw.get("entries") or []
    if not isinstance(entries, list):
        errors.append(table.error(("entries",), "entries must be a list of {text, category, features}"))
        entries = []
    if errors:
        raise SpecErrors(errors)
    extra = {k: raw.get(k) for k in ("categories", "features")}
    try:
        inventory = inventory.merged(extra, file)
    except SpecError as exc:
        key_path = tuple(exc.key.split(".")) if exc.key else ()
        raise SpecErrors([table.error(key_path[:2], exc.message)]) from None
    except (AttributeError, TypeError, ValueError):
        raise SpecErrors(
            [table.error(("features",), "each feature must be a mapping with type, categories (a list) and doc")]
        ) from None
    rows: dict[int, str] = {}
    for index, entry in enumerate(entries):
        path = ("entries", index)
        if not isinstance(entry, dict):
            errors.append(table.error(path, "an entry must be a mapping {text: ..., category: ..., features: ...}"))
            continue
        unknown = [k for k in entry if k not in ENTRY_KEYS]
        if unknown:
            errors.append(
                table.error(
                    path + (unknown[0],), f"unknown key {unknown[0]!r}{did_you_mean(str(unknown[0]), ENTRY_KEYS)}"
                )
            )
            continue
        values = [entry.get(k) if entry.get(k) is not None else "" for k in ENTRY_KEYS]
        columns = [v for v in values if isinstance(v, str) and "\t" not in v and "\n" not in v and "\r" not in v]
        if len(columns) != len(values):
            errors.append(table.error(path, "text, category and features must be strings without tabs"))
            continue
        if columns[0].lstrip().startswith("#"):
            errors.append(
                table.error(
                    path + ("text",),
                    f"text {columns[0]!r} starts with '#', which the lexicon reads "
                    "as a comment; a word cannot start with '#'",
                )
            )
            continue
        rows[table.line_of(path)] = "\t".join(columns)
    if errors:
        raise SpecErrors(errors)
    # Each row sits on its YAML line, so the lexicon's own row errors name the right line.
    last = max(rows, default=0)
    return inventory, "\n".join(rows.get(number, "") for number in range(1, last + 1))


def load_lexicon_with_overlays(paths: Iterable[str | Path] = ()) -> Lexicon:
    """The shipped lexicon, or the shipped lexicon plus overlays (TSV or YAML, see module doc).

    Raises:
        SpecErrors: every row and declaration problem, each ``file:line: key: message``.
    """
    files = [Path(p) for p in paths]
    if not files:
        return load_lexicon()
    inventory = load_inventory()
    sources = shipped_sources()
    for path in files:
        text = _read(path)
        if path.suffix in (".yaml", ".yml"):
            inventory, text = parse_yaml_overlay(text, str(path), inventory)
        elif path.suffix != ".tsv":
            raise LexiconError("a lexicon overlay must be a .tsv or .yaml file", str(path))
        sources.append((str(path), text))
    return build_lexicon(sources, inventory)
