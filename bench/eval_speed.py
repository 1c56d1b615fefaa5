"""Speed and agreement bench: blimpgen's hf-causal scorer vs lm-evaluation-harness and minicons.

All three score the same sentences with the same in-memory model (a randomly initialised
GPT-2: by default 6 layers, 512 wide, 50,257-token BPE vocabulary trained on the Brown
corpus; nothing is downloaded). Timings cover each tool's whole scoring call (tokenisation
included); model construction is not timed. Scores are summed log-probabilities of every
token after a prepended <|endoftext|> (lm-eval's empty-context convention, minicons'
``bos_token=True``, blimpgen's ``first_token="bos"``).

Data: ``--data`` BLiMP-schema JSONL (a file or a folder such as the 67 BLiMP paradigm files),
or, without it, ``--pairs`` synthetic pairs: Brown sentences of 4-14 words with one word
replaced by a frequent word, the edit position drawn so that the shared prefix of a pair is
about a quarter of its tokens, as in BLiMP (the measured share is printed), spread over 67
pseudo-paradigms.

    python bench/eval_speed.py --pairs 5000                      # all three tools, fp32
    python bench/eval_speed.py --data blimp/ --tools blimpgen,lm-eval --bf16

Install the other tools into the same environment first:
``pip install -c constraints.txt minicons lm-eval`` (constraints pin torch/transformers).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import warnings
import zipfile
from collections import Counter
from pathlib import Path

BROWN = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "brown.zip"


def brown_sentences(path: Path) -> list[str]:
    archive = zipfile.ZipFile(path)
    out = []
    for name in sorted(archive.namelist()):
        if len(name.rsplit("/", 1)[-1]) != 4:
            continue
        for line in archive.read(name).decode("utf-8").splitlines():
            words = [t.rsplit("/", 1)[0] for t in line.split()]
            if words:
                out.append(" ".join(words).replace("``", '"').replace("''", '"'))
    return out


def make_tokenizer(sentences: list[str], cache: Path, vocab_size: int):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    path = cache / f"brown-bpe-{vocab_size}.json"
    if not path.exists():
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size,
            special_tokens=["<|endoftext|>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        )
        tok.train_from_iterator(sentences, trainer)
        cache.mkdir(parents=True, exist_ok=True)
        tok.save(str(path))
    return PreTrainedTokenizerFast(
        tokenizer_file=str(path), bos_token="<|endoftext|>", eos_token="<|endoftext|>", pad_token="<|endoftext|>"
    )


def synthetic_pairs(sentences: list[str], n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    pool = [s.split() for s in sentences if 4 <= len(s.split()) <= 14]
    frequent = [w for w, _ in Counter(w.lower() for s in pool for w in s if w.isalpha()).most_common(300)]
    pairs = []
    while len(pairs) < n:
        words = rng.choice(pool)
        position = min(len(words) - 1, int(len(words) * rng.random() ** 2))  # early edits, as in BLiMP
        replacement = rng.choice(frequent)
        if replacement == words[position].lower():
            continue
        bad = list(words)
        bad[position] = replacement
        uid = f"synthetic_{len(pairs) % 67:02d}"
        pairs.append(
            {
                "sentence_good": " ".join(words),
                "sentence_bad": " ".join(bad),
                "UID": uid,
                "linguistics_term": uid,
                "pairID": str(len(pairs)),
            }
        )
    return pairs


def load_data(path: str) -> list[dict]:
    from blimpgen.evaluate.runner import read_data

    return [
        {"sentence_good": p.sentence_good, "sentence_bad": p.sentence_bad, "UID": p.UID}
        for p, _ in read_data(path).records
    ]


def run_blimpgen(model, tokenizer, pairs, dtype="float32", batch_tokens=None):
    from blimpgen.evaluate.scoring.base import Query
    from blimpgen.evaluate.scoring.scorers.hf_causal import CausalLMScorer

    scorer = CausalLMScorer(model, tokenizer, dtype=dtype, device="cpu", batch_tokens=batch_tokens)
    queries = [(Query("", p["sentence_good"]), Query("", p["sentence_bad"])) for p in pairs]
    start = time.perf_counter()
    scored = scorer.score_pairs(queries)
    elapsed = time.perf_counter() - start
    return elapsed, [x for g, b in scored for x in (g.total, b.total)]


def run_lm_eval(model, tokenizer, pairs, batch_size):
    from lm_eval.api.instance import Instance
    from lm_eval.models.huggingface import HFLM

    lm = HFLM(pretrained=model, tokenizer=tokenizer, batch_size=batch_size, device="cpu", dtype="float32")
    requests = [
        Instance(request_type="loglikelihood", doc={}, arguments=("", s), idx=i)
        for i, p in enumerate(pairs)
        for s in (p["sentence_good"], p["sentence_bad"])
    ]
    start = time.perf_counter()
    results = lm.loglikelihood(requests, disable_tqdm=True)
    elapsed = time.perf_counter() - start
    return elapsed, [r[0] for r in results]


def run_minicons(model, tokenizer, pairs, batch_size):
    from minicons import scorer as minicons_scorer

    lm = minicons_scorer.IncrementalLMScorer(model, device="cpu", tokenizer=tokenizer)
    sentences = [s for p in pairs for s in (p["sentence_good"], p["sentence_bad"])]
    start = time.perf_counter()
    scores = []
    for i in range(0, len(sentences), batch_size):
        scores += lm.sequence_score(sentences[i : i + batch_size], reduction=lambda x: x.sum(0).item(), bos_token=True)
    elapsed = time.perf_counter() - start
    return elapsed, scores


def accuracy(scores):
    return sum(g > b for g, b in zip(scores[0::2], scores[1::2])) / (len(scores) // 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", help="BLiMP-schema JSONL file or folder (default: synthetic pairs)")
    parser.add_argument("--pairs", type=int, default=5000, help="synthetic pairs (without --data)")
    parser.add_argument("--tools", default="blimpgen,lm-eval,minicons")
    parser.add_argument("--layers", type=int, default=6)
    parser.add_argument("--width", type=int, default=512)
    parser.add_argument("--vocab", type=int, default=50257)
    parser.add_argument("--batch-size", type=int, default=64, help="lm-eval and minicons batch size")
    parser.add_argument("--batch-tokens", type=int, default=None, help="blimpgen token budget [the scorer's default]")
    parser.add_argument("--bf16", action="store_true", help="also time blimpgen in bfloat16 and count flips")
    parser.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "blimpgen-bench"))
    parser.add_argument("--threads", type=int, help="torch threads (default: torch's choice)")
    parser.add_argument("--json", help="write the numbers here")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")

    import torch
    from transformers import GPT2Config, GPT2LMHeadModel
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    if args.threads:
        torch.set_num_threads(args.threads)
    sentences = brown_sentences(BROWN)
    tokenizer = make_tokenizer(sentences, Path(args.cache), args.vocab)
    pairs = load_data(args.data) if args.data else synthetic_pairs(sentences, args.pairs, seed=0)
    torch.manual_seed(0)
    config = GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=1024,
        n_embd=args.width,
        n_layer=args.layers,
        n_head=8,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    model = GPT2LMHeadModel(config).eval()

    encode = lambda s: tokenizer.encode(s, add_special_tokens=False)  # noqa: E731
    n_tokens = shared = 0
    for p in pairs:
        good, bad = encode(p["sentence_good"]), encode(p["sentence_bad"])
        n_tokens += len(good) + len(bad)
        common = next((i for i, (a, b) in enumerate(zip(good, bad)) if a != b), min(len(good), len(bad)))
        shared += common
    print(
        f"data: {len(pairs)} pairs, {2 * len(pairs)} sentences, {n_tokens} tokens "
        f"({n_tokens / (2 * len(pairs)):.1f}/sentence), shared prefix {2 * shared / n_tokens:.1%} of tokens, "
        f"{len({p['UID'] for p in pairs})} paradigms"
    )
    print(
        f"model: GPT-2 {args.layers} layers x {args.width}, vocab {len(tokenizer)}, "
        f"{sum(p.numel() for p in model.parameters()) / 1e6:.1f}M parameters; torch {torch.__version__}, "
        f"{torch.get_num_threads()} threads"
    )

    runners = {
        "blimpgen": lambda: run_blimpgen(model, tokenizer, pairs, batch_tokens=args.batch_tokens),
        "lm-eval": lambda: run_lm_eval(model, tokenizer, pairs, args.batch_size),
        "minicons": lambda: run_minicons(model, tokenizer, pairs, args.batch_size),
    }
    times, scores, cpu_times = {}, {}, {}
    for tool in args.tools.split(","):
        try:
            cpu = time.process_time()
            times[tool], scores[tool] = runners[tool]()
            cpu_times[tool] = time.process_time() - cpu
        except ImportError as exc:
            print(f"{tool}: not installed ({exc}); skipped")
            continue
        print(
            f"{tool:10s} {times[tool]:8.1f} s  {n_tokens / times[tool]:8.0f} tokens/s  "
            f"(process CPU {cpu_times[tool]:.1f} s)  accuracy {accuracy(scores[tool]):.4f}",
            flush=True,
        )
    report = {
        "pairs": len(pairs),
        "tokens": n_tokens,
        "shared_prefix_share": 2 * shared / n_tokens,
        "seconds": times,
        "cpu_seconds": cpu_times,
        "tokens_per_second": {k: n_tokens / v for k, v in times.items()},
    }
    if "blimpgen" in times:
        for tool in times:
            if tool == "blimpgen":
                continue
            diff = max(abs(a - b) for a, b in zip(scores["blimpgen"], scores[tool]))
            same_acc = accuracy(scores["blimpgen"]) == accuracy(scores[tool])
            flips = sum(
                (g1 > b1) != (g2 > b2)
                for g1, b1, g2, b2 in zip(
                    scores["blimpgen"][0::2], scores["blimpgen"][1::2], scores[tool][0::2], scores[tool][1::2]
                )
            )
            print(
                f"blimpgen vs {tool}: speed-up {times[tool] / times['blimpgen']:.2f}x, max |sum log-prob "
                f"difference| {diff:.2e}, pair decisions differing {flips}, same accuracy: {same_acc}"
            )
            report[f"vs_{tool}"] = {
                "speedup": times[tool] / times["blimpgen"],
                "max_abs_diff": diff,
                "flips": flips,
                "same_accuracy": same_acc,
            }
    if args.bf16 and "blimpgen" in times:
        elapsed, bf16 = run_blimpgen(model, tokenizer, pairs, dtype="bfloat16", batch_tokens=args.batch_tokens)
        fp32 = scores["blimpgen"]
        flips = sum((g1 > b1) != (g2 > b2) for g1, b1, g2, b2 in zip(fp32[0::2], fp32[1::2], bf16[0::2], bf16[1::2]))
        diff = max(abs(a - b) for a, b in zip(fp32, bf16))
        print(
            f"blimpgen bf16 {elapsed:8.1f} s  {n_tokens / elapsed:8.0f} tokens/s  "
            f"({times['blimpgen'] / elapsed:.2f}x fp32), {flips} of {len(pairs)} pairs flip vs fp32, "
            f"max |diff| {diff:.3f}"
        )
        report["bf16"] = {"seconds": elapsed, "flips": flips, "max_abs_diff": diff}
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
