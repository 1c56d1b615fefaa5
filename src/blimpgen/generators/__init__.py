"""Constraint-satisfying sampling of minimal pairs from specs and the lexicon."""

from blimpgen.generators.generate import generate, load_paradigms, write_jsonl
from blimpgen.generators.pair import MinimalPair
from blimpgen.generators.paradigm import Paradigm, build_paradigm

__all__ = ["MinimalPair", "Paradigm", "build_paradigm", "generate", "load_paradigms", "write_jsonl"]
