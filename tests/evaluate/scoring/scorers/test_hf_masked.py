"""hf-masked: PLL (original and within-word-l2r) equal to a naive one-copy-at-a-time computation."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from blimpgen.errors import BlimpgenError  # noqa: E402
from blimpgen.evaluate.scoring.base import Query  # noqa: E402
from blimpgen.evaluate.scoring.scorers.hf_masked import MaskedLMScorer  # noqa: E402

from ...tiny import SENTENCES, make_bert, make_tokenizer  # noqa: E402


def naive_pll(model, tokenizer, text: str, metric: str) -> list[float]:
    encoding = tokenizer(text)
    ids, words = encoding["input_ids"], encoding.word_ids()
    out = []
    for i in range(1, len(ids) - 1):
        masked = list(ids)
        masked[i] = tokenizer.mask_token_id
        if metric == "within-word-l2r":
            for j in range(i + 1, len(ids)):
                if words[j] is not None and words[j] == words[i]:
                    masked[j] = tokenizer.mask_token_id
        with torch.no_grad():
            logits = model(torch.tensor([masked])).logits[0, i]
        out.append(torch.log_softmax(logits.float(), dim=-1)[ids[i]].item())
    return out


@pytest.fixture(scope="module")
def tiny():
    tokenizer = make_tokenizer("bpe")
    return make_bert(tokenizer), tokenizer


@pytest.mark.parametrize("metric", ["original", "within-word-l2r"])
@pytest.mark.parametrize("batch_tokens", [12, 4096])
def test_hf_masked_pll_equals_naive(tiny, metric, batch_tokens):
    model, tokenizer = tiny
    scorer = MaskedLMScorer(model, tokenizer, pll=metric, batch_tokens=batch_tokens)
    for text, score in zip(SENTENCES, scorer.score_texts(SENTENCES)):
        expected = naive_pll(model, tokenizer, text, metric)
        assert len(score) == len(expected)
        assert max(abs(a - b) for a, b in zip(score.logprobs, expected)) < 1e-4


def test_hf_masked_l2r_differs_only_for_multi_piece_words(tiny):
    model, tokenizer = tiny
    text = "The doctors who the nurse admires are tired ."
    assert len(tokenizer.tokenize(text)) > len(text.split())  # some words split into pieces
    original = MaskedLMScorer(model, tokenizer, pll="original").score_texts([text])[0]
    l2r = MaskedLMScorer(model, tokenizer, pll="within-word-l2r").score_texts([text])[0]
    assert original.tokens == l2r.tokens
    assert original.logprobs != l2r.logprobs
    word_level = make_tokenizer("wordlevel")
    bert = make_bert(word_level)
    a = MaskedLMScorer(bert, word_level, pll="original").score_texts(SENTENCES)
    b = MaskedLMScorer(bert, word_level, pll="within-word-l2r").score_texts(SENTENCES)
    assert [s.logprobs for s in a] == [s.logprobs for s in b]


def test_hf_masked_continuation_scores_only_the_text(tiny):
    model, tokenizer = tiny
    scorer = MaskedLMScorer(model, tokenizer)
    score = scorer.score([Query("The cat", " is")])[0]
    assert score.tokens == ("is",)
    full = scorer.score_texts(["The cat is"])[0]
    assert score.logprobs[0] == pytest.approx(full.logprobs[-1], abs=1e-5)


def test_hf_masked_tokenizer_without_mask_token_is_an_error():
    tokenizer = make_tokenizer("wordlevel")
    model = make_bert(tokenizer)
    tokenizer.mask_token = None
    with pytest.raises(BlimpgenError, match="no mask token"):
        MaskedLMScorer(model, tokenizer)


def test_hf_masked_unknown_pll_metric_is_an_error(tiny):
    with pytest.raises(BlimpgenError, match="unknown PLL metric 'l2r'"):
        MaskedLMScorer(*tiny, pll="l2r")


def test_hf_masked_model_folder_without_tokenizer_files_is_one_line_error(tmp_path):
    """F2: transformers builds a BERT tokenizer of its 5 special tokens; every word became [UNK]."""
    path = tmp_path / "model"
    make_bert(make_tokenizer("wordlevel")).save_pretrained(path)
    with pytest.raises(BlimpgenError, match=f"^model folder {path} has no tokenizer files"):
        MaskedLMScorer(str(path), device="cpu")


def test_hf_masked_text_longer_than_the_context_is_a_query_error(tiny):
    """F14: max_position_embeddings=64 counts [CLS] and [SEP]; 62 words fit, 63 do not."""
    from blimpgen.evaluate.scoring.base import BlankQuery, QueryError

    model, tokenizer = tiny
    scorer = MaskedLMScorer(model, tokenizer)
    words = ["cat"] * 63
    assert len(tokenizer(" ".join(words[:62]))["input_ids"]) == 64
    assert len(scorer.score_texts(["The cat is sleeping .", " ".join(words[:62])])[1]) == 62
    with pytest.raises(QueryError) as info:
        scorer.score_texts(["The cat is sleeping .", " ".join(words)])
    assert info.value.index == 1 and info.value.problem.startswith(
        "is 65 tokens with the special tokens, more than the 64 that model BertForMaskedLM reads"
    )
    with pytest.raises(QueryError) as info:
        scorer.blank(
            [BlankQuery("The ", " is sleeping .", ("cat",)), BlankQuery(" ".join(words) + " ", " .", ("cat",))]
        )
    assert info.value.index == 1


@pytest.mark.parametrize("budget", [1, 20, 64])
def test_hf_masked_batches_are_one_length_under_the_budget(tiny, budget):
    model, tokenizer = tiny
    scorer = MaskedLMScorer(model, tokenizer, batch_tokens=budget)
    lengths = [5, 7, 5, 30, 7, 7, 5, 12, 5]
    batches = scorer._batches(lengths)
    assert sorted(r for batch in batches for r in batch) == list(range(len(lengths)))
    for batch in batches:
        assert len({lengths[r] for r in batch}) == 1  # no padding
        assert len(batch) == 1 or len(batch) * lengths[batch[0]] <= budget


def test_hf_masked_mixed_lengths_and_contexts_equal_naive(tiny):
    # Rows of many lengths in one call, and continuations scored after a context.
    model, tokenizer = tiny
    scorer = MaskedLMScorer(model, tokenizer, pll="within-word-l2r", batch_tokens=40)
    queries = [Query("", text) for text in SENTENCES] + [Query("The cat", " is sleeping .")]
    scores = scorer.score(queries)
    for query, score in zip(queries[:-1], scores):
        expected = naive_pll(model, tokenizer, query.text, "within-word-l2r")
        assert max(abs(a - b) for a, b in zip(score.logprobs, expected)) < 1e-4
    whole = naive_pll(model, tokenizer, "The cat is sleeping .", "within-word-l2r")
    assert scores[-1].logprobs == pytest.approx(whole[-len(scores[-1]) :], abs=1e-4)
