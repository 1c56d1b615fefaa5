"""Exception hierarchy. Every error a user can cause is a :class:`BlimpgenError`.

The CLI catches ``BlimpgenError`` at its boundary and prints ``str(error)``, a single
line that says what is wrong, where (``file:line`` and a key path) and how to fix it.

Callers catch the subclass they can act on (the root class is never raised itself)::

    BlimpgenError
    ├── LocatedError(message, file, line, key)     printed file:line: key: message
    │   ├── SpecError ── LexiconError              user-authored files (specs, lexicon rows, overlays)
    │   ├── DataError                              records and data files (JSONL, CSV, result folders)
    │   └── GenerationError                        a spec cannot make what was asked
    ├── SpecErrors                                 several SpecErrors, one line each
    ├── OptionError(BlimpgenError, ValueError)     a bad option value or combination
    ├── ModelLoadError                             a model, tokenizer or model file cannot be loaded
    ├── MissingDependencyError(BlimpgenError, ImportError)
    ├── ServiceError                               a remote service (the Hub, MTurk) refused a request
    ├── ResultError                                a result that cannot be right (every pair tied), refused
    └── UnknownNameError(BlimpgenError, KeyError)  an unregistered name, with did-you-mean

As in HF ``datasets``, the subclasses that resemble a builtin also subclass it, so
``except ValueError`` and ``except ImportError`` keep working for callers who know no blimpgen.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

LocatedT = TypeVar("LocatedT", bound="LocatedError")

# An error is read as one line per problem: a value quoted in one (a 5,000-character category, a
# whole template, a runaway sentence) is cut in the middle, and the line says how much was left out.
MAX_MESSAGE_LINE = 500


def clip(line: str, limit: int = MAX_MESSAGE_LINE) -> str:
    """``line``, or its start and end around ``[N characters left out]`` when it is longer than ``limit``."""
    if len(line) <= limit:
        return line
    head, tail = line[: limit * 3 // 4], line[-(limit // 4) :]
    return f"{head} … [{len(line) - len(head) - len(tail):,} characters left out] … {tail}"


class BlimpgenError(Exception):
    """Root of every error blimpgen raises on bad input; each line of its text is at most
    :data:`MAX_MESSAGE_LINE` characters (:func:`clip`)."""

    def __str__(self) -> str:
        return "\n".join(clip(line) for line in Exception.__str__(self).split("\n"))


@dataclass(frozen=True)
class SourceLoc:
    """Where something was written: a file and a 1-based line (0 when unknown)."""

    file: str
    line: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


class LocatedError(BlimpgenError):
    """An error that knows where it was caused: a file, a line and a key path (each optional).

    Re-raising one as another located class keeps the location (:meth:`relocated`), so a
    problem found late (while generating) still points at its YAML line.

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

    def __reduce__(self) -> tuple[Any, ...]:  # pickled whole (a worker process sends it back), not as str(self)
        return type(self), (self.message, self.file, self.line, self.key)

    def format(self) -> str:
        """``file:line: key: message``, leaving out the parts that are unknown."""
        where = str(SourceLoc(self.file, self.line)) if self.file else ""
        parts = [p for p in (where, self.key) if p]
        return ": ".join(parts + [self.message])

    @property
    def loc(self) -> SourceLoc:
        """Where the error was caused."""
        return SourceLoc(self.file, self.line)

    @classmethod
    def relocated(cls: type[LocatedT], error: LocatedError) -> LocatedT:
        """The same message and location as ``error``, as this class."""
        return cls(error.message, error.file, error.line, error.key)


class SpecError(LocatedError):
    """A problem in a user-authored file (spec, lexicon row, overlay), with its location."""


class DataError(LocatedError):
    """A bad record or data file (JSONL, CSV, result folder), located when the line is known."""


class OptionError(BlimpgenError, ValueError):
    """A bad option value or combination of options (from the command line or a library call)."""


class ModelLoadError(BlimpgenError):
    """A model, tokenizer or model file (ARPA, corpus) that cannot be loaded."""


class MissingDependencyError(BlimpgenError, ImportError):
    """An optional dependency that is not installed; the message names the extra to install."""


class ServiceError(BlimpgenError):
    """A remote service (the Hugging Face Hub, Mechanical Turk) refused or failed a request."""


class ResultError(BlimpgenError):
    """A result that cannot be right (every pair tied), refused instead of written."""


class SpecErrors(BlimpgenError):
    """Several :class:`SpecError` collected from one or more files; one line each."""

    def __init__(self, errors: list[SpecError]) -> None:
        self.errors = errors
        super().__init__("\n".join(e.format() for e in errors))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.errors,)


class LexiconError(SpecError):
    """A bad lexicon row or feature inventory entry."""


class GenerationError(LocatedError):
    """A paradigm or probe suite could not produce what was asked (e.g. N unique pairs), or a
    suite's templates disagree at generation time (located at the template's line)."""


class UnknownNameError(BlimpgenError, KeyError):
    """A name that is not registered, with did-you-mean suggestions."""

    def __init__(self, kind: str, name: str, available: Iterable[str]) -> None:
        self.kind, self.name = kind, name
        self.available = sorted(available)
        super().__init__(f"unknown {kind} {name!r}{did_you_mean(name, self.available)}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.kind, self.name, self.available)


def did_you_mean(name: str, choices: Iterable[str], limit: int = 3) -> str:
    """Return a ``"; did you mean 'x'?"`` suffix, or a short list of valid names."""
    choices = sorted(set(choices))
    close = difflib.get_close_matches(name, choices, n=limit, cutoff=0.6)
    if close:
        return "; did you mean " + " or ".join(repr(c) for c in close) + "?"
    if choices and len(choices) <= 12:
        return "; expected one of: " + ", ".join(choices)
    return ""
