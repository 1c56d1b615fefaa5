"""BLiMP's scoring methods (Warstadt et al. 2020, §6.4): which queries a pair turns into.

* ``full-sentence``: P(sentence_good) vs P(sentence_bad), the paper's main method.
* ``one-prefix``: P(word_good | prefix) vs P(word_bad | prefix).
* ``two-prefix``: P(word | prefix_good) vs P(word | prefix_bad).

A paradigm whose flag (``simple_LM_method``, ``one_prefix_method``, ``two_prefix_method``)
is false is skipped for that method; a pair whose flag is true must carry the fields.
"""

from __future__ import annotations

from typing import Literal, get_args

from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate.scoring.base import Query
from blimpgen.records.pair import MinimalPair

Method = Literal["full-sentence", "one-prefix", "two-prefix"]
# method -> the pair's flag that says whether it applies
METHODS = dict(zip(get_args(Method), ("simple_LM_method", "one_prefix_method", "two_prefix_method")))


def check_method(method: str) -> str:
    """Return the flag field for ``method``.

    Raises:
        OptionError: for an unknown method.
    """
    if method not in METHODS:
        raise OptionError(f"unknown method {method!r}; expected one of: {', '.join(METHODS)}")
    return METHODS[method]


def method_applies(pair: MinimalPair, method: str) -> bool:
    """Whether the pair's flags say ``method`` applies."""
    return bool(getattr(pair, check_method(method)))


def _continue(context: str, word: str) -> str:
    return word if not context or word[:1].isspace() else " " + word


def make_queries(pair: MinimalPair, method: str, where: str = "") -> tuple[Query, Query]:
    """The (good, bad) queries that ``method`` compares for one pair.

    Raises:
        OptionError: for an unknown method.
        DataError: when a field the method needs is missing, naming the pair.
    """
    check_method(method)
    if method == "full-sentence":
        return Query("", pair.sentence_good), Query("", pair.sentence_bad)
    needed = (
        ("one_prefix_prefix", "one_prefix_word_good", "one_prefix_word_bad")
        if method == "one-prefix"
        else ("two_prefix_prefix_good", "two_prefix_prefix_bad", "two_prefix_word")
    )
    for name in needed:
        if not isinstance(getattr(pair, name), str):
            label = f"{where}: " if where else ""
            raise DataError(
                f"{label}pair {pair.pair_id or pair.pairID!r} of {pair.UID} has {METHODS[method]} "
                f"true but no {name!r}, which --method {method} needs"
            )
    if method == "one-prefix":
        prefix = pair.one_prefix_prefix or ""
        return (
            Query(prefix, _continue(prefix, pair.one_prefix_word_good or "")),
            Query(prefix, _continue(prefix, pair.one_prefix_word_bad or "")),
        )
    good, bad, word = pair.two_prefix_prefix_good or "", pair.two_prefix_prefix_bad or "", pair.two_prefix_word or ""
    return Query(good, _continue(good, word)), Query(bad, _continue(bad, word))
