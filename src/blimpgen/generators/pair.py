"""The :class:`MinimalPair` record: what generators produce and every consumer reads.

Its JSON form is BLiMP's schema (same field names, same types: ``pairID`` is a string) plus
provenance BLiMP lacks: ``pair_id`` (``{UID}-{index:05d}``), ``seed``, ``lexicon_hash``,
``spec_hash``, ``blimpgen_version`` and ``slots`` (slot name -> lexicon word id).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from blimpgen.errors import BlimpgenError

BLIMP_FIELDS = ("sentence_good", "sentence_bad", "field", "linguistics_term", "UID",
                "simple_LM_method", "one_prefix_method", "two_prefix_method",
                "lexically_identical", "pairID")
ONE_PREFIX_FIELDS = ("one_prefix_prefix", "one_prefix_word_good", "one_prefix_word_bad")
TWO_PREFIX_FIELDS = ("two_prefix_prefix_good", "two_prefix_prefix_bad", "two_prefix_word")
PROVENANCE_FIELDS = ("pair_id", "seed", "lexicon_hash", "spec_hash", "blimpgen_version", "slots")
REQUIRED_FIELDS = ("sentence_good", "sentence_bad", "UID")


@dataclass(frozen=True)
class MinimalPair:
    """One acceptable/unacceptable sentence pair with its metadata.

    Only ``sentence_good``, ``sentence_bad`` and ``UID`` are required, so original BLiMP
    files (which lack provenance) read into the same record.
    """

    sentence_good: str
    sentence_bad: str
    UID: str
    field: str = ""
    linguistics_term: str = ""
    simple_LM_method: bool = True
    one_prefix_method: bool = False
    two_prefix_method: bool = False
    lexically_identical: bool = False
    pairID: str = ""
    one_prefix_prefix: str | None = None
    one_prefix_word_good: str | None = None
    one_prefix_word_bad: str | None = None
    two_prefix_prefix_good: str | None = None
    two_prefix_prefix_bad: str | None = None
    two_prefix_word: str | None = None
    pair_id: str | None = None
    seed: int | None = None
    lexicon_hash: str | None = None
    spec_hash: str | None = None
    blimpgen_version: str | None = None
    slots: dict[str, str] = dataclass_field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict in BLiMP's field order; absent prefix/provenance fields are left out."""
        out: dict[str, Any] = {name: getattr(self, name) for name in BLIMP_FIELDS}
        if self.one_prefix_method:
            out.update({name: getattr(self, name) for name in ONE_PREFIX_FIELDS})
        if self.two_prefix_method:
            out.update({name: getattr(self, name) for name in TWO_PREFIX_FIELDS})
        for name in PROVENANCE_FIELDS:
            value = getattr(self, name)
            if value is not None and value != {}:
                out[name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "") -> MinimalPair:
        """Build a record from a BLiMP-schema dict, ignoring unknown keys.

        Raises:
            BlimpgenError: when a required field is missing or has the wrong type.
        """
        prefix = f"{where}: " if where else ""
        if not isinstance(data, dict):
            raise BlimpgenError(f"{prefix}expected a JSON object, got {type(data).__name__}")
        missing = [name for name in REQUIRED_FIELDS if name not in data]
        if missing:
            raise BlimpgenError(f"{prefix}missing required field {missing[0]!r}")
        kwargs: dict[str, Any] = {}
        for name in cls.__dataclass_fields__:
            if name not in data:
                continue
            value = data[name]
            if name in ("simple_LM_method", "one_prefix_method", "two_prefix_method", "lexically_identical"):
                if isinstance(value, str):
                    value = value.strip().lower() in ("true", "1", "yes")
                value = bool(value)
            elif name == "pairID":
                value = str(value)
            elif name in ("sentence_good", "sentence_bad", "UID") and not isinstance(value, str):
                raise BlimpgenError(f"{prefix}field {name!r} must be a string")
            kwargs[name] = value
        return cls(**kwargs)
