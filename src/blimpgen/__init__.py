"""blimpgen: build, score and validate linguistic minimal-pair test suites.

Nothing is loaded at import time; use :class:`blimpgen.generators.Catalog` (specs and lexicon),
:func:`blimpgen.generators.load_paradigms` and :func:`blimpgen.generators.generate`.
"""

# The only place the version is written (pyproject.toml reads it). Raise it whenever generated
# output changes (tests/test_version.py compares a fingerprint of the output per version) and
# say why in CHANGELOG.md.
__version__ = "0.6.0"

__all__ = ["__version__"]
