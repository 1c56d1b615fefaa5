"""Scoring throughput on an accelerator against its peak: blimpgen's scorers, and lm-eval beside them.

Random-init models of real sizes (GPT-2 small, medium and large; BERT-base) score pairs that
blimpgen generates here, through blimpgen's own scorers (``hf-causal``; ``hf-masked`` by
pseudo-log-likelihood, both PLL variants). Nothing is downloaded: the models are built from
``transformers`` config objects, the tokenizers are trained on the generated sentences.

For each model and tool it reports, as the minimum and median of ``--repeats`` timed runs after
a warm-up run:

* tokens/s: tokens *scored* per second (every token of every sentence; the same count for every
  tool, so these compare tools);
* fed tokens: tokens the model actually ran (padding included; fewer than scored when prefixes
  are shared, many more for PLL, which runs one masked copy per token);
* FLOP/s = 2 x parameters x fed tokens / seconds, and that as a share of the device's peak
  (dense, for the dtype used: a table by device name below, or ``--peak-tflops``);
* peak memory: ``torch.cuda.max_memory_allocated`` during the runs (model weights included);
  on CPU the process's peak RSS so far.

lm-evaluation-harness (``HFLM.loglikelihood``, the same model object and tokenizer, BOS=EOS
prepended as blimpgen does) is timed on the same sentences when it is importable; it has no
masked-LM PLL, so BERT rows are blimpgen's only. Scores are compared: the largest difference
per sentence and the pair decisions that differ.

    python bench/gpu_throughput.py                         # every model on the GPU, bf16
    python bench/gpu_throughput.py --models gpt2-large --dtype bfloat16,float32 --json out.json
    python bench/gpu_throughput.py --dry-run               # CPU, tiny configs, a few seconds

Issue 18's target: >= 40 % of the FLOP bound for the GPT-2-large config.
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import statistics
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# name -> (family, layers, width, heads). Real sizes; --dry-run uses TINY for every name.
MODELS: dict[str, tuple[str, int, int, int]] = {
    "gpt2": ("causal", 12, 768, 12),
    "gpt2-medium": ("causal", 24, 1024, 16),
    "gpt2-large": ("causal", 36, 1280, 20),
    "bert-base": ("masked", 12, 768, 12),
}
GPT2_VOCAB, BERT_VOCAB = 50257, 30522
TINY = (2, 64, 2)
TINY_VOCAB = 2000

# Dense peak TFLOP/s by a substring of torch.cuda.get_device_name() (first match wins), from
# NVIDIA's data sheets, without sparsity. float32 is the CUDA-core rate: torch runs fp32
# matmuls without TF32 unless torch.backends.cuda.matmul.allow_tf32 is set.
PEAK_TFLOPS: list[tuple[str, dict[str, float]]] = [
    ("H100 PCIe", {"bfloat16": 756.0, "float16": 756.0, "float32": 51.0}),
    ("H100", {"bfloat16": 989.0, "float16": 989.0, "float32": 67.0}),  # SXM ("H100 80GB HBM3")
    ("H200", {"bfloat16": 989.0, "float16": 989.0, "float32": 67.0}),
    ("A100", {"bfloat16": 312.0, "float16": 312.0, "float32": 19.5}),
    ("L40S", {"bfloat16": 362.0, "float16": 362.0, "float32": 91.6}),
    ("L4", {"bfloat16": 121.0, "float16": 121.0, "float32": 30.3}),
    ("A10G", {"bfloat16": 70.0, "float16": 70.0, "float32": 31.2}),
    ("V100", {"float16": 125.0, "float32": 15.7}),
    ("T4", {"float16": 65.0, "float32": 8.1}),
]


@dataclass
class Run:
    """The timed runs of one tool on one model."""

    model: str
    tool: str
    dtype: str
    seconds: list[float] = field(default_factory=list)
    fed_tokens: int = 0
    scored_tokens: int = 0
    peak_memory_gib: float = 0.0
    scores: list[float] = field(default_factory=list)
    note: str = ""


def peak_tflops(device_name: str, dtype: str, override: float | None) -> float | None:
    """The device's dense peak for ``dtype``: ``override``, else the table, else None."""
    if override is not None:
        return override
    for key, peaks in PEAK_TFLOPS:
        if key in device_name:
            return peaks.get(dtype)
    return None


# -- data and tokenizers ---------------------------------------------------------------------------
def generate_pairs(per_paradigm: int, paradigms: int | None, seed: int) -> list[tuple[str, str]]:
    """(good, bad) sentences from the shipped paradigms (the first ``paradigms`` of them, sorted)."""
    from blimpgen.generators.generate import generate, load_paradigms
    from blimpgen.grammar import load_shipped_specs

    uids = sorted(load_shipped_specs())[:paradigms]
    return [
        (pair.sentence_good, pair.sentence_bad)
        for paradigm in load_paradigms(uids)
        for pair in generate(paradigm, per_paradigm, seed)
    ]


def causal_tokenizer(sentences: list[str], vocab_size: int) -> Any:
    """A byte-level BPE (GPT-2's kind) trained on ``sentences``; BOS = EOS = PAD = <|endoftext|>."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        sentences,
        trainers.BpeTrainer(
            vocab_size=vocab_size,
            special_tokens=["<|endoftext|>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>", pad_token="<|endoftext|>"
    )


def masked_tokenizer(sentences: list[str], vocab_size: int) -> Any:
    """A WordPiece tokenizer (BERT's kind) trained on ``sentences``, with [CLS] ... [SEP]."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.train_from_iterator(sentences, trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=special))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
    )


def build_model(name: str, tokenizer: Any, dry_run: bool, device: Any, dtype: Any) -> Any:
    """A randomly initialised model of ``name``'s size (tiny under ``--dry-run``), built on ``device``."""
    import torch
    from transformers import BertConfig, BertForMaskedLM, GPT2Config, GPT2LMHeadModel

    family, layers, width, heads = MODELS[name]
    if dry_run:
        layers, width, heads = TINY
    torch.manual_seed(0)
    with torch.device(device):
        if family == "causal":
            vocab = max(len(tokenizer), TINY_VOCAB if dry_run else GPT2_VOCAB)
            config = GPT2Config(
                vocab_size=vocab,
                n_positions=1024,
                n_embd=width,
                n_layer=layers,
                n_head=heads,
                bos_token_id=tokenizer.bos_token_id,
                eos_token_id=tokenizer.eos_token_id,
            )
            model = GPT2LMHeadModel(config)
        else:
            vocab = max(len(tokenizer), TINY_VOCAB if dry_run else BERT_VOCAB)
            config = BertConfig(
                vocab_size=vocab,
                hidden_size=width,
                num_hidden_layers=layers,
                num_attention_heads=heads,
                intermediate_size=4 * width,
                max_position_embeddings=512,
                pad_token_id=tokenizer.pad_token_id,
            )
            model = BertForMaskedLM(config)
    return model.to(dtype=dtype).eval()


# -- timing ----------------------------------------------------------------------------------------
class FedTokens:
    """Counts the tokens a model runs (``input_ids`` elements reaching its input embedding)."""

    def __init__(self, model: Any) -> None:
        self.count = 0
        self.handle = model.get_input_embeddings().register_forward_hook(self._hook)

    def _hook(self, module: Any, inputs: tuple, output: Any) -> None:
        self.count += inputs[0].numel()


def synchronize(device: Any) -> None:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize(device)


def time_runs(run: Run, model: Any, device: Any, repeats: int, call: Any, warm_up: Any) -> None:
    """Warm up once, then time ``call`` ``repeats`` times; fill ``run`` (fed tokens of one run)."""
    import torch

    warm_up()
    counter = FedTokens(model)
    try:
        if device.type == "cuda":
            torch.cuda.reset_peak_memory_stats(device)
        for _ in range(repeats):
            counter.count = 0
            synchronize(device)
            start = time.perf_counter()
            run.scores = call()
            synchronize(device)
            run.seconds.append(time.perf_counter() - start)
        run.fed_tokens = counter.count
    finally:
        counter.handle.remove()
    if device.type == "cuda":
        run.peak_memory_gib = torch.cuda.max_memory_allocated(device) / 2**30
    else:
        run.peak_memory_gib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def blimpgen_run(
    name: str,
    model: Any,
    tokenizer: Any,
    pairs: list[tuple[str, str]],
    device: Any,
    dtype: str,
    repeats: int,
    batch_tokens: int | None,
    pll: str | None,
) -> Run:
    from blimpgen.evaluate.scoring.base import Query

    if pll is None:
        from blimpgen.evaluate.scoring.scorers.hf_causal import CausalLMScorer

        scorer = CausalLMScorer(model, tokenizer, dtype=dtype, device=str(device), batch_tokens=batch_tokens)
        tool = "blimpgen"
    else:
        from blimpgen.evaluate.scoring.scorers.hf_masked import MaskedLMScorer

        scorer = MaskedLMScorer(
            model,
            tokenizer,
            pll=pll,
            dtype=dtype,
            device=str(device),
            **({"batch_tokens": batch_tokens} if batch_tokens else {}),
        )
        tool = f"blimpgen pll={pll}"
    queries = [(Query("", good), Query("", bad)) for good, bad in pairs]
    run = Run(name, tool + (f" batch_tokens={batch_tokens}" if batch_tokens else ""), dtype)

    def call() -> list[float]:
        scored = scorer.score_pairs(queries)
        run.scored_tokens = sum(len(g) + len(b) for g, b in scored)
        return [s.total for pair in scored for s in pair]

    time_runs(run, model, device, repeats, call, lambda: scorer.score_pairs(queries[:64]))
    return run


def lm_eval_run(
    name: str,
    model: Any,
    tokenizer: Any,
    pairs: list[tuple[str, str]],
    device: Any,
    dtype: str,
    repeats: int,
    batch_size: int,
) -> Run:
    from lm_eval.api.instance import Instance
    from lm_eval.models.huggingface import HFLM

    lm = HFLM(pretrained=model, tokenizer=tokenizer, batch_size=batch_size, device=str(device), dtype=dtype)
    requests = [
        Instance(request_type="loglikelihood", doc={}, arguments=("", s), idx=i)
        for i, pair in enumerate(pairs)
        for s in pair
    ]
    run = Run(name, f"lm-eval batch_size={batch_size}", dtype)
    run.scored_tokens = sum(len(tokenizer.encode(s, add_special_tokens=False)) for pair in pairs for s in pair)

    def call() -> list[float]:
        return [r[0] for r in lm.loglikelihood(requests, disable_tqdm=True)]

    time_runs(run, model, device, repeats, call, lambda: lm.loglikelihood(requests[:128], disable_tqdm=True))
    return run


# -- report ----------------------------------------------------------------------------------------
def summarise(run: Run, parameters: int, peak: float | None) -> dict[str, Any]:
    best, median = min(run.seconds), statistics.median(run.seconds)
    flops = 2 * parameters * run.fed_tokens
    return {
        "model": run.model,
        "tool": run.tool,
        "dtype": run.dtype,
        "parameters": parameters,
        "seconds_min": best,
        "seconds_median": median,
        "scored_tokens": run.scored_tokens,
        "fed_tokens": run.fed_tokens,
        "tokens_per_s": run.scored_tokens / median,
        "fed_tokens_per_s": run.fed_tokens / median,
        "tflops": flops / median / 1e12,
        "peak_tflops": peak,
        "share_of_peak": None if peak is None else flops / median / 1e12 / peak,
        "peak_memory_gib": run.peak_memory_gib,
        "note": run.note,
    }


def compare(a: Run, b: Run) -> dict[str, Any]:
    diff = max(abs(x - y) for x, y in zip(a.scores, b.scores))
    flips = sum(
        (g1 > b1) != (g2 > b2) for g1, b1, g2, b2 in zip(a.scores[0::2], a.scores[1::2], b.scores[0::2], b.scores[1::2])
    )
    return {
        "model": a.model,
        "tools": [a.tool, b.tool],
        "dtype": a.dtype,
        "max_abs_diff": diff,
        "flips": flips,
        "speedup": statistics.median(b.seconds) / statistics.median(a.seconds),
    }


def print_row(row: dict[str, Any]) -> None:
    share = "n/a" if row["share_of_peak"] is None else f"{row['share_of_peak']:.1%}"
    print(
        f"{row['model']:<12} {row['tool']:<34} {row['dtype']:<9} {row['seconds_median']:>8.2f} "
        f"{row['tokens_per_s']:>11.0f} {row['fed_tokens_per_s']:>11.0f} {row['tflops']:>8.2f} {share:>7} "
        f"{row['peak_memory_gib']:>8.2f}",
        flush=True,
    )


def lm_eval_importable() -> bool:
    try:
        import lm_eval.models.huggingface  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--models",
        default=None,
        help=f"comma-separated, from {', '.join(MODELS)} (default: all; --dry-run: gpt2,bert-base)",
    )
    parser.add_argument("--device", default=None, help="cuda, cuda:1, cpu (default: cuda when available)")
    parser.add_argument("--dtype", default="auto", help="comma-separated: auto (bf16 on a GPU), bfloat16, float32...")
    parser.add_argument("--pairs-per-paradigm", type=int, default=200)
    parser.add_argument("--paradigms", type=int, default=None, help="only the first N shipped paradigms")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per model and tool, after one warm-up")
    parser.add_argument(
        "--batch-tokens", default="", help="comma-separated blimpgen token budgets (default: the scorer's)"
    )
    parser.add_argument("--pll", default="original,within-word-l2r", help="PLL variants for masked models")
    parser.add_argument(
        "--lm-eval", choices=["auto", "yes", "no"], default="auto", help="also time lm-eval (auto: when importable)"
    )
    parser.add_argument("--lm-eval-batch-size", type=int, default=None, help="default 256 on a GPU, 64 on CPU")
    parser.add_argument("--peak-tflops", type=float, default=None, help="the device's peak, overriding the table")
    parser.add_argument("--vocab", type=int, default=8000, help="tokenizer vocabulary trained on the sentences")
    parser.add_argument("--json", help="write every row here")
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="CPU, tiny configs, 3 paradigms x 8 pairs, one repeat: checks the bench in seconds",
    )
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    for logger in ("lm-eval", "lm_eval"):  # HFLM warns that it was handed a model object, as intended here
        logging.getLogger(logger).setLevel(logging.ERROR)

    import torch
    from transformers.utils import logging as hf_logging

    from blimpgen.evaluate.scoring.scorers._torch import resolve_device, resolve_dtype

    hf_logging.set_verbosity_error()
    if args.dry_run:
        args.device, args.pairs_per_paradigm, args.paradigms, args.repeats = "cpu", 8, 3, 1
        args.vocab = min(args.vocab, 600)
    device = resolve_device(args.device)
    device_name = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    names = [m for m in (args.models or ("gpt2,bert-base" if args.dry_run else ",".join(MODELS))).split(",") if m]
    unknown = [m for m in names if m not in MODELS]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; expected some of {', '.join(MODELS)}")
    with_lm_eval = args.lm_eval == "yes" or (args.lm_eval == "auto" and lm_eval_importable())
    lm_eval_batch = args.lm_eval_batch_size or (256 if device.type == "cuda" else 64)
    budgets = [int(b) for b in args.batch_tokens.split(",") if b] or [None]

    start = time.perf_counter()
    pairs = generate_pairs(args.pairs_per_paradigm, args.paradigms, args.seed)
    sentences = [s for pair in pairs for s in pair]
    tokenizers = {"causal": causal_tokenizer(sentences, args.vocab), "masked": masked_tokenizer(sentences, args.vocab)}
    print(
        f"device: {device_name} ({device}); torch {torch.__version__}; {len(pairs)} pairs from "
        f"{args.paradigms or 'all'} paradigms x {args.pairs_per_paradigm}, "
        f"made in {time.perf_counter() - start:.1f} s; "
        f"lm-eval: {'yes, batch size ' + str(lm_eval_batch) if with_lm_eval else 'not importable or not asked'}"
    )
    print(
        f"{'model':<12} {'tool':<34} {'dtype':<9} {'median s':>8} {'scored/s':>11} {'fed/s':>11} "
        f"{'TFLOP/s':>8} {'of peak':>7} {'peak GiB':>8}"
    )
    rows, comparisons = [], []
    for dtype_name in args.dtype.split(","):
        torch_dtype = resolve_dtype(dtype_name, str(device))
        dtype = str(torch_dtype).replace("torch.", "")
        peak = peak_tflops(device_name, dtype, args.peak_tflops)
        for name in names:
            family = MODELS[name][0]
            tokenizer = tokenizers[family]
            model = build_model(name, tokenizer, args.dry_run, device, torch_dtype)
            parameters = sum(p.numel() for p in model.parameters())
            runs = []
            for budget in budgets:
                for pll in args.pll.split(",") if family == "masked" else [None]:
                    runs.append(blimpgen_run(name, model, tokenizer, pairs, device, dtype, args.repeats, budget, pll))
                    rows.append(summarise(runs[-1], parameters, peak))
                    print_row(rows[-1])
            if with_lm_eval and family == "causal":
                other = lm_eval_run(name, model, tokenizer, pairs, device, dtype, args.repeats, lm_eval_batch)
                rows.append(summarise(other, parameters, peak))
                print_row(rows[-1])
                for run in runs:
                    comparisons.append(compare(run, other))
                    c = comparisons[-1]
                    print(
                        f"  {run.tool} vs lm-eval: {c['speedup']:.2f}x, max |score difference| "
                        f"{c['max_abs_diff']:.2e}, {c['flips']} of {len(pairs)} pair decisions differ"
                    )
            del model
            if device.type == "cuda":
                torch.cuda.empty_cache()
    print(
        "tokens/s counts scored tokens (the same for every tool); fed tokens include padding and, for PLL, "
        "every masked copy; TFLOP/s = 2 x parameters x fed tokens / median seconds"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"device": device_name, "pairs": len(pairs), "rows": rows, "comparisons": comparisons}, indent=2)
            + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
