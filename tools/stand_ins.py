"""Stand-ins for a language model and a corpus, so that README.md and docs/ run offline as written.

The examples score with a tiny model built here instead of one from the Hugging Face hub, and
train n-gram baselines on a corpus made here. Nothing is downloaded. A random model's numbers
are near chance: the stand-ins show the mechanics; use a real model (``--model gpt2``) and a
real corpus for results.

    python tools/stand_ins.py causal --data out/ -o tiny-gpt2/    # GPT-2, byte-level BPE
    python tools/stand_ins.py masked --data probes/ -o tiny-bert/  # BERT, one token per word
    python tools/stand_ins.py corpus --data train/ -o corpus.txt   # good sentences, one a line (.gz: gzipped)

``--data`` (repeatable) names generated JSONL (a file or a folder of them): the model's
tokenizer is trained on its sentences (for ``masked``, every word of every probe candidate is
one token, as masked-LM probes need). ``--train DATA --steps N`` also trains the model for N
steps on the acceptable sentences of other generated data (keep it apart from what you
evaluate), which takes seconds for a few hundred steps. Needs ``pip install -e ".[eval]"``
and ``tokenizers``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

SPECIAL = ["[UNK]", "[PAD]", "[CLS]", "[SEP]", "[MASK]", "<|endoftext|>"]


def records(paths: list[str]) -> Iterator[dict]:
    """Every JSON record of the JSONL files named (folders: their ``*.jsonl`` files, sorted)."""
    for name in paths:
        path = Path(name)
        files = sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]
        if not files:
            raise SystemExit(f"stand_ins: {name}: no JSONL files")
        for file in files:
            with file.open(encoding="utf-8") as handle:
                for line in handle:
                    if line.strip():
                        yield json.loads(line)


def sentences(record: dict, good_only: bool = False) -> list[str]:
    """The sentences of a minimal pair, or a probe item's context with each candidate in the blank."""
    if "sentence_good" in record:
        return [record["sentence_good"]] if good_only else [record["sentence_good"], record["sentence_bad"]]
    context = record.get("context", "")
    options = [record["answer"]] if good_only else record.get("candidates", [])
    texts = [context.replace("[MASK]", option) for option in options]
    texts += [text.replace("[MASK]", option) for text in (record.get("contexts") or {}).values() for option in options]
    return texts or [context]


def build_tokenizer(kind: str, texts: list[str]):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    if kind == "causal":
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        alphabet = pre_tokenizers.ByteLevel.alphabet()
        tok.train_from_iterator(
            texts, trainers.BpeTrainer(vocab_size=2000, special_tokens=SPECIAL, initial_alphabet=alphabet)
        )
    else:
        tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
        tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=SPECIAL))
        tok.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]",
            pair="[CLS] $A [SEP] $B:1 [SEP]:1",
            special_tokens=[(t, tok.token_to_id(t)) for t in ("[CLS]", "[SEP]")],
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


def build_model(kind: str, tokenizer, seed: int):
    import torch
    from transformers import BertConfig, BertForMaskedLM, GPT2Config, GPT2LMHeadModel

    torch.manual_seed(seed)
    if kind == "causal":
        config = GPT2Config(
            vocab_size=len(tokenizer),
            n_positions=128,
            n_embd=64,
            n_layer=2,
            n_head=2,
            bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id,
        )
        return GPT2LMHeadModel(config)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=128,
        max_position_embeddings=128,
        pad_token_id=tokenizer.pad_token_id,
    )
    return BertForMaskedLM(config)


def train(kind: str, model, tokenizer, texts: list[str], steps: int, seed: int) -> None:
    """A few hundred steps of the model's own objective (next token; 15 % masked) on ``texts``."""
    import torch

    torch.set_num_threads(1)  # tiny matrices: more threads only wait for each other
    rng = random.Random(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model.train()
    for _ in range(steps):
        batch = rng.sample(texts, min(32, len(texts)))
        if kind == "causal":
            encoded = [[tokenizer.bos_token_id, *tokenizer.encode(t)][:128] for t in batch]
        else:
            encoded = [tokenizer.encode(t)[:128] for t in batch]
        width = max(map(len, encoded))
        ids = torch.full((len(encoded), width), tokenizer.pad_token_id)
        mask = torch.zeros((len(encoded), width), dtype=torch.long)
        for row, tokens in enumerate(encoded):
            ids[row, : len(tokens)] = torch.tensor(tokens)
            mask[row, : len(tokens)] = 1
        labels = ids.masked_fill(mask == 0, -100)
        if kind == "masked":
            chosen = (torch.rand(ids.shape) < 0.15) & (mask == 1)
            labels = labels.masked_fill(~chosen, -100)
            ids = ids.masked_fill(chosen, tokenizer.mask_token_id)
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    model.eval()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["causal", "masked", "corpus"], help="a GPT-2, a BERT, or a corpus file")
    parser.add_argument("--data", action="append", required=True, help="generated JSONL file or folder (repeatable)")
    parser.add_argument("-o", "--output", required=True, help="model folder (causal, masked) or text file (corpus)")
    parser.add_argument("--train", action="append", default=[], help="JSONL to train on for --steps (repeatable)")
    parser.add_argument("--steps", type=int, default=300, help="training steps with --train [300]")
    parser.add_argument("--seed", type=int, default=0, help="random seed of the weights and the training [0]")
    args = parser.parse_args(argv)
    if args.kind == "corpus":
        lines = [s for record in records(args.data) for s in sentences(record, good_only=True)]
        text = ("\n".join(lines) + "\n").encode("utf-8")
        Path(args.output).write_bytes(gzip.compress(text, mtime=0) if args.output.endswith(".gz") else text)
        print(f"wrote {args.output}: {len(lines)} sentences", file=sys.stderr)
        return
    texts = [s for record in records(args.data + args.train) for s in sentences(record)]
    tokenizer = build_tokenizer(args.kind, texts)
    model = build_model(args.kind, tokenizer, args.seed)
    training = [s for record in records(args.train) for s in sentences(record, good_only=True)] if args.train else []
    if training:
        train(args.kind, model, tokenizer, training, args.steps, args.seed)
    model.save_pretrained(args.output)
    tokenizer.save_pretrained(args.output)
    how = f"trained {args.steps} steps on {len(training)} sentences" if training else "random weights"
    print(f"wrote {args.output}: a tiny {'GPT-2' if args.kind == 'causal' else 'BERT'} ({how})", file=sys.stderr)


if __name__ == "__main__":
    main()
