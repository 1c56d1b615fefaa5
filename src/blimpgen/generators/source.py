"""What the generation loop drives: the :class:`Source` protocol and the helpers its sources share.

A source is one spec built over one lexicon: :class:`~blimpgen.generators.paradigm.Paradigm`
(minimal pairs) or :class:`~blimpgen.generators.probe.Probe` (probe items). The one loop,
:func:`blimpgen.generators.generate.generate_records`, asks a source to ``sample`` slot values,
``render`` them into fields, ``screen`` the result, give its uniqueness ``keys``, and turn it
into records (``to_records``); ``gen`` asks what to write (``outputs``); the authoring kit's
sampling pass uses ``slot_path``, ``template_path`` and ``findings`` to locate what it finds.
Adding an item type means adding one source class, not a second loop.

Shared here: slots sampled in order (:func:`sample_slots`), constraints re-checked without
caches (:func:`slot_violations`), kind resolution with ``file:line`` errors
(:func:`build_slots`), slot provenance (:func:`slot_provenance`), text finishing, and the RNG of
a source (:func:`paradigm_rng`, seeded by ``(seed, UID)`` only).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from pydantic import ValidationError

from blimpgen._yaml import KeyPath
from blimpgen.errors import SpecError, UnknownNameError, did_you_mean
from blimpgen.generators.kinds import slot_kinds
from blimpgen.generators.kinds.base import Bindings, Phrase, SlotKind
from blimpgen.generators.kinds.numbers import Number
from blimpgen.grammar.loader import LoadedSpec
from blimpgen.grammar.spec import Variant
from blimpgen.records import Record
from blimpgen.registry import base_name
from blimpgen.vocab.facts import FactRow
from blimpgen.vocab.lexeme import Word
from blimpgen.vocab.lexicon import Lexicon

SPACES_RE = re.compile(r"\s+")
BEFORE_PUNCT_RE = re.compile(r"\s+([.,?!;:])")
SPACED_PUNCTUATION = tuple((" " + mark, mark) for mark in ".,?!;:")  # the marks BEFORE_PUNCT_RE unspaces
# A problem only sampling shows: (key it is reported once for, key path in the spec, message).
Finding = tuple[Hashable, KeyPath, str]
# How often each (branch, slot) was reached while sampling.
Trace = Counter[tuple[int, str]]
# The record type a source makes (MinimalPair, ProbeItem).
RecordT = TypeVar("RecordT", bound=Record, covariant=True)


@dataclass
class DeadEnd:
    """Why one attempt failed: the slot that ran dry (in which branch of a paradigm).

    Attributes:
        where: ``slot`` or ``branch: slot``, as failure counts name it.
        slot: the slot's name.
        branch: index of the body the slot belongs to (0 without branches).
    """

    where: str
    slot: str = ""
    branch: int = 0


class Source(Protocol[RecordT]):
    """One spec built over one lexicon, ready to sample (see the module docstring), making
    records of one type (``Source[MinimalPair]``, ``Source[ProbeItem]``; ``Source[Record]``: any).

    Attributes:
        uid: the spec's UID.
        loaded: the validated spec with its file, line table and hash.
        lexicon: the lexicon the slots draw from.
        unit: what one record is called in messages (``pair``, ``item``).
        duplicate_reason: the failure counted when an attempt repeats an earlier record.
        identity: what the first uniqueness key is, in messages (``good sentences``, ``items``).
    """

    uid: str
    loaded: LoadedSpec
    lexicon: Lexicon
    unit: ClassVar[str]
    duplicate_reason: ClassVar[str]
    identity: ClassVar[str]

    def sample(self, rng: random.Random, trace: Trace | None = None) -> Bindings | DeadEnd:
        """Draw every slot in order (counting ``(branch, slot)`` reached in ``trace``), or a dead end."""

    def render(self, bindings: Bindings) -> dict[str, Any]:
        """Every output field; raises ``RenderDeadEnd`` when the lexicon lacks a form."""

    def violations(self, bindings: Bindings) -> list[str]:
        """Every slot's constraints re-checked on sampled values, without caches."""

    def screen(self, fields: dict[str, Any], rng: random.Random) -> str | None:
        """Why rendered fields are refused (None keeps them; may reorder them using ``rng``)."""

    def keys(self, fields: dict[str, Any]) -> tuple[Hashable, ...]:
        """Uniqueness keys: fields whose key was seen before are a duplicate. The first is the identity."""

    def to_records(
        self, index: int, bindings: Bindings, fields: dict[str, Any], provenance: dict[str, Any]
    ) -> Sequence[RecordT]:
        """The record made at ``index`` (and any derived from it, such as a probe's controls)."""

    def shortfall(self, n: int, made: int, attempts: Any) -> str:
        """What to say when ``n`` records cannot be made (``made`` were, ``attempts`` counts why)."""

    def outputs(self, controls: tuple[str, ...] = (), split: bool = False) -> Sequence[tuple[str, Source[RecordT]]]:
        """What one ``gen`` run writes: (file stem, source) pairs; ``split`` puts each control in its own file."""

    def slot_path(self, dead_end: DeadEnd) -> KeyPath:
        """Key path in the spec of the slot that ran dry."""

    def template_path(self, bindings: Bindings | None) -> KeyPath:
        """Key path of the template to blame when rendering fails (the main one without bindings)."""

    def findings(self, bindings: Bindings, fields: dict[str, Any]) -> list[Finding]:
        """Problems one rendered attempt shows (e.g. a contrast leak), for the authoring kit."""


def finish_sentence(text: str) -> str:
    """Collapse spaces, remove space before punctuation, capitalise the first letter."""
    text = finish_fragment(text)
    return text[:1].upper() + text[1:]


def finish_fragment(text: str) -> str:
    r"""Like :func:`finish_sentence` without capitalisation (for prefix-method words).

    What ``BEFORE_PUNCT_RE.sub(r"\1", SPACES_RE.sub(" ", text)).strip()`` gives, three times
    faster: ``str.split()`` splits on exactly what ``\s`` matches, and once runs are one space,
    the space before a mark is a single " " that plain replaces remove."""
    text = " ".join(text.split())
    for spaced, mark in SPACED_PUNCTUATION:
        text = text.replace(spaced, mark)
    return text


def sample_slots(
    slots: list[tuple[str, SlotKind]],
    rng: random.Random,
    bindings: Bindings,
    trace: Trace | None = None,
    branch: int = 0,
) -> Bindings | DeadEnd:
    """Draw every slot in order into ``bindings``, or report the first slot that ran dry."""
    for name, kind in slots:
        if trace is not None:
            trace[(branch, name)] += 1
        value = kind.sample(rng, bindings)
        if value is None:
            return DeadEnd(name, name, branch)
        bindings[name] = value
    return bindings


def slot_violations(slots: list[tuple[str, SlotKind]], bindings: Bindings) -> list[str]:
    """Every slot's constraints re-checked on sampled values (no caches), ``slot: problem``."""
    return [f"{name}: {p}" for name, kind in slots for p in kind.violations(bindings[name], bindings)]


def resolved_kinds(loaded: LoadedSpec) -> tuple[str, ...]:
    """The versioned slot kinds (``dp.v1``) a spec's slots resolve to, sorted and distinct
    (a kind that does not resolve is left out: building the spec reports it)."""
    names = {body.get("kind") for body in loaded.spec.slot_bodies()}
    return tuple(sorted(slot_kinds.resolve(name) for name in names if isinstance(name, str) and name in slot_kinds))


def slot_provenance(bindings: Bindings) -> dict[str, str]:
    """slot (or slot.part) -> lexicon word id for every word used; ``number:N`` for a number slot,
    ``fact:TABLE:LINE`` for a fact row."""
    out: dict[str, str] = {}
    for name, value in bindings.items():
        if isinstance(value, Word):
            out[name] = value.id
        elif isinstance(value, Phrase):
            for part, word in value.words():
                out[f"{name}.{part}"] = word.id
        elif isinstance(value, Number):
            out[name] = f"number:{int(value)}"
        elif isinstance(value, FactRow):
            out[name] = f"fact:{value.fact_id}"
    return out


def build_slots(
    loaded: LoadedSpec, variant: Variant, lexicon: Lexicon
) -> tuple[list[tuple[str, SlotKind]], list[SpecError]]:
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
            bare = sorted({base_name(k) for k in slot_kinds.names()})
            errors.append(
                loaded.error(path + ("kind",), f"unknown slot kind {kind_name!r}{did_you_mean(kind_name, bare)}")
            )
            earlier.append(name)
            continue
        params = {k: v for k, v in body.items() if k != "kind"}
        params = {k: tuple(v) if isinstance(v, list) else v for k, v in params.items()}
        written: dict[str, str] = {}  # current key -> the old name the spec used
        for old, new in kind_cls.renamed.items():
            if old in params and new in params:
                errors.append(loaded.error(path + (old,), f"give {new}, not both {new} and {old} (its old name)"))
            elif old in params:
                params[new] = params.pop(old)
                written[new] = old
        try:
            model = kind_cls.Params.model_validate(params)
        except ValidationError as exc:
            for err in exc.errors():
                loc = path + tuple(written.get(str(key), key) for key in err["loc"][:1])
                if err["type"] == "extra_forbidden":
                    message = (
                        f"unknown parameter {err['loc'][0]!r} for kind {kind_name}"
                        f"{did_you_mean(str(err['loc'][0]), kind_cls.Params.model_fields)}"
                    )
                elif err["type"] == "missing":
                    message = f"kind {kind_name} needs parameter {err['loc'][0]!r}"
                else:
                    message = err["msg"].removeprefix("Value error, ")
                    if isinstance(err.get("input"), bool):
                        message += " (YAML reads yes/no/on/off/true/false as booleans: quote the word)"
                errors.append(loaded.error(loc, message))
            earlier.append(name)
            continue

        def where(message: str, key: str, _path: KeyPath = path, _written: dict[str, str] = written) -> SpecError:
            return loaded.error(_path + (_written.get(key, key),), message)

        try:
            slots.append((name, kind_cls(name, model, lexicon, list(earlier), where)))
        except SpecError as exc:
            errors.append(exc)
        earlier.append(name)
    return slots, errors


def paradigm_rng(seed: int, uid: str) -> random.Random:
    """The RNG of one source: depends on the seed and UID only (stable across runs)."""
    return random.Random(f"blimpgen:{seed}:{uid}")
