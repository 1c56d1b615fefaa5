"""A paradigm built for sampling: a spec's slots resolved to kinds over one lexicon.

``build_paradigm(loaded_spec, lexicon)`` resolves every slot's ``kind`` in the registry,
validates its parameters (unknown keys, wrong types, bad formulas: ``file:line`` errors) and
compiles the templates in the lexicon-aware sandbox. :class:`Paradigm` is the minimal-pair
:class:`~blimpgen.generators.source.Source`: ``sample`` draws one set of slot values,
``render`` turns it into the output fields, ``to_records`` into a :class:`MinimalPair`. Pairs
are unique on both sentences (BLiMP dedupes on the good one; we also refuse repeated bad
sentences and good == bad). The contrast rule (which tokens may differ between good and bad)
is here too: :func:`allowed_tokens`.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Hashable
from typing import Any, ClassVar

from blimpgen._io import describe_character, odd_character
from blimpgen._yaml import KeyPath
from blimpgen.errors import GenerationError, SpecError, SpecErrors
from blimpgen.generators.kinds.base import Bindings, Phrase, SlotKind
from blimpgen.generators.source import (
    DeadEnd,
    Finding,
    Trace,
    build_slots,
    finish_fragment,
    finish_sentence,
    sample_slots,
    slot_violations,
)
from blimpgen.grammar.loader import LoadedSpec
from blimpgen.grammar.sandbox import TemplateRenderError
from blimpgen.grammar.spec import TEMPLATE_KEYS, ParadigmSpec, Variant
from blimpgen.grammar.templates import RenderDeadEnd, make_environment
from blimpgen.records import MinimalPair
from blimpgen.vocab.lexeme import Word
from blimpgen.vocab.lexicon import Lexicon
from blimpgen.vocab.modes import colorless_lexicon

TOKEN_RE = re.compile(r"[A-Za-z0-9']+")


# Key of the chosen branch in a set of bindings (not an identifier, so never a slot name).
BRANCH = "#branch"

SENTENCE_FIELDS = (
    "sentence_good",
    "sentence_bad",
    "one_prefix_prefix",
    "two_prefix_prefix_good",
    "two_prefix_prefix_bad",
)


FIELD_SEPARATOR = "\x1f"  # ASCII unit separator: the loader rejects control characters in templates


class Body:
    """One variant ready to sample: its slot kinds and its templates compiled as one.

    All output fields of a pair render in a single template call (fields joined by a unit
    separator), since setting up a Jinja context costs more than rendering these short strings.
    """

    def __init__(self, variant: Variant, slots: list[tuple[str, SlotKind]], lexicon: Lexicon) -> None:
        self.variant = variant
        self.slots = slots
        self.lexicon = lexicon  # a design's cell may have its own view (a level's lexicon: colorless)
        self.sources = variant.templates()
        self.fields = list(self.sources)
        self.environment = make_environment(lexicon)
        self.template = self.environment.from_string(FIELD_SEPARATOR.join(self.sources.values()))

    def render(self, bindings: Bindings) -> dict[str, str]:
        """Every output field, finished (spacing, capitals).

        Raises:
            RenderDeadEnd: on a missing form.
            TemplateRenderError: with ``.field`` set to the output field whose template failed.
        """
        try:
            texts = self.template.render(bindings).split(FIELD_SEPARATOR)
        except TemplateRenderError as exc:
            exc.field = self._failing_field(bindings, exc)
            raise
        fields = {}
        for name, text in zip(self.fields, texts):
            odd = odd_character(text)
            if odd is not None:
                error = TemplateRenderError(f"the output holds {describe_character(odd)} (from a slot value)")
                error.field = name
                raise error
            fields[name] = finish_sentence(text) if name in SENTENCE_FIELDS else finish_fragment(text)
        return fields

    def _failing_field(self, bindings: Bindings, error: TemplateRenderError) -> str:
        """The field whose template raised (each rendered alone); the first one when none does alone."""
        for name, source in self.sources.items():
            try:
                self.environment.from_string(source).render(bindings)
            except TemplateRenderError:
                return name
            except RenderDeadEnd:
                continue
        return self.fields[0]


class Paradigm:
    """A paradigm spec ready to sample: the minimal-pair :class:`~blimpgen.generators.source.Source`.

    Attributes:
        loaded: the validated spec with its file and line table.
        bodies: one per variant (a single one unless the spec has branches).
        lexically_identical: whether good and bad use the same lexemes (computed from the templates).
    """

    unit: ClassVar[str] = "pair"
    duplicate_reason: ClassVar[str] = "duplicate sentence"
    identity: ClassVar[str] = "good sentences"

    def __init__(self, loaded: LoadedSpec, lexicon: Lexicon, bodies: list[Body]) -> None:
        self.loaded = loaded
        self.spec = loaded.spec_as(ParadigmSpec)
        self.uid = self.spec.uid
        self.lexicon = lexicon
        self.bodies = bodies
        self.lexically_identical = self.spec.lexically_identical()
        self.design = loaded.design  # factors: the levels of each body's cell
        spec = self.spec
        self.header: dict[str, Any] = dict(
            field=spec.field,
            linguistics_term=spec.linguistics_term,
            UID=spec.uid,
            simple_LM_method=spec.simple_LM_method,
            one_prefix_method=spec.one_prefix_method,
            two_prefix_method=spec.two_prefix_method,
            lexically_identical=self.lexically_identical,
        )

    def body(self, bindings: Bindings) -> Body:
        """The body a set of bindings was sampled from."""
        return self.bodies[bindings.get(BRANCH, 0)]

    def contrast(self, bindings: Bindings) -> list[str]:
        """The slots and words allowed to differ between good and bad for these bindings."""
        return self.body(bindings).variant.contrast

    def sample(self, rng: random.Random, trace: Trace | None = None, branch: int | None = None) -> Bindings | DeadEnd:
        """Pick a branch (when there are several; ``branch`` fixes it: a design's cell), then draw
        every slot in order, or report the first slot that ran dry."""
        if branch is not None:
            index = branch
        else:
            index = rng.randrange(len(self.bodies)) if len(self.bodies) > 1 else 0
        body = self.bodies[index]
        found = sample_slots(body.slots, rng, {BRANCH: index} if len(self.bodies) > 1 else {}, trace, index)
        if isinstance(found, DeadEnd) and body.variant.name:
            return DeadEnd(f"{body.variant.name}: {found.where}", found.slot, index)
        return found

    def render(self, bindings: Bindings) -> dict[str, str]:
        """Render every template.

        Raises:
            RenderDeadEnd: when a form is missing (the caller samples again).
            GenerationError: when a template fails (an error in the template, or its render
                budget ran out), at the template's ``file:line: key``.
        """
        body = self.body(bindings)
        try:
            return body.render(bindings)
        except TemplateRenderError as exc:
            key = body.variant.path + TEMPLATE_KEYS[exc.field or "sentence_good"]
            raise GenerationError.relocated(self.loaded.error(key, f"template error: {exc}")) from exc

    def violations(self, bindings: Bindings) -> list[str]:
        """Re-check every slot's constraints on a sampled set of values (no caches)."""
        return slot_violations(self.body(bindings).slots, bindings)

    def screen(self, fields: dict[str, Any], rng: random.Random) -> str | None:
        """A pair whose good and bad sentences are equal is refused."""
        return "good and bad sentence were equal" if fields["sentence_good"] == fields["sentence_bad"] else None

    def keys(self, fields: dict[str, Any]) -> tuple[Hashable, ...]:
        """Neither sentence may repeat (the good one is the pair's identity)."""
        return ("good", fields["sentence_good"]), ("bad", fields["sentence_bad"])

    def to_records(
        self, index: int, bindings: Bindings, fields: dict[str, Any], provenance: dict[str, Any]
    ) -> list[MinimalPair]:
        """The pair numbered ``index``: BLiMP's fields, its cell's ``levels`` (a paradigm with
        factors), ``pair_id`` and provenance."""
        body = self.body(bindings)
        levels = None if self.design is None else dict(self.design.cells[body.variant.name])
        if body.lexicon is not self.lexicon:  # the cell's own lexicon mode, in its provenance
            provenance = {**provenance, "lexicon_mode": None if body.lexicon.mode == "default" else body.lexicon.mode}
        return [
            MinimalPair(
                pairID=str(index),
                pair_id=f"{self.uid}-{index:05d}",
                **fields,
                **self.header,
                levels=levels,
                **provenance,
            )
        ]

    def shortfall(self, n: int, made: int, attempts: Any) -> str:
        """Made fewer than ``n`` unique pairs: how many, in how many attempts, and why attempts failed."""
        return (
            f"{self.uid}: made {made} of {n} unique pairs in {attempts.count} attempts ({attempts.reasons()}). "
            "Loosen the slot constraints, add lexicon entries, or ask for fewer pairs."
        )

    def outputs(self, controls: tuple[str, ...] = (), split: bool = False) -> list[tuple[str, Paradigm]]:
        """One file, named after the UID (controls belong to probe suites)."""
        return [(self.uid, self)]

    def slot_path(self, dead_end: DeadEnd) -> KeyPath:
        """The slot's key path: in its branch when it is the branch's own, else at the top."""
        return self.bodies[dead_end.branch].variant.slot_path(dead_end.slot)

    def template_path(self, bindings: Bindings | None) -> KeyPath:
        """The good template of the sampled body (the top-level one without bindings)."""
        return ("good",) if bindings is None else self.body(bindings).variant.path + ("good",)

    def findings(self, bindings: Bindings, fields: dict[str, Any]) -> list[Finding]:
        """A contrast leak: good and bad differ in a word the contrast does not cover."""
        good, bad = fields["sentence_good"], fields["sentence_bad"]
        outside = contrast_leaks(self, bindings, good, bad)
        if not outside:
            return []
        variant = self.body(bindings).variant
        path = variant.path + ("contrast",) if variant.path and variant.contrast else ("contrast",)
        return [
            (
                (bindings.get(BRANCH, 0), tuple(outside)),
                path,
                f"good and bad differ in {', '.join(map(repr, outside))}, which contrast {variant.contrast} "
                f"does not cover: {good!r} / {bad!r}",
            )
        ]


def build_paradigm(loaded: LoadedSpec, lexicon: Lexicon) -> Paradigm:
    """Resolve kinds and validate slot parameters against the lexicon.

    Raises:
        SpecErrors: every slot problem, each with the spec's ``file:line``.
    """
    errors: list[SpecError] = []
    bodies = []
    reported: set[tuple[int, str, str]] = set()
    lexicons = cell_lexicons(loaded, lexicon)
    for variant in loaded.spec_as(ParadigmSpec).variants():
        own = lexicons.get(variant.name, lexicon)
        slots, variant_errors = build_slots(loaded, variant, own)
        for error in variant_errors:  # a shared slot's error would repeat once per branch
            if (error.line, error.key, error.message) not in reported:
                reported.add((error.line, error.key, error.message))
                errors.append(error)
        bodies.append(Body(variant, slots, own))
    if errors:
        raise SpecErrors(errors)
    return Paradigm(loaded, lexicon, bodies)


def cell_lexicons(loaded: LoadedSpec, lexicon: Lexicon) -> dict[str, Lexicon]:
    """Branch name -> the lexicon its cell is built over, for a design whose levels choose one
    (``lexicon: colorless``; see :mod:`blimpgen.grammar.factors`); empty otherwise."""
    design = loaded.design
    if design is None or not design.lexicons:
        return {}
    colorless = colorless_lexicon(lexicon)
    return {name: colorless if mode == "colorless" else lexicon for name, mode in design.lexicons.items()}


def _tokens(text: str) -> list[str]:
    return [t.lower() for t in TOKEN_RE.findall(text)]


def allowed_tokens(paradigm: Paradigm, bindings: Bindings) -> set[str]:
    """Tokens allowed to differ: contrast words, and every form of every word in contrast slots."""
    allowed: set[str] = set()
    for item in paradigm.contrast(bindings):
        if item not in bindings:
            allowed.add(item.lower())
            continue
        value = bindings[item]
        allowed.update(_tokens(str(value)))
        for text in getattr(value, "values", {}).values():  # linked choices: every alternative
            allowed.update(_tokens(text))
        words = (
            [value] if isinstance(value, Word) else [w for _, w in value.words()] if isinstance(value, Phrase) else []
        )
        for word in words:
            for form in paradigm.lexicon.forms(word):
                allowed.update(_tokens(form.text))
            if word.get("article"):
                allowed.update({"a", "an"})
    return allowed


def contrast_leaks(paradigm: Paradigm, bindings: Bindings, good: str, bad: str) -> list[str]:
    """Tokens in which good and bad differ that the contrast does not allow (sorted)."""
    good_tokens, bad_tokens = Counter(_tokens(good)), Counter(_tokens(bad))
    differing = set((good_tokens - bad_tokens) + (bad_tokens - good_tokens))
    return sorted(differing - allowed_tokens(paradigm, bindings))
