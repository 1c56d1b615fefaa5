"""Selector picks: the draws a pick makes are the ones ``random.Random.randrange`` makes."""

from __future__ import annotations

import random

import pytest

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
