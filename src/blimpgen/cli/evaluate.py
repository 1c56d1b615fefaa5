"""``blimpgen eval``, ``blimpgen report`` and ``blimpgen ngram``: option parsing only.

Each command calls one library function in :mod:`blimpgen.evaluate`; torch is imported only
when a neural scorer is built.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from blimpgen.cli import OutputPath, output_option
from blimpgen.evaluate.metrics import TIE_POLICIES
from blimpgen.evaluate.scoring.methods import METHODS
from blimpgen.evaluate.scoring.options import DTYPES
from blimpgen.evaluate.scoring.reductions import REDUCTIONS
from blimpgen.evaluate.tasks.probes import PROBE_METHODS

# Scorer flags before --scorer-option: hidden, each maps to its scorer option with a note on stderr.
DEPRECATED = {
    "first_token": "--first-token",
    "pll": "--pll",
    "ngram_model": "--ngram-model",
    "batch_tokens": "--batch-tokens",
}


@click.command("eval")
@click.option(
    "--scorer",
    default="hf-causal",
    show_default=True,
    help="Registered scorer: hf-causal, hf-masked, ngram, unigram, or a plugin's (versioned: hf-causal.v1).",
)
@click.option(
    "--scorer-option",
    "scorer_option",
    multiple=True,
    metavar="KEY=VALUE",
    help="An option of the scorer (repeatable), e.g. first_token=none, pll=original, batch_tokens=1024, "
    "ngram_model=lm.arpa, corpus=corpus.txt; --list-options lists them.",
)
@click.option("--list-options", is_flag=True, help="Print the scorer's options (types, defaults, meaning) and exit.")
@click.option("--model", help="Sets the scorer option model: HF model id or local folder (hf-causal, hf-masked).")
@click.option("--device", help="Sets the scorer option device: cpu, cuda, cuda:1 ... [cuda when available].")
@click.option("--dtype", type=click.Choice(DTYPES), help="Sets the scorer option dtype [float32].")
@click.option("--device-map", help="Sets the scorer option device_map, e.g. auto for models larger than one device.")
@click.option(
    "--tokenizer",
    help="Sets the scorer option tokenizer: HF id or local folder of the tokenizer to use "
    "instead of the model's (hf-causal, hf-masked).",
)
@click.option(
    "--adapter",
    type=click.Path(),
    help="Sets the scorer option adapter: a PEFT adapter folder (LoRA, IA3 ...) merged into the "
    "model's weights (hf-causal, hf-masked; needs pip install 'blimpgen[peft]').",
)
@click.option(
    "--model-arg",
    "model_arg",
    multiple=True,
    metavar="KEY=VALUE",
    help="A from_pretrained argument (repeatable), e.g. revision=main, trust_remote_code=true, "
    "attn_implementation=eager; revision and trust_remote_code reach the tokenizer too.",
)
@click.option(
    "--data",
    "data",
    multiple=True,
    type=click.Path(),
    help="BLiMP-schema JSONL file or folder of them, or of probe items (repeatable; one kind per run). Required.",
)
@output_option(
    "Folder for pairs.jsonl (items.jsonl for probes), results.json, results.csv.",
    dest="out",
    aliases=("--out",),
    type=OutputPath(file_okay=False),
)
@click.option("--method", type=click.Choice(list(METHODS)), help="Pairs: BLiMP section 6.4 method [full-sentence].")
@click.option("--reduction", type=click.Choice(REDUCTIONS), help="Pairs: sum, mean or slor [sum].")
@click.option(
    "--slor-corpus",
    type=click.Path(dir_okay=False),
    help="Pairs, --reduction slor: text corpus of the unigram model (counted in the scorer's tokens).",
)
@click.option(
    "--tie",
    type=click.Choice(TIE_POLICIES),
    help="How a tie between good and bad (probes: the answer and the best other candidate) counts [wrong].",
)
@click.option(
    "--probe-method",
    type=click.Choice(list(PROBE_METHODS)),
    help="Probes, multiple choice: blank (softmax over the candidates at the blank) or sentence "
    "(whole sentence with each candidate) [blank for hf-masked, else sentence].",
)
@click.option(
    "--top-k",
    "top_k",
    type=click.IntRange(min=1),
    multiple=True,
    help="Probes: k of a top-k accuracy (repeatable) [1 and 5].",
)
@click.option(
    "--sensitivity-margin",
    type=click.FloatRange(0, 1, max_open=True),
    help="Probes: the P(good) - P(bad) margin of the second sensitivity measure [0.01].",
)
@click.option("--limit", type=click.IntRange(min=1), help="At most N pairs per paradigm (items per suite).")
@click.option("--save-tokens", is_flag=True, help="Pairs: also save every token's log-probability.")
@click.option("--paradigms", "show_paradigms", is_flag=True, help="Print per-paradigm (per-suite) rows too.")
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="No progress on stderr (by default: a bar on a terminal, else a line every 10 s).",
)
@click.option("--first-token", hidden=True)
@click.option("--pll", hidden=True)
@click.option("--ngram-model", hidden=True)
@click.option("--batch-tokens", hidden=True)
@click.option("--unigram-corpus", hidden=True)
def eval_command(
    scorer,
    scorer_option,
    list_options,
    model,
    device,
    dtype,
    device_map,
    tokenizer,
    adapter,
    model_arg,
    data,
    out,
    method,
    reduction,
    slor_corpus,
    tie,
    probe_method,
    top_k,
    sensitivity_margin,
    limit,
    save_tokens,
    show_paradigms,
    quiet,
    first_token,
    pll,
    ngram_model,
    batch_tokens,
    unigram_corpus,
) -> None:
    """Score minimal pairs (or cloze probe items) with a language model and report accuracy like BLiMP."""
    from blimpgen.evaluate.distributed import is_main_process
    from blimpgen.evaluate.runner import format_table, run_eval
    from blimpgen.evaluate.scoring.options import parse_model_args
    from blimpgen.evaluate.scoring.registrations import command_line_options, scorers
    from blimpgen.evaluate.scoring.registrations import list_options as describe

    if list_options:
        click.echo(describe(scorer))
        return
    if not data:
        raise click.UsageError("Missing option '--data'.")
    assignments = list(scorer_option)
    given = {"first_token": first_token, "pll": pll, "ngram_model": ngram_model, "batch_tokens": batch_tokens}
    for key, value in given.items():
        if value is not None:
            _deprecated(DEPRECATED[key], f"--scorer-option {key}={value}")
            assignments.append(f"{key}={value}")
    if unigram_corpus is not None:  # it was the unigram scorer's corpus and SLOR's
        _deprecated(
            "--unigram-corpus",
            f"--scorer-option corpus={unigram_corpus} (unigram) or --slor-corpus {unigram_corpus} (--reduction slor)",
        )
        if "corpus" in _parameters(scorers.get(scorer)) and not any(a.startswith("corpus=") for a in assignments):
            assignments.append(f"corpus={unigram_corpus}")
        if reduction == "slor" and slor_corpus is None:
            slor_corpus = unigram_corpus
    flags = {
        key: value
        for key, value in (
            ("model", model),
            ("device", device),
            ("dtype", dtype),
            ("device_map", device_map),
            ("tokenizer", tokenizer),
            ("adapter", adapter),
        )
        if value is not None
    }
    if model_arg:
        flags["model_args"] = parse_model_args(model_arg)
    options = {
        "method": method,
        "reduction": reduction,
        "unigram_corpus": slor_corpus,
        "tie": tie,
        "limit": limit,
        "save_tokens": save_tokens or None,
        "probe_method": probe_method,
        "top_k": tuple(top_k) or None,
        "margin": sensitivity_margin,
    }
    result = run_eval(
        scorer,
        command_line_options(scorer, assignments, flags),
        data,
        out,
        {key: value for key, value in options.items() if value is not None},
        show_progress=not quiet,
    )
    if is_main_process():
        click.echo(format_table(result, detail=show_paradigms))
        if out:
            click.echo(f"results written to {out.rstrip('/')}/")


def _deprecated(flag: str, instead: str) -> None:
    """One line on stderr (the main process's) for a deprecated flag."""
    from blimpgen.evaluate.distributed import is_main_process

    if is_main_process():
        click.echo(f"note: {flag} is deprecated; use {instead}", err=True)


def _parameters(factory: Callable[..., object]) -> list[str]:
    import inspect

    return list(inspect.signature(factory).parameters)


@click.command("report")
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--plots", type=OutputPath(file_okay=False), help="Folder for PNG figures.")
@click.option(
    "--human",
    type=click.Path(exists=True, dir_okay=False),
    help="Human accuracy per paradigm (JSON or CSV with UID and accuracy; validate ingest's per_paradigm.csv): "
    "the human row of the .md/.tex table and the human column of the correlation figure.",
)
@output_option(
    "Also save the table; the suffix picks the format: .md or .tex (BLiMP's Table 3: models x phenomena, "
    "overall first, the --human row last), else CSV (phenomena x models, as printed). Repeatable.",
    dest="out",
    aliases=("--out",),
    multiple=True,
    type=OutputPath(dir_okay=False),
)
@click.option("--metric", help="Probe results: mc_accuracy, top1, top5, sensitivity, sensitivity@0.01 [mc_accuracy].")
@click.option(
    "--levels",
    "levels_data",
    type=click.Path(exists=True),
    help="The scored pairs of paradigms with factors (JSONL file or folder): accuracy per level and "
    "per cell with intervals, and each factor's effect, instead of the phenomenon table.",
)
def report_command(results, plots, human, out, metric, levels_data) -> None:
    """Combine result folders into a models x phenomena table (probes: models x suites) and figures."""
    if levels_data:
        if out:
            raise click.UsageError("-o/--output saves the phenomenon table; with --levels the tables are printed")
        from blimpgen.evaluate.reporting.levels import figure_levels, format_levels, level_results

        found = level_results(levels_data, results)
        click.echo(format_levels(found))
        if plots:
            for path in figure_levels(found, plots):
                click.echo(f"wrote {path}", err=True)
        return
    from blimpgen.evaluate.reporting.report import run_report

    click.echo(run_report(results, plots=plots, human=human, out=out, metric=metric))


@click.group("ngram")
def ngram_group() -> None:
    """Train and inspect n-gram baseline models."""


@ngram_group.command("train")
@click.argument("corpus", type=click.Path(exists=True))
@output_option("ARPA file to write.", required=True, type=OutputPath(dir_okay=False))
@click.option("--order", type=click.IntRange(1, 9), default=5, show_default=True, help="Longest n-gram.")
@click.option(
    "--discount",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.75,
    show_default=True,
    help="Kneser-Ney absolute discount.",
)
@click.option(
    "--unk-cutoff",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Words seen fewer times become <unk>.",
)
@click.option(
    "--format",
    "corpus_format",
    type=click.Choice(["text", "brown"]),
    default="text",
    show_default=True,
    help="text: one sentence per line; brown: nltk's Brown corpus zip or folder.",
)
@click.option("--cased", is_flag=True, help="Keep case (scoring must then use the same).")
def ngram_train_command(corpus, output, order, discount, unk_cutoff, corpus_format, cased) -> None:
    """Train an interpolated Kneser-Ney model (nltk's estimator) and write it as ARPA."""
    from blimpgen.evaluate.scoring.scorers.ngram import train_ngram_file

    model = train_ngram_file(
        corpus,
        output,
        order=order,
        discount=discount,
        unk_cutoff=unk_cutoff,
        corpus_format=corpus_format,
        lowercase=not cased,
    )
    click.echo(f"wrote {output}: order {model.order}, {len(model.vocabulary)} words, {len(model.logprobs)} n-grams")
