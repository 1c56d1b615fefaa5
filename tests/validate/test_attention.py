"""Attention checks: clearly broken scrambles, never the same good sentence twice in a batch."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blimpgen.errors import BlimpgenError
from blimpgen.validate.attention import MIN_WORDS, make_checks, scramble

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz'", min_size=1, max_size=8)


@given(st.lists(words, min_size=MIN_WORDS, max_size=14, unique=True), st.integers(0, 1000))
def test_attention_scramble_breaks_every_position_and_neighbour(tokens: list[str], seed: int) -> None:
    sentence = " ".join(tokens) + "."
    salad = scramble(sentence, random.Random(seed))
    assert salad is not None
    assert salad.endswith(".")
    scrambled = salad[:-1].split()
    assert sorted(w.lower() for w in scrambled) == sorted(w.lower() for w in tokens)
    lowered = [w.lower() for w in scrambled]
    assert all(new != old for new, old in zip(lowered, tokens, strict=True))
    assert not set(itertools.pairwise(lowered)) & set(itertools.pairwise(tokens))


@pytest.mark.parametrize("sentence", ["Dogs bark.", "She left them.", "", "Hi"])
def test_attention_scramble_refuses_short_sentences(sentence: str) -> None:
    assert scramble(sentence, random.Random(0)) is None


def test_attention_scramble_is_deterministic() -> None:
    sentence = "The cats sleep on the sofa every day."
    assert scramble(sentence, random.Random(3)) == scramble(sentence, random.Random(3))


def test_attention_checks_use_distinct_good_sentences_and_avoid_shown_ones() -> None:
    pool = [(f"p{i}", f"Sentence number {i} is quite fine.") for i in range(12)]
    shown = [frozenset({pool[0][1]}), frozenset(), frozenset({pool[1][1]})] * 3
    checks = make_checks(shown, preferred=pool[:4], fallback=pool[4:], rng=random.Random(0))
    goods = [c.good for c in checks]
    assert len(set(goods)) == len(goods) == len(shown)
    assert all(check.good not in seen for check, seen in zip(checks, shown, strict=True))
    assert {c.source for c in checks[:4]} == {"p0", "p1", "p2", "p3"}  # preferred ones go first


def test_attention_checks_error_when_too_few_sentences() -> None:
    pool = [("p0", "One two three four."), ("p1", "Too short.")]
    with pytest.raises(BlimpgenError, match="attention checks: HIT 2 of 2 has no sentence left"):
        make_checks([frozenset(), frozenset()], preferred=pool, fallback=[], rng=random.Random(0))
