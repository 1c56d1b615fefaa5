"""``blimpgen eval``, ``blimpgen report`` and ``blimpgen ngram``: option parsing only.

Each command calls one library function in :mod:`blimpgen.evaluate`; torch is imported only
when a neural scorer is built.
"""

from __future__ import annotations

import click

from blimpgen.cli import OutputPath

from blimpgen.evaluate.methods import METHODS
from blimpgen.evaluate.metrics import TIE_POLICIES
from blimpgen.evaluate.probes import PROBE_METHODS
from blimpgen.evaluate.reductions import REDUCTIONS

DTYPES = ("float32", "bfloat16", "float16", "auto")
PLL_METRICS = ("original", "within-word-l2r")


@click.command("eval")
@click.option("--model", help="HF model id or local folder (hf-causal, hf-masked).")
@click.option("--scorer", default="hf-causal", show_default=True,
              help="Registered scorer: hf-causal, hf-masked, ngram, unigram, or a plugin's name.")
@click.option("--data", "data", multiple=True, required=True, type=click.Path(),
              help="BLiMP-schema JSONL file or folder of them, or of probe items (repeatable; one kind per run).")
@click.option("--out", type=OutputPath(file_okay=False),
              help="Folder for pairs.jsonl (items.jsonl for probes), results.json, results.csv.")
@click.option("--method", type=click.Choice(list(METHODS)), default="full-sentence", show_default=True,
              help="Pairs: BLiMP section 6.4 method.")
@click.option("--reduction", type=click.Choice(REDUCTIONS), default="sum", show_default=True)
@click.option("--tie", type=click.Choice(TIE_POLICIES), default="wrong", show_default=True,
              help="How a tie between good and bad (probes: the answer and the best other candidate) counts.")
@click.option("--probe-method", type=click.Choice(list(PROBE_METHODS)),
              help="Probes, multiple choice: blank (softmax over the candidates at the blank) or sentence "
                   "(whole sentence with each candidate) [blank for hf-masked, else sentence].")
@click.option("--top-k", "top_k", type=click.IntRange(min=1), multiple=True,
              help="Probes: k of a top-k accuracy (repeatable) [1 and 5].")
@click.option("--sensitivity-margin", type=click.FloatRange(0, 1, max_open=True), default=0.01, show_default=True,
              help="Probes: the P(good) - P(bad) margin of the second sensitivity measure.")
@click.option("--first-token", type=click.Choice(["bos", "none"]),
              help="hf-causal: prepend BOS (EOS if none) so the first word is scored [bos].")
@click.option("--pll", type=click.Choice(PLL_METRICS), help="hf-masked: PLL variant [within-word-l2r].")
@click.option("--ngram-model", type=click.Path(dir_okay=False), help="ngram: ARPA file.")
@click.option("--unigram-corpus", type=click.Path(dir_okay=False),
              help="Text corpus for the unigram scorer and for --reduction slor.")
@click.option("--dtype", type=click.Choice(DTYPES), help="Model dtype [float32].")
@click.option("--device", help="cpu, cuda, cuda:1 ... [cuda when available].")
@click.option("--device-map", help="Passed to from_pretrained, e.g. auto for models larger than one device.")
@click.option("--batch-tokens", type=click.IntRange(min=1), help="Token budget per forward pass [512 on CPU, 8192 on GPU].")
@click.option("--limit", type=click.IntRange(min=1), help="At most N pairs per paradigm (items per suite).")
@click.option("--save-tokens", is_flag=True, help="Pairs: also save every token's log-probability.")
@click.option("--paradigms", "show_paradigms", is_flag=True, help="Print per-paradigm (per-suite) rows too.")
def eval_command(model, scorer, data, out, method, reduction, tie, probe_method, top_k, sensitivity_margin,
                 first_token, pll, ngram_model, unigram_corpus, dtype, device, device_map, batch_tokens, limit,
                 save_tokens, show_paradigms) -> None:
    """Score minimal pairs (or cloze probe items) with a language model and report accuracy like BLiMP."""
    from blimpgen.evaluate.probes import ProbeOptions
    from blimpgen.evaluate.run import (
        EvalOptions,
        format_table,
        is_main_process,
        run_eval,
    )

    scorer_options = {"model": model, "first_token": first_token, "pll": pll, "ngram_model": ngram_model,
                      "dtype": dtype, "device": device, "device_map": device_map, "batch_tokens": batch_tokens}
    if scorer.split(".v")[0] == "unigram":
        scorer_options["corpus"] = unigram_corpus
    scorer_options = {k: v for k, v in scorer_options.items() if v is not None}
    options = EvalOptions(method=method, reduction=reduction, tie=tie, unigram_corpus=unigram_corpus,
                          limit=limit, save_tokens=save_tokens)
    probe_options = ProbeOptions(probe_method=probe_method, top_k=tuple(top_k) or ProbeOptions().top_k,
                                 margin=sensitivity_margin, tie=tie, limit=limit)
    result = run_eval(scorer, scorer_options, data, out, options, show_progress=True, probe_options=probe_options)
    if is_main_process():
        click.echo(format_table(result, paradigms=show_paradigms))
        if out:
            click.echo(f"results written to {out}/")


@click.command("report")
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--plots", type=OutputPath(file_okay=False), help="Folder for PNG figures.")
@click.option("--human", type=click.Path(exists=True, dir_okay=False),
              help="Human accuracy per paradigm (JSON or CSV with UID and accuracy) for the correlation figure.")
@click.option("--out", type=OutputPath(dir_okay=False), help="Also save the models x phenomena table as CSV.")
@click.option("--metric", help="Probe results: mc_accuracy, top1, top5, sensitivity, sensitivity@0.01 "
                               "[mc_accuracy].")
def report_command(results, plots, human, out, metric) -> None:
    """Combine result folders into a models x phenomena table (probes: models x suites) and figures."""
    from blimpgen.evaluate.report import run_report

    click.echo(run_report(results, plots=plots, human=human, out=out, metric=metric))


@click.group("ngram")
def ngram_group() -> None:
    """Train and inspect n-gram baseline models."""


@ngram_group.command("train")
@click.argument("corpus", type=click.Path(exists=True))
@click.option("-o", "--output", required=True, type=OutputPath(dir_okay=False), help="ARPA file to write.")
@click.option("--order", type=click.IntRange(1, 9), default=5, show_default=True)
@click.option("--discount", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.75,
              show_default=True)
@click.option("--unk-cutoff", type=click.IntRange(min=1), default=2, show_default=True,
              help="Words seen fewer times become <unk>.")
@click.option("--format", "corpus_format", type=click.Choice(["text", "brown"]), default="text", show_default=True,
              help="text: one sentence per line; brown: nltk's Brown corpus zip or folder.")
@click.option("--cased", is_flag=True, help="Keep case (scoring must then use the same).")
def ngram_train_command(corpus, output, order, discount, unk_cutoff, corpus_format, cased) -> None:
    """Train an interpolated Kneser-Ney model (nltk's estimator) and write it as ARPA."""
    from blimpgen.evaluate.scorers.ngram import train_ngram_file

    model = train_ngram_file(corpus, output, order=order, discount=discount, unk_cutoff=unk_cutoff,
                             corpus_format=corpus_format, lowercase=not cased)
    click.echo(f"wrote {output}: order {model.order}, {len(model.vocabulary)} words, {len(model.logprobs)} n-grams")
