"""The controls as the papers define them: oLMpics' perturbed language, Ettinger's Shuf, Trunc, -Obj/-Sub/-Both.

Every test checks what a user relies on: the words that change, the words that stay, and that a
control keeps its item's labels (candidates, answer, good, foils) and its id relation.
"""

from __future__ import annotations

import re

import pytest

from blimpgen.errors import GenerationError
from blimpgen.generators.controls import GENERIC_OBJECT, GENERIC_SUBJECT, PERTURBATION_WORDS, derive, derive_controls
from blimpgen.generators.generate import generate_items, load_probe_suites
from blimpgen.records.item import BLANK, ProbeItem
from blimpgen.records.jsonl import dumps_record

CPRAG = ProbeItem(
    "c-1",
    "c",
    "cloze_foils",
    "He could not get the red color off his face. He asked her to stop wearing [MASK].",
    ("lipstick", "mascara", "bracelet"),
    "lipstick",
    good="lipstick",
    foils=("mascara", "bracelet"),
    expected=("lipstick",),
)
ROLE = ProbeItem(
    "r-1",
    "r",
    "role_contrast",
    "The owner forgot which customer the waitress had [MASK].",
    ("served",),
    "served",
    good="served",
    reversed_context="The owner forgot which waitress the customer had [MASK].",
    expected=("served",),
    arguments=("customer", "waitress"),
)
LABELS = ("candidates", "answer", "good", "bad", "foils", "expected")


def labels(item: ProbeItem) -> tuple:
    return tuple(getattr(item, name) for name in LABELS)


@pytest.fixture(scope="module")
def age():
    return load_probe_suites(["olmpics_age_comparison"])[0]


def test_perturbed_language_uses_olmpics_words_and_key_words(age) -> None:
    """oLMpics 3.3: 'age' and 'than' become draws from blah, ya, foo, snap, woo, boo, da, wee, foe, fee."""
    assert PERTURBATION_WORDS == ("blah", "ya", "foo", "snap", "woo", "boo", "da", "wee", "foe", "fee")
    assert age.spec.keywords == ["age", "than"]
    items = list(generate_items(age, 60, 4, ("none", "perturbed_language")))
    draws = set()
    for item, control in zip(items[0::2], items[1::2]):
        before, after = item.context.split(), control.context.split()
        assert len(before) == len(after)
        changed = {(b.strip(","), a.strip(",")) for b, a in zip(before, after) if b != a}
        assert {b for b, _ in changed} == {"than", "age"}, changed
        replaced = dict(changed)
        assert set(replaced.values()) <= set(PERTURBATION_WORDS) and replaced["than"] != replaced["age"]
        draws.add((replaced["than"], replaced["age"]))
        assert labels(control) == labels(item) and control.item_id == item.item_id + ".perturbed_language"
    assert len(draws) > 10  # drawn per item, not one fixed substitution
    again = list(generate_items(age, 60, 4, ("none", "perturbed_language")))
    assert [dumps_record(i) for i in again] == [dumps_record(i) for i in items]


def test_truncated_keeps_sentence_one_and_two_words_before_the_blank() -> None:
    """Ettinger 7.1 (lm-diagnostics' process_fk): Trunc cuts the second sentence only."""
    truncated = derive(CPRAG, "truncated")
    assert truncated.context == "He could not get the red color off his face. stop wearing [MASK]."
    assert labels(truncated) == labels(CPRAG)
    one = ProbeItem("m-1", "m", "multiple_choice", "A robin is a kind of [MASK].", ("bird", "fish"), "bird")
    assert derive(one, "truncated").context == "kind of [MASK]."


def test_shuffled_truncated_is_both_and_differs_from_truncated() -> None:
    both = derive(CPRAG, "shuffled_truncated")
    first, second = both.context.split(". ")
    assert second == "stop wearing [MASK]."
    assert sorted(first.lower().split()) == sorted("he could not get the red color off his face".split())
    assert both.context != derive(CPRAG, "truncated").context and labels(both) == labels(CPRAG)


def test_shuffles_make_replicates_with_their_own_permutations() -> None:
    """Ettinger reports Shuf as the mean and SD over 100 shuffles: one replicate per shuffle."""
    made = derive_controls(CPRAG, ("none", "shuffled", "truncated"), seed=3, shuffles=20)
    ids = [item.item_id for item in made]
    assert ids[0] == "c-1" and ids[-1] == "c-1.truncated"
    assert ids[1:21] == [f"c-1.shuffled.{r:03d}" for r in range(20)]
    shuffles = made[1:21]
    assert [item.replicate for item in shuffles] == list(range(20)) and made[-1].replicate is None
    assert len({item.context for item in shuffles}) >= 15
    assert all(item.context.endswith("He asked her to stop wearing [MASK].") for item in shuffles)
    assert all(labels(item) == labels(CPRAG) for item in shuffles)
    assert derive_controls(CPRAG, ("shuffled",), seed=3, shuffles=20) == shuffles[:]  # deterministic
    assert derive_controls(CPRAG, ("shuffled",), seed=4, shuffles=20) != shuffles


def test_generic_role_perturbations_replace_object_and_subject_in_each_context() -> None:
    """Ettinger 8.1: -Obj puts 'one' for the object, -Sub 'other' for the subject, -Both both."""
    obj, sub, both = (derive(ROLE, c) for c in ("generic_object", "generic_subject", "generic_both"))
    assert (GENERIC_OBJECT, GENERIC_SUBJECT) == ("one", "other")
    assert obj.context == "The owner forgot which one the waitress had [MASK]."
    assert obj.reversed_context == "The owner forgot which one the customer had [MASK]."
    assert sub.context == "The owner forgot which customer the other had [MASK]."
    assert sub.reversed_context == "The owner forgot which waitress the other had [MASK]."
    assert both.context == both.reversed_context == "The owner forgot which one the other had [MASK]."
    assert all(labels(c) == labels(ROLE) for c in (obj, sub, both))


@pytest.mark.parametrize("item,control", [(ROLE, "no_language"), (CPRAG, "generic_object")])
def test_a_control_the_item_type_does_not_take_is_refused(item, control) -> None:
    with pytest.raises(GenerationError, match=f"does not take the {control} control"):
        derive(item, control)


def test_no_language_of_a_question_keeps_its_arguments_without_a_blank() -> None:
    question = ProbeItem(
        "q-1",
        "q",
        "question",
        "What is found in a kitchen and used for cutting?",
        ("knife", "spoon", "saw"),
        "knife",
        arguments=("kitchen", "cutting"),
    )
    control = derive(question, "no_language", fixed_candidates=())
    assert control.context == "kitchen cutting" and BLANK not in control.context
    assert labels(control) == labels(question)


def test_controls_of_one_context_item_keep_the_words_they_should(age) -> None:
    for item in generate_items(age, 20, 8):
        for control in ("shuffled", "truncated", "shuffled_truncated"):
            changed = derive(item, control, seed=8)
            assert changed.context.count(BLANK) == 1 and labels(changed) == labels(item)
            words = {w.lower() for w in re.findall(r"\w+", changed.context)}
            assert words <= {w.lower() for w in re.findall(r"\w+", item.context)}
