"""A paradigm built for sampling: a spec's slots resolved to kinds over one lexicon.

``build_paradigm(loaded_spec, lexicon)`` resolves every slot's ``kind`` in the registry,
validates its parameters (unknown keys, wrong types, bad formulas: ``file:line`` errors) and
compiles the templates in the lexicon-aware sandbox. ``Paradigm.sample`` draws one set of
slot values; ``Paradigm.render`` turns it into the output fields.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass

from pydantic import ValidationError

from blimpgen.errors import SpecError, SpecErrors, UnknownNameError, did_you_mean
from blimpgen.generators.kinds import slot_kinds
from blimpgen.generators.kinds.base import Bindings, Phrase, SlotKind
from blimpgen.generators.kinds.numbers import Number
from blimpgen.grammar.loader import LoadedSpec
from blimpgen.grammar.spec import Variant
from blimpgen.grammar.templates import make_environment
from blimpgen.vocab.lexeme import Word
from blimpgen.vocab.lexicon import Lexicon

SPACES_RE = re.compile(r"\s+")
TOKEN_RE = re.compile(r"[A-Za-z0-9']+")
BEFORE_PUNCT_RE = re.compile(r"\s+([.,?!;:])")


@dataclass
class DeadEnd:
    """Why one attempt failed: the slot that ran dry or the template that could not render."""

    where: str


def finish_sentence(text: str) -> str:
    """Collapse spaces, remove space before punctuation, capitalise the first letter."""
    text = BEFORE_PUNCT_RE.sub(r"\1", SPACES_RE.sub(" ", text)).strip()
    return text[:1].upper() + text[1:]


def finish_fragment(text: str) -> str:
    """Like :func:`finish_sentence` without capitalisation (for prefix-method words)."""
    return BEFORE_PUNCT_RE.sub(r"\1", SPACES_RE.sub(" ", text)).strip()


# Key of the chosen branch in a set of bindings (not an identifier, so never a slot name).
BRANCH = "#branch"

SENTENCE_FIELDS = ("sentence_good", "sentence_bad", "one_prefix_prefix", "two_prefix_prefix_good",
                   "two_prefix_prefix_bad")


FIELD_SEPARATOR = "\x1f"  # ASCII unit separator: the loader rejects control characters in templates


class Body:
    """One variant ready to sample: its slot kinds and its templates compiled as one.

    All output fields of a pair render in a single template call (fields joined by a unit
    separator), since setting up a Jinja context costs more than rendering these short strings.
    """

    def __init__(self, variant: Variant, slots: list[tuple[str, SlotKind]], lexicon: Lexicon) -> None:
        self.variant = variant
        self.slots = slots
        sources = variant.templates()
        self.fields = list(sources)
        self.template = make_environment(lexicon).from_string(FIELD_SEPARATOR.join(sources.values()))

    def render(self, bindings: Bindings) -> dict[str, str]:
        """Every output field, finished (spacing, capitals); raises RenderDeadEnd on a missing form."""
        texts = self.template.render(bindings).split(FIELD_SEPARATOR)
        return {name: finish_sentence(text) if name in SENTENCE_FIELDS else finish_fragment(text)
                for name, text in zip(self.fields, texts)}


class Paradigm:
    """A spec ready to sample.

    Attributes:
        loaded: the validated spec with its file and line table.
        bodies: one per variant (a single one unless the spec has branches).
    """

    def __init__(self, loaded: LoadedSpec, lexicon: Lexicon, bodies: list[Body]) -> None:
        self.loaded = loaded
        self.spec = loaded.spec
        self.uid = loaded.spec.uid
        self.lexicon = lexicon
        self.bodies = bodies
        self.lexically_identical = loaded.spec.lexically_identical()

    def body(self, bindings: Bindings) -> Body:
        """The body a set of bindings was sampled from."""
        return self.bodies[bindings.get(BRANCH, 0)]

    def contrast(self, bindings: Bindings) -> list[str]:
        """The slots and words allowed to differ between good and bad for these bindings."""
        return self.body(bindings).variant.contrast

    def sample(self, rng: random.Random) -> Bindings | DeadEnd:
        """Pick a branch (when there are several), then draw every slot in order, or report
        the first slot that ran dry."""
        index = rng.randrange(len(self.bodies)) if len(self.bodies) > 1 else 0
        body = self.bodies[index]
        found = sample_slots(body.slots, rng, {BRANCH: index} if len(self.bodies) > 1 else {})
        if isinstance(found, DeadEnd) and body.variant.name:
            return DeadEnd(f"{body.variant.name}: {found.where}")
        return found

    def render(self, bindings: Bindings) -> dict[str, str]:
        """Render every template; raises RenderDeadEnd when a form is missing."""
        return self.body(bindings).render(bindings)

    def violations(self, bindings: Bindings) -> list[str]:
        """Re-check every slot's constraints on a sampled set of values (no caches)."""
        return slot_violations(self.body(bindings).slots, bindings)


def sample_slots(slots: list[tuple[str, SlotKind]], rng: random.Random, bindings: Bindings) -> Bindings | DeadEnd:
    """Draw every slot in order into ``bindings``, or report the first slot that ran dry."""
    for name, kind in slots:
        value = kind.sample(rng, bindings)
        if value is None:
            return DeadEnd(name)
        bindings[name] = value
    return bindings


def slot_violations(slots: list[tuple[str, SlotKind]], bindings: Bindings) -> list[str]:
    """Every slot's constraints re-checked on sampled values (no caches), ``slot: problem``."""
    return [f"{name}: {p}" for name, kind in slots for p in kind.violations(bindings[name], bindings)]


def provenance(bindings: Bindings) -> dict[str, str]:
    """slot (or slot.part) -> lexicon word id for every word used; ``number:N`` for a number slot."""
    out: dict[str, str] = {}
    for name, value in bindings.items():
        if isinstance(value, Word):
            out[name] = value.id
        elif isinstance(value, Phrase):
            for part, word in value.words():
                out[f"{name}.{part}"] = word.id
        elif isinstance(value, Number):
            out[name] = f"number:{int(value)}"
    return out


def build_paradigm(loaded: LoadedSpec, lexicon: Lexicon) -> Paradigm:
    """Resolve kinds and validate slot parameters against the lexicon.

    Raises:
        SpecErrors: every slot problem, each with the spec's ``file:line``.
    """
    errors: list[SpecError] = []
    bodies = []
    reported: set[tuple] = set()
    for variant in loaded.spec.variants():
        slots, variant_errors = build_slots(loaded, variant, lexicon)
        for error in variant_errors:  # a shared slot's error would repeat once per branch
            if (error.line, error.key, error.message) not in reported:
                reported.add((error.line, error.key, error.message))
                errors.append(error)
        bodies.append(Body(variant, slots, lexicon))
    if errors:
        raise SpecErrors(errors)
    return Paradigm(loaded, lexicon, bodies)


def build_slots(loaded: LoadedSpec, variant: Variant, lexicon: Lexicon) -> tuple[list, list[SpecError]]:
    """Each slot of ``variant`` as (name, kind), plus every problem found (``file:line`` via ``loaded``)."""
    errors: list[SpecError] = []
    slots: list[tuple[str, SlotKind]] = []
    earlier: list[str] = []
    for name, body in variant.slots.items():
        path = variant.slot_path(name)
        kind_name = body["kind"]
        try:
            kind_cls = slot_kinds.get(kind_name)
        except UnknownNameError:
            bare = sorted({k.rsplit(".v", 1)[0] for k in slot_kinds.names()})
            errors.append(loaded.error(path + ("kind",), f"unknown slot kind {kind_name!r}"
                                       f"{did_you_mean(kind_name, bare)}"))
            earlier.append(name)
            continue
        params = {k: v for k, v in body.items() if k != "kind"}
        params = {k: tuple(v) if isinstance(v, list) else v for k, v in params.items()}
        try:
            model = kind_cls.Params.model_validate(params)
        except ValidationError as exc:
            for err in exc.errors():
                loc = path + tuple(err["loc"][:1])
                if err["type"] == "extra_forbidden":
                    message = (f"unknown parameter {err['loc'][0]!r} for kind {kind_name}"
                               f"{did_you_mean(str(err['loc'][0]), kind_cls.Params.model_fields)}")
                elif err["type"] == "missing":
                    message = f"kind {kind_name} needs parameter {err['loc'][0]!r}"
                else:
                    message = err["msg"].removeprefix("Value error, ")
                    if isinstance(err.get("input"), bool):
                        message += " (YAML reads yes/no/on/off/true/false as booleans: quote the word)"
                errors.append(loaded.error(loc, message))
            earlier.append(name)
            continue

        def where(message: str, key: str, _path: tuple = path) -> SpecError:
            return loaded.error(_path + (key,), message)

        try:
            slots.append((name, kind_cls(name, model, lexicon, list(earlier), where)))
        except SpecError as exc:
            errors.append(exc)
        earlier.append(name)
    return slots, errors


def paradigm_rng(seed: int, uid: str) -> random.Random:
    """The RNG of one paradigm: depends on the seed and UID only (stable across runs)."""
    return random.Random(f"blimpgen:{seed}:{uid}")


def _tokens(text: str) -> list[str]:
    return [t.lower() for t in TOKEN_RE.findall(text)]


def allowed_tokens(paradigm: Paradigm, bindings: dict) -> set[str]:
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
        words = [value] if isinstance(value, Word) else [w for _, w in value.words()] if isinstance(value, Phrase) else []
        for word in words:
            for form in paradigm.lexicon.forms(word):
                allowed.update(_tokens(form.text))
            if word.get("article"):
                allowed.update({"a", "an"})
    return allowed


def contrast_leaks(paradigm: Paradigm, bindings: dict, good: str, bad: str) -> list[str]:
    """Tokens in which good and bad differ that the contrast does not allow (sorted)."""
    good_tokens, bad_tokens = Counter(_tokens(good)), Counter(_tokens(bad))
    differing = set((good_tokens - bad_tokens) + (bad_tokens - good_tokens))
    return sorted(differing - allowed_tokens(paradigm, bindings))
