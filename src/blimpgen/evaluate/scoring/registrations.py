"""The scorer registry and every built-in scorer, registered lazily in one place.

Targets are ``"module:attr"`` strings, so listing scorers imports neither torch nor nltk.
Third parties add scorers through the ``blimpgen.scorers`` entry-point group.
"""

from __future__ import annotations

import inspect
from typing import Any

from blimpgen.errors import OptionError
from blimpgen.evaluate.scoring.base import Scorer
from blimpgen.registry import Registry

scorers: Registry[type] = Registry("scorer", entry_point_group="blimpgen.scorers")

scorers.register("hf-causal.v1", "blimpgen.evaluate.scoring.scorers.hf_causal:CausalLMScorer")
scorers.register("hf-masked.v1", "blimpgen.evaluate.scoring.scorers.hf_masked:MaskedLMScorer")
scorers.register("ngram.v1", "blimpgen.evaluate.scoring.scorers.ngram:NgramScorer")
scorers.register("unigram.v1", "blimpgen.evaluate.scoring.scorers.unigram:UnigramScorer")


def make_scorer(name: str, **options: Any) -> Any:
    """Build the scorer registered as ``name`` from keyword options.

    The scorer's constructor signature is its option schema: options it does not take are
    an error rather than silently ignored.

    Raises:
        UnknownNameError: for an unregistered name.
        BlimpgenError: for an option the scorer does not take.
    """
    factory = scorers.get(name)
    parameters = inspect.signature(factory).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    unknown = sorted(key for key in options if key not in parameters)
    if unknown and not takes_any:
        accepted = ", ".join(key for key in parameters if key != "self")
        raise OptionError(f"scorer {name!r} takes no option {unknown[0]!r}; it takes: {accepted}")
    missing = [key for key, p in parameters.items()
               if p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD and key not in options]
    if missing:
        raise OptionError(f"scorer {name!r} needs option {missing[0]!r} (--{missing[0].replace('_', '-')})")
    return factory(**options)


def scorer_id(scorer: Scorer) -> str:
    """The registry id results record for ``scorer``: its class's versioned name (``hf-causal.v1``),
    or its ``name`` for a scorer class that is not registered."""
    return scorers.find(type(scorer)) or scorer.name
