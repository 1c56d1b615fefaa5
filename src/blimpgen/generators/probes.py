"""Generating probe items (multiple-choice and cloze-contrast) from a probe suite, reproducibly.

The same machinery as minimal pairs: slots are kinds sampled in order from one RNG seeded by
``(seed, UID)``; every field renders in the lexicon-aware sandbox. A suite's gold answer is a
template over the sampled values (``{{ 'younger' if age1 < age2 else 'older' }}``), so it is
computed, never written by hand. Items are unique on their contexts and candidates.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from blimpgen import __version__
from blimpgen._io import atomic_writer
from blimpgen.errors import GenerationError, SpecErrors, UnknownNameError, did_you_mean
from blimpgen.generators.controls import derive
from blimpgen.generators.generate import Attempts
from blimpgen.generators.kinds.base import Bindings
from blimpgen.generators.paradigm import (DeadEnd, build_slots, finish_fragment, finish_sentence, paradigm_rng,
                                          provenance, sample_slots, slot_violations)
from blimpgen.grammar.loader import LoadedSpec, load_shipped_specs, load_specs
from blimpgen.grammar.probe_spec import ProbeSpec
from blimpgen.grammar.templates import make_environment, used_variables
from blimpgen.records.item import BLANK, ProbeItem
from blimpgen.records.jsonl import dumps_record
from blimpgen.vocab.lexicon import Lexicon, load_lexicon

class Probe:
    """A probe suite ready to sample: its slot kinds and compiled templates.

    Attributes:
        loaded: the validated suite with its file and line table.
        options: the option values in force (defaults overridden by the user's).
    """

    def __init__(self, loaded: LoadedSpec, lexicon: Lexicon, options: dict[str, Any] | None = None) -> None:
        self.loaded = loaded
        self.spec = loaded.spec
        self.uid = loaded.spec.uid
        self.lexicon = lexicon
        self.options = resolve_options(loaded, options or {})
        slots, errors = build_slots(loaded, self.spec.variant(self.options), lexicon)  # type: ignore[arg-type]
        if errors:
            raise SpecErrors(errors)
        self.slots = slots
        env = make_environment(lexicon)
        self.templates = {key: env.from_string(source) for key, source in self.spec.templates().items()}
        self.per_option = "option" in used_variables(self.spec.context)

    def sample(self, rng: random.Random) -> Bindings | DeadEnd:
        """Draw every slot in order, or report the first slot that ran dry."""
        return sample_slots(self.slots, rng, {})

    def violations(self, bindings: Bindings) -> list[str]:
        """Re-check every slot's constraints on a sampled set of values (no caches)."""
        return slot_violations(self.slots, bindings)

    def _text(self, key: tuple, bindings: Bindings, **extra: Any) -> str:
        return finish_fragment(self.templates[key].render({**bindings, **extra}))

    def render(self, bindings: Bindings) -> dict[str, Any]:
        """Every field of an item (before ids and provenance).

        Raises:
            RenderDeadEnd: when a template asks for a form the lexicon lacks.
            GenerationError: when the suite's templates disagree (an answer that is not a
                candidate, a context without its blank): a bug in the suite, located.
        """
        spec = self.spec
        if spec.item == "multiple_choice":
            candidates = [self._text(("candidates", i), bindings) for i in range(len(spec.candidates or ()))]
            answer = self._text(("answer",), bindings)
            good = bad = None
        else:
            good, bad = self._text(("good",), bindings), self._text(("bad",), bindings)
            candidates, answer = [good, bad], good
        fields: dict[str, Any] = {
            "candidates": tuple(candidates), "answer": answer, "good": good, "bad": bad,
            "expected": tuple(text for i in range(len(spec.expected))
                              if (text := self._text(("expected", i), bindings))),
            "group": self._text(("group",), bindings) if spec.group else "",
            "arguments": tuple(text for i in range(len(spec.arguments))
                               if (text := self._text(("arguments", i), bindings))),
        }
        if answer not in candidates:
            raise self._bug(("answer",), f"the answer rendered as {answer!r}, which is not one of the candidates "
                                         f"{candidates}")
        if self.per_option:
            contexts = {c: finish_sentence(self.templates[("context",)].render({**bindings, "option": c}))
                        for c in candidates}
            fields["context"] = contexts[answer]
            fields["contexts"] = contexts if len(set(contexts.values())) > 1 else None
        else:
            fields["context"] = finish_sentence(self.templates[("context",)].render(bindings))
            fields["contexts"] = None
        if fields["context"].count(BLANK) != 1:
            raise self._bug(("context",), f"the context rendered as {fields['context']!r}, without exactly one "
                                          f"{BLANK} (a slot value may contain it)")
        return fields

    def _bug(self, key: tuple, message: str) -> GenerationError:
        # a GenerationError that keeps the template's file, line and key
        return GenerationError.relocated(self.loaded.error(key, message))  # type: ignore[return-value]


def resolve_options(loaded: LoadedSpec, given: dict[str, Any]) -> dict[str, Any]:
    """The suite's option defaults with the user's values, each converted to the default's type.

    Raises:
        GenerationError: for an unknown option or a value of the wrong type.
    """
    declared = loaded.spec.options
    out = dict(declared)
    for name, value in given.items():
        if name not in declared:
            known = ", ".join(declared) or "none"
            raise GenerationError(f"{loaded.spec.uid}: unknown option {name!r}{did_you_mean(name, declared)} "
                                  f"(this suite's options: {known})")
        if isinstance(declared[name], int):
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise GenerationError(f"{loaded.spec.uid}: option {name} must be an integer, got {value!r}") from None
        out[name] = value
    return out


def build_probe(loaded: LoadedSpec, lexicon: Lexicon, options: dict[str, Any] | None = None) -> Probe:
    """Resolve kinds and validate slot parameters (``file:line`` errors), with option values.

    Raises:
        SpecErrors: for slot problems; GenerationError for bad options.
    """
    return Probe(loaded, lexicon, options)


def generate_items(probe: Probe, n: int, seed: int = 0, controls: tuple[str, ...] = ("none",)) -> Iterator[ProbeItem]:
    """Yield ``n`` unique items, each followed by its controls (in the order given).

    Raises:
        GenerationError: when ``n`` unique items cannot be made within the attempt budget,
            or a control does not apply to the suite.
    """
    for item, _ in generate_items_with_bindings(probe, n, seed, controls):
        yield item


def generate_items_with_bindings(probe: Probe, n: int, seed: int = 0, controls: tuple[str, ...] = ("none",)
                                 ) -> Iterator[tuple[ProbeItem, Bindings]]:
    """Like :func:`generate_items`, also yielding the slot values each item came from."""
    if n < 0:
        raise GenerationError("the number of items must be at least 0")
    spec = probe.spec
    for control in controls:
        if control not in spec.controls:
            raise GenerationError(f"{probe.loaded.file}: {probe.uid}: control {control!r} is not offered by this "
                                  f"suite (controls: {', '.join(spec.controls)})")
    rng = paradigm_rng(seed, probe.uid)
    seen: set[tuple] = set()
    attempts = Attempts(n)
    made = 0
    common = dict(UID=spec.uid, item_type=spec.item, field=spec.field, linguistics_term=spec.linguistics_term,
                  seed=seed, lexicon_hash=probe.lexicon.fingerprint, spec_hash=probe.loaded.sha,
                  blimpgen_version=__version__)
    keywords = tuple(spec.keywords)
    while made < n:
        if not attempts.another():
            raise GenerationError(f"{probe.loaded.file}: {probe.uid}: made {made} of {n} unique items in "
                                  f"{attempts.count} attempts ({attempts.reasons()}). Widen the options or slot "
                                  "constraints, or ask for fewer.")
        drawn = attempts.draw(probe, rng)
        if drawn is None:
            continue
        bindings, fields = drawn
        if len(set(fields["candidates"])) != len(fields["candidates"]):
            attempts.fail("candidates repeat")
            continue
        if spec.shuffle_candidates:  # no answer position to learn (the no-language control renames by position)
            order = list(fields["candidates"])
            rng.shuffle(order)
            fields["candidates"] = tuple(order)
        key = (fields["context"], tuple(sorted((fields["contexts"] or {}).items())), fields["candidates"])
        if key in seen:
            attempts.fail("duplicate item")
            continue
        seen.add(key)
        attempts.succeed()
        item = ProbeItem(item_id=f"{spec.uid}-{made:05d}", slots=provenance(bindings), **fields, **common)
        for control in controls:
            yield derive(item, control, keywords, seed), bindings
        made += 1


def load_probe_suites(uids: list[str] | None = None, paths: tuple[Path | str, ...] = (),
                      lexicon: Lexicon | None = None, options: dict[str, Any] | None = None) -> list[Probe]:
    """Build the named probe suites (all when ``uids`` is None), shipped plus user folders.

    Raises:
        SpecErrors: for invalid suites; UnknownNameError for unknown names.
    """
    suites = load_specs(tuple(paths), ProbeSpec) if paths else load_shipped_specs(ProbeSpec)
    lexicon = lexicon or load_lexicon()
    if uids is None:
        uids = sorted(suites)
    missing = [u for u in uids if u not in suites]
    if missing:
        raise UnknownNameError("probe suite", missing[0], suites)
    return [build_probe(suites[uid], lexicon, options) for uid in uids]


def write_items(probe: Probe, n: int, seed: int, out: Path | str | None, controls: tuple[str, ...] = ("none",)) -> int:
    """Generate into a file atomically (or stream to stdout when ``out`` is None); return the count."""
    count = 0
    items = generate_items(probe, n, seed, controls)
    if out is None:
        for item in items:
            sys.stdout.write(dumps_record(item) + "\n")
            count += 1
        sys.stdout.flush()
        return count
    with atomic_writer(out) as handle:
        for item in items:
            handle.write(dumps_record(item) + "\n")
            count += 1
    return count

