"""Selector picks: the draws a pick makes are the ones ``random.Random.randrange`` makes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blimpgen.errors import SpecError
from blimpgen.generators.kinds.base import Selector
from blimpgen.generators.kinds.phrases import DP
from blimpgen.vocab import load_lexicon


class CountingRandom(random.Random):
    """A Random subclass: picks fall back to ``randrange`` for it."""


def where(message: str) -> SpecError:
    return SpecError(message)


@pytest.mark.parametrize(
    "formula",
    [
        "N and number = subj.number and lemma != subj.lemma",
        "V and vform=past and takes(arg1, subj)",
        "N and fits(verb.arg2)",
    ],
)
def test_selector_pick_draws_as_randrange(formula: str) -> None:
    """The spelt-out draw in ``pick`` (random.Random only) and ``randrange`` (any other Random)
    give the same words and leave the generator in the same state."""
    lexicon = load_lexicon()
    selector = Selector(lexicon, formula, ["subj", "verb"], where)
    nouns, verbs = lexicon.category("N"), lexicon.category("V")
    fast, slow = random.Random(7), CountingRandom(7)
    for i in range(300):
        bindings = {"subj": nouns[i * 37 % len(nouns)], "verb": verbs[i * 53 % len(verbs)]}
        assert selector.pick(fast, bindings) == selector.pick(slow, bindings)
    assert fast.getstate() == slow.getstate()


def test_selector_takes_a_phrase_as_its_head() -> None:
    """``takes(arg1, subj)`` with a DP subject (cached under its head noun) selects what the
    reference closures select."""
    lexicon = load_lexicon()
    selector = Selector(lexicon, "V and vform=past and takes(arg1, subj)", ["subj"], where)
    determiner = lexicon.select("D and frequent")[0]
    verbs = lexicon.category("V")
    for noun in lexicon.category("N")[:400:40]:
        for subject in (DP(determiner, noun), noun):
            bindings = {"subj": subject}
            assert selector.candidates(bindings) == [v for v in verbs if selector.holds(v, bindings)]


# ---------------------------------------------------------------- everyday words first (issue 12)

# Formulas whose candidates mix words marked rare with unmarked ones: reference-free (the base list
# is the whole candidate set) and with a reference (a bitset per binding).
PREFERENCE_FORMULAS = [
    ("N and human and number=sg", {}),
    ("V and vform=past and takes(arg1, subj)", {"subj": "teacher"}),
]


def rare_share(selector: Selector, bindings: dict) -> float:
    """The share of rare words among the selector's candidates."""
    candidates = selector.candidates(bindings)
    return sum(bool(w.get("rare")) for w in candidates) / len(candidates)


@pytest.mark.parametrize(("formula", "subject"), PREFERENCE_FORMULAS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_selector_pick_prefers_everyday_words(formula: str, subject: dict, seed: int) -> None:
    """A rare candidate weighs RARE_WEIGHT against an everyday one's 1: with a share s of rare
    candidates, rare words make w s / (1 - s + w s) of the picks, within five binomial standard
    deviations; every pick is a candidate; a seed gives the same words."""
    lexicon = load_lexicon()
    selector = Selector(lexicon, formula, ["subj"], where)
    bindings = {name: lexicon.filter(f"N and lemma={lemma} and number=sg")[0] for name, lemma in subject.items()}
    share = rare_share(selector, bindings)
    assert 0.02 < share < 0.5, "the formula must mix rare and everyday candidates"
    picks = 6000
    rng = random.Random(seed)
    words = [selector.pick(rng, bindings) for _ in range(picks)]
    weight = Selector.RARE_WEIGHT
    expected = weight * share / (1 - share + weight * share)
    sigma = (expected * (1 - expected) / picks) ** 0.5
    drawn = sum(bool(w.get("rare")) for w in words) / picks
    assert abs(drawn - expected) < 5 * sigma, f"rare words drawn {drawn:.3f}, expected {expected:.3f}"
    assert set(words) <= set(selector.candidates(bindings))
    again = random.Random(seed)
    assert [selector.pick(again, bindings) for _ in range(picks)] == words


def test_selector_pick_is_uniform_without_rare_candidates() -> None:
    """Candidates without a rare word (or only rare ones) are drawn as before: no extra draw."""
    lexicon = load_lexicon()
    for formula in ("N and human and number=sg and not rare", "N and human and number=sg and rare"):
        selector = Selector(lexicon, formula, [], where)
        candidates = selector.candidates({})
        first, second = random.Random(3), random.Random(3)
        for _ in range(200):
            word = selector.pick(first, {})
            assert word == candidates[second.randrange(len(candidates))]
        assert first.getstate() == second.getstate()
