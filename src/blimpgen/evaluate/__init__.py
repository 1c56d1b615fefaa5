"""Score language models on minimal pairs, BLiMP-style.

``scorers`` (the registry) and :class:`Scorer` are the extension points; :func:`evaluate`
runs a scorer over BLiMP-schema JSONL. Importing this package imports neither torch nor
nltk: model families load when a scorer is built.
"""

from blimpgen.evaluate.base import Query, Scorer, TokenScores
from blimpgen.evaluate.registrations import make_scorer, scorers
from blimpgen.evaluate.run import EvalOptions, EvalResult, evaluate, write_results

__all__ = ["EvalOptions", "EvalResult", "Query", "Scorer", "TokenScores", "evaluate", "make_scorer", "scorers",
           "write_results"]
