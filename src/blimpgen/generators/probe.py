"""A probe suite built for sampling: the probe-item :class:`~blimpgen.generators.source.Source`.

The same machinery as minimal pairs: slots are kinds sampled in order from one RNG seeded by
``(seed, UID)``; every field renders in the lexicon-aware sandbox. A suite's gold answer is a
template over the sampled values (``{{ 'younger' if age1 < age2 else 'older' }}``), so it is
computed, never written by hand. Items are unique on their contexts and candidates; each item
may be followed by its controls (:mod:`blimpgen.generators.controls`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Hashable
from typing import Any, ClassVar

from blimpgen._io import describe_character, odd_character
from blimpgen._yaml import KeyPath
from blimpgen.errors import GenerationError, OptionError, SpecErrors, did_you_mean
from blimpgen.generators.controls import derive_controls
from blimpgen.generators.kinds.base import Bindings
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
from blimpgen.grammar.probe_spec import SPLIT_OPTION, ProbeSpec
from blimpgen.grammar.sandbox import TemplateRenderError
from blimpgen.grammar.templates import make_environment, used_variables
from blimpgen.records import BLANK, ProbeItem
from blimpgen.records.types import item_shape
from blimpgen.vocab.lexicon import Lexicon


class Probe:
    """A probe suite ready to sample: its slot kinds and compiled templates.

    Attributes:
        loaded: the validated suite with its file and line table.
        options: the option values in force (defaults overridden by the user's).
        controls: what each item is followed by (``none``: the item itself); see :meth:`with_controls`.
    """

    unit: ClassVar[str] = "item"
    duplicate_reason: ClassVar[str] = "duplicate item"
    identity: ClassVar[str] = "items"

    def __init__(self, loaded: LoadedSpec, lexicon: Lexicon, options: dict[str, Any] | None = None) -> None:
        self.loaded = loaded
        self.spec = loaded.spec_as(ProbeSpec)
        self.uid = self.spec.uid
        self.lexicon = lexicon
        self.options = resolve_options(loaded, options or {})
        slots, errors = build_slots(loaded, self.spec.variant(self.options), lexicon)
        if errors:
            raise SpecErrors(errors)
        self.slots = slots
        env = make_environment(lexicon)
        self.templates = {key: env.from_string(source) for key, source in self.spec.templates().items()}
        self.per_option = "option" in used_variables(self.spec.context)
        self.controls: tuple[str, ...] = ("none",)
        spec = self.spec
        self.shape = item_shape(spec.item)
        self.header: dict[str, Any] = dict(
            UID=spec.uid, item_type=spec.item, field=spec.field, linguistics_term=spec.linguistics_term
        )
        self.fixed_candidates = self._fixed_candidates()

    def _option_keys(self) -> list[KeyPath]:
        """The template keys of the candidates, in the order the item lists them."""
        spec = self.spec
        keys: list[KeyPath] = [("candidates", i) for i in range(len(spec.candidates or ()))]
        keys += [(key,) for key in ("good", "bad") if getattr(spec, key) is not None]
        return keys + [("foils", i) for i in range(len(spec.foils or ()))]

    def _fixed_candidates(self) -> tuple[str, ...]:
        """The candidates that are the same words on every item (templates that use no slot), in
        declared order: the ones the no-language control renames (:mod:`.controls`)."""
        sources = self.spec.templates()
        return tuple(self._text(key, {}) for key in self._option_keys() if not used_variables(sources[key]))

    def with_controls(self, controls: tuple[str, ...]) -> Probe:
        """This suite, each item followed by ``controls`` (in the order given; ``none`` is the item).

        Raises:
            GenerationError: for a control the suite does not offer, at the suite's file.
        """
        for control in controls:
            if control not in self.spec.offered_controls:
                raise GenerationError(
                    f"{self.uid}: control {control!r} is not offered by this suite "
                    f"(controls: {', '.join(self.spec.offered_controls)})",
                    self.loaded.file,
                )
        probe = copy.copy(self)
        probe.controls = tuple(controls)
        return probe

    def sample(self, rng: random.Random, trace: Trace | None = None) -> Bindings | DeadEnd:
        """Draw every slot in order, or report the first slot that ran dry."""
        return sample_slots(self.slots, rng, {}, trace)

    def violations(self, bindings: Bindings) -> list[str]:
        """Re-check every slot's constraints on a sampled set of values (no caches)."""
        return slot_violations(self.slots, bindings)

    def _raw(self, key: KeyPath, values: Bindings) -> str:
        """One template rendered; a failure is a located GenerationError (the template's file:line: key)."""
        try:
            text = self.templates[key].render(values)
        except TemplateRenderError as exc:
            raise self._bug(key, f"template error: {exc}") from exc
        odd = odd_character(text)
        if odd is not None:
            raise self._bug(key, f"template error: the output holds {describe_character(odd)} (from a slot value)")
        return text

    def _text(self, key: KeyPath, bindings: Bindings, **extra: Any) -> str:
        return finish_fragment(self._raw(key, {**bindings, **extra}))

    def render(self, bindings: Bindings) -> dict[str, Any]:
        """Every field of an item (before ids and provenance).

        Raises:
            RenderDeadEnd: when a template asks for a form the lexicon lacks.
            GenerationError: when the suite's templates disagree (an answer that is not a
                candidate, a context without its blank): a bug in the suite, located.
        """
        spec = self.spec
        candidates = tuple(self._text(("candidates", i), bindings) for i in range(len(spec.candidates or ())))
        good = self._text(("good",), bindings) if spec.good is not None else None
        bad = self._text(("bad",), bindings) if spec.bad is not None else None
        foils = tuple(self._text(("foils", i), bindings) for i in range(len(spec.foils or ())))
        candidates, answer = self.shape.options(candidates, good, bad, foils)
        if answer is None:
            answer = self._text(("answer",), bindings)
        fields: dict[str, Any] = {
            "candidates": tuple(candidates),
            "answer": answer,
            "good": good,
            "bad": bad,
            "foils": foils,
            "expected": tuple(
                text for i in range(len(spec.expected)) if (text := self._text(("expected", i), bindings))
            ),
            "group": self._text(("group",), bindings) if spec.group else "",
            "arguments": tuple(
                text for i in range(len(spec.arguments)) if (text := self._text(("arguments", i), bindings))
            ),
            "reversed_context": (
                finish_sentence(self._raw(("reversed_context",), bindings))
                if spec.reversed_context is not None
                else None
            ),
        }
        if answer not in candidates:
            raise self._bug(
                ("answer",), f"the answer rendered as {answer!r}, which is not one of the candidates {candidates}"
            )
        if self.per_option:
            contexts = {c: finish_sentence(self._raw(("context",), {**bindings, "option": c})) for c in candidates}
            fields["context"] = contexts[answer]
            fields["contexts"] = contexts if len(set(contexts.values())) > 1 else None
        else:
            fields["context"] = finish_sentence(self._raw(("context",), bindings))
            fields["contexts"] = None
        if fields["context"].count(BLANK) != (1 if self.shape.blank else 0):
            raise self._bug(
                ("context",),
                f"the context rendered as {fields['context']!r}, without exactly "
                f"{'one' if self.shape.blank else 'no'} {BLANK} "
                "(a slot value may contain it)",
            )
        if fields["reversed_context"] is not None and fields["reversed_context"].count(BLANK) != 1:
            raise self._bug(
                ("reversed_context",),
                f"the reversed context rendered as {fields['reversed_context']!r}, without exactly one {BLANK}",
            )
        return fields

    def screen(self, fields: dict[str, Any], rng: random.Random) -> str | None:
        """Refuse repeated candidates; shuffle the candidates when the suite asks (so the answer's
        position cannot be learnt: the no-language control renames candidates by position)."""
        if len(set(fields["candidates"])) != len(fields["candidates"]):
            return "candidates repeat"
        if self.spec.shuffle_candidates:
            order = list(fields["candidates"])
            rng.shuffle(order)
            fields["candidates"] = tuple(order)
        return None

    def keys(self, fields: dict[str, Any]) -> tuple[Hashable, ...]:
        """An item is its context(s) and candidates."""
        return (
            (
                fields["context"],
                tuple(sorted((fields["contexts"] or {}).items())),
                fields["candidates"],
                fields["reversed_context"],
            ),
        )

    def to_records(
        self, index: int, bindings: Bindings, fields: dict[str, Any], provenance: dict[str, Any]
    ) -> list[ProbeItem]:
        """The item numbered ``index``, followed by its controls (each derived from it)."""
        item = ProbeItem(item_id=f"{self.uid}-{index:05d}", **fields, **self.header, **provenance)
        return derive_controls(
            item,
            self.controls,
            tuple(self.spec.keywords),
            provenance["seed"],
            self.fixed_candidates,
            int(self.options["shuffles"]),
        )

    def shortfall(self, n: int, made: int, attempts: Any) -> str:
        """Made fewer than ``n`` unique items: how many, in how many attempts, and why attempts failed."""
        return (
            f"{self.uid}: made {made} of {n} unique items in {attempts.count} attempts ({attempts.reasons()}). "
            "Widen the options or slot constraints, or ask for fewer."
        )

    def outputs(self, controls: tuple[str, ...] = (), split: bool = False) -> list[tuple[str, Probe]]:
        """The items followed by the requested controls (``all``: every control the suite offers),
        in one stream, or (``split``) each control in its own file, ``UID.CONTROL``.

        Raises:
            GenerationError: for a control the suite does not offer.
        """
        wanted = ("none",) + tuple(c for c in controls if c not in ("none", "all"))
        if "all" in controls:
            wanted = tuple(self.spec.offered_controls)
        if not split:
            return [(self.uid, self.with_controls(wanted))]
        return [(self.uid if c == "none" else f"{self.uid}.{c}", self.with_controls((c,))) for c in wanted]

    def slot_path(self, dead_end: DeadEnd) -> KeyPath:
        """The slot's key path."""
        return ("slots", dead_end.slot)

    def template_path(self, bindings: Bindings | None) -> KeyPath:
        """The context: every item renders it."""
        return ("context",)

    def findings(self, bindings: Bindings, fields: dict[str, Any]) -> list[Finding]:
        """Nothing beyond what rendering checks (an answer outside the candidates is an error there)."""
        return []

    def _bug(self, key: KeyPath, message: str) -> GenerationError:
        # a GenerationError that keeps the template's file, line and key
        return GenerationError.relocated(self.loaded.error(key, message))


def resolve_options(loaded: LoadedSpec, given: dict[str, Any]) -> dict[str, Any]:
    """Every option's value: the suite's defaults, the chosen split's presets, then the user's
    values, each converted to its default's type.

    Raises:
        OptionError: for an unknown option, a value of the wrong type, an unknown split or
            fewer than one shuffle.
    """
    spec = loaded.spec_as(ProbeSpec)
    declared = spec.option_defaults()
    out: dict[str, Any] = {}
    for name, value in given.items():
        if name not in declared:
            known = ", ".join(declared) or "none"
            raise OptionError(
                f"{spec.uid}: unknown option {name!r}{did_you_mean(name, declared)} (this suite's options: {known})"
            )
        if isinstance(declared[name], int):
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise OptionError(f"{spec.uid}: option {name} must be an integer, got {value!r}") from None
        out[name] = value
    split = out.get(SPLIT_OPTION)
    if split is not None and split != "all" and split not in spec.splits:
        raise OptionError(
            f"{spec.uid}: unknown split {split!r}{did_you_mean(str(split), spec.splits)} "
            f"(splits: all, {', '.join(spec.splits)})"
        )
    if int(out.get("shuffles", 1)) < 1:
        raise OptionError(f"{spec.uid}: option shuffles must be at least 1, got {out['shuffles']}")
    return spec.resolve(out)


def build_probe(loaded: LoadedSpec, lexicon: Lexicon, options: dict[str, Any] | None = None) -> Probe:
    """Resolve kinds and validate slot parameters (``file:line`` errors), with option values.

    Raises:
        SpecErrors: for slot problems; OptionError for bad options.
    """
    return Probe(loaded, lexicon, options)
