"""Fact tables: what probe suites know about the world beside the lexicon (our data, load-checked).

The lexicon says what words are (features, hypernyms); some probes need facts about things:
what an animal has or does and how often (oLMpics' Always-Never), what a thing is used for,
made of or found in (Property Conjunction, CPRAG-style contexts), countries and their capitals,
languages and continents (Encyclopedic Composition), and pairs of words of opposite or the same
meaning (Antonym Negation). They live in ``data/facts/`` as TSV tables, declared and documented
in ``data/facts/facts.yaml`` exactly as features are in ``features.yaml``: every table lists its
columns, their types and a doc string, and the loader checks every row against them, reporting
each problem as ``file:line: column: message`` (all at once, up to 200).

Column types:

* ``word``: a lemma of the lexicon, of the column's ``category`` (or of the category another
  column names: ``category_from``); unknown lemmas are errors with did-you-mean.
* ``text``: free text (spaces allowed, no TAB).
* ``texts``: comma-separated texts (a set).
* ``enum``: one of ``values``.
* ``formula``: a formula of the constraint language over noun features, without references
  (``class=person,animal or force``), checked against the lexicon's features; a suite tests a
  word against it with ``fits(slot.column)``.

A table may name a ``key`` (columns whose values no two rows share) and ``unique`` columns.
Derived tables (``derived:`` in facts.yaml) are computed from a written table by a function of
:mod:`blimpgen.vocab.fact_derivations`, named after the table (:data:`DERIVATIONS`), and checked
the same way. The row and declaration types are :mod:`blimpgen.vocab.fact_rows`.

A row is a :class:`FactRow`. Probe suites sample rows with the ``fact`` slot kind and filter them
with the constraint language (``continent = c.continent and country != c.country``): a row's
``get(column)`` gives a word column's lemma, a ``texts`` column's set, any other column's text.
In templates, ``row.column`` gives a word column's lexicon word (so ``| a_an`` and
``| form(vform='ing')`` work) and any other column's value.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from blimpgen._yaml import load_yaml_text
from blimpgen.errors import LexiconError, SpecError, SpecErrors, did_you_mean
from blimpgen.vocab import query
from blimpgen.vocab.fact_derivations import DERIVATIONS, FREQUENCY_ORDER
from blimpgen.vocab.fact_rows import BaseWords, Column, FactRow, Facts, RowsAndErrors, TableSpec
from blimpgen.vocab.features import FeatureInventory
from blimpgen.vocab.lexeme import Word
from blimpgen.vocab.lexicon import Lexicon

__all__ = [
    "DERIVATIONS",
    "FREQUENCY_ORDER",
    "Column",
    "FactRow",
    "Facts",
    "TableSpec",
    "build_facts",
    "load_facts",
    "parse_schema",
    "parse_table",
    "shipped_fact_sources",
]

COLUMN_TYPES = ("word", "text", "texts", "enum", "formula")
MAX_REPORTED = 200
_TABLE_KEYS = {"file", "doc", "key", "unique", "columns"}
_COLUMN_KEYS = {"type", "doc", "category", "category_from", "values"}


# ----------------------------------------------------------------------------- the schema


def parse_schema(text: str, source: str) -> dict[str, TableSpec]:
    """Parse ``facts.yaml``.

    Raises:
        SpecErrors: every malformed declaration, ``facts.yaml:line: key: message``.
    """
    raw, lines = load_yaml_text(text, source)
    errors: list[SpecError] = []
    if not isinstance(raw, dict) or set(raw) - {"tables", "derived"} or "tables" not in raw:
        raise SpecErrors([LexiconError("facts.yaml needs a 'tables' mapping (and may have 'derived')", source, 1)])
    specs: dict[str, TableSpec] = {}
    for section in ("tables", "derived"):
        for name, body in (raw.get(section) or {}).items():
            where = (section, name)
            if not isinstance(body, dict):
                errors.append(lines.error(where, "a table is a mapping with doc and columns"))
                continue
            unknown = set(body) - _TABLE_KEYS - ({"from"} if section == "derived" else set())
            if unknown:
                first = min(unknown)
                errors.append(lines.error(where + (first,), f"unknown key{did_you_mean(first, _TABLE_KEYS)}"))
                continue
            if not body.get("doc"):
                errors.append(lines.error(where, "every table needs a doc string"))
            if section == "derived" and (name not in DERIVATIONS or body.get("from") not in (raw.get("tables") or {})):
                errors.append(
                    lines.error(
                        where,
                        f"a derived table needs from: a written table, and a derivation "
                        f"in vocab/fact_derivations.py{did_you_mean(name, DERIVATIONS)}",
                    )
                )
            columns: dict[str, Column] = {}
            for column, spec in (body.get("columns") or {}).items():
                at = where + ("columns", column)
                if (
                    not isinstance(spec, dict)
                    or set(spec) - _COLUMN_KEYS
                    or spec.get("type") not in COLUMN_TYPES
                    or not spec.get("doc")
                ):
                    errors.append(
                        lines.error(
                            at,
                            f"a column is a mapping with type (one of {', '.join(COLUMN_TYPES)}),"
                            f" doc and, for word columns, category or category_from",
                        )
                    )
                    continue
                values = tuple(str(v) for v in spec.get("values") or ())
                if spec["type"] == "enum" and not values:
                    errors.append(lines.error(at, "an enum column needs values"))
                if spec["type"] == "word" and not (spec.get("category") or spec.get("category_from")):
                    errors.append(lines.error(at, "a word column needs category (N, V, A) or category_from"))
                columns[column] = Column(
                    column,
                    spec["type"],
                    str(spec["doc"]),
                    str(spec.get("category") or ""),
                    str(spec.get("category_from") or ""),
                    values,
                )
            for key in ("key", "unique"):
                for column in body.get(key) or ():
                    if column not in columns:
                        errors.append(
                            lines.error(where + (key,), f"unknown column {column!r}{did_you_mean(column, columns)}")
                        )
            specs[name] = TableSpec(
                name,
                str(body.get("file") or ""),
                str(body.get("doc") or ""),
                columns,
                tuple(body.get("key") or ()),
                tuple(body.get("unique") or ()),
                str(body.get("from") or "") if section == "derived" else "",
            )
    if errors:
        raise SpecErrors(errors)
    return specs


# ----------------------------------------------------------------------------- reading rows


def base_words(lexicon: Lexicon) -> BaseWords:
    """(category, lemma) -> the word's base form: singular noun, bare verb, the adjective."""
    out: BaseWords = {}
    for word in lexicon.words:
        key = (word.category, word.lemma)
        if key in out:
            continue
        if (word.category == "N" and word.get("number") != "sg") or (
            word.category == "V" and word.get("vform") != "bare"
        ):
            continue
        out[key] = word
    return out


def parse_table(
    spec: TableSpec, text: str, file: str, words: BaseWords, inventory: FeatureInventory | None = None
) -> RowsAndErrors:
    """The rows of one TSV table (a header row naming the columns, ``#`` comments), and every problem.
    ``formula`` cells are checked against ``inventory`` (the lexicon's features) when it is given."""
    rows: list[FactRow] = []
    errors: list[SpecError] = []
    numbered = [
        (n, line)
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not numbered:
        return rows, [LexiconError("no header row", file, 1)]
    header_line, header = numbered[0]
    names = [name.strip() for name in header.split("\t")]
    if sorted(names) != sorted(spec.columns):
        missing, extra = set(spec.columns) - set(names), set(names) - set(spec.columns)
        detail = "; ".join(
            p
            for p in (f"missing {sorted(missing)}" if missing else "", f"unknown {sorted(extra)}" if extra else "")
            if p
        )
        return rows, [
            LexiconError(
                f"the header must name the columns of {spec.name}: {', '.join(spec.columns)} "
                f"({detail or 'a column named twice'})",
                file,
                header_line,
                "header",
            )
        ]
    seen: dict[str, dict[tuple[str, ...], int]] = defaultdict(dict)  # columns -> their values -> first line
    for number, line in numbered[1:]:
        cells = [cell.strip() for cell in line.split("\t")]
        if len(cells) != len(names):
            errors.append(LexiconError(f"{len(cells)} cells but {len(names)} columns", file, number, "row"))
            continue
        raw = dict(zip(names, cells))
        values, row_words, problems = _check_row(spec, raw, words, inventory)
        if problems:
            errors.extend(LexiconError(message, file, number, column) for column, message in problems)
            continue
        groups: list[tuple[str, tuple[str, ...]]] = [("key", spec.key)] if spec.key else []
        groups += [("unique", (column,)) for column in spec.unique]
        for label, group in groups:
            value = tuple(raw[c] for c in group)
            earlier = seen[",".join(group)]
            if value in earlier:
                errors.append(
                    LexiconError(
                        f"{'/'.join(value)} repeats line {earlier[value]} ({label}: {', '.join(group)})",
                        file,
                        number,
                        group[0],
                    )
                )
            earlier.setdefault(value, number)
        rows.append(FactRow(spec.name, f"{spec.name}:{number}", f"{file}:{number}", values, row_words))
    return rows, errors


def _check_row(
    spec: TableSpec, raw: dict[str, str], words: BaseWords, inventory: FeatureInventory | None
) -> tuple[dict[str, Any], dict[str, Word], list[tuple[str, str]]]:
    values: dict[str, Any] = {}
    row_words: dict[str, Word] = {}
    problems: list[tuple[str, str]] = []
    for name, column in spec.columns.items():
        cell = raw[name]
        if not cell:
            problems.append((name, "empty cell"))
            continue
        if column.type == "enum":
            if cell not in column.values:
                problems.append(
                    (name, f"{cell!r} is not one of {', '.join(column.values)}" + did_you_mean(cell, column.values))
                )
            values[name] = cell
        elif column.type == "texts":
            parts = [p.strip() for p in cell.split(",")]
            if not all(parts):
                problems.append((name, f"an empty item in {cell!r} (comma-separated)"))
            values[name] = frozenset(parts)
        elif column.type == "formula":
            try:
                node = query.parse(cell)
            except SpecError as exc:
                problems.append((name, exc.message))
            else:
                found = query.check(node, inventory, None) if inventory is not None else []
                if found:
                    problems.append((name, f"{found[0]} (in {cell!r})"))
            values[name] = cell
        elif column.type == "word":
            category = column.category or raw.get(column.category_from, "")
            word = words.get((category, cell))
            if word is None:
                known = [lemma for (cat, lemma) in words if cat == category]
                problems.append(
                    (
                        name,
                        f"unknown {category or '?'} lemma {cell!r}{did_you_mean(cell, known)} "
                        + "(a fact names words of the lexicon)",
                    )
                )
            else:
                row_words[name] = word
            values[name] = cell
        else:
            values[name] = cell
    return values, row_words, problems


# ----------------------------------------------------------------------------- loading


def shipped_fact_sources() -> tuple[tuple[str, str], list[tuple[str, str]]]:
    """(facts.yaml's display name and text, [(display name, text) of every table file])."""
    folder = resources.files("blimpgen.vocab") / "data" / "facts"
    schema = ("vocab/data/facts/facts.yaml", (folder / "facts.yaml").read_text(encoding="utf-8"))
    tables = [
        (f"vocab/data/facts/{p.name}", p.read_text(encoding="utf-8"))
        for p in sorted(folder.iterdir(), key=lambda p: p.name)
        if p.name.endswith(".tsv")
    ]
    return schema, tables


def build_facts(schema: tuple[str, str], tables: Iterable[tuple[str, str]], lexicon: Lexicon) -> Facts:
    """Read and check every table against its declaration and the lexicon, then derive.

    Raises:
        SpecErrors: every problem (up to 200), each ``file:line: column: message``.
    """
    specs = parse_schema(schema[1], schema[0])
    texts = {name.rsplit("/", 1)[-1]: (name, text) for name, text in tables}
    words = base_words(lexicon)
    facts = Facts(specs)
    errors: list[SpecError] = []
    for spec in specs.values():
        if spec.derived_from:
            continue
        if spec.file not in texts:
            errors.append(LexiconError(f"table {spec.name}: its file {spec.file!r} is missing", schema[0]))
            continue
        rows, problems = parse_table(spec, texts[spec.file][1], texts[spec.file][0], words, lexicon.inventory)
        facts.tables[spec.name] = rows
        errors += problems
    for spec in specs.values():
        if spec.derived_from and spec.derived_from in facts.tables:
            rows, problems = DERIVATIONS[spec.name](facts.tables[spec.derived_from], spec, lexicon, words, facts.tables)
            facts.tables[spec.name] = rows
            errors += problems
            for row in rows[:1]:  # the derivation and the declaration must agree (a bug, not a data error)
                if set(row.values()) != set(spec.columns):
                    errors.append(
                        LexiconError(
                            f"derived table {spec.name} makes columns {sorted(row.values())}, "
                            f"not the declared {sorted(spec.columns)}",
                            schema[0],
                        )
                    )
    unknown = set(texts) - {spec.file for spec in specs.values()}
    errors += [LexiconError("a table file no table of facts.yaml declares", texts[f][0]) for f in sorted(unknown)]
    if errors:
        raise SpecErrors(errors[:MAX_REPORTED])
    return facts


_LOADED: dict[str, Facts] = {}


def load_facts(lexicon: Lexicon) -> Facts:
    """The shipped fact tables checked against ``lexicon`` (cached per lexicon fingerprint).

    Raises:
        SpecErrors: for any problem in the shipped tables.
    """
    if lexicon.fingerprint not in _LOADED:
        schema, tables = _shipped()
        _LOADED[lexicon.fingerprint] = build_facts(schema, tables, lexicon)
    return _LOADED[lexicon.fingerprint]


@cache
def _shipped() -> tuple[tuple[str, str], tuple[tuple[str, str], ...]]:
    schema, tables = shipped_fact_sources()
    return schema, tuple(tables)
