"""Score language models on minimal pairs (BLiMP-style) and cloze probe items.

:func:`evaluate` runs a scorer over records of any type: the record type's task
(:mod:`blimpgen.evaluate.tasks`) plans, scores and summarizes them, and :func:`write_results`
writes what any task produced. ``scorers`` (the registry) and :class:`Scorer` are the extension
points. Importing this package imports neither torch nor nltk: model families load when a
scorer is built.
"""

from blimpgen.evaluate.runner import Data, EvalResult, evaluate, format_table, read_data, run_eval, write_results
from blimpgen.evaluate.scoring.base import BlankQuery, BlankScores, Query, Scorer, TokenScores
from blimpgen.evaluate.scoring.registrations import make_scorer, scorers
from blimpgen.evaluate.tasks import TASKS, EvalTask, PairOptions, ProbeOptions, TaskOptions

__all__ = [
    "TASKS",
    "BlankQuery",
    "BlankScores",
    "Data",
    "EvalResult",
    "EvalTask",
    "PairOptions",
    "ProbeOptions",
    "Query",
    "Scorer",
    "TaskOptions",
    "TokenScores",
    "evaluate",
    "format_table",
    "make_scorer",
    "read_data",
    "run_eval",
    "scorers",
    "write_results",
]
