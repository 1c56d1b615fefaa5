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

The other item types (:mod:`blimpgen.records.item_types`) write other answer keys:
``cloze_contrast`` gives ``good`` and ``bad`` (and optionally ``expected``, a list of
templates), ``cloze_foils`` ``good`` and ``foils`` (a list), ``role_contrast`` ``good`` (the
target) and ``reversed_context``, and ``question`` a ``context`` without a blank with
``candidates`` and ``answer``. A context may use the variable ``option`` (the completion being
placed) when its words depend on it, e.g. ``"A robin is {{ option | article }} [MASK]."``; each
option then gets its own context.

``splits:`` names disjoint parts of a suite's space (oLMpics trains and evaluates on disjoint
ranges, domains and taxonomy trees); ``--option split=NAME`` generates one of them. A split sets
option values and/or narrows the ``where`` formula of some slots::

    splits:
      train: {options: {min_age: 43, max_age: 120}}
      dev: {where: {a: "not class=animal", b: "not class=animal"}}

Every suite also takes the built-in option ``shuffles`` (how many shuffled versions of each item
the shuffling controls make; Ettinger averages over 100).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from blimpgen._yaml import KeyPath, LineTable
from blimpgen.errors import SpecError, did_you_mean
from blimpgen.grammar import templates
from blimpgen.grammar.spec import SpecBase, Variant, locate_template_problems, unused_slot
from blimpgen.records.item import BLANK, CONTROLS, ITEM_TYPES, ItemType
from blimpgen.records.types import item_shape

OPTION_PREFIX = "option."
# variables every probe template may use besides the slots
PROBE_VARIABLES = frozenset({"option"})
# options every suite takes without declaring them: name -> default
BUILTIN_OPTIONS: dict[str, int | str] = {"shuffles": 1}
SPLIT_OPTION = "split"
# every key that writes an answer; an item type requires some and allows others (item_types)
ANSWER_KEYS = ("candidates", "answer", "good", "bad", "foils", "expected", "reversed_context")


class Split(BaseModel):
    """One named part of a suite's space: option values and narrower slot formulas."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    description: str = ""
    options: dict[str, int | str] = Field(default_factory=dict)
    where: dict[str, str] = Field(default_factory=dict)


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
    foils: list[str] | None = None
    reversed_context: str | None = None
    expected: list[str] = Field(default_factory=list)
    group: str = ""
    arguments: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    controls: list[str] | None = None
    shuffle_candidates: bool = False
    splits: dict[str, Split] = Field(default_factory=dict)
    notes: str = ""

    @field_validator("controls")
    @classmethod
    def _controls(cls, value: list[str] | None) -> list[str] | None:
        for name in value or ():
            if name not in CONTROLS:
                raise ValueError(f"unknown control {name!r}{did_you_mean(name, CONTROLS)}")
        return value

    list_title: ClassVar[str | None] = "probe suites (items, not pairs):"

    @property
    def offered_controls(self) -> tuple[str, ...]:
        """The controls the suite offers: those it lists, else every control of its item type."""
        shape = item_shape(self.item)
        return tuple(self.controls) if self.controls is not None else (shape.controls if shape else ("none",))

    def list_column(self) -> str:
        """The item type (``multiple-choice``, ``cloze-contrast``, ...)."""
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
                    errors.append(
                        table.error(
                            ("slots", name),
                            f"unknown option {option!r}"
                            f"{did_you_mean(option, self.options)} (declare it under options:)",
                        )
                    )
        if not errors:
            errors += [
                table.error(("slots", name), f"slot {name!r} is used by no template and no other slot")
                for name in unused_slot(self.slots, used)
            ]
        return errors

    def templates(self) -> dict[KeyPath, str]:
        """Every template by its key path in the YAML file."""
        out: dict[KeyPath, str] = {("context",): self.context}
        if self.candidates is not None:
            out.update({("candidates", i): t for i, t in enumerate(self.candidates)})
        for key in ("answer", "good", "bad", "reversed_context"):
            if getattr(self, key) is not None:
                out[(key,)] = getattr(self, key)
        out.update({("foils", i): t for i, t in enumerate(self.foils or ())})
        out.update({("expected", i): t for i, t in enumerate(self.expected)})
        out.update({("arguments", i): t for i, t in enumerate(self.arguments)})
        if self.group:
            out[("group",)] = self.group
        return out

    def structure_problems(self) -> list[tuple[KeyPath, str]]:
        """(key path, message) for what field types cannot say."""
        problems: list[tuple[KeyPath, str]] = []
        shape = item_shape(self.item)
        if shape is None:  # the Literal refuses it first
            return problems
        for key in shape.required:
            if getattr(self, key) in (None, []):
                problems.append(((key,), f"a {self.item} suite needs {key!r}"))
        allowed = set(shape.required) | set(shape.optional)
        for key in ANSWER_KEYS:
            if key not in allowed and getattr(self, key) not in (None, []):
                takers = [s for s in ITEM_TYPES if key in _keys_of(s)]
                problems.append(
                    (
                        (key,),
                        f"{key!r} belongs to {' and '.join(takers)} suites; a {self.item} suite "
                        f"writes {', '.join(shape.required + shape.optional)}",
                    )
                )
        if self.candidates is not None and len(self.candidates) < 2:
            problems.append((("candidates",), "give at least two candidates"))
        blanks = 1 if shape.blank else 0
        if self.context.count(BLANK) != blanks:
            problems.append(
                (
                    ("context",),
                    f"the context must contain the blank {BLANK} exactly once"
                    if blanks
                    else f"a question has no blank {BLANK}",
                )
            )
        if self.reversed_context is not None and self.reversed_context.count(BLANK) != 1:
            problems.append(
                (("reversed_context",), f"the reversed context must contain the blank {BLANK} exactly once")
            )
        for name in self.options:
            if not isinstance(name, str) or not name.isidentifier():
                problems.append((("options", name), "option names must be identifiers"))
            elif name in BUILTIN_OPTIONS or name == SPLIT_OPTION:
                problems.append((("options", name), f"{name!r} is a built-in option; choose another name"))
        for name in self.controls or ():
            if name in CONTROLS and name not in shape.controls:
                problems.append(
                    (
                        ("controls",),
                        f"a {self.item} item does not take the {name} control (it takes: {', '.join(shape.controls)})",
                    )
                )
        for split, body in self.splits.items():
            for name in body.options:
                if name not in self.options:
                    problems.append(
                        (
                            ("splits", split, "options", name),
                            f"unknown option {name!r}{did_you_mean(name, self.options)}",
                        )
                    )
            for slot in body.where:
                if slot not in self.slots:
                    problems.append(
                        (("splits", split, "where", slot), f"unknown slot {slot!r}{did_you_mean(slot, self.slots)}")
                    )
                elif "where" not in self.slots[slot]:
                    problems.append(
                        (
                            ("splits", split, "where", slot),
                            f"slot {slot!r} has no 'where' formula for a split to narrow",
                        )
                    )
        return problems

    def option_defaults(self) -> dict[str, int | str]:
        """Every option the suite takes, with its default: declared, built-in, and ``split``
        (``all``: no split) when the suite declares splits."""
        out: dict[str, int | str] = {**self.options, **BUILTIN_OPTIONS}
        if self.splits:
            out[SPLIT_OPTION] = "all"
        return out

    def resolve(self, given: dict[str, Any]) -> dict[str, Any]:
        """Every option's value: the defaults, then the chosen split's presets, then ``given``
        (already checked and converted: :func:`blimpgen.generators.probe.resolve_options`)."""
        values = self.option_defaults()
        split = self.splits.get(str(given.get(SPLIT_OPTION)))
        if split is not None:
            values.update(split.options)
        values.update(given)
        return values

    def variant(self, options: dict[str, Any] | None = None) -> Variant:
        """The slots as a :class:`Variant` (what kinds are built from), with ``option.NAME``
        parameter values replaced by the option values (:meth:`resolve`d), and the chosen
        split's formulas added to the ``where`` of the slots it narrows."""
        values = self.resolve(options or {})
        split = self.splits.get(str(values.get(SPLIT_OPTION)))
        slots = {}
        for name, body in self.slots.items():
            body = {k: _substitute(v, values) for k, v in body.items()}
            if split is not None and name in split.where:
                body["where"] = f"({body['where']}) and ({split.where[name]})"
            slots[name] = body
        return Variant(name="", slots=slots, good="", bad="", one_prefix=None, two_prefix=None, contrast=[])


def _keys_of(item_type: str) -> tuple[str, ...]:
    shape = item_shape(item_type)
    return (shape.required + shape.optional) if shape else ()


def _substitute(value: Any, options: dict[str, Any]) -> Any:
    if isinstance(value, str) and value.startswith(OPTION_PREFIX) and value[len(OPTION_PREFIX) :] in options:
        return options[value[len(OPTION_PREFIX) :]]
    if isinstance(value, list):
        return [_substitute(v, options) for v in value]
    return value


def option_references(value: Any) -> list[str]:
    """Option names a slot parameter refers to (``option.NAME`` strings)."""
    if isinstance(value, str) and value.startswith(OPTION_PREFIX):
        return [value[len(OPTION_PREFIX) :]]
    if isinstance(value, dict):
        return [name for v in value.values() for name in option_references(v)]
    if isinstance(value, list):
        return [name for v in value for name in option_references(v)]
    return []
