"""Generation on the small fixture lexicon: determinism, uniqueness, errors, atomic output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blimpgen._io import atomic_writer
from blimpgen.errors import GenerationError
from blimpgen.generators import build_paradigm, generate
from blimpgen.generators.generate import write_jsonl
from blimpgen.grammar import parse_spec
from blimpgen.records.jsonl import read_pairs, write_pairs_file
from blimpgen.records.pair import MinimalPair

SPEC = """uid: tiny_agreement
field: morphology
linguistics_term: determiner_noun_agreement
description: d
one_prefix_method: true
contrast: [noun]
slots:
  noun: {kind: word, where: "N and plural_type=regular"}
  dem: {kind: word, where: "D and demonstrative and number = noun.number"}
good: "{{ dem }} {{ noun }} slept."
bad: "{{ dem }} {{ noun | flip('number') }} slept."
one_prefix: {prefix: "{{ dem }}", word_good: "{{ noun }}", word_bad: "{{ noun | flip('number') }}"}
"""


@pytest.fixture()
def tiny(mini_lexicon):
    return build_paradigm(parse_spec(SPEC, "tiny_agreement.yaml"), mini_lexicon)


def test_generate_is_deterministic_and_seed_dependent(tiny) -> None:
    a = [p.to_dict() for p in generate(tiny, 10, seed=1)]
    assert a == [p.to_dict() for p in generate(tiny, 10, seed=1)]
    assert a != [p.to_dict() for p in generate(tiny, 10, seed=2)]


def test_generate_record_schema(tiny) -> None:
    pair = next(generate(tiny, 1, seed=3))
    data = pair.to_dict()
    assert list(data)[:10] == [
        "sentence_good",
        "sentence_bad",
        "field",
        "linguistics_term",
        "UID",
        "simple_LM_method",
        "one_prefix_method",
        "two_prefix_method",
        "lexically_identical",
        "pairID",
    ]
    assert data["pairID"] == "0" and data["pair_id"] == "tiny_agreement-00000"
    assert data["lexically_identical"] is True and data["one_prefix_prefix"]
    assert set(data["slots"]) == {"noun", "dem"} and "two_prefix_word" not in data
    assert MinimalPair.from_dict(json.loads(json.dumps(data))) == pair


def test_generate_reports_shortfall_with_the_dry_reason(tiny) -> None:
    # The fixture has few regular count nouns x 2 demonstratives x 2 numbers: far fewer than 500.
    with pytest.raises(GenerationError) as info:
        list(generate(tiny, 500, seed=0))
    message = str(info.value)
    assert "tiny_agreement: made " in message and "of 500 unique pairs" in message
    assert "duplicate sentence" in message


def test_generate_reports_slot_that_ran_dry(mini_lexicon) -> None:
    spec = SPEC.replace('"D and demonstrative and number = noun.number"', '"D and demonstrative and mass"')
    paradigm = build_paradigm(parse_spec(spec, "tiny_agreement.yaml"), mini_lexicon)
    with pytest.raises(GenerationError, match="slot 'dem' had no candidate"):
        list(generate(paradigm, 5, seed=0))


def test_write_jsonl_is_atomic(tiny, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("previous content\n")
    with pytest.raises(GenerationError):
        write_jsonl(tiny, 500, 0, out, progress=False)
    assert out.read_text() == "previous content\n"
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left behind
    assert write_jsonl(tiny, 5, 0, out, progress=False) == 5
    assert [p.pairID for p in read_pairs(out)] == ["0", "1", "2", "3", "4"]


def test_atomic_writer_removes_temp_on_interrupt(tmp_path: Path) -> None:
    target = tmp_path / "x.jsonl"
    with pytest.raises(KeyboardInterrupt), atomic_writer(target) as handle:
        handle.write("half")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_read_pairs_errors_name_file_and_line(tmp_path: Path) -> None:
    from blimpgen.errors import BlimpgenError

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"sentence_good": "a", "sentence_bad": "b", "UID": "x"}\n{oops\n')
    with pytest.raises(BlimpgenError, match=r"bad.jsonl:2: invalid JSON"):
        list(read_pairs(bad))
    bad.write_text('{"sentence_good": "a", "UID": "x"}\n')
    with pytest.raises(BlimpgenError, match=r"bad.jsonl:1: missing required field 'sentence_bad'"):
        list(read_pairs(bad))


def test_write_pairs_file_roundtrip(tiny, tmp_path: Path) -> None:
    pairs = list(generate(tiny, 8, seed=5))
    write_pairs_file(pairs, tmp_path / "p.jsonl")
    assert list(read_pairs(tmp_path / "p.jsonl")) == pairs


def test_generate_bytes_do_not_depend_on_hash_seed(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    code = (
        "from blimpgen.cli import main; main(['gen', '-p', 'determiner_noun_agreement_1', "
        "'-n', '50', '--seed', '7', '--quiet'])"
    )
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0].count(b"\n") == 50


def test_choice_linked_values_stay_paired(mini_lexicon) -> None:
    spec = """uid: paired
field: semantics
linguistics_term: quantifiers
description: d
contrast: [quantity]
slots:
  quantity: {kind: choice, values: [{good: more than, bad: at least}, {good: fewer than, bad: at most}]}
  number: {kind: choice, values: [two, three, four, five, six]}
good: "No cat ate {{ quantity.good }} {{ number }} cakes."
bad: "No cat ate {{ quantity.bad }} {{ number }} cakes."
"""
    paradigm = build_paradigm(parse_spec(spec, "paired.yaml"), mini_lexicon)
    pairs = list(generate(paradigm, 10, seed=0))
    for pair in pairs:
        assert ("more than" in pair.sentence_good) == ("at least" in pair.sentence_bad)
        assert ("fewer than" in pair.sentence_good) == ("at most" in pair.sentence_bad)
    assert {p.slots.get("quantity") for p in pairs} == {None}  # literals are not lexicon words


def test_choice_linked_values_need_the_same_keys(mini_lexicon) -> None:
    from blimpgen.errors import SpecErrors

    spec = """uid: paired
field: semantics
linguistics_term: quantifiers
description: d
contrast: [q]
slots:
  q: {kind: choice, values: [{good: more than, bad: at least}, {good: fewer than}]}
good: "{{ q.good }}."
bad: "{{ q.bad }}."
"""
    with pytest.raises(SpecErrors, match=r"paired.yaml:7: slots.q.values: linked values must all be mappings"):
        build_paradigm(parse_spec(spec, "paired.yaml"), mini_lexicon)


BRANCHED = """uid: branched
field: syntax
linguistics_term: control_raising
description: d
contrast: [pred, wrong]
slots:
  noun: {kind: word, where: "N and not mass"}
branches:
  verbal:
    slots:
      pred: {kind: word, where: "V and vform=pres and number = noun.number"}
      wrong: {kind: word, where: "V and vform=past"}
    good: "The {{ noun }} {{ pred }}."
    bad: "The {{ noun }} {{ wrong }}."
  adjectival:
    slots:
      pred: {kind: word, where: "A"}
      wrong: {kind: choice, values: [very]}
    good: "The {{ noun }} is {{ pred }}."
    bad: "The {{ noun }} is {{ wrong }}."
"""


def test_branches_sample_every_branch_with_its_own_slots(mini_lexicon) -> None:
    from blimpgen.generators.generate import generate_with_bindings
    from blimpgen.generators.paradigm import BRANCH

    paradigm = build_paradigm(parse_spec(BRANCHED, "branched.yaml"), mini_lexicon)
    seen = set()
    for pair, bindings in generate_with_bindings(paradigm, 30, seed=0):
        seen.add(bindings[BRANCH])
        assert paradigm.violations(bindings) == []
        assert (" is " in pair.sentence_good) == (bindings[BRANCH] == 1)
    assert seen == {0, 1}


@pytest.mark.parametrize(
    "edit,message",
    [
        (
            ("  verbal:\n    slots:\n", "  verbal:\n    slots:\n      noun: {kind: word, where: N}\n"),
            "branched.yaml:11: branches.verbal.slots.noun: slot 'noun' is already a shared slot",
        ),
        (
            ('    good: "The {{ noun }} is {{ pred }}."', '    good: "The {{ noun }} is {{ prod }}."'),
            "branched.yaml:19: branches.adjectival.good: undeclared template variable 'prod'; did you mean 'pred'?",
        ),
        (("contrast: [pred, wrong]\n", ""), "branched.yaml:8: branches.verbal: give contrast here or at the top level"),
        (
            ("      wrong: {kind: choice, values: [very]}", "      wrong: {kind: choice, value: [very]}"),
            "branched.yaml:18: branches.adjectival.slots.wrong.value: unknown parameter 'value'",
        ),
    ],
)
def test_branches_errors_point_into_the_branch(mini_lexicon, edit, message) -> None:
    from blimpgen.errors import SpecErrors

    with pytest.raises(SpecErrors) as info:
        build_paradigm(parse_spec(BRANCHED.replace(*edit), "branched.yaml"), mini_lexicon)
    assert message in str(info.value)


def test_form_filter_changes_only_features_the_word_group_marks(mini_lexicon) -> None:
    from blimpgen.grammar.templates import form

    lx = mini_lexicon
    eating = lx.by_id["V:eat:ing"]
    assert form(eating, lx, vform="pres", number="pl").text == "eat"
    assert form(eating, lx, vform="pres", number="sg").text == "eats"
    assert form(lx.by_id["AUX:will:will"], lx, number="pl").text == "will"  # modals have no number
    assert form(lx.by_id["AUX:do:does"], lx, number="pl").text == "do"
    assert form(lx.by_id["AUX:have:had"], lx, number="pl").text == "had"  # no number on any past have
