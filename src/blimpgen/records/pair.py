"""The :class:`MinimalPair` record: what paradigms produce and every pair consumer reads.

Its JSON form is BLiMP's schema (same field names, same types: ``pairID`` is a string) plus, for
a paradigm with factors, ``levels`` (factor -> level of the pair's cell), and provenance BLiMP
lacks: ``pair_id`` (``{UID}-{index:05d}``) and the shared
:class:`~blimpgen.records.provenance.Provenance` fields (``seed``, ``lexicon_hash``,
``spec_hash``, ``blimpgen_version``, ``slots``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from blimpgen.errors import SourceLoc
from blimpgen.records.provenance import PROVENANCE_KEYS, Provenance, read_provenance, record_error

BLIMP_FIELDS = (
    "sentence_good",
    "sentence_bad",
    "field",
    "linguistics_term",
    "UID",
    "simple_LM_method",
    "one_prefix_method",
    "two_prefix_method",
    "lexically_identical",
    "pairID",
)
ONE_PREFIX_FIELDS = ("one_prefix_prefix", "one_prefix_word_good", "one_prefix_word_bad")
TWO_PREFIX_FIELDS = ("two_prefix_prefix_good", "two_prefix_prefix_bad", "two_prefix_word")
PROVENANCE_FIELDS = ("pair_id",) + PROVENANCE_KEYS
REQUIRED_FIELDS = ("sentence_good", "sentence_bad", "UID")
FLAG_FIELDS = ("simple_LM_method", "one_prefix_method", "two_prefix_method", "lexically_identical")


@dataclass(frozen=True)
class MinimalPair(Provenance):
    """One acceptable/unacceptable sentence pair with its metadata.

    Only ``sentence_good``, ``sentence_bad`` and ``UID`` are required, so original BLiMP
    files (which lack provenance) read into the same record.
    """

    noun: ClassVar[str] = "minimal pair"

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
    levels: dict[str, str] | None = None
    pair_id: str | None = None

    @property
    def record_id(self) -> str:
        """``pair_id``, or ``UID-pairID`` for pairs without one (the original BLiMP release)."""
        return self.pair_id or f"{self.UID}-{self.pairID}"

    def preview(self) -> list[str]:
        """Lines for ``blimpgen show``: the good sentence, then the bad one starred."""
        return [f"  {self.sentence_good}", f" *{self.sentence_bad}"]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict in BLiMP's field order; absent prefix/provenance fields are left out."""
        out: dict[str, Any] = {name: getattr(self, name) for name in BLIMP_FIELDS}
        if self.one_prefix_method:
            out.update({name: getattr(self, name) for name in ONE_PREFIX_FIELDS})
        if self.two_prefix_method:
            out.update({name: getattr(self, name) for name in TWO_PREFIX_FIELDS})
        if self.levels is not None:
            out["levels"] = dict(self.levels)
        if self.pair_id is not None:
            out["pair_id"] = self.pair_id
        out.update(self.provenance_dict())
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str | SourceLoc = "") -> MinimalPair:
        """Build a record from a BLiMP-schema dict, ignoring unknown keys.

        Raises:
            DataError: when a required field is missing or a field has the wrong type.
        """
        if not isinstance(data, dict):
            raise record_error(where, f"expected a JSON object, got {type(data).__name__}")
        missing = [name for name in REQUIRED_FIELDS if name not in data]
        if missing:
            raise record_error(where, f"missing required field {missing[0]!r}")
        kwargs: dict[str, Any] = read_provenance(data, where)
        for name in cls.__dataclass_fields__:
            if name not in data or name in PROVENANCE_KEYS:
                continue
            value = data[name]
            if value is None and name not in REQUIRED_FIELDS:
                continue  # null: the field's default, as if absent
            if name in FLAG_FIELDS:
                value = _flag(value, name, where)
            elif name == "pairID":
                if isinstance(value, bool) or not isinstance(value, (str, int)):
                    raise record_error(where, f"field {name!r} must be a string (or an integer)")
                value = str(value)
            elif name == "levels":
                if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                    raise record_error(where, "field 'levels' must be an object of strings (factor -> level)")
                value = dict(value)
            elif not isinstance(value, str):
                raise record_error(where, f"field {name!r} must be a string")
            kwargs[name] = value
        return cls(**kwargs)


# The flags as BLiMP's files and spreadsheets write them; anything else is an error, not a guess.
_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no", "")


def _flag(value: Any, name: str, where: str | SourceLoc) -> bool:
    """A method flag: JSON true/false, 0/1, or the strings true/false/yes/no/1/0."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise record_error(where, f"field {name!r} must be true or false, got {value!r:.40}")
