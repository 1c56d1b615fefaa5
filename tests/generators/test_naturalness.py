"""Class-level rules that keep the acceptable sentences of the structurally complex paradigms
natural (issue 12, "sentences a linguist would defend"): blind readers rated their good sentences
2-2.6 of 5 for stacked relative clauses, convoluted gerund subjects, exotic people nouns, negated
questions and verbs that do not fit their arguments. Each rule below is one of those causes, fixed
for the whole paradigm in its spec (and ``grammar/_everyday.yaml``); the specs' ``notes:`` say why.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blimpgen.generators.generate import generate_with_bindings, load_paradigms
from blimpgen.vocab import load_lexicon

REPO = Path(__file__).resolve().parents[2]
TOKEN_RE = re.compile(r"[A-Za-z']+")
PAIRS = 5

COMPLEX = (
    "complex_NP_island",
    "sentential_subject_island",
    "wh_questions_subject_gap_long_distance",
    "wh_vs_that_no_gap_long_distance",
    "wh_vs_that_with_gap_long_distance",
    "principle_A_reconstruction",
    "principle_A_domain_3",
    "distractor_agreement_relational_noun",
)
# Relative-clause markers (who, that) a good sentence has, by its template: the question word or
# complementizer where there is one, plus one relativizer per relative clause. Only
# wh_questions_subject_gap_long_distance needs two relative clauses (BLiMP stacks an object
# relative and a subject relative on one noun); every other paradigm has at most one.
MARKERS = {
    "complex_NP_island": 2,  # Who ... the nurse who hired Maria ...?
    "sentential_subject_island": 1,  # Who ...? (a gerund subject, no relative clause)
    "wh_questions_subject_gap_long_distance": 2,  # the nurse that we hired that fixed the car
    "wh_vs_that_no_gap_long_distance": 2,  # ... that the man who was singing ...
    "wh_vs_that_with_gap_long_distance": 2,  # ... who/what the man that was singing ...
    "principle_A_reconstruction": 1,  # It's himself that ...
    "principle_A_domain_3": 0,  # no complementizer, no relative
    "distractor_agreement_relational_noun": 0,
}
QUANTIFIERS = {"every", "each", "all", "most", "many", "several", "some", "no", "few"}
# Paradigms whose notes leave negated auxiliaries out (odd in these questions and clefts); the long
# wh paradigms negate their matrix verb only (Maria didn't know that ...).
UNNEGATED = {"complex_NP_island", "sentential_subject_island", "principle_A_reconstruction", "principle_A_domain_3"}
MATRIX_ONLY_NEGATION = {
    "wh_questions_subject_gap_long_distance",
    "wh_vs_that_no_gap_long_distance",
    "wh_vs_that_with_gap_long_distance",
}


def tokens(text: str) -> list[str]:
    return [t.lower() for t in TOKEN_RE.findall(text)]


def exotic_lemmas() -> set[str]:
    """Nouns and verbs the register review judged rare, exotic, archaic or literary (its decision
    column: ``rare``, the lexicon's register mark, or ``remove``)."""
    path = REPO / "tools" / "lexicon" / "register_review.tsv"
    with path.open(encoding="utf-8") as handle:
        rows = [row for row in csv.reader(handle, delimiter="\t") if row and not row[0].startswith("#")]
    return {row[0] for row in rows if len(row) > 4 and row[4] in ("rare", "remove")}


def named_lemmas(uid: str) -> set[str]:
    """Lemmas a paradigm's own spec lists by name (``lemma=a,b``), outside its fragments."""
    import re

    (path,) = (REPO / "src" / "blimpgen" / "grammar" / "paradigms").glob(f"*/{uid}.yaml")
    text = path.read_text(encoding="utf-8")
    return {word for listed in re.findall(r"(?<!not )lemma\s*=\s*([a-z,]+)", text) for word in listed.split(",")}


@pytest.fixture(scope="module")
def paradigms() -> dict:
    return {p.uid: p for p in load_paradigms(None, lexicon=load_lexicon())}


@pytest.fixture(scope="module")
def exotic() -> set[str]:
    return exotic_lemmas()


def test_naturalness_register_review_is_read(exotic) -> None:
    assert {"abbess", "alderman", "schoolmistress"} <= exotic


@pytest.mark.parametrize("uid", COMPLEX)
@settings(max_examples=10)
@given(seed=st.integers(0, 2**31))
def test_naturalness_good_sentences_use_everyday_words(paradigms, exotic, uid: str, seed: int) -> None:
    """No noun or verb of a good sentence is one the register review judged exotic."""
    lexicon = paradigms[uid].lexicon
    for pair, _ in generate_with_bindings(paradigms[uid], PAIRS, seed):
        shown = set(tokens(pair.sentence_good))
        words = {
            word_id.split(":")[1]
            for word_id in pair.slots.values()
            if word_id.split(":")[0] in ("N", "V") and lexicon.by_id[word_id].text.lower() in shown
        }
        chosen = named_lemmas(uid)  # a rare word the spec names itself is chosen for its context (members of the club)
        assert not (words & exotic) - chosen, f"{sorted(words & exotic)}: {pair.sentence_good}"


@pytest.mark.parametrize("uid", COMPLEX)
@settings(max_examples=10)
@given(seed=st.integers(0, 2**31))
def test_naturalness_at_most_the_relative_clauses_the_contrast_needs(paradigms, uid: str, seed: int) -> None:
    for pair, _ in generate_with_bindings(paradigms[uid], PAIRS, seed):
        good = tokens(pair.sentence_good)
        markers = sum(t in ("who", "that", "what") for t in good)
        assert markers == MARKERS[uid], pair.sentence_good


@pytest.mark.parametrize("uid", COMPLEX)
@settings(max_examples=10)
@given(seed=st.integers(0, 2**31))
def test_naturalness_no_quantifiers_or_negated_questions(paradigms, uid: str, seed: int) -> None:
    """No quantified or some-DPs; no negated auxiliary where the notes leave negation out."""
    for pair, _ in generate_with_bindings(paradigms[uid], PAIRS, seed):
        good = tokens(pair.sentence_good)
        assert not QUANTIFIERS & set(good), pair.sentence_good
        negated = [i for i, t in enumerate(good) if t.endswith("n't")]
        if uid in UNNEGATED:
            assert not negated, pair.sentence_good
        if uid in MATRIX_ONLY_NEGATION:
            assert negated in ([], [1], [2]), pair.sentence_good  # Maria didn't / The nurse didn't


@settings(max_examples=10)
@given(seed=st.integers(0, 2**31))
def test_naturalness_gerund_subject_has_one_singular_owner(paradigms, seed: int) -> None:
    """Maria's hiring Tom, the nurse's hiring Tom: never a plural possessor (some canoeists' seating)."""
    for pair, bindings in generate_with_bindings(paradigms["sentential_subject_island"], PAIRS, seed):
        owner = bindings["owner"]
        assert owner.head.get("number") == "sg" and "s' " not in pair.sentence_good, pair.sentence_good
        assert owner.head.category == "PN" or owner.parts["det"].lemma == "the", pair.sentence_good


@settings(max_examples=10)
@given(seed=st.integers(0, 2**31))
def test_naturalness_complex_np_relative_is_one_simple_verb(paradigms, seed: int) -> None:
    """The relative clause of complex_NP_island is one finite verb and its object (who hired
    Maria), no auxiliary stacked in it (who had persecuted, that are introducing)."""
    for pair, bindings in generate_with_bindings(paradigms["complex_NP_island"], PAIRS, seed):
        rc = bindings["rc"]
        assert str(rc.parts["aux"]) == "" and rc.head.get("finite"), pair.sentence_good


@settings(max_examples=10)
@given(seed=st.integers(0, 2**31))
def test_naturalness_domain_3_embedded_clause_is_simple_past(paradigms, seed: int) -> None:
    """Brandon thought Lisa hurt herself: no modal, progressive or perfect in either clause."""
    for pair, bindings in generate_with_bindings(paradigms["principle_A_domain_3"], PAIRS, seed):
        for slot in ("verb", "verb2"):
            group = bindings[slot]
            assert str(group.parts["aux"]) == "" and group.head.get("vform") == "past", pair.sentence_good


@settings(max_examples=10)
@given(seed=st.integers(0, 2**31))
def test_naturalness_relational_head_is_a_person_in_a_plausible_number(paradigms, seed: int) -> None:
    """One of several people related to a group takes a (a cousin of the nurses); several related
    to one take the (the children of Maria); never a thing head (the ages of Emmett)."""
    for pair, bindings in generate_with_bindings(paradigms["distractor_agreement_relational_noun"], PAIRS, seed):
        head = bindings["head"]
        first = tokens(pair.sentence_good)[0]
        assert head.get("human"), pair.sentence_good
        assert first == ("the" if head.get("number") == "pl" else head_article(head.text)), pair.sentence_good


def head_article(noun: str) -> str:
    return "an" if noun[0].lower() in "aeiou" else "a"
