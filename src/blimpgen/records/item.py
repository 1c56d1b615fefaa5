"""The :class:`ProbeItem` record: cloze probes and questions (oLMpics, Ettinger-style diagnostics).

One schema for every probe item type, so one reader, one scorer interface and one report. The
types and what each is made of are :mod:`blimpgen.records.item_types` (``multiple_choice``,
``cloze_contrast``, ``cloze_foils``, ``role_contrast``, ``question``); every item has:

* a ``context`` with one blank, written ``[MASK]`` (a ``question`` has none);
* ``candidates`` and the gold ``answer`` (one of them); for the contrast types they are derived:
  ``[good, bad]``, ``[good, *foils]``, ``[good]`` (a role item's target), with answer ``good``;
* ``expected`` completions for top-k accuracy (contrast types; may be empty, e.g. under negation).

When the words around the blank depend on the option (*a* bird / *an* insect), the item also
carries ``contexts``: option -> its own context; ``context`` is then the answer's.

Items carry ids, groups and provenance like pairs: ``item_id`` (``{UID}-{index:05d}``, plus
``.{control}`` for a control, and ``.{replicate:03d}`` for one of several shuffles), ``group``
(a sub-condition reports break accuracy down by), ``control`` (``none`` or the control it was
derived with, see :mod:`blimpgen.generators.controls`), ``replicate`` (which of a control's
random versions, for Ettinger's mean over shuffles), ``arguments`` (the sampled values the
reasoning is about, in context order) and the shared
:class:`~blimpgen.records.provenance.Provenance` (``seed``, ``lexicon_hash``, ``spec_hash``,
``blimpgen_version``, ``slots``).

``BLANK``, ``ITEM_TYPES`` and ``CONTROLS`` are the record's vocabulary; probe specs
(:mod:`blimpgen.grammar.probe_spec`) are checked against them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from blimpgen.errors import DataError, SourceLoc
from blimpgen.records.item_types import BLANK, CONTROLS, ITEM_TYPES, Cell, ItemShape, ItemType, item_shape
from blimpgen.records.provenance import PROVENANCE_KEYS, Provenance, read_provenance, record_error

__all__ = ["BLANK", "CONTROLS", "ITEM_TYPES", "TYPE_KEY", "ItemType", "ProbeItem", "item_problems"]
# The key that tells a probe item from a minimal pair in a JSONL line (see records.types).
TYPE_KEY = "item_type"
REQUIRED_FIELDS = ("item_id", "UID", TYPE_KEY, "context", "candidates", "answer")


@dataclass(frozen=True)
class ProbeItem(Provenance):
    """One cloze probe item. See the module docstring for the fields."""

    noun: ClassVar[str] = "probe item"

    item_id: str
    UID: str
    item_type: str
    context: str
    candidates: tuple[str, ...]
    answer: str
    field: str = ""
    linguistics_term: str = ""
    group: str = ""
    control: str = "none"
    contexts: dict[str, str] | None = None
    expected: tuple[str, ...] = ()
    good: str | None = None
    bad: str | None = None
    foils: tuple[str, ...] = ()
    reversed_context: str | None = None
    arguments: tuple[str, ...] = ()
    replicate: int | None = None

    def __post_init__(self) -> None:
        problems = item_problems(self)
        if problems:
            raise DataError(f"item {self.item_id!r} of {self.UID}: {problems[0]}")

    @property
    def record_id(self) -> str:
        """``item_id``."""
        return self.item_id

    @property
    def shape(self) -> type[ItemShape]:
        """What this item's type is made of and how it is judged (:mod:`.item_types`)."""
        shape = item_shape(self.item_type)
        if shape is None:  # refused on construction; kept for type checkers
            raise DataError(f"item {self.item_id!r}: unknown item_type {self.item_type!r}")
        return shape

    @property
    def is_contrast(self) -> bool:
        """An item with sensitivity: good and bad cells compared (cloze contrasts, foils, role
        reversals); it may have expected completions (top-k)."""
        return self.shape.contrast

    @property
    def is_multiple_choice(self) -> bool:
        """Whether the answer competes with other candidates (every type but role reversals)."""
        return self.shape.multiple_choice

    @property
    def has_blank(self) -> bool:
        """Whether the context holds a blank (every type but questions)."""
        return self.shape.blank

    def cells(self) -> list[Cell]:
        """Every (context, word) a masked LM scores at the blank."""
        return self.shape.cells(self)

    def comparisons(self) -> list[tuple[Cell, Cell]]:
        """(better, worse) cells sensitivity compares (empty for types without sensitivity)."""
        return self.shape.comparisons(self)

    def preview(self) -> list[str]:
        """The lines for ``blimpgen show``: context, candidates, answer (and expected completions,
        foils, the role-reversed context)."""
        expected = f"   expected: {', '.join(self.expected)}" if self.expected else ""
        if self.reversed_context is not None:
            return [f"  {self.context}   -> {self.answer}{expected}", f"  *{self.reversed_context}"]
        return [f"  {self.context}   [{' / '.join(self.candidates)}] -> {self.answer}{expected}"]

    def context_for(self, option: str) -> str:
        """The context ``option`` is placed in (its own when the item has ``contexts``)."""
        if self.contexts is not None:
            return self.contexts[option]
        return self.context

    def filled(self, option: str) -> str:
        """The sentence with ``option`` in the blank (what a causal LM scores); for a question,
        the question followed by the answer."""
        if not self.has_blank:
            return f"{self.context} {option}"
        return self.context_for(option).replace(BLANK, option, 1)

    def split(self, option: str) -> tuple[str, str]:
        """(text left of the blank, text right of it) in ``option``'s context."""
        left, _, right = self.context_for(option).partition(BLANK)
        return left, right

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict; absent optional fields are left out."""
        out: dict[str, Any] = {
            "item_id": self.item_id,
            "UID": self.UID,
            TYPE_KEY: self.item_type,
            "field": self.field,
            "linguistics_term": self.linguistics_term,
            "group": self.group,
            "control": self.control,
            "context": self.context,
        }
        if self.contexts is not None:
            out["contexts"] = dict(self.contexts)
        out["candidates"] = list(self.candidates)
        out["answer"] = self.answer
        for name in self.shape.json_fields:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        out["arguments"] = list(self.arguments)
        if self.replicate is not None:
            out["replicate"] = self.replicate
        out.update(self.provenance_dict())
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str | SourceLoc = "") -> ProbeItem:
        """Build an item from its JSON form, ignoring unknown keys.

        Raises:
            DataError: for a missing field, a wrong type or an inconsistent item, at ``where``.
        """
        if not isinstance(data, dict):
            raise record_error(where, f"expected a JSON object, got {type(data).__name__}")
        for name in REQUIRED_FIELDS:
            if name not in data:
                raise record_error(where, f"missing required field {name!r}")
            if data[name] is None:
                raise record_error(where, f"field {name!r} is required; it may not be null")
        kwargs: dict[str, Any] = read_provenance(data, where)
        for name in cls.__dataclass_fields__:
            if name not in data or data[name] is None or name in PROVENANCE_KEYS:
                continue
            value = data[name]
            if name in ("candidates", "expected", "arguments", "foils"):
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise record_error(where, f"field {name!r} must be a list of strings")
                value = tuple(value)
            elif name == "replicate":
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise record_error(where, f"replicate must be a non-negative integer, got {value!r}")
            elif name == "contexts":
                if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                    raise record_error(where, f"field {name!r} must be an object of strings")
            elif not isinstance(value, str):
                raise record_error(where, f"field {name!r} must be a string")
            kwargs[name] = value
        try:
            return cls(**kwargs)
        except DataError as exc:
            raise record_error(where, exc.message) from None


def item_problems(item: ProbeItem) -> list[str]:
    """Why an item is inconsistent (empty when it is fine)."""
    problems = []
    shape = item_shape(item.item_type)
    if shape is None:
        return [f"item_type {item.item_type!r} is not one of {', '.join(ITEM_TYPES)}"]
    if item.control not in CONTROLS:
        problems.append(f"control {item.control!r} is not one of {', '.join(CONTROLS)}")
    if len(item.candidates) < (2 if shape.multiple_choice else 1):
        problems.append("needs at least two candidates")
    if len(set(item.candidates)) != len(item.candidates):
        problems.append(f"candidates repeat: {list(item.candidates)}")
    if any(not c.strip() for c in item.candidates):
        problems.append("a candidate is empty")
    if item.answer not in item.candidates:
        problems.append(f"answer {item.answer!r} is not one of the candidates {list(item.candidates)}")
    if shape.blank:
        contexts = [item.context] + list((item.contexts or {}).values())
        for text in contexts:
            if text.count(BLANK) != 1:
                problems.append(f"context {text!r} must contain exactly one {BLANK}")
                break
    if item.contexts is not None:
        if set(item.contexts) != set(item.candidates):
            problems.append("contexts must have one entry per candidate")
        elif item.contexts.get(item.answer) != item.context:
            problems.append("context must be the answer's context when contexts are given")
    for name in ("good", "bad", "foils", "reversed_context", "expected"):
        value = getattr(item, name)
        if value not in (None, ()) and name not in shape.json_fields:
            problems.append(f"{name!r} does not belong to a {item.item_type} item")
    return problems + shape.problems(item)
