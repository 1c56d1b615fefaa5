"""blimpgen: build, score and validate linguistic minimal-pair test suites.

Nothing is loaded at import time; use :class:`blimpgen.generators.Catalog` (specs and lexicon),
:func:`blimpgen.generators.load_paradigms` and :func:`blimpgen.generators.generate`.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
