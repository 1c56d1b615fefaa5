"""Tiny in-process models and BLiMP-schema fixtures for the evaluate tests. Nothing is downloaded."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

SENTENCES = [
    "The cat is sleeping .", "The cats are sleeping .", "A dog was barking .", "Some dogs were barking .",
    "The doctor who the nurses admire is tired .", "The doctors who the nurse admires are tired .",
    "This child has eaten the apple .", "These children have eaten the apples .",
    "Every teacher thinks that the student left .", "No teacher thinks that any student left .",
    "Rose hurt herself .", "The boys hurt themselves .", "Whose hat should Tina wear ?",
]

# One BLiMP-schema record per pair: (good, bad, one-prefix fields or None).
AGREEMENT = [
    ("The cat is sleeping .", "The cat are sleeping .", ("The cat", "is", "are")),
    ("The cats are sleeping .", "The cats is sleeping .", ("The cats", "are", "is")),
    ("A dog was barking .", "A dog were barking .", ("A dog", "was", "were")),
    ("Some dogs were barking .", "Some dogs was barking .", ("Some dogs", "were", "was")),
    ("These children have eaten the apples .", "These children has eaten the apples .",
     ("These children", "have", "has")),
    ("This child has eaten the apple .", "This child have eaten the apple .", ("This child", "has", "have")),
]
ANAPHOR = [
    ("Rose hurt herself .", "Rose hurt themselves .", None),
    ("The boys hurt themselves .", "The boys hurt herself .", None),
    ("The cat hurt itself .", "The cat hurt themselves .", None),
]


def blimp_record(uid: str, phenomenon: str, index: int, good: str, bad: str, one_prefix) -> dict:
    record = {"sentence_good": good, "sentence_bad": bad, "field": "morphology",
              "linguistics_term": phenomenon, "UID": uid, "simple_LM_method": True,
              "one_prefix_method": one_prefix is not None, "two_prefix_method": False,
              "lexically_identical": False, "pairID": str(index)}
    if one_prefix is not None:
        record.update(one_prefix_prefix=one_prefix[0], one_prefix_word_good=one_prefix[1],
                      one_prefix_word_bad=one_prefix[2])
    return record


def write_fixture(folder: Path, uid: str, phenomenon: str, pairs) -> Path:
    """Write ``<UID>.jsonl`` in BLiMP's schema."""
    path = folder / f"{uid}.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for index, (good, bad, prefix) in enumerate(pairs):
            handle.write(json.dumps(blimp_record(uid, phenomenon, index, good, bad, prefix)) + "\n")
    return path


@pytest.fixture
def blimp_data(tmp_path: Path) -> Path:
    """A folder with two paradigms in BLiMP's schema (one supports the one-prefix method)."""
    folder = tmp_path / "data"
    folder.mkdir()
    write_fixture(folder, "subject_verb_agreement_1", "subject_verb_agreement", AGREEMENT)
    write_fixture(folder, "anaphor_number_agreement", "anaphor_agreement", ANAPHOR)
    return folder


def make_tokenizer(kind: str = "wordlevel", texts=SENTENCES):
    """A fast tokenizer trained in-process: WordLevel (one token per word) or tiny BPE (words split)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    special = ["<|endoftext|>", "[UNK]", "[PAD]", "[CLS]", "[SEP]", "[MASK]"]
    corpus = list(texts) + [t.lower() for t in texts] + ["The cat hurt itself ."]
    if kind == "wordlevel":
        tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        tok.train_from_iterator(corpus, trainers.WordLevelTrainer(special_tokens=special))
    else:
        tok = Tokenizer(models.BPE(unk_token="[UNK]"))
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
        tok.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=90, special_tokens=special))
    # BERT-style specials when special tokens are asked for; causal scorers never ask
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))])
    return PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>",
                                   unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                                   sep_token="[SEP]", mask_token="[MASK]")


def make_gpt2(tokenizer, layers: int = 2, width: int = 32, seed: int = 0):
    """A randomly initialised GPT-2 sized for tests."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(seed)
    config = GPT2Config(vocab_size=len(tokenizer), n_positions=64, n_embd=width, n_layer=layers, n_head=2,
                        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id)
    return GPT2LMHeadModel(config).eval()


def make_bert(tokenizer, layers: int = 2, width: int = 32, seed: int = 0):
    """A randomly initialised BERT masked LM sized for tests."""
    import torch
    from transformers import BertConfig, BertForMaskedLM

    torch.manual_seed(seed)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=width, num_hidden_layers=layers,
                        num_attention_heads=2, intermediate_size=2 * width, max_position_embeddings=64,
                        pad_token_id=tokenizer.pad_token_id)
    return BertForMaskedLM(config).eval()


def naive_causal_logprobs(model, tokenizer, context: str, text: str) -> list[float]:
    """The reference: one unbatched full forward, full log-softmax, BOS prepended."""
    import torch

    context_ids = tokenizer.encode(context, add_special_tokens=False) if context else []
    whole = tokenizer.encode(context + text, add_special_tokens=False)
    ids = [tokenizer.bos_token_id, *whole]
    with torch.no_grad():
        logprobs = torch.log_softmax(model(torch.tensor([ids])).logits[0].float(), dim=-1)
    return [logprobs[i - 1, ids[i]].item() for i in range(1 + len(context_ids), len(ids))]


@pytest.fixture(autouse=True)
def _narrow_warning_filters():
    """Library warnings we do not control, ignored by message only (pytest turns the rest into errors)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*`resume_download` is deprecated.*")
        warnings.filterwarnings("ignore", message=r".*TypedStorage is deprecated.*")
        yield
