"""unigram: deterministic add-one scores."""

from __future__ import annotations

import math

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.evaluate.scoring.scorers.unigram import UnigramModel, UnigramScorer, word_tokenize


@pytest.mark.parametrize(
    "text,tokens", [("The cat's toy.", ["the", "cat's", "toy", "."]), ("Who, me?", ["who", ",", "me", "?"])]
)
def test_unigram_word_tokenize(text, tokens):
    assert word_tokenize(text) == tokens


def test_unigram_scores_are_add_one_frequencies():
    scorer = UnigramScorer(counts={"the": 3, "cat": 1})
    score = scorer.score_texts(["The cat dog"])[0]
    denominator = 4 + 2 + 1
    assert score.tokens == ("the", "cat", "dog")
    assert score.logprobs == pytest.approx(
        [math.log(4 / denominator), math.log(2 / denominator), math.log(1 / denominator)]
    )


def test_unigram_trains_from_corpus_file(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat\nthe dog\n", encoding="utf-8")
    scorer = UnigramScorer(corpus=corpus)
    assert scorer.model.counts == {"the": 2, "cat": 1, "dog": 1}
    assert UnigramModel.train(["a b a"], str.split).counts == {"a": 2, "b": 1}


def test_unigram_needs_counts_or_corpus():
    with pytest.raises(BlimpgenError, match="exactly one of counts or corpus"):
        UnigramScorer()
