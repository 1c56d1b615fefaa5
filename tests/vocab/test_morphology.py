"""Rules of blimpgen.vocab.morphology: regular inflection and the a/an choice."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blimpgen.vocab import morphology

# Lower-case pseudo-words shaped like English stems (consonants and vowels, 3-9 letters).
stems = st.from_regex(r"[bcdfghjklmnprstvwz]?[aeiou][bcdfgklmnprstvz]{1,2}[aeiou]?[bdgklmnprt]?", fullmatch=True)


@pytest.mark.parametrize(
    ("lemma", "plural"),
    [
        ("cat", "cats"),
        ("box", "boxes"),
        ("church", "churches"),
        ("dish", "dishes"),
        ("bus", "buses"),
        ("city", "cities"),
        ("day", "days"),
        ("monkey", "monkeys"),
        ("potato", "potatoes"),
        ("photo", "photos"),
        ("piano", "pianos"),
        ("roof", "roofs"),
        ("chief", "chiefs"),
        ("giraffe", "giraffes"),
        ("glass", "glasses"),
        ("quiz", "quizzes"),
    ],
)
def test_morphology_plural_noun_regular(lemma, plural):
    assert morphology.plural_noun(lemma) == plural


@pytest.mark.parametrize(
    ("lemma", "plural"),
    [
        # inflect knows these; the lexicon still lists them (plural=) so the data is explicit
        ("mouse", "mice"),
        ("child", "children"),
        ("man", "men"),
        ("analysis", "analyses"),
        ("sheep", "sheep"),
    ],
)
def test_morphology_plural_noun_irregular_from_inflect(lemma, plural):
    assert morphology.plural_noun(lemma) == plural


@pytest.mark.parametrize(
    ("lemma", "form"),
    [
        ("eat", "eats"),
        ("watch", "watches"),
        ("push", "pushes"),
        ("fix", "fixes"),
        ("kiss", "kisses"),
        ("buzz", "buzzes"),
        ("go", "goes"),
        ("undergo", "undergoes"),
        ("carry", "carries"),
        ("cry", "cries"),
        ("play", "plays"),
        ("obey", "obeys"),
        ("see", "sees"),
        ("agree", "agrees"),
        ("die", "dies"),
    ],
)
def test_morphology_third_singular(lemma, form):
    assert morphology.third_singular(lemma) == form


@pytest.mark.parametrize(
    ("lemma", "form"),
    [
        ("walk", "walked"),
        ("bake", "baked"),
        ("agree", "agreed"),
        ("die", "died"),
        ("tie", "tied"),
        ("carry", "carried"),
        ("play", "played"),
        ("obey", "obeyed"),
        ("stop", "stopped"),
        ("plan", "planned"),
        ("grab", "grabbed"),
        ("chat", "chatted"),
        ("visit", "visited"),
        ("open", "opened"),
        ("travel", "traveled"),
        ("cancel", "canceled"),
        ("fix", "fixed"),
        ("snow", "snowed"),
        ("panic", "panicked"),
        ("rain", "rained"),
        ("help", "helped"),
        ("yell", "yelled"),
    ],
)
def test_morphology_regular_past(lemma, form):
    assert morphology.regular_past(lemma) == form


@pytest.mark.parametrize(
    ("lemma", "form"),
    [
        ("walk", "walking"),
        ("make", "making"),
        ("see", "seeing"),
        ("agree", "agreeing"),
        ("be", "being"),
        ("lie", "lying"),
        ("die", "dying"),
        ("tie", "tying"),
        ("run", "running"),
        ("swim", "swimming"),
        ("sit", "sitting"),
        ("stop", "stopping"),
        ("visit", "visiting"),
        ("open", "opening"),
        ("fix", "fixing"),
        ("play", "playing"),
        ("snow", "snowing"),
        ("panic", "panicking"),
        ("argue", "arguing"),
        ("dye", "dyeing"),
        ("hoe", "hoeing"),
        ("yell", "yelling"),
        ("ski", "skiing"),
    ],
)
def test_morphology_present_participle(lemma, form):
    assert morphology.present_participle(lemma) == form


@pytest.mark.parametrize(
    ("lemma", "derived", "right"),
    [
        # Stress decides doubling in longer verbs and spelling does not show stress, so the rule
        # leaves these undoubled; the lexicon lists their forms (past=admitted, ing=admitting).
        ("admit", "admiting", "admitting"),
        ("prefer", "prefering", "preferring"),
        ("occur", "occuring", "occurring"),
        ("begin", "begining", "beginning"),
        ("quit", "quiting", "quitting"),
    ],
)
def test_morphology_stress_final_doubling_is_left_to_the_lexicon(lemma, derived, right):
    assert morphology.present_participle(lemma) == derived != right


@pytest.mark.parametrize(
    ("lemma", "doubles"),
    [
        ("stop", True),
        ("run", True),
        ("chat", True),
        ("grab", True),
        ("yap", True),
        ("fix", False),
        ("snow", False),
        ("play", False),
        ("rain", False),
        ("help", False),
        ("visit", False),
        ("open", False),
        ("see", False),
        ("go", False),
    ],
)
def test_morphology_doubles_final_consonant(lemma, doubles):
    assert morphology._doubles_final_consonant(lemma) is doubles


@pytest.mark.parametrize(
    ("word", "article"),
    [
        ("apple", "an"),
        ("egg", "an"),
        ("idea", "an"),
        ("umbrella", "an"),
        ("hour", "an"),
        ("honest", "an"),
        ("cat", "a"),
        ("university", "a"),
        ("unicorn", "a"),
        ("European", "a"),
        ("one", "a"),
        ("house", "a"),
    ],
)
def test_morphology_indefinite_article(word, article):
    assert morphology.indefinite_article(word) == article
    assert morphology.with_article(word) == f"{article} {word}"


@given(stems)
def test_morphology_suffixes_keep_the_stem(stem):
    assert morphology.third_singular(stem).endswith("s")
    assert morphology.regular_past(stem).endswith("ed") or morphology.regular_past(stem).endswith("d")
    assert morphology.present_participle(stem).endswith("ing")
    # Only a final -e, -y or -ie is ever rewritten; the rest of the stem survives.
    for form in (morphology.third_singular(stem), morphology.regular_past(stem), morphology.present_participle(stem)):
        assert form.startswith(stem[:-2])


@given(stems)
def test_morphology_past_and_participle_double_alike(stem):
    past, participle = morphology.regular_past(stem), morphology.present_participle(stem)
    if morphology._doubles_final_consonant(stem):
        assert past == stem + stem[-1] + "ed" and participle == stem + stem[-1] + "ing"
