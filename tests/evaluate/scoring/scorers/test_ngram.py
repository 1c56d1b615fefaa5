"""ngram: nltk's Kneser-Ney estimator in ARPA form, and a Brown-corpus end-to-end check."""

from __future__ import annotations

import io
import math
import random
import re
from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.evaluate.scoring.base import Query
from blimpgen.evaluate.scoring.scorers.ngram import ArpaModel, NgramScorer, read_sentences, train_kneser_ney
from blimpgen.evaluate.scoring.scorers.unigram import word_tokenize

from ...tiny import SENTENCES

nltk_lm = pytest.importorskip("nltk.lm")

CORPUS = [word_tokenize(s) for s in SENTENCES * 2 + ["the cat sat on the mat .", "a dog sat on a log ."]]


@pytest.mark.parametrize("order", [2, 3, 4])
def test_ngram_probabilities_equal_nltk_kneser_ney(order):
    from nltk.lm import KneserNeyInterpolated
    from nltk.lm.preprocessing import padded_everygram_pipeline

    corpus = CORPUS + [["rare", "words", "here"]]
    reference = KneserNeyInterpolated(order, discount=0.75)
    reference.fit(*padded_everygram_pipeline(order, corpus))
    model = train_kneser_ney(corpus, order=order, discount=0.75, unk_cutoff=1)
    rng = random.Random(0)
    vocabulary = sorted({w for s in corpus for w in s}) + ["</s>"]
    probes = [(w, tuple(s[max(0, i - order + 1) : i])) for s in corpus for i, w in enumerate(s)]
    probes += [(rng.choice(vocabulary), tuple(rng.choice(vocabulary) for _ in range(order - 1))) for _ in range(200)]
    for word, context in probes:
        expected = reference.score(word, context)
        got = 10 ** model.log10_prob(word, context)
        assert got == pytest.approx(expected, rel=1e-5, abs=1e-12), (word, context)


def test_ngram_arpa_round_trip(tmp_path: Path):
    model = train_kneser_ney(CORPUS, order=3)
    path = tmp_path / "model.arpa"
    with path.open("w", encoding="utf-8") as handle:
        model.write(handle)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("\\data\\\nngram 1=") and text.rstrip().endswith("\\end\\")
    again = ArpaModel.read(path)
    assert again.order == 3 and again.logprobs.keys() == model.logprobs.keys()
    for key, value in model.logprobs.items():
        assert again.logprobs[key] == pytest.approx(value, abs=1e-6)


def test_ngram_reads_space_separated_arpa(tmp_path: Path):
    path = tmp_path / "srilm.arpa"
    path.write_text(
        "\\data\\\nngram 1=3\nngram 2=1\n\n\\1-grams:\n-1.0 <s> -0.5\n-0.5 a -0.2\n-0.3 </s>\n\n"
        "\\2-grams:\n-0.1 <s> a\n\n\\end\\\n",
        encoding="utf-8",
    )
    model = ArpaModel.read(path)
    assert model.log10_prob("a", ["<s>"]) == pytest.approx(-0.1)
    assert model.log10_prob("</s>", ["a"]) == pytest.approx(-0.2 - 0.3)


def test_ngram_malformed_arpa_names_the_line(tmp_path: Path):
    path = tmp_path / "bad.arpa"
    path.write_text("\\data\\\nngram 1=1\n\n\\1-grams:\nnot-a-number a\n\\end\\\n", encoding="utf-8")
    with pytest.raises(BlimpgenError, match=r"bad.arpa:5: malformed ARPA line"):
        ArpaModel.read(path)


def _trained_arpa(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "lm.arpa"
    with path.open("w", encoding="utf-8") as handle:
        train_kneser_ney(CORPUS, order=3).write(handle)
    return path, path.read_text(encoding="utf-8")


def test_ngram_truncated_arpa_is_refused_naming_the_section(tmp_path: Path):
    """F8 / E21b: the first 300 bytes keep the whole header but only some unigrams."""
    path, text = _trained_arpa(tmp_path)
    declared = int(text.split("ngram 1=")[1].split()[0])
    truncated = tmp_path / "t.arpa"
    truncated.write_text(text[:300], encoding="utf-8")
    with pytest.raises(BlimpgenError) as info:
        ArpaModel.read(truncated)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{truncated}:")
    assert "\\1-grams: section (line 6) has" in message and f"declares ngram 1={declared}" in message


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda t: t.replace("\\end\\\n", ""), r"no \\end\\ line: the file ends inside the \\3-grams: section"),
        (lambda t: t + "-1.0\tstray\n", r"text after \\end\\"),
        (
            lambda t: t.replace("ngram 2=", "ngram 2=1"),
            r"the \\2-grams: section \(line \d+\) has \d+ n-grams but the "
            r"\\data\\ header declares ngram 2=1",
        ),
        (lambda t: t[: t.index("\n\\3-grams:")] + "\n\n\\end\\\n", r"\\end\\ before the \\3-grams: section"),
        (lambda t: t.replace("\\2-grams:", "\\3-grams:"), r"section \\3-grams: where \\2-grams: was expected"),
        (lambda t: t.replace("\nngram 3=", "\nngram 2="), r"the \\data\\ header declares order 2 twice"),
    ],
)
def test_ngram_incomplete_or_inconsistent_arpa_is_one_line_error(tmp_path: Path, edit, message):
    _, text = _trained_arpa(tmp_path)
    path = tmp_path / "bad.arpa"
    path.write_text(edit(text), encoding="utf-8")
    with pytest.raises(BlimpgenError, match=rf"^{re.escape(str(path))}:\d+: {message}") as info:
        ArpaModel.read(path)
    assert "\n" not in str(info.value)


def test_ngram_line_with_the_wrong_number_of_words_names_its_order(tmp_path: Path):
    path = tmp_path / "bad.arpa"
    path.write_text(
        "\\data\\\nngram 1=2\nngram 2=1\n\n\\1-grams:\n-1.0 <s>\n-0.5 a\n\n\\2-grams:\n-0.1 <s> a b -0.3\n\n\\end\\\n",
        encoding="utf-8",
    )
    with pytest.raises(BlimpgenError, match=r"bad.arpa:10: malformed ARPA line '-0.1 <s> a b -0.3' in the \\2-grams:"):
        ArpaModel.read(path)


def test_ngram_scorer_full_sentence_ends_with_eos_and_continuation_does_not():
    scorer = NgramScorer(train_kneser_ney(CORPUS, order=3))
    sentence, continuation = scorer.score([Query("", "The cat sat ."), Query("The cat", " sat")])
    assert sentence.tokens == ("the", "cat", "sat", ".", "</s>")
    assert continuation.tokens == ("sat",)
    assert continuation.logprobs[0] == pytest.approx(sentence.logprobs[2])
    assert all(math.isfinite(v) for v in sentence.logprobs)


def test_ngram_unknown_words_map_to_unk():
    scorer = NgramScorer(train_kneser_ney(CORPUS + [["zebra"]], order=2, unk_cutoff=2))
    score = scorer.score_texts(["The zebra quux ."])[0]
    assert score.tokens == ("the", "<unk>", "<unk>", ".", "</s>")
    assert all(v > -50 for v in score.logprobs)


def test_ngram_brown_model_prefers_good_agreement(corpora: Path):
    """Real signal: a trigram model trained on the Brown corpus scores agreement pairs well above chance."""
    brown = corpora / "brown.zip"
    if not brown.exists():
        pytest.skip(f"Brown corpus not found at {brown}")
    model = train_kneser_ney(read_sentences(brown, "brown"), order=3)
    scorer = NgramScorer(model)
    nouns = [
        ("man", "men"),
        ("woman", "women"),
        ("child", "children"),
        ("boy", "boys"),
        ("girl", "girls"),
        ("student", "students"),
        ("officer", "officers"),
        ("teacher", "teachers"),
        ("house", "houses"),
        ("city", "cities"),
        ("car", "cars"),
        ("book", "books"),
    ]
    pairs = []
    for singular, plural in nouns:  # determiner-noun and subject-verb agreement, BLiMP style
        pairs.append((f"This {singular} was here.", f"These {singular} was here."))
        pairs.append((f"These {plural} were here.", f"This {plural} were here."))
        pairs.append((f"The {singular} is not here.", f"The {singular} are not here."))
        pairs.append((f"The {plural} are not here.", f"The {plural} is not here."))
    scored = scorer.score_pairs([(Query("", g), Query("", b)) for g, b in pairs])
    accuracy = sum(good.total > bad.total for good, bad in scored) / len(pairs)
    assert accuracy >= 0.8


def test_ngram_read_sentences_text(tmp_path: Path):
    path = tmp_path / "c.txt"
    path.write_text("The cat.\n\nA dog!\n", encoding="utf-8")
    assert list(read_sentences(path)) == [["the", "cat", "."], ["a", "dog", "!"]]
    with pytest.raises(BlimpgenError, match="unknown corpus format"):
        list(read_sentences(path, "conll"))
    assert isinstance(io.StringIO(), io.StringIO)
