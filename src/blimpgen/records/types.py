"""The item-type axis: the one place where raw data says which type of test item it holds.

blimpgen makes two types of test item, each with one class per layer (spec, source, record):
minimal pairs (``ParadigmSpec`` -> ``Paradigm`` -> :class:`MinimalPair`) and cloze probe items
(``ProbeSpec`` -> ``Probe`` -> :class:`ProbeItem`). The type is read from raw data here and
nowhere else; after that, code dispatches on classes, never on a string:

* a spec document (YAML) with an ``item:`` key is a probe suite, otherwise a paradigm
  (:func:`spec_tag`, the discriminator of :data:`blimpgen.grammar.spec.SpecDocument`);
* a record (one JSONL line) with an ``item_type`` key is a probe item, otherwise a minimal
  pair (:func:`record_type`);
* an evaluation's ``results.json`` with ``"kind": "probes"`` is about probe items, otherwise
  about minimal pairs (:func:`result_type`; :func:`result_header` writes the key).

Adding a type means adding one class per layer and one branch to each function here.

Within probe items, the item's ``item_type`` names its shape (multiple choice, cloze contrast,
foils, role reversal, question): :func:`item_shape` (defined beside the shapes, in
:mod:`blimpgen.records.item_types`) is the one place that name becomes a class.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from blimpgen.records.item import TYPE_KEY, ProbeItem
from blimpgen.records.item_types import item_shape
from blimpgen.records.pair import MinimalPair

__all__ = [
    "PARADIGM_TAG",
    "PROBE_TAG",
    "RECORD_TYPES",
    "Record",
    "item_shape",
    "mismatch",
    "record_type",
    "result_header",
    "result_type",
    "spec_tag",
]

Record = MinimalPair | ProbeItem
RECORD_TYPES: tuple[type[Record], ...] = (MinimalPair, ProbeItem)
# The key that makes a spec document a probe suite (its value is the probe's item type).
SPEC_TYPE_KEY = "item"
PARADIGM_TAG, PROBE_TAG = "paradigm", "probe"
# The key that says what a results.json is about, and its value for probe items (pairs: absent).
RESULT_TYPE_KEY, PROBE_RESULTS = "kind", "probes"


def spec_tag(raw: Any) -> str:
    """``"probe"`` for a spec document with an ``item:`` key, else ``"paradigm"``."""
    return PROBE_TAG if isinstance(raw, Mapping) and SPEC_TYPE_KEY in raw else PARADIGM_TAG


def record_type(data: Any) -> type[Record]:
    """The record class of one decoded JSONL line: :class:`ProbeItem` when it has ``item_type``."""
    return ProbeItem if isinstance(data, Mapping) and TYPE_KEY in data else MinimalPair


def mismatch(found: type[Record], expected: type[Record]) -> str:
    """Why a line of type ``found`` is not the ``expected`` record (for a located DataError)."""
    why = f"it has an {TYPE_KEY!r} field" if found is ProbeItem else f"no {TYPE_KEY!r} field"
    return f"a {found.noun}, not a {expected.noun} ({why})"


def result_type(data: Any) -> type[Record]:
    """The record class a decoded ``results.json`` is about: :class:`ProbeItem` for ``"kind": "probes"``."""
    return ProbeItem if isinstance(data, Mapping) and data.get(RESULT_TYPE_KEY) == PROBE_RESULTS else MinimalPair


def result_header(record: type[Record]) -> dict[str, str]:
    """The keys that open the ``results.json`` of an evaluation of ``record`` items (read by :func:`result_type`)."""
    return {RESULT_TYPE_KEY: PROBE_RESULTS} if record is ProbeItem else {}
