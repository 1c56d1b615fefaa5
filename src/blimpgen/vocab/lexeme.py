"""Lexicon records: a :class:`Lexeme` (one data row) and its :class:`Word` forms.

A word's features are its lexeme's features plus the form's own (number, vform). Words are
what slots sample and templates print; ``str(word)`` is its written form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from blimpgen.errors import SourceLoc


@dataclass(frozen=True, eq=False)
class Lexeme:
    """One lexicon row.

    Attributes:
        lemma: citation form (open classes) or the ``lemma=`` group (closed classes).
        category: N, PN, V, A, D, AUX, PRO, P, ADV, C or WH.
        features: the row's written features (bool, str, frozenset or formula str).
        source: file and line of the row.
    """

    lemma: str
    category: str
    features: dict[str, Any]
    source: SourceLoc


@dataclass(eq=False)
class Word:
    """One written form of a lexeme, with its full feature bundle.

    Attributes:
        id: stable identifier ``CATEGORY:lemma:form`` (used in provenance).
        position: index in the lexicon's word list (set by the lexicon; used by bitsets).
        text: the written form.
        lexeme: the row it comes from.
        features: lexeme features merged with form features.
    """

    id: str
    text: str
    lexeme: Lexeme
    features: dict[str, Any]
    position: int = field(default=-1, repr=False)

    @property
    def lemma(self) -> str:
        return self.lexeme.lemma

    @property
    def category(self) -> str:
        return self.lexeme.category

    def get(self, name: str) -> Any:
        """Feature value or pseudo-feature (category, lemma, text, id); ``None`` when absent."""
        value = self.features.get(name)
        if value is not None:
            return value
        if name == "category":
            return self.lexeme.category
        if name == "lemma":
            return self.lexeme.lemma
        if name == "text":
            return self.text
        if name == "id":
            return self.id
        return None

    def __getattr__(self, name: str) -> Any:
        # Lets templates write {{ noun.number }}; unknown names fall through to None-safe get.
        if name.startswith("_"):
            raise AttributeError(name)
        value = self.get(name)
        if value is None:
            raise AttributeError(f"{self.id} has no feature {name!r}")
        return value

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Word({self.id})"

    def __hash__(self) -> int:
        return hash(self.id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Word) and other.id == self.id
