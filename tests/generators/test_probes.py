"""Probe suites: generation, gold answers recomputed from the sampled values, controls, options, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blimpgen.errors import BlimpgenError, GenerationError, OptionError, SpecErrors
from blimpgen.generators.controls import NONSENSE_ANSWERS, PERTURBATION_WORDS, derive
from blimpgen.generators.generate import (
    generate_items,
    generate_items_with_bindings,
    load_probe_suites,
)
from blimpgen.generators.probe import build_probe
from blimpgen.grammar import ProbeSpec, load_shipped_specs, parse_spec
from blimpgen.records.item import BLANK, CONTROLS, ProbeItem
from blimpgen.records.jsonl import dumps_record, read_items
from blimpgen.vocab import load_lexicon

from .gold_facts import GOLD_FACTS

SUITES = sorted(load_shipped_specs(ProbeSpec))
REQUIRED = {
    "olmpics_age_comparison",
    "olmpics_age_comparison_birth_year",
    "olmpics_multihop_age",
    "olmpics_always_never",
    "olmpics_property_conjunction",
    "olmpics_property_conjunction_but_not",
    "olmpics_encyclopedic_composition",
    "olmpics_size_comparison",
    "olmpics_antonym_negation",
    "olmpics_taxonomy_conjunction",
    "neg_simp",
    "cprag_uses",
    "role_reversal",
    "neg_nat",
}
ORDINALS = ("first", "second", "third")


@pytest.fixture(scope="module")
def lexicon():
    return load_lexicon()


@pytest.fixture(scope="module")
def probes(lexicon):
    return {p.uid: p for p in load_probe_suites(None, lexicon=lexicon)}


def test_the_issue_suites_are_shipped() -> None:
    assert REQUIRED <= set(SUITES)


def test_every_shipped_suite_has_a_gold_check_here() -> None:
    assert set(SUITES) == set(GOLD)


# ---------------------------------------------------------------- gold answers from the values


def gold_age(item, b):
    return "younger" if b["age1"] < b["age2"] else "older"


def gold_birth_year(item, b):
    return "older" if b["year1"] < b["year2"] else "younger"


def gold_multihop(item, b):
    ages = [int(b["a"]), int(b["b"]), int(b["c"])]
    target = max(ages) if str(b["extreme"]) == "oldest" else min(ages)
    return ORDINALS[ages.index(target)]


def gold_size(item, b):
    from blimpgen.vocab.features import SIZE_ORDER

    first, second = SIZE_ORDER.index(b["a"].get("size")), SIZE_ORDER.index(b["b"].get("size"))
    assert first != second
    return "larger" if first > second else "smaller"


def gold_taxonomy(item, b):
    up1, up2 = b["leaf1"].get("ancestors"), b["leaf2"].get("ancestors")
    top, p1, p2 = b["tops"].get("top"), b["p1"].lemma, b["p2"].lemma
    assert top in up1 and top in up2  # the answer covers both
    assert p1 in up1 and p1 not in up2  # each distractor covers one only
    assert p2 in up2 and p2 not in up1
    assert sorted(item.candidates) == sorted([top, str(b["p1"]), str(b["p2"])])
    return top


def gold_neg_simp(item, b):
    ancestors = b["leaf"].get("ancestors")
    true, false = str(b["cat"]), str(b["other"])
    assert b["cat"].lemma in ancestors and b["other"].lemma not in ancestors
    affirmative = b["polarity"].name == "affirmative"
    assert item.group == ("affirmative" if affirmative else "negated")
    assert (" not " in item.context) != affirmative
    assert item.expected == ((true,) if affirmative else ())
    assert (item.good, item.bad) == ((true, false) if affirmative else (false, true))
    for option in item.candidates:  # the article before the blank suits each option
        article = item.context_for(option).partition(" [MASK]")[0].split()[-1]
        assert article == ("an" if option[0] in "aeiou" else "a"), (option, item.context_for(option))
    return item.good


# the suites built on fact tables recompute their gold from the raw TSV files (gold_facts.py)
GOLD = {
    "olmpics_age_comparison": gold_age,
    "olmpics_age_comparison_birth_year": gold_birth_year,
    "olmpics_multihop_age": gold_multihop,
    "olmpics_size_comparison": gold_size,
    "olmpics_taxonomy_conjunction": gold_taxonomy,
    "neg_simp": gold_neg_simp,
    **GOLD_FACTS,
}


def gold(uid, item, bindings, lexicon):
    """The gold answer of ``item`` recomputed from its sampled values and the data."""
    return GOLD[uid](item, bindings, lexicon) if uid in GOLD_FACTS else GOLD[uid](item, bindings)


@pytest.mark.parametrize("uid", SUITES)
def test_suite_makes_unique_valid_items_whose_gold_follows_from_the_values(uid, probes, lexicon) -> None:
    probe = probes[uid]
    seen = set()
    for item, bindings in generate_items_with_bindings(probe, 300, seed=5):
        assert item.UID == uid and item.control == "none" and item.item_type == probe.spec.item
        assert item.context.count(BLANK) == (1 if item.has_blank else 0) and item.answer in item.candidates
        assert probe.violations(bindings) == []
        key = (item.context, tuple(sorted((item.contexts or {}).items())), item.candidates)
        assert key not in seen
        seen.add(key)
        assert item.answer == gold(uid, item, bindings, lexicon), item
        for argument in item.arguments:
            assert re.search(rf"(?<!\w){re.escape(argument)}(?!\w)", item.context), (argument, item.context)
    assert len(seen) == 300


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), uid=st.sampled_from(SUITES))
def test_gold_follows_from_the_data_whatever_the_seed(seed, uid, probes, lexicon) -> None:
    """The gold property over seeds: each item's answer is the one its values and the data give."""
    for item, bindings in generate_items_with_bindings(probes[uid], 25, seed):
        assert item.answer == gold(uid, item, bindings, lexicon), item


@pytest.mark.parametrize("uid", SUITES)
def test_answers_are_balanced_enough_that_a_constant_guess_fails(uid, probes) -> None:
    items = list(generate_items(probes[uid], 400, seed=11))
    counts = {c: sum(i.answer == c for i in items) for c in items[0].candidates}
    if probes[uid].spec.item == "multiple_choice":
        assert max(counts.values()) / len(items) < 0.75, counts
    groups = {i.group for i in items}
    assert len(groups) >= 2, groups


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), uid=st.sampled_from(SUITES))
def test_same_seed_gives_the_same_bytes(seed, uid, probes) -> None:
    first = [dumps_record(i) for i in generate_items(probes[uid], 20, seed, tuple(probes[uid].spec.offered_controls))]
    second = [dumps_record(i) for i in generate_items(probes[uid], 20, seed, tuple(probes[uid].spec.offered_controls))]
    assert first == second


@pytest.mark.parametrize("uid", SUITES)
def test_item_json_round_trips(uid, probes, tmp_path) -> None:
    items = list(generate_items(probes[uid], 10, 3, tuple(probes[uid].spec.offered_controls)))
    path = tmp_path / "items.jsonl"
    path.write_text("".join(dumps_record(i) + "\n" for i in items))
    assert list(read_items(path)) == items


# ---------------------------------------------------------------- options


def test_taxonomy_answers_are_balanced_and_its_splits_share_no_tree(lexicon) -> None:
    """Probes audit T6: 'animal' was the answer of 61% of items; oLMpics evaluates on the animal and
    food trees and trains on the others."""
    loaded = load_shipped_specs(ProbeSpec)["olmpics_taxonomy_conjunction"]
    items = list(generate_items(build_probe(loaded, lexicon), 400, 1))
    counts = {a: sum(i.answer == a for i in items) for a in {i.answer for i in items}}
    assert len(counts) >= 8 and max(counts.values()) / len(items) < 0.2, counts
    words = {}
    for split in ("train", "dev"):
        made = generate_items_with_bindings(build_probe(loaded, lexicon, {"split": split}), 200, 1)
        words[split] = {
            w
            for _, b in made
            for w in (b["tops"].get("top"), b["p1"].lemma, b["p2"].lemma, b["leaf1"].lemma, b["leaf2"].lemma)
        }
        assert {
            b["tops"].get("split")
            for _, b in generate_items_with_bindings(build_probe(loaded, lexicon, {"split": split}), 20, 2)
        } == {split}
    assert not words["train"] & words["dev"]


def test_options_move_the_value_range(lexicon) -> None:
    loaded = load_shipped_specs(ProbeSpec)["olmpics_age_comparison"]
    probe = build_probe(loaded, lexicon, {"min_age": "90", "max_age": "99"})
    for _item, b in generate_items_with_bindings(probe, 50, 1):
        assert 90 <= b["age1"] <= 99 and 90 <= b["age2"] <= 99 and b["age1"] != b["age2"]


def test_unknown_option_and_bad_value_are_one_line_errors(lexicon) -> None:
    loaded = load_shipped_specs(ProbeSpec)["olmpics_age_comparison"]
    with pytest.raises(OptionError, match="unknown option 'maxage'; did you mean 'max_age'"):
        build_probe(loaded, lexicon, {"maxage": "3"})
    with pytest.raises(OptionError, match="option max_age must be an integer"):
        build_probe(loaded, lexicon, {"max_age": "old"})


def test_a_range_too_small_for_n_items_says_how_many_it_made(lexicon) -> None:
    probe = build_probe(
        load_shipped_specs(ProbeSpec)["olmpics_age_comparison"], lexicon, {"min_age": "20", "max_age": "22"}
    )
    with pytest.raises(GenerationError, match=r"made 6 of 50 unique items"):
        list(generate_items(probe, 50, 0))


# ---------------------------------------------------------------- controls


def base_items(probes, uid, n=40):
    return list(generate_items(probes[uid], n, 2))


def with_no_language(probes, uid: str, n: int = 60) -> list[tuple[ProbeItem, ProbeItem]]:
    """(item, its no-language control) pairs, made by the generation pipeline as `gen` makes them."""
    made = list(generate_items(probes[uid], n, 3, ("none", "no_language")))
    return list(zip(made[0::2], made[1::2]))


NO_LANGUAGE_SUITES = [
    uid for uid in SUITES if "no_language" in load_shipped_specs(ProbeSpec)[uid].spec.offered_controls
]


def fixed_words(uid: str) -> tuple[str, ...]:
    """The candidates a suite writes as plain words (no template), in its order: the same on every item."""
    spec = load_shipped_specs(ProbeSpec)[uid].spec
    written = [*(spec.candidates or ()), *(w for w in (spec.good, spec.bad) if w is not None), *(spec.foils or ())]
    return tuple(word for word in written if "{" not in word)


def test_fixed_candidates_of_the_olmpics_suites() -> None:
    assert fixed_words("olmpics_age_comparison") == ("older", "younger")  # so older = blah, as in oLMpics
    assert fixed_words("olmpics_taxonomy_conjunction") == () and fixed_words("neg_simp") == ()


@pytest.mark.parametrize("uid", NO_LANGUAGE_SUITES)
def test_no_language_keeps_only_arguments_and_the_blank(uid, probes) -> None:
    for item, control in with_no_language(probes, uid):
        assert control.item_id == item.item_id + ".no_language" and control.control == "no_language"
        words = control.context.split()
        assert words.count(BLANK) == (1 if item.has_blank else 0)
        assert sorted(w for w in words if w != BLANK) == sorted(" ".join(item.arguments).split())
        assert control.contexts is None


@pytest.mark.parametrize("uid", NO_LANGUAGE_SUITES)
def test_no_language_labels_are_one_renaming_per_suite(uid, probes) -> None:
    """Probes audit P8: the nonsense word standing for each answer was redrawn per item, so the
    control's label carried no information and the control was at chance by construction."""
    pairs = with_no_language(probes, uid)
    fixed = fixed_words(uid)
    assert probes[uid].fixed_candidates == fixed
    renaming: dict[str, set[str]] = {}
    for item, control in pairs:
        assert len(control.candidates) == len(item.candidates)
        for original, renamed in zip(item.candidates, control.candidates):
            renaming.setdefault(original, set()).add(renamed)
        assert control.answer == control.candidates[item.candidates.index(item.answer)]
        if item.item_type == "cloze_contrast":
            assert (control.good, control.bad) == control.candidates
    # one function for the whole suite: each original candidate always becomes the same word
    assert all(len(names) == 1 for names in renaming.values()), renaming
    mapping = {original: names.pop() for original, names in renaming.items()}
    if fixed:  # the suite's words, in declared order, become blah, ya, dax, ... (oLMpics: older = blah ...)
        assert mapping == dict(zip(fixed, NONSENSE_ANSWERS))
    else:  # candidates that vary per item are the task's arguments: kept (oLMpics' chipmunk lizard [MASK])
        assert all(original == renamed for original, renamed in mapping.items())
        assert len(mapping) > len(pairs[0][0].candidates)  # they do vary
        return

    # so the label is learnable: the answer -> label map read off half the items predicts the rest
    half = len(pairs) // 2
    learned = {item.answer: control.answer for item, control in pairs[:half]}
    held_out = [(item, control) for item, control in pairs[half:] if item.answer in learned]
    assert len(held_out) > len(pairs) // 4 and len({item.answer for item, _ in held_out}) >= 2  # not a constant
    assert all(learned[item.answer] == control.answer for item, control in held_out)


def test_no_language_renaming_is_deterministic_from_the_suite(probes) -> None:
    """The same renaming whatever the seed and the item: it depends on the suite alone."""
    for seed in (0, 1, 7):
        made = list(generate_items(probes["olmpics_age_comparison"], 20, seed, ("none", "no_language")))
        assert {(item.answer, control.answer) for item, control in zip(made[0::2], made[1::2])} == {
            ("older", "blah"),
            ("younger", "ya"),
        }  # oLMpics section 3.3: older = blah, younger = ya


@pytest.mark.parametrize("uid", SUITES)
def test_perturbed_language_replaces_every_key_word(uid, probes) -> None:
    keywords = tuple(probes[uid].spec.keywords)
    if not keywords:
        pytest.skip("suite declares no key words")
    for item in base_items(probes, uid):
        control = derive(item, "perturbed_language", keywords, 0)
        words = {w.lower() for w in re.findall(r"[\w\[\]]+", control.context)}
        assert not words & {k.lower() for k in keywords}
        assert words & set(PERTURBATION_WORDS)
        assert control.candidates == item.candidates and control.answer == item.answer


@pytest.mark.parametrize("uid", SUITES)
def test_shuffled_permutes_the_first_sentence_and_truncated_keeps_two_words(uid, probes) -> None:
    """Ettinger's Shuf permutes the words of sentence 1; Trunc keeps every sentence before the last
    and cuts the last to the two words before the blank."""
    offered = probes[uid].spec.offered_controls
    if "shuffled" not in offered:
        pytest.skip("the suite does not offer Ettinger's Shuf and Trunc")

    def bag(text):
        return sorted(w.lower().strip(".,;:!?") for w in text.split())

    for item in base_items(probes, uid):
        shuffled = derive(item, "shuffled", (), 0)
        assert bag(shuffled.context) == bag(item.context)
        first, *rest = re.split(r"(?<=[.!?]) ", item.context)
        assert [" ".join(rest)] == re.split(r"(?<=[.!?]) ", shuffled.context, maxsplit=1)[1:] or not rest
        if "truncated" not in offered:  # a question has no blank to cut before
            continue
        truncated = derive(item, "truncated", (), 0)
        left, _, right = truncated.context.partition(BLANK)
        *before, last = re.split(r"(?<=[.!?]) ", item.context.partition(BLANK)[0])
        assert left.split() == " ".join(before).split() + last.split()[-2:]
        assert re.fullmatch(r"[.,;:!?]*", right)
        if item.contexts:
            assert truncated.contexts is not None and set(truncated.contexts) == set(item.candidates)


def test_shuffled_changes_the_word_order_somewhere(probes) -> None:
    items = base_items(probes, "olmpics_age_comparison")
    assert any(derive(i, "shuffled", (), 0).context != i.context for i in items)


def test_controls_are_deterministic_and_follow_their_item(probes) -> None:
    probe = probes["olmpics_multihop_age"]
    controls = probe.spec.offered_controls
    assert set(controls) == set(CONTROLS) - {"generic_object", "generic_subject", "generic_both"}
    items = list(generate_items(probe, 5, 9, controls))
    k = len(controls)
    assert [i.control for i in items[:k]] == list(controls)
    assert all(i.item_id.startswith("olmpics_multihop_age-00000") for i in items[:k])
    again = list(generate_items(probe, 5, 9, controls))
    assert items == again


# ---------------------------------------------------------------- suite errors


BASE_SUITE = """\
uid: demo
item: multiple_choice
field: semantics
linguistics_term: demo
description: A demo suite.
options: {top: 30}
slots:
  x: {kind: number, min: 1, max: option.top}
  y: {kind: number, min: 1, max: option.top, distinct: [x]}
context: "Is {{ x }} [MASK] than {{ y }}?"
candidates: [smaller, larger]
answer: "{{ 'smaller' if x < y else 'larger' }}"
"""


def test_a_well_formed_user_suite_generates(lexicon) -> None:
    probe = build_probe(parse_spec(BASE_SUITE, "demo.yaml"), lexicon)
    assert len(list(generate_items(probe, 20, 0))) == 20


@pytest.mark.parametrize(
    "change, line, message",
    [
        (
            ('context: "Is {{ x }} [MASK] than {{ y }}?"', 'context: "Is {{ x }} than {{ y }}?"'),
            10,
            "context: the context must contain the blank [MASK] exactly once",
        ),
        (
            ("item: multiple_choice", "item: multi_choice"),
            2,
            "item: item must be one of multiple_choice, cloze_contrast",
        ),
        (("candidates: [smaller, larger]\n", ""), 1, "a multiple_choice suite needs 'candidates'"),
        (("max: option.top, distinct", "max: option.tops, distinct"), 9, "unknown option 'tops'; did you mean 'top'"),
        (("{{ x }} [MASK]", "{{ z }} [MASK]"), 10, "undeclared template variable 'z'"),
        (("description: A demo suite.", "description: A demo suite.\ncolour: red"), 6, "unknown key 'colour'"),
    ],
)
def test_suite_errors_name_file_line_and_key(change, line, message) -> None:
    with pytest.raises(SpecErrors) as caught:
        parse_spec(BASE_SUITE.replace(*change), "demo.yaml")
    text = str(caught.value)
    assert f"demo.yaml:{line}:" in text and message in text, text


def test_an_answer_outside_the_candidates_is_a_located_generation_error(lexicon) -> None:
    text = BASE_SUITE.replace("'smaller' if", "'tiny' if")
    probe = build_probe(parse_spec(text, "demo.yaml"), lexicon)
    with pytest.raises(GenerationError, match=r"demo.yaml:12: answer: the answer rendered as 'tiny'") as caught:
        list(generate_items(probe, 5, 0))
    assert (caught.value.file, caught.value.line, caught.value.key) == ("demo.yaml", 12, "answer")


def test_a_control_the_suite_does_not_offer_is_refused(lexicon) -> None:
    text = BASE_SUITE + "controls: [none, shuffled]\n"
    probe = build_probe(parse_spec(text, "demo.yaml"), lexicon)
    with pytest.raises(GenerationError, match="control 'no_language' is not offered"):
        list(generate_items(probe, 5, 0, ("none", "no_language")))


def test_no_language_needs_arguments_and_perturbed_needs_keywords(lexicon) -> None:
    probe = build_probe(parse_spec(BASE_SUITE, "demo.yaml"), lexicon)
    with pytest.raises(GenerationError, match="needs the suite's 'arguments'"):
        list(generate_items(probe, 1, 0, ("no_language",)))
    with pytest.raises(GenerationError, match="needs the suite's 'keywords'"):
        list(generate_items(probe, 1, 0, ("perturbed_language",)))


# ---------------------------------------------------------------- the record


def test_item_record_rejects_inconsistent_items() -> None:
    base = dict(
        item_id="x-1", UID="x", item_type="multiple_choice", context="A [MASK].", candidates=("a", "b"), answer="a"
    )
    ProbeItem(**base)
    for change, message in [
        ({"answer": "c"}, "not one of the candidates"),
        ({"context": "No blank."}, "exactly one"),
        ({"candidates": ("a", "a")}, "repeat"),
        ({"item_type": "cloze"}, "item_type"),
        ({"item_type": "cloze_contrast"}, "needs good and bad"),
        ({"contexts": {"a": "A [MASK]."}}, "one entry per candidate"),
    ]:
        with pytest.raises(BlimpgenError, match=message):
            ProbeItem(**{**base, **change})


def test_reading_a_pair_file_as_items_is_a_located_error(tmp_path) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps({"sentence_good": "A.", "sentence_bad": "B.", "UID": "u"}) + "\n")
    with pytest.raises(BlimpgenError, match=r"pairs.jsonl:1: a minimal pair, not a probe item"):
        list(read_items(path))


def test_files_holding_items_are_recognised(tmp_path, probes) -> None:
    from blimpgen.records.jsonl import file_holds_items

    path = tmp_path / "items.jsonl"
    path.write_text("".join(dumps_record(i) + "\n" for i in generate_items(probes["olmpics_age_comparison"], 3, 0)))
    assert file_holds_items(path)
    other = tmp_path / "pairs.jsonl"
    other.write_text(json.dumps({"sentence_good": "A.", "sentence_bad": "B.", "UID": "u"}) + "\n")
    assert not file_holds_items(other) and not file_holds_items(Path(tmp_path / "missing.jsonl"))


# ---------------------------------------------------------------- gold by explicit facts (reading checks)
# Two blind readings (seeds 8812 and 6481, 30 items per suite) flagged golds that rested on a missing
# row or on a neighbouring answer as right as the gold; each test below checks the whole class, over seeds.

CONJUNCTION_SUITES = ["olmpics_property_conjunction", "olmpics_property_conjunction_but_not"]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), uid=st.sampled_from(CONJUNCTION_SUITES))
def test_conjunction_distractors_fail_a_condition_by_an_explicit_fact(seed, uid, probes) -> None:
    """Each distractor (and the but-not answer) fails a condition by a written fact: a row gives it the
    negated property, lacks.tsv says it lacks the other, or it is made of another material (made_of is one
    usual material); never a mere missing row. So a bicycle (handlebars) is never the thing without a handle."""
    from .gold_facts import _conjunction, explicit_lacks, properties, raw

    materials: dict[str, list[str]] = {}
    for row in raw("properties"):
        if row["relation"] == "made_of":
            materials.setdefault(row["concept"], []).append(row["value"])
    assert all(len(v) == 1 for v in materials.values()), {k: v for k, v in materials.items() if len(v) > 1}
    has, _ = properties()
    lacked = explicit_lacks()
    for item, _ in generate_items_with_bindings(probes[uid], 40, seed=seed):
        first, second, but = _conjunction(item)
        for c in item.candidates:
            if not but:  # the answer has both; the others lack one explicitly
                ok = (
                    (first in has[c] and second in has[c])
                    if c == item.answer
                    else ((first in has[c] and second in lacked[c]) or (second in has[c] and first in lacked[c]))
                )
            elif c == item.answer:
                ok = first in has[c] and second in lacked[c]
            else:
                ok = second in has[c] or first in lacked[c]
            assert ok, (c, item.context, item.candidates)


def test_conjunction_lacks_name_no_part_a_thing_has_under_another_name() -> None:
    """A thing that has a part under another name (a bicycle's handlebars, a computer's keyboard) is
    never written as lacking it: it would be a wrong distractor for 'has a handle', 'has keys'."""
    from .gold_facts import explicit_lacks, properties

    kin = {"a handle": {"handlebars"}, "keys": {"a keyboard"}, "a seat": {"a saddle"}, "teeth": {"prongs"}}
    has, _ = properties()
    for concept, lacked in explicit_lacks().items():
        parts = {v for r, v in has[concept] if r == "has_part"}
        for relation, value in lacked:
            if relation == "has_part":
                assert not parts & kin.get(value, set()), (concept, value, parts)
    assert ("has_part", "a handle") not in explicit_lacks()["bicycle"]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_cprag_foils_could_not_do_the_job(seed, probes) -> None:
    """Neither foil is among the things uses.tsv lists as able to do the job (a tractor can haul gravel,
    a backpack can hold clothes for a trip), so the expected word beats them by a written fact."""
    from .gold_facts import raw

    able = {row["use"]: {x.strip() for x in row["able"].split(",")} for row in raw("uses")}
    uses = {row["value"] for row in raw("properties") if row["relation"] == "used_to"}
    assert set(able) == uses  # every use of properties was decided
    for item, b in generate_items_with_bindings(probes["cprag_uses"], 40, seed=seed):
        use = b["use"].get("use")
        assert item.expected[0] in able[use] and not able[use] & set(item.foils), (use, item.foils)


# objects the lexicon's arg2 allows that the verb does not ordinarily apply to (a reading found 'which shoe
# the musician had folded')
ODD_OBJECTS = {
    ("fold", "shoe"),
    ("fold", "boot"),
    ("chew", "dinner"),
    ("buy", "opera"),
    ("sell", "play"),
    ("read", "lip"),
    ("deliver", "baby"),  # a midwife's act: 'which baby the politician had delivered'
}
# verbs an organization does, which a publication does as one ('which reporter the journal had sent')
ORGANIZATION_VERBS = frozenset(
    {"send", "buy", "sell", "purchase", "rent", "mail", "sign", "print", "publish", "write", "deliver", "fix", "repair"}
)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_role_reversed_agent_cannot_do_the_verb(seed, probes, lexicon) -> None:
    """The reversed context's agent (the plausible context's object) cannot do the verb at all: no
    animal as the object of a verb animals do ('which member the wolf had fed'), no person past babyhood,
    nothing role_verbs.tsv says could do it; and no vague agent ('the member')."""
    from blimpgen.vocab.query import evaluate

    from .gold_facts import ANIMAL_VERBS, VAGUE_AGENTS, raw

    able = {row["verb"]: row["able"] for row in raw("role_verbs")}
    objects = {row["verb"]: row["objects"] for row in raw("role_verbs")}
    categories = frozenset(lexicon.inventory.categories)
    for _, b in generate_items_with_bindings(probes["role_reversal"], 40, seed=seed):
        verb, patient, agent = b["verb"].lemma, b["patient"], b["agent"]
        assert not evaluate(able[verb], patient, categories), (verb, patient.lemma)
        # and the plausible context reads well: an object the verb ordinarily applies to
        assert evaluate(objects[verb], patient, categories) and (verb, patient.lemma) not in ODD_OBJECTS
        assert not (verb in ORGANIZATION_VERBS and patient.lemma in {"newspaper", "magazine", "journal"}), verb
        assert not patient.get("human") or patient.get("age") == "baby", (verb, patient.lemma)
        assert not (verb in ANIMAL_VERBS and "animal" in (patient.get("class") or ())), (verb, patient.lemma)
        assert agent.lemma not in VAGUE_AGENTS, agent.lemma


# statements the readings found with a neighbouring adverb as right as the gold (products, markets,
# varieties, definitions); each is now a span or skip in frequency.tsv, so never asked
DEBATABLE_FREQUENCIES = [
    ("chimpanzee", "eats meat"),
    ("mouse", "eats meat"),
    ("raincoat", "has buttons"),
    ("watermelon", "has seeds"),
    ("cocktail", "contains alcohol"),
    ("grape", "has seeds"),
    ("orange", "has seeds"),
    ("cow", "has horns"),
    ("rhinoceros", "has horns"),  # was 'never' from the animal default: wrong
    ("snail", "has horns"),  # its tentacles are called horns
]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_always_never_asks_only_statements_with_one_right_adverb(seed, probes) -> None:
    """A statement is asked only when the rule nearest its noun names one adverb: a span rule
    (sometimes-often: a neighbouring adverb as right) or skip is never asked, whatever the seed."""
    from .gold_facts import FREQUENCIES

    asked = set()
    for item, b in generate_items_with_bindings(probes["olmpics_always_never"], 60, seed=seed):
        fact = b["fact"]
        assert item.answer in FREQUENCIES and fact.get("frequency") == item.answer
        asked.add((fact.get("noun"), f"{fact.get('verb')} {fact.get('object')}"))
    assert not asked & set(DEBATABLE_FREQUENCIES)


def test_always_never_debatable_statements_are_never_derived(lexicon) -> None:
    from blimpgen.vocab.facts import load_facts

    derived = {
        (r.get("noun"), f"{r.get('verb')} {r.get('object')}") for r in load_facts(lexicon).table("frequency_facts")
    }
    assert not derived & set(DEBATABLE_FREQUENCIES), derived & set(DEBATABLE_FREQUENCIES)
