"""Paradigm specs: the declarative description of one minimal-pair paradigm.

A spec is one YAML file::

    uid: determiner_noun_agreement_1          # BLiMP metadata
    field: morphology
    linguistics_term: determiner_noun_agreement
    description: A demonstrative agrees in number with its noun.
    simple_LM_method: true
    one_prefix_method: true
    two_prefix_method: false
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
spec's line numbers. ``lexically_identical`` is computed from the templates, not declared.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

FIELDS = ("morphology", "syntax", "semantics", "syntax_semantics", "syntax/semantics")
LINGUISTICS_TERMS = ("anaphor_agreement", "argument_structure", "binding", "control_raising",
                     "determiner_noun_agreement", "ellipsis", "filler_gap_dependency", "irregular_forms",
                     "island_effects", "npi_licensing", "quantifiers", "s-selection",
                     "subject_verb_agreement")
NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
UID_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


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


class ParadigmSpec(_Strict):
    """One paradigm as written in YAML (after structural validation)."""

    uid: str = Field(min_length=1, max_length=100)
    field: Literal[FIELDS]  # type: ignore[valid-type]
    linguistics_term: str = Field(min_length=1, max_length=100)
    description: str = Field(min_length=1, max_length=300)
    simple_LM_method: bool = True
    one_prefix_method: bool = False
    two_prefix_method: bool = False
    contrast: list[str] = Field(min_length=1)
    slots: dict[str, dict[str, Any]] = Field(min_length=1)
    good: str = Field(min_length=1)
    bad: str = Field(min_length=1)
    one_prefix: OnePrefix | None = None
    two_prefix: TwoPrefix | None = None
    notes: str = ""

    @field_validator("uid")
    @classmethod
    def _uid(cls, value: str) -> str:
        if not UID_RE.match(value):
            raise ValueError("uid must start with a letter and contain only letters, digits and _")
        return value

    @field_validator("slots")
    @classmethod
    def _slots(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for name, body in value.items():
            if not NAME_RE.match(name):
                raise ValueError(f"slot name {name!r} must be an identifier (letters, digits, _)")
            if not isinstance(body, dict) or not isinstance(body.get("kind"), str):
                raise ValueError(f"slot {name!r} must be a mapping with a 'kind' (e.g. kind: word)")
        return value

    def method_problems(self) -> list[tuple[str, str]]:
        """(key, message) for prefix-method flags that disagree with their template blocks."""
        problems = []
        for method in ("one_prefix", "two_prefix"):
            flag, block = getattr(self, f"{method}_method"), getattr(self, method)
            if flag and block is None:
                problems.append((f"{method}_method", f"true needs a {method} block of templates"))
            elif block is not None and not flag:
                problems.append((method, f"a {method} block needs {method}_method: true"))
        return problems

    def templates(self) -> dict[str, str]:
        """Every template by output field name (``sentence_good``, ``one_prefix_prefix``, ...)."""
        out = {"sentence_good": self.good, "sentence_bad": self.bad}
        if self.one_prefix is not None:
            out.update(one_prefix_prefix=self.one_prefix.prefix, one_prefix_word_good=self.one_prefix.word_good,
                       one_prefix_word_bad=self.one_prefix.word_bad)
        if self.two_prefix is not None:
            out.update(two_prefix_prefix_good=self.two_prefix.prefix_good,
                       two_prefix_prefix_bad=self.two_prefix.prefix_bad, two_prefix_word=self.two_prefix.word)
        return out


# Output field -> key path of its template in the YAML file (for error lines).
TEMPLATE_KEYS = {
    "sentence_good": ("good",), "sentence_bad": ("bad",),
    "one_prefix_prefix": ("one_prefix", "prefix"), "one_prefix_word_good": ("one_prefix", "word_good"),
    "one_prefix_word_bad": ("one_prefix", "word_bad"),
    "two_prefix_prefix_good": ("two_prefix", "prefix_good"), "two_prefix_prefix_bad": ("two_prefix", "prefix_bad"),
    "two_prefix_word": ("two_prefix", "word"),
}
