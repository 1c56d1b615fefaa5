"""Score language models on minimal pairs, BLiMP-style.

``scorers`` (the registry) and :class:`Scorer` are the extension points; :func:`evaluate`
runs a scorer over BLiMP-schema JSONL, :func:`evaluate_probes` over cloze probe items.
Importing this package imports neither torch nor nltk: model families load when a scorer is
built.
"""

from blimpgen.evaluate.scoring.base import BlankQuery, BlankScores, Query, Scorer, TokenScores
from blimpgen.evaluate.probe_run import (
           ProbeResult,
           evaluate_probes,
           write_probe_results,
)
from blimpgen.evaluate.probes import ProbeOptions
from blimpgen.evaluate.scoring.registrations import make_scorer, scorers
from blimpgen.evaluate.run import EvalOptions, EvalResult, evaluate, write_results

__all__ = ["BlankQuery", "BlankScores", "EvalOptions", "EvalResult", "ProbeOptions", "ProbeResult", "Query", "Scorer",
           "TokenScores", "evaluate", "evaluate_probes", "make_scorer", "scorers", "write_probe_results",
           "write_results"]
