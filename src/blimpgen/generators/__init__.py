"""Constraint-satisfying sampling of minimal pairs from specs and the lexicon."""

from blimpgen.generators.generate import generate, load_paradigms, write_jsonl
from blimpgen.generators.paradigm import Paradigm, build_paradigm
from blimpgen.records.pair import MinimalPair

__all__ = ["MinimalPair", "Paradigm", "build_paradigm", "generate", "load_paradigms", "write_jsonl"]
