"""Provenance: what every generated record says about how it was made.

Pairs and probe items both carry, flat in their JSON form, the ``seed`` they were generated
with, the ``lexicon_hash`` and ``spec_hash`` of their inputs, the ``lexicon_mode`` when it is
not the default (``colorless`` or ``nonce``; records made before modes existed have none), the
spec's ``spec_version``, the ``blimpgen_version`` that made them, the slot ``kinds`` (versioned
names, such as ``dp.v1``) that drew the words and ``slots`` (slot name -> lexicon word id, or
``number:N``), so a record can be traced back to its words (MTurk back-linking) and a run can be
repeated. Records read from elsewhere (the original BLiMP release, hand-written items) have none
of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from blimpgen.errors import DataError, SourceLoc

PROVENANCE_KEYS = (
    "seed",
    "lexicon_hash",
    "lexicon_mode",
    "spec_hash",
    "spec_version",
    "blimpgen_version",
    "kinds",
    "slots",
)


@dataclass(frozen=True, kw_only=True)
class Provenance:
    """How a record was made; the base of every record class (keyword-only fields).

    Attributes:
        seed: the generation seed.
        lexicon_hash: fingerprint of the lexicon (shipped plus overlays; of the pseudo-words too
            in nonce mode).
        lexicon_mode: ``colorless`` or ``nonce`` (see :mod:`blimpgen.vocab.modes`); None for the
            default lexicon, which is how records written before modes existed read.
        spec_hash: hash of the spec file's bytes (and of the fragments it includes).
        spec_version: the spec's ``version:``.
        blimpgen_version: the version that generated the record.
        kinds: the versioned slot kinds the spec's slots resolved to (sorted, distinct).
        slots: slot (or ``slot.part``) -> lexicon word id, ``number:N`` for numbers.
    """

    seed: int | None = None
    lexicon_hash: str | None = None
    lexicon_mode: str | None = None
    spec_hash: str | None = None
    spec_version: int | None = None
    blimpgen_version: str | None = None
    kinds: tuple[str, ...] = ()
    slots: dict[str, str] = dataclass_field(default_factory=dict)

    def provenance_dict(self) -> dict[str, Any]:
        """The provenance fields that are set, in schema order (absent ones left out)."""
        out: dict[str, Any] = {}
        for name in PROVENANCE_KEYS:
            value = getattr(self, name)
            if value is not None and value != {} and value != ():
                out[name] = dict(value) if name == "slots" else list(value) if name == "kinds" else value
        return out


def read_provenance(data: dict[str, Any], where: str | SourceLoc = "") -> dict[str, Any]:
    """The provenance fields of a decoded record, checked, as keyword arguments.

    Raises:
        DataError: for a field of the wrong type, naming ``where``.
    """
    out: dict[str, Any] = {}
    for name in PROVENANCE_KEYS:
        value = data.get(name)
        if value is None:
            continue
        if name == "slots":
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                raise record_error(where, f"field {name!r} must be an object of strings")
        elif name in ("seed", "spec_version"):
            if isinstance(value, bool) or not isinstance(value, int):
                raise record_error(where, f"{name} must be an integer, got {value!r}")
        elif name == "kinds":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise record_error(where, "field 'kinds' must be a list of strings")
            value = tuple(value)
        elif not isinstance(value, str):
            raise record_error(where, f"field {name!r} must be a string")
        out[name] = value
    return out


def record_error(where: str | SourceLoc, message: str) -> DataError:
    """A :class:`DataError` at ``where`` (a ``SourceLoc``, or a ``file:line`` string as callers give it)."""
    if isinstance(where, SourceLoc):
        return DataError(message, where.file, where.line)
    return DataError(f"{where}: {message}" if where else message)
