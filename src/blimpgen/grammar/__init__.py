"""Paradigm specs: the YAML language, its validation, and the template environment."""

from blimpgen.grammar.loader import LoadedSpec, load_shipped_specs, load_spec_file, load_specs, parse_spec
from blimpgen.grammar.spec import ParadigmSpec

__all__ = ["LoadedSpec", "ParadigmSpec", "load_shipped_specs", "load_spec_file", "load_specs", "parse_spec"]
