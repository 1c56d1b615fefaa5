"""Specs: the YAML language (paradigms and probe suites), its validation, and the template environment."""

from blimpgen.grammar.loader import (
    LoadedSpec,
    SpecDocument,
    load_shipped_designs,
    load_shipped_specs,
    load_spec_file,
    load_specs,
    parse_spec,
)
from blimpgen.grammar.probe_spec import ProbeSpec
from blimpgen.grammar.spec import ParadigmSpec, SpecBase

__all__ = [
    "LoadedSpec",
    "ParadigmSpec",
    "ProbeSpec",
    "SpecBase",
    "SpecDocument",
    "load_shipped_designs",
    "load_shipped_specs",
    "load_spec_file",
    "load_specs",
    "parse_spec",
]
