"""Probe specs: cloze suites (oLMpics multiple choice, Ettinger-style contrasts) in the paradigm language.

A probe suite is one YAML file under ``grammar/probes/`` (or a user folder) with the same
slots, kinds and sandboxed templates as a minimal-pair paradigm, and ``item:`` saying what it
makes instead of pairs::

    uid: olmpics_age_comparison
    item: multiple_choice                  # or cloze_contrast
    field: semantics
    linguistics_term: age_comparison       # the phenomenon reports group by
    description: Compare two ages stated as numbers.
    options: {min_age: 10, max_age: 80}    # user-settable: gen --option max_age=30
    slots:
      age1: {kind: number, min: option.min_age, max: option.max_age}
      age2: {kind: number, min: option.min_age, max: option.max_age, distinct: [age1]}
    context: "A {{ age1 }} year old person is [MASK] than me in age, if I am a {{ age2 }} year old person."
    candidates: [younger, older]
    answer: "{{ 'younger' if age1 < age2 else 'older' }}"
    group: "{{ age1 | decade }}"
    arguments: ["{{ age1 }}", "{{ age2 }}"]  # what the no-language control keeps
    keywords: [year, old, person, age]     # what the perturbed-language control replaces

``cloze_contrast`` suites give ``good`` and ``bad`` (and optionally ``expected``, a list of
templates) instead of ``candidates`` and ``answer``. A context may use the variable
``option`` (the completion being placed) when its words depend on it, e.g.
``"A robin is {{ option | article }} [MASK]."``; each option then gets its own context.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field, field_validator

from blimpgen._yaml import KeyPath, LineTable
from blimpgen.errors import SpecError, did_you_mean
from blimpgen.grammar import templates
from blimpgen.grammar.spec import SpecBase, Variant, locate_template_problems, unused_slot
from blimpgen.records.item import BLANK, CONTROLS, ITEM_TYPES, ItemType

OPTION_PREFIX = "option."
# variables every probe template may use besides the slots
PROBE_VARIABLES = frozenset({"option"})


class ProbeSpec(SpecBase):
    """One probe suite as written in YAML (after structural validation)."""

    noun: ClassVar[str] = "probe suite"
    takes_options: ClassVar[bool] = True
    literal_messages: ClassVar[dict[KeyPath, str]] = {("item",): f"item must be one of {', '.join(ITEM_TYPES)}"}

    item: ItemType
    source: str = ""
    options: dict[str, int | str] = Field(default_factory=dict)
    slots: dict[str, dict[str, Any]] = Field(min_length=1)
    context: str = Field(min_length=1)
    candidates: list[str] | None = None
    answer: str | None = None
    good: str | None = None
    bad: str | None = None
    expected: list[str] = Field(default_factory=list)
    group: str = ""
    arguments: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    controls: list[str] = Field(default_factory=lambda: list(CONTROLS))
    shuffle_candidates: bool = False
    notes: str = ""

    @field_validator("controls")
    @classmethod
    def _controls(cls, value: list[str]) -> list[str]:
        for name in value:
            if name not in CONTROLS:
                raise ValueError(f"unknown control {name!r}{did_you_mean(name, CONTROLS)}")
        return value

    list_title: ClassVar[str | None] = "probe suites (items, not pairs):"

    def list_column(self) -> str:
        """The item type (``multiple-choice``, ``cloze-contrast``)."""
        return self.item.replace("_", "-")

    def list_order(self) -> tuple[str, ...]:
        """Suites are listed by UID."""
        return (self.uid,)

    def heading(self) -> str:
        """The line ``blimpgen show`` starts with (the item type where a paradigm has its field)."""
        return f"{self.uid} ({self.linguistics_term}, {self.item}): {self.description}"

    def problems(self, table: LineTable) -> list[SpecError]:
        """Structure the field types cannot say, template syntax and variables, option references,
        then (when all that is fine) unused slots."""
        errors = [table.error(path, message) for path, message in self.structure_problems()]
        used: set[str] = set()
        for key, source in self.templates().items():
            allowed = set(self.slots) | (PROBE_VARIABLES if key == ("context",) else frozenset())
            problems = templates.template_problems(source, allowed)
            errors += locate_template_problems(problems, table, key)
            if not problems:
                used |= templates.used_variables(source)
        for name, body in self.slots.items():
            for option in option_references(body):
                if option not in self.options:
                    errors.append(table.error(("slots", name), f"unknown option {option!r}"
                                              f"{did_you_mean(option, self.options)} (declare it under options:)"))
        if not errors:
            errors += [table.error(("slots", name), f"slot {name!r} is used by no template and no other slot")
                       for name in unused_slot(self.slots, used)]
        return errors

    def templates(self) -> dict[KeyPath, str]:
        """Every template by its key path in the YAML file."""
        out: dict[KeyPath, str] = {("context",): self.context}
        if self.candidates is not None:
            out.update({("candidates", i): t for i, t in enumerate(self.candidates)})
        for key in ("answer", "good", "bad"):
            if getattr(self, key) is not None:
                out[(key,)] = getattr(self, key)
        out.update({("expected", i): t for i, t in enumerate(self.expected)})
        out.update({("arguments", i): t for i, t in enumerate(self.arguments)})
        if self.group:
            out[("group",)] = self.group
        return out

    def structure_problems(self) -> list[tuple[KeyPath, str]]:
        """(key path, message) for what field types cannot say."""
        problems: list[tuple[KeyPath, str]] = []
        if self.item == "multiple_choice":
            for key in ("candidates", "answer"):
                if getattr(self, key) is None:
                    problems.append(((key,), f"a multiple_choice suite needs {key!r}"))
            for key in ("good", "bad"):
                if getattr(self, key) is not None:
                    problems.append(((key,), f"{key!r} belongs to cloze_contrast suites; "
                                             "multiple_choice uses candidates and answer"))
            if self.expected:
                problems.append((("expected",), "'expected' belongs to cloze_contrast suites"))
            if self.candidates is not None and len(self.candidates) < 2:
                problems.append((("candidates",), "give at least two candidates"))
        else:
            for key in ("good", "bad"):
                if getattr(self, key) is None:
                    problems.append(((key,), f"a cloze_contrast suite needs {key!r}"))
            for key in ("candidates", "answer"):
                if getattr(self, key) is not None:
                    problems.append(((key,), f"{key!r} belongs to multiple_choice suites; "
                                             "cloze_contrast uses good and bad (candidates are [good, bad])"))
        if self.context.count(BLANK) != 1:
            problems.append((("context",), f"the context must contain the blank {BLANK} exactly once"))
        for name in self.options:
            if not isinstance(name, str) or not name.isidentifier():
                problems.append((("options", name), "option names must be identifiers"))
        return problems

    def variant(self, options: dict[str, Any] | None = None) -> Variant:
        """The slots as a :class:`Variant` (what kinds are built from), with ``option.NAME``
        parameter values replaced by the suite's option values."""
        values = {**self.options, **(options or {})}
        slots = {name: {k: _substitute(v, values) for k, v in body.items()} for name, body in self.slots.items()}
        return Variant(name="", slots=slots, good="", bad="", one_prefix=None, two_prefix=None, contrast=[])


def _substitute(value: Any, options: dict[str, Any]) -> Any:
    if isinstance(value, str) and value.startswith(OPTION_PREFIX) and value[len(OPTION_PREFIX):] in options:
        return options[value[len(OPTION_PREFIX):]]
    if isinstance(value, list):
        return [_substitute(v, options) for v in value]
    return value


def option_references(value: Any) -> list[str]:
    """Option names a slot parameter refers to (``option.NAME`` strings)."""
    if isinstance(value, str) and value.startswith(OPTION_PREFIX):
        return [value[len(OPTION_PREFIX):]]
    if isinstance(value, dict):
        return [name for v in value.values() for name in option_references(v)]
    if isinstance(value, list):
        return [name for v in value for name in option_references(v)]
    return []
