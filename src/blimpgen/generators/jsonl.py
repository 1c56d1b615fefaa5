"""Deprecated alias: JSONL records moved to :mod:`blimpgen.records.jsonl`, files to :mod:`blimpgen._io`.

Kept only for ``tests/generators/test_paradigm_properties.py`` (owned by another change in
flight); nothing in ``src/`` may import this module (``tests/test_architecture.py``). Delete it
once that test imports ``dumps_record`` from :mod:`blimpgen.records`.
"""

from blimpgen.records.jsonl import dumps_record as dumps_pair

__all__ = ["dumps_pair"]
