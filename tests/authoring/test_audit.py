"""Shallow-cue measures on hand-made pairs, where the right answer is known."""

from __future__ import annotations

import pytest

from blimpgen.authoring.audit import audit_pairs, bow_accuracy, exclusive_items, length_cue, unigram_accuracy
from blimpgen.records.pair import MinimalPair

NOUNS = ["cat", "dog", "bird", "fish", "cow", "horse", "mouse", "goat", "sheep", "duck"]


def pairs_from(good: str, bad: str) -> list[MinimalPair]:
    return [MinimalPair(good.format(n=n, i=i), bad.format(n=n, i=i), "u") for i in range(10) for n in NOUNS]


def test_audit_word_only_in_bad_is_flagged() -> None:
    result = audit_pairs("u", pairs_from("The {n} {i} sleeps.", "The {n} {i} ever sleeps."))
    assert result.only_bad[0] == ("ever", 100) and all(" " in item for item, _ in result.only_good)
    assert result.length_accuracy == 1.0 and result.length_difference == -1.0
    assert any("'ever' occurs only in bad sentences, in 100 of 100 pairs" in f for f in result.flags)


def test_audit_balanced_swap_is_not_flagged() -> None:
    pairs = [MinimalPair(f"The {a} saw the {b}.", f"The {b} saw the {a}.", "u") for a in NOUNS for b in NOUNS if a != b]
    result = audit_pairs("u", pairs)
    assert result.only_good == [] or result.only_good[0][1] < len(pairs)
    assert result.length_accuracy == 0.5 and result.unigram_accuracy == 0.5
    assert result.flags == [] and result.bow_accuracy < 0.9


def test_audit_unigram_and_bow_see_frequency() -> None:
    pairs = pairs_from("The {n} is here.", "The {n} are here {i}.")
    assert length_cue(pairs)[1] == 1.0
    assert unigram_accuracy(pairs) == 1.0  # every bad sentence has more (and rarer) words
    assert bow_accuracy(pairs) == 1.0


def test_audit_exclusive_items_count_pairs_not_tokens() -> None:
    good, bad = exclusive_items([MinimalPair("a a b.", "c b.", "u"), MinimalPair("a d.", "c c d.", "u")])
    assert ("a", 2) in good and ("c", 2) in bad


@pytest.mark.parametrize("n", [0])
def test_audit_empty_is_chance(n: int) -> None:
    result = audit_pairs("u", [])
    assert result.pairs == n and result.flags == [] and result.bow_accuracy == 0.5
