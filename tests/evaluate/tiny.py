"""Tiny in-process models, tokenizers and BLiMP-schema data for the evaluate and CLI tests.

Nothing is downloaded: tokenizers are trained here on a few sentences, models are randomly
initialised. ``tests/evaluate/conftest.py`` and ``tests/cli/conftest.py`` turn these into fixtures.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from blimpgen.records.item import ProbeItem
from blimpgen.records.jsonl import dumps_record

SENTENCES = [
    "The cat is sleeping .",
    "The cats are sleeping .",
    "A dog was barking .",
    "Some dogs were barking .",
    "The doctor who the nurses admire is tired .",
    "The doctors who the nurse admires are tired .",
    "This child has eaten the apple .",
    "These children have eaten the apples .",
    "Every teacher thinks that the student left .",
    "No teacher thinks that any student left .",
    "Rose hurt herself .",
    "The boys hurt themselves .",
    "Whose hat should Tina wear ?",
]

# One BLiMP-schema record per pair: (good, bad, one-prefix fields or None).
AGREEMENT = [
    ("The cat is sleeping .", "The cat are sleeping .", ("The cat", "is", "are")),
    ("The cats are sleeping .", "The cats is sleeping .", ("The cats", "are", "is")),
    ("A dog was barking .", "A dog were barking .", ("A dog", "was", "were")),
    ("Some dogs were barking .", "Some dogs was barking .", ("Some dogs", "were", "was")),
    (
        "These children have eaten the apples .",
        "These children has eaten the apples .",
        ("These children", "have", "has"),
    ),
    ("This child has eaten the apple .", "This child have eaten the apple .", ("This child", "has", "have")),
]
ANAPHOR = [
    ("Rose hurt herself .", "Rose hurt themselves .", None),
    ("The boys hurt themselves .", "The boys hurt herself .", None),
    ("The cat hurt itself .", "The cat hurt themselves .", None),
]


def blimp_record(uid: str, phenomenon: str, index: int, good: str, bad: str, one_prefix) -> dict:
    record = {
        "sentence_good": good,
        "sentence_bad": bad,
        "field": "morphology",
        "linguistics_term": phenomenon,
        "UID": uid,
        "simple_LM_method": True,
        "one_prefix_method": one_prefix is not None,
        "two_prefix_method": False,
        "lexically_identical": False,
        "pairID": str(index),
    }
    if one_prefix is not None:
        record.update(
            one_prefix_prefix=one_prefix[0], one_prefix_word_good=one_prefix[1], one_prefix_word_bad=one_prefix[2]
        )
    return record


def write_fixture(folder: Path, uid: str, phenomenon: str, pairs) -> Path:
    """Write ``<UID>.jsonl`` in BLiMP's schema."""
    path = folder / f"{uid}.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for index, (good, bad, prefix) in enumerate(pairs):
            handle.write(json.dumps(blimp_record(uid, phenomenon, index, good, bad, prefix)) + "\n")
    return path


def make_tokenizer(kind: str = "wordlevel", texts=SENTENCES, vocab_size: int = 90):
    """A fast tokenizer trained in-process: WordLevel (one token per word), tiny BPE (words split),
    or byte-level BPE as GPT-2 and RoBERTa have (``bytelevel``: a word's leading space is part of
    its token, and the mask token swallows the space before it, as RoBERTa's does)."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    if kind == "bytelevel":
        special = ["<|endoftext|>", "[UNK]", "[PAD]", "[CLS]", "[SEP]", "[MASK]"]
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        tok.train_from_iterator(
            list(texts),
            trainers.BpeTrainer(
                vocab_size=vocab_size, special_tokens=special, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
            ),
        )
        tok.add_special_tokens([AddedToken("[MASK]", lstrip=True, special=True)])
        tok.post_processor = processors.Sequence(
            [
                processors.ByteLevel(trim_offsets=True),
                processors.TemplateProcessing(
                    single="[CLS] $A [SEP]",
                    special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))],
                ),
            ]
        )
        return PreTrainedTokenizerFast(
            tokenizer_object=tok,
            bos_token="<|endoftext|>",
            eos_token="<|endoftext|>",
            unk_token="[UNK]",
            pad_token="[PAD]",
            cls_token="[CLS]",
            sep_token="[SEP]",
            mask_token=AddedToken("[MASK]", lstrip=True, special=True),
        )

    special = ["<|endoftext|>", "[UNK]", "[PAD]", "[CLS]", "[SEP]", "[MASK]"]
    corpus = list(texts) + [t.lower() for t in texts] + ["The cat hurt itself ."]
    if kind == "wordlevel":
        tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        tok.train_from_iterator(corpus, trainers.WordLevelTrainer(special_tokens=special))
    else:
        tok = Tokenizer(models.BPE(unk_token="[UNK]"))
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
        tok.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=special))
    # BERT-style specials when special tokens are asked for; causal scorers never ask
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<|endoftext|>",
        eos_token="<|endoftext|>",
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
    )


def make_bytelevel_gpt2(sentences: Sequence[str], path: Path, vocab_size: int = 400, positions: int = 64) -> Path:
    """A random 2-layer GPT-2 with a byte-level BPE tokenizer (GPT-2's kind) trained on ``sentences``, in ``path``.

    Byte-level BPE marks a word's leading space (``Ġ``), so a scorer that adds or drops a space
    scores a different token sequence: the check below fails for a whitespace vocabulary, which
    would hide such bugs. Loaded back with ``from_pretrained(path)`` like any local model.
    """
    import tokenizers
    import torch
    import transformers

    bpe = tokenizers.ByteLevelBPETokenizer()
    bpe.train_from_iterator(
        list(sentences), vocab_size=vocab_size, min_frequency=1, special_tokens=["<|endoftext|>"], show_progress=False
    )
    tokenizer = transformers.GPT2TokenizerFast(
        tokenizer_object=tokenizers.Tokenizer.from_str(bpe.to_str()),
        unk_token="<|endoftext|>",
        bos_token="<|endoftext|>",
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
    )
    assert tokenizer.tokenize(" " + sentences[0]) != tokenizer.tokenize(sentences[0])  # leading spaces matter
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=positions,
        n_embd=32,
        n_layer=2,
        n_head=2,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    path.mkdir(parents=True, exist_ok=True)
    transformers.GPT2LMHeadModel(config).eval().save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def make_gpt2(tokenizer, layers: int = 2, width: int = 32, seed: int = 0):
    """A randomly initialised GPT-2 sized for tests."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(seed)
    config = GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=64,
        n_embd=width,
        n_layer=layers,
        n_head=2,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    return GPT2LMHeadModel(config).eval()


def make_bert(tokenizer, layers: int = 2, width: int = 32, seed: int = 0):
    """A randomly initialised BERT masked LM sized for tests."""
    import torch
    from transformers import BertConfig, BertForMaskedLM

    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=width,
        num_hidden_layers=layers,
        num_attention_heads=2,
        intermediate_size=2 * width,
        max_position_embeddings=64,
        pad_token_id=tokenizer.pad_token_id,
    )
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


def run_cli(args: list[str], capsys) -> tuple[int, str, str]:
    """Run ``blimpgen ARGS`` through its real entry point (one-line errors); (exit code, stdout, stderr)."""
    from blimpgen.cli import main

    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- probe items ----------------------------------------------------------------------------------
def mc(item_id: str, context: str, candidates: Sequence[str], answer: str, **fields) -> ProbeItem:
    uid = item_id.rsplit("-", 1)[0]
    return ProbeItem(item_id, uid, "multiple_choice", context, tuple(candidates), answer, **fields)


def contrast(item_id: str, context: str, good: str, bad: str, expected: Sequence[str] = (), **fields) -> ProbeItem:
    uid = item_id.rsplit("-", 1)[0]
    return ProbeItem(
        item_id,
        uid,
        "cloze_contrast",
        context,
        (good, bad),
        good,
        good=good,
        bad=bad,
        expected=tuple(expected),
        **fields,
    )


ITEMS = [
    mc("agreement-00000", "The cat [MASK] sleeping .", ["is", "are", "were"], "is", linguistics_term="agreement"),
    mc(
        "agreement-00001",
        "These children [MASK] eaten the apples .",
        ["have", "has"],
        "have",
        linguistics_term="agreement",
    ),
    contrast(
        "role-00000",
        "The doctor who the nurses admire [MASK] tired .",
        "is",
        "are",
        ["is", "was"],
        linguistics_term="roles",
    ),
    contrast(
        "role-00001",
        "A [MASK] was barking .",
        "dog",
        "cat",
        ["dog"],
        linguistics_term="roles",
        contexts={"dog": "A [MASK] was barking .", "cat": "The [MASK] is sleeping ."},
    ),
]


def write_items(path: Path, items: Sequence[ProbeItem]) -> Path:
    path.write_text("".join(dumps_record(item) + "\n" for item in items), encoding="utf-8")
    return path
