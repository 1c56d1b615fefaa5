"""Constraint-satisfying sampling from specs and the lexicon: minimal pairs and probe items.

:class:`Catalog` finds the specs and the lexicon; each spec builds into a
:class:`~blimpgen.generators.source.Source` (:class:`Paradigm`, :class:`Probe`) that the one
loop, :func:`generate_records`, drives.
"""

from blimpgen.generators.catalog import Catalog
from blimpgen.generators.generate import (
    generate,
    generate_items,
    generate_records,
    load_paradigms,
    load_probe_suites,
    write_jsonl,
    write_records,
)
from blimpgen.generators.paradigm import Paradigm, build_paradigm
from blimpgen.generators.probe import Probe, build_probe
from blimpgen.records.pair import MinimalPair

__all__ = [
    "Catalog",
    "MinimalPair",
    "Paradigm",
    "Probe",
    "build_paradigm",
    "build_probe",
    "generate",
    "generate_items",
    "generate_records",
    "load_paradigms",
    "load_probe_suites",
    "write_jsonl",
    "write_records",
]
