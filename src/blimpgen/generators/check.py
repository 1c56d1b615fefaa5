"""Deprecated alias: ``check`` moved to :mod:`blimpgen.authoring.check`; the contrast rule to
:func:`blimpgen.generators.paradigm.allowed_tokens`.

Kept only for ``tests/generators/test_paradigm_properties.py`` (owned by another change in
flight); nothing in ``src/`` may import this module (``tests/test_architecture.py``). Delete it
once that test imports ``allowed_tokens`` from :mod:`blimpgen.generators.paradigm`.
"""

from blimpgen.generators.paradigm import allowed_tokens

__all__ = ["allowed_tokens"]
