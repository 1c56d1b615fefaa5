"""hf-causal: equality with a naive unbatched computation, conventions and errors."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from blimpgen.errors import BlimpgenError  # noqa: E402
from blimpgen.evaluate.scoring.base import Query  # noqa: E402
from blimpgen.evaluate.scoring.scorers.hf_causal import CausalLMScorer  # noqa: E402

from ...tiny import AGREEMENT, ANAPHOR, SENTENCES, make_gpt2, make_tokenizer, naive_causal_logprobs  # noqa: E402

PAIRS = [(good, bad) for good, bad, _ in AGREEMENT + ANAPHOR] + [
    (SENTENCES[4], SENTENCES[5]),
    (SENTENCES[0], SENTENCES[0]),
]


@pytest.fixture(scope="module", params=["wordlevel", "bpe"])
def tiny(request):
    tokenizer = make_tokenizer(request.param)
    return make_gpt2(tokenizer), tokenizer


@pytest.mark.parametrize("batch_tokens", [6, 40, 4096])
@pytest.mark.parametrize("share_prefix", [True, False])
def test_hf_causal_pairs_equal_naive(tiny, batch_tokens, share_prefix):
    model, tokenizer = tiny
    scorer = CausalLMScorer(model, tokenizer, batch_tokens=batch_tokens, share_prefix=share_prefix)
    scored = scorer.score_pairs([(Query("", g), Query("", b)) for g, b in PAIRS])
    for (good, bad), (score_good, score_bad) in zip(PAIRS, scored):
        for text, score in ((good, score_good), (bad, score_bad)):
            expected = naive_causal_logprobs(model, tokenizer, "", text)
            assert len(score) == len(expected) == len(tokenizer.tokenize(text))
            assert max(abs(a - b) for a, b in zip(score.logprobs, expected)) < 1e-4


@pytest.mark.parametrize("batch_tokens", [6, 4096])
def test_hf_causal_models_without_tree_masks_equal_naive(tiny, batch_tokens):
    """Model types outside ``_TREE_MASK_TYPES`` get one sentence per row, without a mask."""
    model, tokenizer = tiny
    scorer = CausalLMScorer(model, tokenizer, batch_tokens=batch_tokens)
    scorer.tree_mask = False
    texts = [text for pair in PAIRS for text in pair]
    for text, score in zip(texts, scorer.score_texts(texts)):
        expected = naive_causal_logprobs(model, tokenizer, "", text)
        assert max(abs(a - b) for a, b in zip(score.logprobs, expected)) < 1e-4


def test_hf_causal_full_head_path_equals_split_head(tiny):
    model, tokenizer = tiny
    split = CausalLMScorer(model, tokenizer, batch_tokens=30)
    full = CausalLMScorer(model, tokenizer, batch_tokens=30)
    full.split_head = False
    texts = [g for g, _ in PAIRS]
    for a, b in zip(split.score_texts(texts), full.score_texts(texts)):
        assert max(abs(x - y) for x, y in zip(a.logprobs, b.logprobs)) < 1e-4


def test_hf_causal_order_and_duplicates_do_not_change_scores(tiny):
    model, tokenizer = tiny
    scorer = CausalLMScorer(model, tokenizer, batch_tokens=20)
    texts = SENTENCES + SENTENCES[:3]
    forward = scorer.score_texts(texts)
    backward = scorer.score_texts(texts[::-1])[::-1]
    assert [s.tokens for s in forward] == [s.tokens for s in backward]
    for a, b in zip(forward, backward):
        assert max(abs(x - y) for x, y in zip(a.logprobs, b.logprobs)) < 1e-4


@pytest.mark.parametrize("context,good,bad", [("The cat", " is", " are"), ("These children", " have", " has")])
def test_hf_causal_continuations_equal_naive(tiny, context, good, bad):
    model, tokenizer = tiny
    scorer = CausalLMScorer(model, tokenizer)
    ((score_good, score_bad),) = scorer.score_pairs([(Query(context, good), Query(context, bad))])
    for text, score in ((good, score_good), (bad, score_bad)):
        expected = naive_causal_logprobs(model, tokenizer, context, text)
        assert len(score) == len(expected) >= 1
        assert max(abs(a - b) for a, b in zip(score.logprobs, expected)) < 1e-4


def test_hf_causal_first_token_none_drops_first_token(tiny):
    model, tokenizer = tiny
    with_bos = CausalLMScorer(model, tokenizer).score_texts(["The cat is sleeping ."])[0]
    without = CausalLMScorer(model, tokenizer, first_token="none").score_texts(["The cat is sleeping ."])[0]
    assert len(without) == len(with_bos) - 1
    assert without.tokens == with_bos.tokens[1:]


def test_hf_causal_bfloat16_close_to_float32(tiny):
    model, tokenizer = tiny
    fp32 = CausalLMScorer(model, tokenizer).score_texts(SENTENCES)
    bf16 = CausalLMScorer(make_gpt2(tokenizer), tokenizer, dtype="bfloat16").score_texts(SENTENCES)
    for a, b in zip(fp32, bf16):
        assert abs(a.total - b.total) < 0.1 * len(a) + 0.5


def test_hf_causal_tokenizer_without_bos_or_eos_is_an_error():
    tokenizer = make_tokenizer("wordlevel")
    model = make_gpt2(tokenizer)
    tokenizer.bos_token = None
    tokenizer.eos_token = None
    with pytest.raises(BlimpgenError, match="neither a BOS nor an EOS token"):
        CausalLMScorer(model, tokenizer)


def test_hf_causal_unknown_model_is_one_line():
    with pytest.raises(BlimpgenError, match="unknown model './no-such-model'") as info:
        CausalLMScorer("./no-such-model")
    assert "\n" not in str(info.value)


def test_hf_causal_options_record_conventions(tiny):
    model, tokenizer = tiny
    options = CausalLMScorer(model, tokenizer).options()
    assert options["first_token"] == "bos" and options["first_token_id"] == tokenizer.bos_token_id
    assert options["dtype"] == "float32"


def test_hf_causal_tiny_trained_gpt2_prefers_good_on_held_out_pairs():
    """A GPT-2 trained a few hundred steps on good sentences of a paradigm prefers good over bad
    on held-out pairs of the same paradigm (real signal, not just equal numbers)."""
    import random

    singular = ["cat", "dog", "child", "teacher", "doctor", "student", "bird", "horse"]
    plural = ["cats", "dogs", "children", "teachers", "doctors", "students", "birds", "horses"]
    verbs = ["sleeping", "barking", "eating", "running", "singing", "waiting"]
    rng = random.Random(0)
    items = [(s, p, v) for s, p in zip(singular, plural) for v in verbs]
    rng.shuffle(items)
    held_out, train = items[:12], items[12:]
    train_text = [f"The {s} is {v} ." for s, _, v in train] + [f"The {p} are {v} ." for _, p, v in train]
    vocabulary_text = (
        train_text + [f"The {p} is {v} ." for _, p, v in items] + [f"The {s} are {v} ." for s, _, v in items]
    )
    tokenizer = make_tokenizer("wordlevel", texts=vocabulary_text)
    model = make_gpt2(tokenizer, layers=2, width=48, seed=1)
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    encoded = [
        torch.tensor([tokenizer.bos_token_id, *tokenizer.encode(t, add_special_tokens=False)]) for t in train_text
    ]
    batch = torch.stack(encoded)  # all training sentences have the same length
    for _ in range(300):
        loss = model(batch, labels=batch).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    scorer = CausalLMScorer(model, tokenizer)
    pairs = [(Query("", f"The {s} is {v} ."), Query("", f"The {s} are {v} .")) for s, _, v in held_out]
    pairs += [(Query("", f"The {p} are {v} ."), Query("", f"The {p} is {v} .")) for _, p, v in held_out]
    correct = sum(good.total > bad.total for good, bad in scorer.score_pairs(pairs))
    assert correct / len(pairs) >= 0.9


# -- inputs that used to be scored silently wrong or crash (reliability report F2, F14) ----------
def _save_without_tokenizer(tmp_path, tokenizer):
    path = tmp_path / "model"
    make_gpt2(tokenizer).save_pretrained(path)
    return path


def test_hf_causal_model_folder_without_tokenizer_files_is_one_line_error(tmp_path):
    """F2 (E12a): transformers builds an empty tokenizer; every sentence became 0 tokens, every pair a tie."""
    path = _save_without_tokenizer(tmp_path, make_tokenizer("wordlevel"))
    with pytest.raises(BlimpgenError) as info:
        CausalLMScorer(str(path), device="cpu")
    message = str(info.value)
    assert message.startswith(f"model folder {path} has no tokenizer files") and "tokenizer.json" in message
    assert "\n" not in message


def test_hf_causal_tokenizer_of_only_special_tokens_is_an_error():
    from tokenizers import Tokenizer, models
    from transformers import PreTrainedTokenizerFast

    empty = Tokenizer(models.WordLevel({"<|endoftext|>": 0, "[UNK]": 1}, unk_token="[UNK]"))
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=empty, bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="[UNK]"
    )
    with pytest.raises(BlimpgenError, match="tokenizer of GPT2LMHeadModel has 2 tokens, none but special tokens"):
        CausalLMScorer(make_gpt2(make_tokenizer("wordlevel")), tokenizer)


def test_hf_causal_tokenizer_larger_than_the_embedding_is_an_error():
    big, small = make_tokenizer("bpe"), make_tokenizer("wordlevel")
    assert len(big) > len(small)
    with pytest.raises(
        BlimpgenError,
        match=rf"has {len(big)} tokens but the model's embedding has only "
        rf"{len(small)} rows",
    ):
        CausalLMScorer(make_gpt2(small), big)


@pytest.mark.parametrize("first_token,fits", [("bos", 64), ("none", 65)])
def test_hf_causal_context_length_limit_is_exact_and_named(first_token, fits):
    """F14 (E06): n_positions=64. With BOS a 64-token text fits (its last token is never fed);
    one token more is a QueryError naming both numbers instead of torch's IndexError."""
    from blimpgen.evaluate.scoring.base import QueryError

    tokenizer = make_tokenizer("wordlevel")
    model = make_gpt2(tokenizer)
    scorer = CausalLMScorer(model, tokenizer, first_token=first_token)
    words = ("the cat is sleeping . " * 20).split()
    fitting, too_long = " ".join(words[:fits]), " ".join(words[: fits + 1])
    ids = tokenizer.encode(fitting, add_special_tokens=False)
    assert len(ids) == fits
    ids = [tokenizer.bos_token_id, *ids] if first_token == "bos" else ids
    with torch.no_grad():
        logprobs = torch.log_softmax(model(torch.tensor([ids[:-1]])).logits[0].float(), dim=-1)
    expected = [logprobs[i - 1, ids[i]].item() for i in range(1, len(ids))]
    assert list(scorer.score_texts([fitting])[0].logprobs) == pytest.approx(expected, abs=1e-4)
    with pytest.raises(QueryError) as info:
        scorer.score_texts(["The cat is sleeping .", too_long])
    assert info.value.index == 1
    assert info.value.problem.startswith(
        f"is {fits + 1} tokens, more than the {fits} that model GPT2LMHeadModel can score (n_positions=64"
    )
