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

import hashlib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from blimpgen._yaml import LineTable, key_path_str, load_yaml_text
from blimpgen.errors import SpecError, SpecErrors, did_you_mean
from blimpgen.grammar import templates
from blimpgen.grammar.loader import is_probe_file, pydantic_errors, user_spec_files
from blimpgen.grammar.spec import Variant, check_slots, check_uid

SHIPPED = "blimpgen.grammar"
BLANK = "[MASK]"
ITEM_TYPES = ("multiple_choice", "cloze_contrast")
CONTROLS = ("none", "no_language", "perturbed_language", "shuffled", "truncated")
OPTION_PREFIX = "option."
# variables every probe template may use besides the slots
PROBE_VARIABLES = frozenset({"option"})


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class ProbeSpec(_Strict):
    """One probe suite as written in YAML (after structural validation)."""

    uid: str = Field(min_length=1, max_length=100)
    item: Literal[ITEM_TYPES]  # type: ignore[valid-type]
    field: str = Field(min_length=1, max_length=40)
    linguistics_term: str = Field(min_length=1, max_length=100)
    description: str = Field(min_length=1, max_length=300)
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

    @field_validator("uid")
    @classmethod
    def _uid(cls, value: str) -> str:
        return check_uid(value)

    @field_validator("slots")
    @classmethod
    def _slots(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        return check_slots(value)

    @field_validator("controls")
    @classmethod
    def _controls(cls, value: list[str]) -> list[str]:
        for name in value:
            if name not in CONTROLS:
                raise ValueError(f"unknown control {name!r}{did_you_mean(name, CONTROLS)}")
        return value

    def templates(self) -> dict[tuple, str]:
        """Every template by its key path in the YAML file."""
        out: dict[tuple, str] = {("context",): self.context}
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

    def structure_problems(self) -> list[tuple[tuple, str]]:
        """(key path, message) for what field types cannot say."""
        problems: list[tuple[tuple, str]] = []
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


@dataclass(frozen=True)
class LoadedProbe:
    """A validated probe spec with where it came from (the probe twin of ``LoadedSpec``)."""

    spec: ProbeSpec
    file: str
    lines: LineTable = field(repr=False)
    sha: str

    def error(self, path: tuple, message: str) -> SpecError:
        return self.lines.error(path, message)


def is_probe_document(raw: Any) -> bool:
    """Whether a parsed YAML document is a probe suite (it has ``item:``)."""
    return isinstance(raw, dict) and "item" in raw


def parse_probe(text: str, file: str) -> LoadedProbe:
    """Validate one probe suite document.

    Raises:
        SpecErrors: every problem found, each ``file:line: key: message``.
    """
    raw, table = load_yaml_text(text, file)
    if not isinstance(raw, dict):
        raise SpecErrors([SpecError("a probe suite must be a YAML mapping (uid: ..., item: ...)", file, 1)])
    try:
        spec = ProbeSpec.model_validate(raw)
    except ValidationError as exc:
        raise SpecErrors(_pydantic_errors(exc, table)) from None
    errors = [table.error(path, message) for path, message in spec.structure_problems()]
    names = set(spec.slots)
    used: set[str] = set()
    for key, source in spec.templates().items():
        allowed = names | (PROBE_VARIABLES if key == ("context",) else frozenset())
        problems = templates.template_problems(source, allowed)
        base_line = table.line_of(key)
        for template_line, message in problems:
            errors.append(SpecError(message, table.file, base_line + template_line - 1, key_path_str(key)))
        if not problems:
            used |= templates.used_variables(source)
    for name, body in spec.slots.items():
        for option in option_references(body):
            if option not in spec.options:
                errors.append(table.error(("slots", name), f"unknown option {option!r}"
                                          f"{did_you_mean(option, spec.options)} (declare it under options:)"))
    if not errors:
        mentioned = {n for n in names for other, body in spec.slots.items() if other != n and n in str(body)}
        for name in sorted(names - used - mentioned):
            errors.append(table.error(("slots", name), f"slot {name!r} is used by no template and no other slot"))
    if errors:
        raise SpecErrors(errors)
    return LoadedProbe(spec, file, table, hashlib.sha256(text.encode("utf-8")).hexdigest()[:12])


def _pydantic_errors(exc: ValidationError, table: LineTable) -> list[SpecError]:
    return pydantic_errors(exc, table, lambda loc: list(ProbeSpec.model_fields),
                           {("item",): f"item must be one of {', '.join(ITEM_TYPES)}"})


def shipped_probe_files() -> list[tuple[str, Any]]:
    """(display name, traversable) of every shipped probe suite, sorted."""
    root = resources.files(SHIPPED) / "probes"
    return sorted(((f"grammar/probes/{entry.name}", entry) for entry in root.iterdir()
                   if entry.name.endswith(".yaml") and not entry.name.startswith("_")), key=lambda item: item[0])


def load_probes(paths: tuple[Path | str, ...] = ()) -> dict[str, LoadedProbe]:
    """Shipped probe suites plus the probe files (those with ``item:``) under user folders.

    Raises:
        SpecErrors: every problem in every file, including duplicate UIDs.
    """
    files = list(shipped_probe_files())
    for folder in paths:
        for display, path in user_spec_files(folder):
            if is_probe_file(path):
                files.append((display, path))
    probes: dict[str, LoadedProbe] = {}
    errors: list[SpecError] = []
    for display, entry in files:
        try:
            loaded = parse_probe(entry.read_text(encoding="utf-8"), display)
        except SpecErrors as exc:
            errors.extend(exc.errors)
            continue
        uid = loaded.spec.uid
        expected = display.rsplit("/", 1)[-1].removesuffix(".yaml")
        if uid in probes:
            errors.append(loaded.error(("uid",), f"duplicate UID {uid!r} (also in {probes[uid].file})"))
        elif expected != uid:
            errors.append(loaded.error(("uid",), f"uid {uid!r} must match the file name {expected}.yaml"))
        else:
            probes[uid] = loaded
    if errors:
        raise SpecErrors(errors)
    return probes


@cache
def load_shipped_probes() -> dict[str, LoadedProbe]:
    """The shipped probe suites (cached)."""
    return load_probes(())
