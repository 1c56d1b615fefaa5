"""``blimpgen probe``: cloze probes (oLMpics). Option parsing only.

``probe curve`` runs the oLMpics learning curve (:mod:`blimpgen.evaluate.curves`). torch is
imported only when a subcommand runs, never by ``--help``.
"""

from __future__ import annotations

import click

from blimpgen.cli import OutputPath, output_option
from blimpgen.evaluate.scoring.options import DTYPES
from blimpgen.records.item_types import CONTROLS


def _int_list(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...] | None:
    """``62,125,1K,2k`` -> (62, 125, 1000, 2000)."""
    if value is None:
        return None
    numbers = []
    for part in value.split(","):
        text = part.strip().lower()
        scale = 1000 if text.endswith("k") else 1
        try:
            numbers.append(int(text[:-1] if scale > 1 else text) * scale)
        except ValueError:
            raise click.BadParameter(f"{part.strip()!r} is not an integer (write e.g. 62,125,1K)") from None
    return tuple(numbers)


@click.group("probe")
def probe_group() -> None:
    """Cloze probes (oLMpics, Ettinger-style contrasts): learning curves and other probe tools."""


@probe_group.command("curve")
@click.option("--model", required=True, help="HF masked-LM id or local folder (BERT, RoBERTa, ALBERT ...).")
@click.option(
    "--train",
    "train",
    required=True,
    type=click.Path(dir_okay=False),
    help="Probe items (JSONL) to draw the N training items from; controls in the file (gen --control) "
    "each get their own curve, and LANGSENSE against the language curve.",
)
@click.option("--eval", "eval_path", type=click.Path(dir_okay=False), help="Held-out probe items (JSONL).")
@click.option(
    "--eval-fraction",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    help="Without --eval: hold out this seeded share of --train [0.2], whole argument tuples at a time "
    "(no held-out item shares its arguments with a training item).",
)
@click.option(
    "--control-train",
    type=click.Path(dir_okay=False),
    help="The no-language control's items, trained and scored the same way.",
)
@click.option(
    "--control-eval",
    type=click.Path(dir_okay=False),
    help="Held-out control items [a share of --control-train, as for --eval-fraction].",
)
@click.option(
    "--sizes",
    callback=_int_list,
    default="62,125,250,500,1K,2K,4K",
    show_default=True,
    help="Training-set sizes N; sizes above the training set are skipped.",
)
@click.option("--seeds", callback=_int_list, default="0,1,2", show_default=True, help="One run per seed at each N.")
@click.option(
    "--epochs", type=click.IntRange(min=1), default=4, show_default=True, help="Passes over the N training items."
)
@click.option(
    "--steps", type=click.IntRange(min=1), help="A fixed number of optimizer steps per run (overrides --epochs)."
)
@click.option(
    "--lr",
    type=click.FloatRange(0, min_open=True),
    default=5e-5,
    show_default=True,
    help="Peak AdamW learning rate (linear warm-up 6%, then linear decay).",
)
@click.option(
    "--batch-size", type=click.IntRange(min=1), default=16, show_default=True, help="Training items per optimizer step."
)
@click.option(
    "--weight-decay", type=click.FloatRange(min=0), default=0.1, show_default=True, help="AdamW weight decay."
)
@click.option("--device", help="cpu, cuda, cuda:1 ... [cuda when available].")
@click.option(
    "--dtype",
    type=click.Choice(DTYPES),
    default="float32",
    show_default=True,
    help="Dtype of the encoder passes; the head always trains in float32.",
)
@output_option("Folder for curve.json and curve.csv.", dest="out", aliases=("--out",), type=OutputPath(file_okay=False))
@click.option("--plot", type=OutputPath(dir_okay=False), help="Also draw the curves into this PNG file.")
@click.option(
    "--linear",
    is_flag=True,
    help="Also run LINEAR: the head's first layer fixed, only its output layer trains (oLMpics 3.3).",
)
@click.option(
    "--protocol",
    type=click.Choice(["mc-mlm", "mc-qa"]),
    default="mc-mlm",
    show_default=True,
    help="mc-mlm: train the pre-trained MLM head only (one-token candidates); mc-qa: fine-tune the whole "
    "network with a new question-answering head, [CLS] q [SEP] a [SEP] (answers of any length).",
)
@click.option("-q", "--quiet", is_flag=True, help="Do not print a line per run.")
def curve_command(
    model,
    train,
    eval_path,
    eval_fraction,
    control_train,
    control_eval,
    sizes,
    seeds,
    epochs,
    steps,
    lr,
    batch_size,
    weight_decay,
    device,
    dtype,
    out,
    plot,
    linear,
    protocol,
    quiet,
) -> None:
    """Train on N items per seed (MC-MLM: the MLM head only; MC-QA: the whole network), score held-out
    items, and report WS and MAX of the mean-over-seeds curve, LINEAR and LANGSENSE (oLMpics)."""
    from blimpgen.evaluate.curves.runner import run_learning_curve
    from blimpgen.evaluate.reporting.tables import format_curve

    if eval_path is not None and eval_fraction is not None:
        raise click.UsageError("give --eval or --eval-fraction, not both")
    progress = None if quiet else (lambda line: click.echo(line, err=True))
    result = run_learning_curve(
        model,
        train,
        eval_path,
        0.2 if eval_fraction is None else eval_fraction,
        control_train,
        control_eval,
        out=out,
        plot=plot,
        sizes=sizes,
        seeds=seeds,
        epochs=epochs,
        steps=steps,
        lr=lr,
        batch_size=batch_size,
        weight_decay=weight_decay,
        device=device,
        dtype=dtype,
        linear=linear,
        protocol=protocol,
        progress=progress,
    )
    click.echo(format_curve(result))
    if out:
        click.echo(f"curve written to {out.rstrip('/')}/")
    if plot:
        click.echo(f"plot written to {plot}")


@probe_group.command("import")
@click.argument("source", type=click.Path(dir_okay=False))
@output_option("Probe-item JSONL to write.", required=True, type=OutputPath(dir_okay=False))
@click.option("--suite", help="Suite name (UID) for the items [the file name].")
@click.option("--phenomenon", help="linguistics_term reports group by [the suite name].")
@click.option("--field", default="semantics", show_default=True, help="BLiMP field the items are reported under.")
@click.option(
    "--control",
    "controls",
    multiple=True,
    type=click.Choice([*CONTROLS, "all"]),
    help="Also write this control after each item (repeatable; 'all': every control the items take).",
)
@click.option("--keywords", default="", help="Comma-separated key words the perturbed_language control replaces.")
@click.option(
    "--shuffles",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Versions of each shuffling control per item (Ettinger: 100, reported as mean and SD).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random controls.")
def import_command(
    source: str,
    output: str,
    suite: str | None,
    phenomenon: str | None,
    field: str,
    controls: tuple[str, ...],
    keywords: str,
    shuffles: int,
    seed: int,
) -> None:
    """Convert hand-written items (TSV: context, good/bad or candidates/answer, ...) to probe JSONL.

    The format is documented in docs/probes.md; every problem is reported as
    file:line: column: message and nothing is written unless the whole file is valid.
    """
    from blimpgen.generators.probe_tsv import import_probe_tsv

    words = tuple(w.strip() for w in keywords.split(",") if w.strip())
    count = import_probe_tsv(source, output, suite, phenomenon, field, controls, words, shuffles, seed)
    click.echo(f"{count} items -> {output}", err=True)
