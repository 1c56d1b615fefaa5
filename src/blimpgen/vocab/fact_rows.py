"""The rows and declarations of fact tables (:mod:`blimpgen.vocab.facts` reads and checks them).

A :class:`TableSpec` is one table as ``data/facts/facts.yaml`` declares it (columns with types
and docs, key and unique columns); a :class:`FactRow` is one checked row; :class:`Facts` holds
every table of one lexicon, written and derived.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from blimpgen.errors import SpecError, did_you_mean
from blimpgen.vocab.features import Feature, FeatureInventory
from blimpgen.vocab.lexeme import Word

# (category, lemma) -> the word's base form (singular noun, bare verb, the adjective)
BaseWords = dict[tuple[str, str], Word]
# table name -> its rows
Tables = dict[str, list["FactRow"]]
# what reading or deriving a table gives: its rows and every problem found
RowsAndErrors = tuple[list["FactRow"], list[SpecError]]


@dataclass(frozen=True)
class Column:
    """One declared column of a fact table."""

    name: str
    type: str
    doc: str
    category: str = ""
    category_from: str = ""
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class TableSpec:
    """One declared table: its file, columns, key and unique columns."""

    name: str
    file: str
    doc: str
    columns: dict[str, Column]
    key: tuple[str, ...] = ()
    unique: tuple[str, ...] = ()
    derived_from: str = ""

    def inventory(self) -> FeatureInventory:
        """The columns as a feature inventory, so the constraint language can check formulas on rows."""
        types = {"word": "text", "text": "text", "texts": "relation", "enum": "enum", "formula": "text"}
        features = {
            name: Feature(name, types[c.type], frozenset({"ROW"}), c.values, c.doc, target="ROW")
            for name, c in self.columns.items()
        }
        return FeatureInventory({"ROW": f"a row of {self.name}"}, features, f"facts.yaml tables.{self.name}")


class FactRow:
    """One row of a fact table (immutable).

    Attributes:
        table: the table's name.
        fact_id: ``TABLE:LINE`` (provenance: the line of the file it was written on, or of the
            row it was derived from).
        source: ``file:line`` where it was written.
    """

    __slots__ = ("_values", "_words", "fact_id", "source", "table")
    table: str
    fact_id: str
    source: str
    _values: dict[str, Any]
    _words: dict[str, Word]

    def __init__(self, table: str, fact_id: str, source: str, values: dict[str, Any], words: dict[str, Word]) -> None:
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "fact_id", fact_id)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "_values", dict(values))
        object.__setattr__(self, "_words", dict(words))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("fact rows are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt through __init__: pickle's default would set the slots with __setattr__
        return (FactRow, (self.table, self.fact_id, self.source, self._values, self._words))

    def get(self, name: str) -> Any:
        """A column's value for formulas: a word column's lemma, a texts column's frozenset, else the text."""
        return self._values.get(name)

    def word(self, name: str) -> Word:
        """A word column's lexicon word (singular noun, bare verb, adjective).

        Raises:
            KeyError: when ``name`` is not a word column of the row's table.
        """
        return self._words[name]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._words:
            return self._words[name]
        if name in self._values:
            value = self._values[name]
            return sorted(value) if isinstance(value, frozenset) else value
        raise AttributeError(f"{self.table} rows have no column {name!r}")

    def values(self) -> dict[str, Any]:
        """Every column's value (as :meth:`get` gives it)."""
        return dict(self._values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FactRow) and (self.table, self.fact_id) == (other.table, other.fact_id)

    def __hash__(self) -> int:
        return hash((self.table, self.fact_id))

    def __repr__(self) -> str:
        return f"FactRow({self.fact_id}: {self._values})"

    def __str__(self) -> str:
        return self.fact_id


@dataclass
class Facts:
    """Every fact table, written and derived, for one lexicon."""

    specs: dict[str, TableSpec]
    tables: dict[str, list[FactRow]] = field(default_factory=dict)

    def table(self, name: str) -> list[FactRow]:
        """The rows of a table.

        Raises:
            SpecError: for an unknown table, with did-you-mean.
        """
        if name not in self.tables:
            raise SpecError(f"unknown fact table {name!r}{did_you_mean(name, self.tables)}")
        return self.tables[name]
