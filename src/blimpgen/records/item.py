"""The :class:`ProbeItem` record: cloze probes (oLMpics multiple choice, Ettinger-style contrasts).

One schema for both item types, so one reader, one scorer interface and one report:

* ``multiple_choice`` (oLMpics, Talmor et al. 2020): a ``context`` with one blank, written
  ``[MASK]``; K ``candidates``; the gold ``answer`` (one of the candidates).
* ``cloze_contrast`` (Ettinger 2020): a context with one blank, the ``expected`` completions
  (for top-k accuracy; may be empty, e.g. under negation) and a ``good`` and ``bad``
  completion (for sensitivity). ``candidates`` is ``[good, bad]`` and ``answer`` is ``good``,
  so multiple-choice scoring applies to contrasts too.

When the words around the blank depend on the option (*a* bird / *an* insect), the item also
carries ``contexts``: option -> its own context; ``context`` is then the answer's.

Items carry ids, groups and provenance like pairs: ``item_id`` (``{UID}-{index:05d}``, plus
``.{control}`` for a control), ``group`` (a sub-condition reports break accuracy down by),
``control`` (``none`` or the control it was derived with, see
:mod:`blimpgen.generators.controls`), ``arguments`` (the sampled values the reasoning is
about, in context order) and the shared :class:`~blimpgen.records.provenance.Provenance`
(``seed``, ``lexicon_hash``, ``spec_hash``, ``blimpgen_version``, ``slots``).

``BLANK``, ``ITEM_TYPES`` and ``CONTROLS`` are the record's vocabulary; probe specs
(:mod:`blimpgen.grammar.probe_spec`) are checked against them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, get_args

from blimpgen.errors import DataError, SourceLoc
from blimpgen.records.provenance import PROVENANCE_KEYS, Provenance, read_provenance, record_error

BLANK = "[MASK]"
ItemType = Literal["multiple_choice", "cloze_contrast"]
ITEM_TYPES: tuple[str, ...] = get_args(ItemType)
CONTROLS = ("none", "no_language", "perturbed_language", "shuffled", "truncated")
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
    arguments: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        problems = item_problems(self)
        if problems:
            raise DataError(f"item {self.item_id!r} of {self.UID}: {problems[0]}")

    @property
    def record_id(self) -> str:
        """``item_id``."""
        return self.item_id

    @property
    def is_contrast(self) -> bool:
        """A ``cloze_contrast`` item: it has a good and a bad completion (sensitivity) and may have
        expected ones (top-k); every item is also a multiple-choice item."""
        return self.item_type == "cloze_contrast"

    def preview(self) -> list[str]:
        """The line for ``blimpgen show``: context, candidates, answer (and expected completions)."""
        return [f"  {self.context}   [{' / '.join(self.candidates)}] -> {self.answer}"
                + (f"   expected: {', '.join(self.expected)}" if self.expected else "")]

    def context_for(self, option: str) -> str:
        """The context ``option`` is placed in (its own when the item has ``contexts``)."""
        if self.contexts is not None:
            return self.contexts[option]
        return self.context

    def filled(self, option: str) -> str:
        """The sentence with ``option`` in the blank (what a causal LM scores)."""
        return self.context_for(option).replace(BLANK, option, 1)

    def split(self, option: str) -> tuple[str, str]:
        """(text left of the blank, text right of it) in ``option``'s context."""
        left, _, right = self.context_for(option).partition(BLANK)
        return left, right

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict; absent optional fields are left out."""
        out: dict[str, Any] = {"item_id": self.item_id, "UID": self.UID, TYPE_KEY: self.item_type,
                               "field": self.field, "linguistics_term": self.linguistics_term,
                               "group": self.group, "control": self.control, "context": self.context}
        if self.contexts is not None:
            out["contexts"] = dict(self.contexts)
        out["candidates"] = list(self.candidates)
        out["answer"] = self.answer
        if self.item_type == "cloze_contrast":
            out.update(expected=list(self.expected), good=self.good, bad=self.bad)
        out["arguments"] = list(self.arguments)
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
            if name in ("candidates", "expected", "arguments"):
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise record_error(where, f"field {name!r} must be a list of strings")
                value = tuple(value)
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
    if item.item_type not in ITEM_TYPES:
        problems.append(f"item_type {item.item_type!r} is not one of {', '.join(ITEM_TYPES)}")
    if item.control not in CONTROLS:
        problems.append(f"control {item.control!r} is not one of {', '.join(CONTROLS)}")
    if len(item.candidates) < 2:
        problems.append("needs at least two candidates")
    if len(set(item.candidates)) != len(item.candidates):
        problems.append(f"candidates repeat: {list(item.candidates)}")
    if any(not c.strip() for c in item.candidates):
        problems.append("a candidate is empty")
    if item.answer not in item.candidates:
        problems.append(f"answer {item.answer!r} is not one of the candidates {list(item.candidates)}")
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
    if item.item_type == "cloze_contrast":
        if item.good is None or item.bad is None:
            problems.append("a cloze_contrast item needs good and bad")
        elif (item.good, item.bad) != tuple(item.candidates) or item.answer != item.good:
            problems.append("a cloze_contrast item's candidates must be [good, bad] and its answer good")
    return problems
