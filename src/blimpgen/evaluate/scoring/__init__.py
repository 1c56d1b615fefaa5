"""Scoring: the :class:`~blimpgen.evaluate.scoring.base.Scorer` interface, the scorer registry and
scorer options, BLiMP's methods and the reductions; one module per model family in ``scorers/``.

Importing this package imports neither torch nor nltk: a model family loads when its scorer is built.
"""
