"""BLiMP's three methods: which queries a pair becomes; flags and missing fields."""

from __future__ import annotations

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.evaluate.scoring.base import Query
from blimpgen.evaluate.scoring.methods import make_queries, method_applies
from blimpgen.records.pair import MinimalPair

PAIR = MinimalPair(
    sentence_good="The cat is here.",
    sentence_bad="The cat are here.",
    UID="sva",
    one_prefix_method=True,
    two_prefix_method=True,
    one_prefix_prefix="The cat",
    one_prefix_word_good="is",
    one_prefix_word_bad="are",
    two_prefix_prefix_good="Who did",
    two_prefix_prefix_bad="Who did you see",
    two_prefix_word="leave",
)


@pytest.mark.parametrize(
    "method,expected",
    [
        ("full-sentence", (Query("", "The cat is here."), Query("", "The cat are here."))),
        ("one-prefix", (Query("The cat", " is"), Query("The cat", " are"))),
        ("two-prefix", (Query("Who did", " leave"), Query("Who did you see", " leave"))),
    ],
)
def test_methods_make_queries(method, expected):
    assert make_queries(PAIR, method) == expected


def test_methods_flags_decide_applicability():
    plain = MinimalPair(sentence_good="a", sentence_bad="b", UID="u")
    assert method_applies(plain, "full-sentence") and not method_applies(plain, "one-prefix")


def test_methods_missing_field_names_pair_and_field():
    broken = MinimalPair(sentence_good="a", sentence_bad="b", UID="u", pairID="7", one_prefix_method=True)
    with pytest.raises(
        BlimpgenError,
        match=r"f.jsonl: pair '7' of u has one_prefix_method true but no "
        r"'one_prefix_prefix'",
    ):
        make_queries(broken, "one-prefix", "f.jsonl")


def test_methods_unknown_method():
    with pytest.raises(BlimpgenError, match="unknown method 'three-prefix'; expected one of"):
        make_queries(PAIR, "three-prefix")
