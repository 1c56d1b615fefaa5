"""Exception hierarchy. Every error a user can cause is a :class:`BlimpgenError`.

The CLI catches ``BlimpgenError`` at its boundary and prints ``str(error)``, a single
line that says what is wrong, where (``file:line`` and a key path) and how to fix it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


class BlimpgenError(Exception):
    """Root of every error blimpgen raises on bad input."""


@dataclass(frozen=True)
class SourceLoc:
    """Where something was written: a file and a 1-based line (0 when unknown)."""

    file: str
    line: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


class SpecError(BlimpgenError):
    """A problem in a user-authored file (spec, lexicon row, overlay), with its location.

    Args:
        message: what is wrong and how to fix it.
        file: the file's path as the user would name it.
        line: 1-based line, 0 when unknown.
        key: dotted key path inside the file (``slots.noun.where``), or column name.
    """

    def __init__(self, message: str, file: str = "", line: int = 0, key: str = "") -> None:
        self.message = message
        self.file = file
        self.line = line
        self.key = key
        super().__init__(self.format())

    def format(self) -> str:
        where = str(SourceLoc(self.file, self.line)) if self.file else ""
        parts = [p for p in (where, self.key) if p]
        return ": ".join(parts + [self.message])


class SpecErrors(BlimpgenError):
    """Several :class:`SpecError` collected from one or more files; one line each."""

    def __init__(self, errors: list[SpecError]) -> None:
        self.errors = errors
        super().__init__("\n".join(e.format() for e in errors))


class LexiconError(SpecError):
    """A bad lexicon row or feature inventory entry."""


class GenerationError(BlimpgenError):
    """A paradigm could not produce what was asked (e.g. N unique pairs)."""


class UnknownNameError(BlimpgenError, KeyError):
    """A name that is not registered, with did-you-mean suggestions."""

    def __init__(self, kind: str, name: str, available: Iterable[str]) -> None:
        self.kind, self.name = kind, name
        self.available = sorted(available)
        super().__init__(f"unknown {kind} {name!r}{did_you_mean(name, self.available)}")

    def __str__(self) -> str:  # KeyError would repr() the message
        return self.args[0]


def did_you_mean(name: str, choices: Iterable[str], limit: int = 3) -> str:
    """Return a ``"; did you mean 'x'?"`` suffix, or a short list of valid names."""
    choices = sorted(set(choices))
    close = difflib.get_close_matches(name, choices, n=limit, cutoff=0.6)
    if close:
        return "; did you mean " + " or ".join(repr(c) for c in close) + "?"
    if choices and len(choices) <= 12:
        return "; expected one of: " + ", ".join(choices)
    return ""
