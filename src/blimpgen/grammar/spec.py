"""Paradigm specs: the declarative description of one minimal-pair paradigm.

A spec is one YAML file::

    uid: determiner_noun_agreement_1          # BLiMP metadata
    field: morphology
    linguistics_term: determiner_noun_agreement
    description: A demonstrative agrees in number with its noun.
    version: 1                                # raise when a change alters the output
    contrast: [noun]                          # what may differ between good and bad
    slots:                                    # sampled in order; later slots may refer to earlier
      subj: {kind: dp, head: "N and animate"}
      verb: {kind: verb_group, verb: "transitive", subject: subj}
      noun: {kind: word, where: "N and not mass and fits(verb.arg2)"}
      dem:  {kind: word, where: "D and demonstrative and number = noun.number"}
    good: "{{ subj }} {{ verb }} {{ dem }} {{ noun }}."
    bad:  "{{ subj }} {{ verb }} {{ dem }} {{ noun | flip('number') }}."
    one_prefix: {prefix: "{{ subj }} {{ verb }} {{ dem }}", word_good: "{{ noun }}",
                 word_bad: "{{ noun | flip('number') }}"}

``grammar`` checks structure, templates and metadata; each slot's ``kind`` and parameters
are resolved and checked by ``blimpgen.generators`` (which owns the kinds), still with the
spec's line numbers. ``lexically_identical`` is computed from the templates, not declared;
``one_prefix_method`` and ``two_prefix_method`` follow from the prefix blocks when left out
(written out, they must agree with them). ``@name`` in a slot parameter is a named formula
(``formulas:`` here, or from a fragment listed under ``include:``; see
:mod:`blimpgen.grammar.fragments`).

Every spec type derives from :class:`SpecBase`, which holds what all of them share (the
metadata header, the UID and slot rules, the unused-slot rule). A document is a paradigm
unless it has an ``item:`` key, which makes it a probe suite
(:class:`blimpgen.grammar.probe_spec.ProbeSpec`); :data:`blimpgen.grammar.loader.SpecDocument`
is the discriminated union of the two.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from blimpgen._yaml import KeyPath, LineTable, key_path_str
from blimpgen.errors import SpecError, did_you_mean
from blimpgen.grammar import templates
from blimpgen.registry import base_name

LinguisticField = Literal["morphology", "syntax", "semantics", "syntax_semantics", "syntax/semantics"]
FIELDS: tuple[str, ...] = get_args(LinguisticField)
LINGUISTICS_TERMS = (
    "anaphor_agreement",
    "argument_structure",
    "binding",
    "control_raising",
    "determiner_noun_agreement",
    "ellipsis",
    "filler_gap_dependency",
    "irregular_forms",
    "island_effects",
    "npi_licensing",
    "quantifiers",
    "s-selection",
    "subject_verb_agreement",
)
NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
UID_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class SpecBase(_Strict):
    """What every spec type shares: the metadata header, the UID and slot rules, and the
    interface the loader and the layers above use (``noun``, :meth:`problems`, ...).

    A subclass adds its own keys, sets ``noun`` (how messages name it) and implements
    :meth:`problems`; the loader and the catalogue need nothing else.
    """

    noun: ClassVar[str] = "spec"
    # whether generation takes options and controls (gen --option, --control)
    takes_options: ClassVar[bool] = False
    # replaces pydantic's wording for a value outside a Literal, by key path
    literal_messages: ClassVar[dict[KeyPath, str]] = {}

    uid: str = Field(min_length=1, max_length=100)
    field: str = Field(min_length=1, max_length=40)
    linguistics_term: str = Field(min_length=1, max_length=100)
    description: str = Field(min_length=1, max_length=300)
    # raised whenever a change to the spec changes what it generates; recorded in every record
    version: int = Field(default=1, ge=1, le=1_000_000)
    # fragments (_NAME.yaml) whose named formulas the slots use, and the spec's own formulas;
    # both are expanded before validation (see blimpgen.grammar.fragments) and kept for show
    include: list[str] = Field(default_factory=list)
    formulas: dict[str, str] = Field(default_factory=dict)

    @field_validator("uid")
    @classmethod
    def _uid(cls, value: str) -> str:
        return check_uid(value)

    @field_validator("slots", check_fields=False)
    @classmethod
    def _slots(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        return check_slots(value)

    @classmethod
    def known_keys(cls, loc: KeyPath) -> list[str]:
        """The keys allowed where an unknown key was found at ``loc`` (for did-you-mean)."""
        return list(cls.model_fields)

    @classmethod
    def raw_problems(cls, raw: dict[str, Any], table: LineTable) -> list[SpecError]:
        """Problems still worth reporting when the structure failed validation (default: none)."""
        return []

    def problems(self, table: LineTable) -> list[SpecError]:
        """Every problem the field types cannot say (templates, cross-key rules), located."""
        raise NotImplementedError

    def slot_bodies(self) -> list[dict[str, Any]]:
        """Every slot body the spec declares (a branch's own slots too), in file order."""
        return list(getattr(self, "slots", {}).values())

    # ``blimpgen list`` prints each spec type in its own block, under this title (none: first, untitled)
    list_title: ClassVar[str | None] = None

    def heading(self) -> str:
        """The line ``blimpgen show`` starts with."""
        return f"{self.uid} ({self.linguistics_term}, {self.field}): {self.description}"

    def list_column(self) -> str:
        """What ``blimpgen list`` prints between the phenomenon and the description."""
        return self.field

    def list_order(self) -> tuple[str, ...]:
        """Sort key within the spec type's block of ``blimpgen list``: phenomenon, then UID."""
        return (self.linguistics_term, self.uid)


def unused_slot(slots: dict[str, dict[str, Any]], used: set[str]) -> list[str]:
    """Slots (sorted) that no template uses and no other slot's parameters mention as a word."""
    return [
        name
        for name in sorted(set(slots) - used)
        if not any(_mentions(body, name) for other, body in slots.items() if other != name)
    ]


def _mentions(value: Any, name: str) -> bool:
    """Whether a slot's parameters mention ``name`` as a word (a reference or slot argument)."""
    if isinstance(value, str):
        return re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", value) is not None
    if isinstance(value, dict):
        return any(_mentions(v, name) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_mentions(v, name) for v in value)
    return False


class OnePrefix(_Strict):
    """Templates for the one-prefix method: a shared prefix, then one critical word."""

    prefix: str
    word_good: str
    word_bad: str


class TwoPrefix(_Strict):
    """Templates for the two-prefix method: two prefixes, then one shared word."""

    prefix_good: str
    prefix_bad: str
    word: str


class Branch(_Strict):
    """One alternative body of a paradigm whose pairs come from several templates."""

    slots: dict[str, dict[str, Any]] = Field(default_factory=dict)
    good: str = Field(min_length=1)
    bad: str = Field(min_length=1)
    one_prefix: OnePrefix | None = None
    two_prefix: TwoPrefix | None = None
    contrast: list[str] | None = None

    @field_validator("slots")
    @classmethod
    def _slots(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        return check_slots(value)


class Variant(BaseModel):
    """A complete body to sample from: the shared slots plus one branch (or the spec itself)."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    name: str
    slots: dict[str, dict[str, Any]]
    good: str
    bad: str
    one_prefix: OnePrefix | None
    two_prefix: TwoPrefix | None
    contrast: list[str]
    path: KeyPath = ()
    shared: tuple[str, ...] = ()

    def templates(self) -> dict[str, str]:
        """Every template by output field name (``sentence_good``, ``one_prefix_prefix``, ...)."""
        out = {"sentence_good": self.good, "sentence_bad": self.bad}
        if self.one_prefix is not None:
            out.update(
                one_prefix_prefix=self.one_prefix.prefix,
                one_prefix_word_good=self.one_prefix.word_good,
                one_prefix_word_bad=self.one_prefix.word_bad,
            )
        if self.two_prefix is not None:
            out.update(
                two_prefix_prefix_good=self.two_prefix.prefix_good,
                two_prefix_prefix_bad=self.two_prefix.prefix_bad,
                two_prefix_word=self.two_prefix.word,
            )
        return out

    def slot_path(self, name: str) -> KeyPath:
        """Key path of a slot: in the branch when it is the branch's own, else top level."""
        return self.path + ("slots", name) if self.path and name in self.own_slots else ("slots", name)

    @property
    def own_slots(self) -> set[str]:
        return set(self.slots) - set(self.shared)


class ParadigmSpec(SpecBase):
    """One minimal-pair paradigm as written in YAML (after structural validation)."""

    noun: ClassVar[str] = "paradigm"

    field: LinguisticField
    simple_LM_method: bool = True
    one_prefix_method: bool = False
    two_prefix_method: bool = False
    contrast: list[str] | None = None
    slots: dict[str, dict[str, Any]] = Field(default_factory=dict)
    good: str | None = Field(default=None, min_length=1)
    bad: str | None = Field(default=None, min_length=1)
    one_prefix: OnePrefix | None = None
    two_prefix: TwoPrefix | None = None
    branches: dict[str, Branch] | None = None
    notes: str = ""

    @model_validator(mode="before")
    @classmethod
    def _derive_method_flags(cls, data: Any) -> Any:
        """``one_prefix_method`` / ``two_prefix_method`` left out: true exactly when the spec (or
        any branch) has the block. Written out, they must agree with the blocks (checked later)."""
        if not isinstance(data, dict):
            return data
        branches = data.get("branches")
        bodies = [data] + ([b for b in branches.values() if isinstance(b, dict)] if isinstance(branches, dict) else [])
        derived = {
            f"{method}_method": any(body.get(method) is not None for body in bodies)
            for method in ("one_prefix", "two_prefix")
            if f"{method}_method" not in data
        }
        return {**data, **derived} if derived else data

    def slot_bodies(self) -> list[dict[str, Any]]:
        """The shared slots, then each branch's own."""
        return list(self.slots.values()) + [
            body for branch in (self.branches or {}).values() for body in branch.slots.values()
        ]

    @classmethod
    def known_keys(cls, loc: KeyPath) -> list[str]:
        """Keys of a prefix block inside one, else the top-level keys."""
        if len(loc) > 1 and loc[0] in ("one_prefix", "two_prefix"):
            return list((OnePrefix if loc[0] == "one_prefix" else TwoPrefix).model_fields)
        return list(cls.model_fields)

    @classmethod
    def raw_problems(cls, raw: dict[str, Any], table: LineTable) -> list[SpecError]:
        """Template problems of a spec whose structure failed validation, so that one ``check``
        run reports them too (only where the templates are strings and the slots a mapping)."""
        slots = raw.get("slots")
        if not isinstance(slots, dict):
            return []
        names = {str(name) for name in slots}
        errors = []
        for key in TEMPLATE_KEYS.values():
            node: Any = raw
            for part in key:
                node = node.get(part) if isinstance(node, dict) else None
            if isinstance(node, str):
                errors += locate_template_problems(templates.template_problems(node, names), table, key)
        return errors

    def problems(self, table: LineTable) -> list[SpecError]:
        """Method flags against blocks; then per variant: template syntax, undeclared variables,
        unused slots and contrast names (a variant's contrast only while no problem was found)."""
        errors = [table.error(path, message) for path, message in self.method_problems()]
        if errors:
            return errors
        for variant in self.variants():
            errors += _variant_problems(variant, table)
            if not errors:
                good, bad = variant_lexical_items(variant)
                literal = set(good[1]) | set(bad[1])
                branch = self.branches[variant.name] if self.branches is not None and variant.path else None
                own = branch is not None and branch.contrast is not None
                contrast_path = (variant.path if own else ()) + ("contrast",)
                for index, item in enumerate(variant.contrast):
                    if item not in variant.slots and item.lower() not in literal:
                        suggestion = did_you_mean(item, set(variant.slots) | literal)
                        errors.append(
                            table.error(
                                contrast_path + (index,),
                                f"{item!r} is neither a slot nor a word of the good or bad template{suggestion}",
                            )
                        )
        return errors

    def lexically_identical(self) -> bool:
        """Whether good and bad use the same lexemes (up to inflection and order) in every variant."""
        return all(good == bad for good, bad in map(variant_lexical_items, self.variants()))

    def method_problems(self) -> list[tuple[KeyPath, str]]:
        """(key path, message) for structure the field types cannot say: templates either at the
        top or in branches, prefix-method flags that disagree with their template blocks."""
        problems: list[tuple[KeyPath, str]] = []
        bodies: list[tuple[KeyPath, ParadigmSpec | Branch]]
        if self.branches is None:
            for key in ("good", "bad", "contrast"):
                if getattr(self, key) is None:
                    problems.append(((key,), f"missing required key {key!r}"))
            if not self.slots:
                problems.append((("slots",), "a paradigm needs at least one slot"))
            bodies = [((), self)]
        else:
            for key in ("good", "bad", "one_prefix", "two_prefix"):
                if getattr(self, key) is not None:
                    problems.append(((key,), f"with branches, {key} belongs inside each branch"))
            if not self.branches:
                problems.append((("branches",), "branches needs at least one branch"))
            for name, branch in self.branches.items():
                if branch.contrast is None and self.contrast is None:
                    problems.append((("branches", name), "give contrast here or at the top level"))
                for slot in set(branch.slots) & set(self.slots):
                    problems.append((("branches", name, "slots", slot), f"slot {slot!r} is already a shared slot"))
            bodies = [(("branches", name), b) for name, b in self.branches.items()]
        for path, body in bodies:
            for method in ("one_prefix", "two_prefix"):
                flag, block = getattr(self, f"{method}_method"), getattr(body, method)
                if flag and block is None and not path:
                    problems.append(((f"{method}_method",), f"true needs a {method} block of templates"))
                elif flag and block is None:
                    problems.append((path, f"{method}_method is true, so this branch needs a {method} block"))
                elif block is not None and not flag:
                    problems.append((path + (method,), f"a {method} block needs {method}_method: true"))
        return problems

    def variants(self) -> list[Variant]:
        """The bodies pairs are sampled from: the spec itself, or shared slots + each branch."""
        if self.branches is None:
            return [
                Variant(
                    name="",
                    slots=dict(self.slots),
                    good=self.good or "",
                    bad=self.bad or "",
                    one_prefix=self.one_prefix,
                    two_prefix=self.two_prefix,
                    contrast=list(self.contrast or ()),
                )
            ]
        return [
            Variant(
                name=name,
                slots={**self.slots, **branch.slots},
                good=branch.good,
                bad=branch.bad,
                one_prefix=branch.one_prefix,
                two_prefix=branch.two_prefix,
                contrast=list(branch.contrast if branch.contrast is not None else self.contrast or ()),
                path=("branches", name),
                shared=tuple(self.slots),
            )
            for name, branch in self.branches.items()
        ]


def variant_lexical_items(variant: Variant) -> tuple[tuple[frozenset[str], Any], tuple[frozenset[str], Any]]:
    """The lexical items of a variant's good and bad templates (see :func:`templates.lexical_items`)."""
    # Linked choices keep alternative words under attribute names (q.good / q.bad).
    split = frozenset(n for n, body in variant.slots.items() if base_name(str(body["kind"])) == "choice")
    return templates.lexical_items(variant.good, split), templates.lexical_items(variant.bad, split)


def _variant_problems(variant: Variant, table: LineTable) -> list[SpecError]:
    """Template syntax, undeclared variables and unused slots of one variant."""
    errors: list[SpecError] = []
    used: set[str] = set()
    for out_field, source in variant.templates().items():
        problems = templates.template_problems(source, set(variant.slots))
        errors += locate_template_problems(problems, table, variant.path + TEMPLATE_KEYS[out_field])
        if not problems:
            used |= templates.used_variables(source)
    if not errors:
        errors += [
            table.error(variant.slot_path(name), f"slot {name!r} is used by no template and no other slot")
            for name in unused_slot(variant.slots, used)
        ]
    return errors


def locate_template_problems(problems: list[tuple[int, str]], table: LineTable, key: KeyPath) -> list[SpecError]:
    """Template problems (line inside the template, message) at their lines in the YAML file."""
    base_line = table.line_of(key)
    return [
        SpecError(message, table.owner(key).file, base_line + line - 1, key_path_str(key)) for line, message in problems
    ]


def check_uid(value: str) -> str:
    """A UID starts with a letter and holds only letters, digits and ``_``."""
    if not UID_RE.match(value):
        raise ValueError("uid must start with a letter and contain only letters, digits and _")
    return value


def check_slots(value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Slot names are identifiers and every slot names its kind."""
    for name, body in value.items():
        if not NAME_RE.match(name):
            raise ValueError(f"slot name {name!r} must be an identifier (letters, digits, _)")
        if not isinstance(body, dict) or not isinstance(body.get("kind"), str):
            raise ValueError(f"slot {name!r} must be a mapping with a 'kind' (e.g. kind: word)")
    return value


# Output field -> key path of its template in the YAML file (for error lines).
TEMPLATE_KEYS = {
    "sentence_good": ("good",),
    "sentence_bad": ("bad",),
    "one_prefix_prefix": ("one_prefix", "prefix"),
    "one_prefix_word_good": ("one_prefix", "word_good"),
    "one_prefix_word_bad": ("one_prefix", "word_bad"),
    "two_prefix_prefix_good": ("two_prefix", "prefix_good"),
    "two_prefix_prefix_bad": ("two_prefix", "prefix_bad"),
    "two_prefix_word": ("two_prefix", "word"),
}
