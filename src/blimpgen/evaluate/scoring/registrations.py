"""The scorer registry and every built-in scorer, registered lazily in one place.

Targets are ``"module:attr"`` strings, so listing scorers imports neither torch nor nltk.
Third parties add scorers through the ``blimpgen.scorers`` entry-point group.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from blimpgen.evaluate.scoring.base import Scorer
from blimpgen.evaluate.scoring.options import check_options, describe_options, parse_assignments, resolve_options
from blimpgen.registry import Registry

scorers: Registry[type[Scorer]] = Registry("scorer", entry_point_group="blimpgen.scorers")

scorers.register("hf-causal.v1", "blimpgen.evaluate.scoring.scorers.hf_causal:CausalLMScorer")
scorers.register("hf-masked.v1", "blimpgen.evaluate.scoring.scorers.hf_masked:MaskedLMScorer")
scorers.register("ngram.v1", "blimpgen.evaluate.scoring.scorers.ngram:NgramScorer")
scorers.register("unigram.v1", "blimpgen.evaluate.scoring.scorers.unigram:UnigramScorer")


def make_scorer(name: str, **options: Any) -> Scorer:
    """Build the scorer registered as ``name`` from keyword options.

    The scorer's constructor signature is its option schema: options it does not take are
    an error rather than silently ignored.

    Raises:
        UnknownNameError: for an unregistered name.
        OptionError: for an option the scorer does not take, or a missing required one.
    """
    factory = scorers.get(name)
    check_options(name, factory, options)
    return factory(**options)


def command_line_options(name: str, assignments: Sequence[str], flags: Mapping[str, Any]) -> dict[str, Any]:
    """The constructor options of scorer ``name`` from ``--scorer-option KEY=VALUE`` texts and the
    shared flags that were given (:mod:`blimpgen.evaluate.scoring.options`).

    Raises:
        UnknownNameError: for an unregistered name.
        OptionError: for a malformed or unknown key, or a value the parameter's annotation refuses.
    """
    return resolve_options(name, scorers.get(name), parse_assignments(assignments), flags)


def list_options(name: str) -> str:
    """What ``blimpgen eval --scorer NAME --list-options`` prints.

    Raises:
        UnknownNameError: for an unregistered name.
    """
    return describe_options(name, scorers.resolve(name), scorers.get(name))


def scorer_id(scorer: Scorer) -> str:
    """The registry id results record for ``scorer``: its class's versioned name (``hf-causal.v1``),
    or its ``name`` for a scorer class that is not registered."""
    return scorers.find(type(scorer)) or scorer.name
