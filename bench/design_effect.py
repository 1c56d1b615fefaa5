"""The attractor effect on a small causal transformer trained briefly on generated sentences.

Trains a word-level GPT-2 (by default 4 layers, 128 wide) from scratch on CPU for 350 batches of
64 sentences (about 4 minutes on a quiet 2-core machine) on good sentences that blimpgen
generates, then scores a factorial design with it and with a trigram model trained on the same
sentences, and prints ``report --levels``'s table for both:
accuracy per level and per cell with 95% intervals, and each factor's effect. One PNG per factor
is written (levels x models, with the intervals). Nothing is downloaded; nothing is asserted.

Training sentences (``--corpus``):

* ``simple`` (default): the design's cells without an attractor (``--design attractor=none``,
  another seed), so the model learns agreement where nothing intervenes and meets prepositional
  phrases and relative clauses only when tested: the expected result is that an attractor
  lowers accuracy (the model is pulled to the nearer noun's number).
* ``blimp``: the good sentences of BLiMP's 67 paradigms (``gen --all``) plus the simple ones,
  a broader corpus that also has of-phrases and relative clauses before agreeing verbs.

    python bench/design_effect.py                         # 350 steps, simple corpus
    python bench/design_effect.py --steps 700 --corpus blimp --out /tmp/design_effect
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import time
from pathlib import Path

DESIGN = "subject_verb_agreement_attractor_distance"


def training_sentences(corpus: str, n: int, seed: int) -> list[str]:
    from blimpgen.generators.catalog import Catalog
    from blimpgen.generators.design import balanced
    from blimpgen.generators.generate import generate_records
    from blimpgen.grammar import ParadigmSpec

    catalog = Catalog()
    simple = balanced(catalog.build([DESIGN])[0], {"attractor": ["none"]})
    sentences = [pair.sentence_good for pair, _ in generate_records(simple, n, seed)]
    if corpus == "blimp":
        for source in catalog.build(spec_type=ParadigmSpec):
            sentences += [pair.sentence_good for pair, _ in generate_records(source, max(1, n // 67), seed)]
    random.Random(seed).shuffle(sentences)
    return sentences


def make_tokenizer(texts: list[str]):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()  # words and punctuation, case kept
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["<|endoftext|>", "[UNK]"]))
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<|endoftext|>",
        eos_token="<|endoftext|>",
        unk_token="[UNK]",
        pad_token="<|endoftext|>",
    )


def train(
    model, tokenizer, sentences: list[str], steps: int, minutes: float | None, batch: int, lr: float, seed: int
) -> dict:
    """Next-token training, each sentence <|endoftext|> S <|endoftext|>, for ``steps`` batches (or
    until ``minutes`` are up, when given first)."""
    import torch

    torch.manual_seed(seed)
    bos = tokenizer.bos_token_id
    encoded = [[bos, *tokenizer.encode(s, add_special_tokens=False), bos] for s in sentences]
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    model.train()
    rng = random.Random(seed)
    start, step, seen, losses = time.monotonic(), 0, 0, []
    deadline = start + 60 * minutes if minutes else math.inf
    while step < steps and time.monotonic() < deadline:
        rows = [encoded[rng.randrange(len(encoded))] for _ in range(batch)]
        width = max(map(len, rows))
        ids = torch.full((batch, width), bos)
        labels = torch.full((batch, width), -100)
        for i, row in enumerate(rows):
            ids[i, : len(row)] = torch.tensor(row)
            labels[i, : len(row)] = torch.tensor(row)
        for group in optimizer.param_groups:  # short linear warm-up, then constant
            group["lr"] = lr * min(1.0, (step + 1) / 100)
        loss = model(input_ids=ids, labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        losses.append(loss.item())
        step, seen = step + 1, seen + batch
    model.eval()
    tail = losses[-50:]
    return {
        "steps": step,
        "sentences_seen": seen,
        "epochs": round(seen / len(encoded), 2),
        "final_loss": round(sum(tail) / len(tail), 3),
        "perplexity": round(math.exp(sum(tail) / len(tail)), 1),
        "seconds": round(time.monotonic() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--steps",
        type=int,
        default=350,
        help="training batches (a fixed count, so a busy machine takes longer, not learns less)",
    )
    parser.add_argument("--minutes", type=float, default=None, help="stop training after this wall-clock time")
    parser.add_argument("--corpus", choices=["simple", "blimp"], default="simple")
    parser.add_argument("--sentences", type=int, default=20_000, help="simple training sentences")
    parser.add_argument("--pairs", type=int, default=200, help="test pairs per cell of the design")
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("design_effect"), help="folder for data, results, PNGs")
    args = parser.parse_args()

    import torch
    import transformers

    from blimpgen.api import scorer
    from blimpgen.evaluate.reporting.levels import figure_levels, format_levels, level_results
    from blimpgen.evaluate.runner import evaluate, write_results
    from blimpgen.evaluate.scoring.scorers.ngram import NgramScorer, train_kneser_ney, word_tokenize
    from blimpgen.generators.catalog import Catalog
    from blimpgen.generators.design import balanced
    from blimpgen.generators.generate import generate_records
    from blimpgen.records import dumps_record

    if args.threads:
        torch.set_num_threads(args.threads)
    transformers.logging.set_verbosity_error()
    args.out.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    sentences = training_sentences(args.corpus, args.sentences, seed=args.seed + 1000)
    data = args.out / "design.jsonl"
    source = balanced(Catalog().build([DESIGN])[0])
    pairs = [pair for pair, _ in generate_records(source, args.pairs * source.cells, args.seed)]
    data.write_text("".join(dumps_record(pair) + "\n" for pair in pairs), encoding="utf-8")
    overlap = len({p.sentence_good for p in pairs} & set(sentences))
    print(
        f"corpus {args.corpus}: {len(sentences)} training sentences; test: {len(pairs)} pairs of {DESIGN} "
        f"({args.pairs} per cell, seed {args.seed}), {overlap} good test sentences also in training; "
        f"generated in {time.monotonic() - began:.1f} s"
    )

    tokenizer = make_tokenizer(sentences + [text for p in pairs for text in (p.sentence_good, p.sentence_bad)])
    torch.manual_seed(args.seed)
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=64,
        n_embd=args.width,
        n_layer=args.layers,
        n_head=4,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    model = transformers.GPT2LMHeadModel(config)
    parameters = sum(p.numel() for p in model.parameters())
    print(
        f"GPT-2 {args.layers} layers x {args.width}, {parameters / 1e6:.2f} M parameters, "
        f"{len(tokenizer)}-word vocabulary, {torch.get_num_threads()} threads"
    )
    stats = train(model, tokenizer, sentences, args.steps, args.minutes, args.batch, args.lr, args.seed)
    print("training: " + ", ".join(f"{key} {value}" for key, value in stats.items()))

    trigram = train_kneser_ney([word_tokenize(s, True) for s in sentences], order=3, unk_cutoff=1)
    folders = []
    for name, model_scorer in (("transformer", scorer(model, tokenizer)), ("trigram", NgramScorer(trigram))):
        result = evaluate(model_scorer, data)
        result.rows[:] = [dataclasses.replace(row, model=name) for row in result.rows]  # the report's model name
        write_results(result, args.out / name)
        folders.append(args.out / name)
    found = level_results(data, folders)
    print()
    print(format_levels(found))
    for path in figure_levels(found, args.out / "plots"):
        print(f"wrote {path}")
    print(json.dumps({"total_seconds": round(time.monotonic() - began, 1)}))


if __name__ == "__main__":
    main()
