"""``blimpgen validate``: MTurk batches, simulated results, and the agreement analysis."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from blimpgen.cli import OutputPath, output_option


def _decimal(ctx: click.Context, param: click.Parameter, value: str | None) -> Decimal | None:
    if value is None:
        return None
    try:
        amount = Decimal(value.lstrip("$"))
    except InvalidOperation:
        amount = None
    if amount is None or not amount.is_finite():  # Decimal reads NaN and Infinity too
        raise click.BadParameter(f"{value!r} is not an amount in dollars (e.g. 0.60)") from None
    return amount


def _fraction(ctx: click.Context, param: click.Parameter, value: str) -> Fraction:
    from blimpgen.validate.agreement import parse_fraction

    try:
        return parse_fraction(value)
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"{value!r} is not a fraction in (0, 1] such as 4/5 or 0.8") from None


def _uid_shares(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, float]:
    shares = {}
    for value in values:
        uid, sep, share = value.partition("=")
        try:
            shares[uid.strip()] = float(share)
        except ValueError:
            sep = ""
        if not sep or not uid.strip():
            raise click.BadParameter(f"{value!r}: expected UID=ACCURACY, e.g. wh_island=0.4")
    return shares


# Options several commands share (the help says what each command does with the option).
Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def batch_option(help: str) -> Decorator:
    """``--batch FOLDER``: an existing batch folder, passed as ``batch_folder``."""
    return click.option(
        "--batch",
        "batch_folder",
        required=True,
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        help=help,
    )


def results_options(help: str) -> Decorator:
    """``--results CSV`` (repeatable) and more results files as arguments after it."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        command = click.argument("more_results", nargs=-1, type=click.Path(exists=True, path_type=Path))(command)
        return click.option(
            "--results",
            "results",
            required=True,
            multiple=True,
            type=click.Path(exists=True, path_type=Path),
            help=help,
        )(command)

    return decorate


def out_option(help: str, folder: bool) -> Decorator:
    """``-o/--output`` (``--out`` still parses): the folder (``folder``) or the file to write."""
    kind = OutputPath(file_okay=False, path_type=Path) if folder else OutputPath(dir_okay=False, path_type=Path)
    return output_option(help, dest="out", aliases=("--out",), required=True, type=kind)


def min_seconds_option(help: str) -> Decorator:
    return click.option("--min-seconds", type=float, default=None, help=help)


RESULTS_CSV_OUT = out_option("Results CSV to write (MTurk format).", folder=False)
FORCE_OPTION = click.option("--force", is_flag=True, help="Replace an existing batch in the output folder.")


def echo_posted(posted: Path, batch_folder: Path, production: bool) -> None:
    """What ``validate batch --post`` and ``validate post`` say once the HITs are up."""
    click.echo(
        f"posted to {'production' if production else 'the sandbox'}; HIT ids in {posted}; "
        f"run `blimpgen validate advance --batch {batch_folder}` until every replica is up"
    )


@click.group("validate")
def validate_group() -> None:
    """Human validation on Mechanical Turk: batches, simulated results and the agreement analysis."""


@validate_group.command("batch")
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="Generated pairs: a BLiMP-schema JSONL file or a folder of <UID>.jsonl files.",
)
@out_option("Batch folder to write.", folder=True)
@click.option("--pairs-per-paradigm", default=5, show_default=True, help="Pairs sampled at random from each paradigm.")
@click.option("--judgments", default=20, show_default=True, help="Workers who judge each pair.")
@click.option("--items-per-hit", default=10, show_default=True, help="Real pairs per HIT (plus one attention check).")
@click.option(
    "--max-assignments",
    default=9,
    show_default=True,
    help="Most assignments per HIT (at most 9: MTurk charges 20% more from 10).",
)
@click.option("--seed", default=0, show_default=True, help="Seed for sampling, order, checks and counterbalancing.")
@click.option("--reward", callback=_decimal, help="Pay per assignment in dollars [default: from --hourly-wage].")
@click.option(
    "--hourly-wage",
    default="15.00",
    show_default=True,
    callback=_decimal,
    help="Hourly pay the default reward aims at (60 s + 8 s per item).",
)
@click.option("--title", default=None, help="HIT title shown on MTurk.")
@click.option(
    "--contact",
    metavar="TEXT",
    help="Requester contact shown on the page, e.g. 'Jane Doe <jane@uni.edu>' (required to post).",
)
@click.option(
    "--consent",
    "consent_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Plain-text file with the consent or IRB text for the page (a blank line starts a paragraph) "
    "[default: a short statement of what taking part means and what is recorded].",
)
@click.option(
    "--instructions",
    "instructions_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Plain-text file replacing the page's instructions (a blank line starts a paragraph).",
)
@click.option(
    "--minutes",
    type=click.FloatRange(0, min_open=True),
    help="Estimated minutes per HIT, shown on the page and used for the default reward [60 s + 8 s per item].",
)
@click.option(
    "--locale",
    "locales",
    multiple=True,
    default=("US",),
    show_default=True,
    help="Country workers must be in (repeatable).",
)
@click.option("--min-approval-rate", default=98, show_default=True, help="Lowest approval rate (%).")
@click.option("--min-approved-hits", default=1000, show_default=True, help="Fewest approved HITs.")
@click.option("--questions", is_flag=True, help="Also write questions/<hit>.xml HTMLQuestion documents.")
@click.option(
    "--post", is_flag=True, help="Post the HITs with boto3 (implies --questions; sandbox unless --production)."
)
@click.option("--production", is_flag=True, help="With --post: use the real marketplace and real money.")
@FORCE_OPTION
def batch_command(
    data: Path,
    out: Path,
    pairs_per_paradigm: int,
    judgments: int,
    items_per_hit: int,
    max_assignments: int,
    seed: int,
    reward: Decimal | None,
    hourly_wage: Decimal,
    title: str | None,
    contact: str | None,
    consent_file: Path | None,
    instructions_file: Path | None,
    minutes: float | None,
    locales: tuple[str, ...],
    min_approval_rate: int,
    min_approved_hits: int,
    questions: bool,
    post: bool,
    production: bool,
    force: bool,
) -> None:
    """Sample pairs and write an MTurk-ready batch: layout.html, batch.csv, key.csv, hit_properties.json."""
    from blimpgen._io import read_text
    from blimpgen.errors import DataError
    from blimpgen.validate.batch import write_batch
    from blimpgen.validate.design import BatchOptions
    from blimpgen.validate.page import DEFAULT_CONSENT, PageText
    from blimpgen.validate.properties import HitProperties

    if production and not post:
        raise click.UsageError("--production only makes sense with --post")
    if post and not contact:
        raise click.UsageError("--post needs --contact: the HIT page must say whom workers can reach")
    page = PageText(
        instructions=read_text(instructions_file, error=DataError) if instructions_file else None,
        consent=read_text(consent_file, error=DataError) if consent_file else DEFAULT_CONSENT,
        contact=contact,
    )
    options = BatchOptions(
        pairs_per_paradigm=pairs_per_paradigm,
        judgments=judgments,
        items_per_hit=items_per_hit,
        max_assignments=max_assignments,
        seed=seed,
    )
    properties = HitProperties(
        reward=reward,
        hourly_wage=hourly_wage,
        locales=locales,
        min_approval_rate=min_approval_rate,
        min_approved_hits=min_approved_hits,
        title=title or HitProperties.title,
        minutes=minutes,
    )
    written = write_batch(data, out, options, properties, questions=questions or post, force=force, page=page)
    design, cost = written.design, written.cost
    click.echo(
        f"wrote {out}: {len(design.hits)} HITs ({design.n_lists} lists x {options.replicas} replicas) of "
        f"{design.slots} items, {options.assignments_per_hit} assignments each -> "
        f"{design.judgments_per_pair} judgments per pair, {len(design.uids)} paradigms"
    )
    click.echo(
        f"cost estimate: {cost['assignments']} assignments x (${cost['reward_per_assignment']} reward "
        f"+ ${cost['fee_per_assignment']} MTurk fee) = ${cost['total']}"
    )
    if not contact:
        click.echo(
            "note: no --contact, so the page names no requester contact; `validate post` refuses the batch "
            "until it is written again with one",
            err=True,
        )
    if post:
        from blimpgen.validate.mturk import post_batch

        echo_posted(post_batch(out, sandbox=not production), out, production)


@validate_group.command("ingest")
@batch_option("The batch folder the HITs were made from.")
@results_options("MTurk results CSV; repeat the option or list more files after it.")
@out_option("Report folder.", folder=True)
@min_seconds_option("Exclude assignments faster than this [default: 2 s per item].")
@click.option(
    "--pass-fraction",
    default="4/5",
    show_default=True,
    callback=_fraction,
    help="Share of a paradigm's pairs whose majority must agree for it to pass.",
)
@click.option("--skip-malformed", is_flag=True, help="List malformed rows in excluded.csv instead of stopping.")
def ingest_command(
    batch_folder: Path,
    results: tuple[Path, ...],
    more_results: tuple[Path, ...],
    out: Path,
    min_seconds: float | None,
    pass_fraction: Fraction,
    skip_malformed: bool,
) -> None:
    """Merge MTurk results files; write summary.md, per_paradigm.csv, per_pair.csv, per_worker.csv, excluded.csv."""
    from blimpgen._io import refuse_inputs
    from blimpgen.validate.batch import batch_files
    from blimpgen.validate.ingest import IngestOptions, ingest
    from blimpgen.validate.summary import REPORT_FILES, write_report

    options = IngestOptions(min_seconds=min_seconds, pass_fraction=pass_fraction, skip_malformed=skip_malformed)
    inputs = {"--results": [*results, *more_results], "--batch": batch_files(batch_folder)}
    for name in REPORT_FILES:
        refuse_inputs(out / name, inputs)
    analysis = ingest(batch_folder, [*results, *more_results], options)
    write_report(analysis, out)
    overall = analysis.overall
    individual = "n/a" if overall.individual is None else f"{100 * overall.individual:.1f}%"
    click.echo(
        f"{analysis.n_rows} rows: {len(analysis.included)} included, "
        f"{analysis.n_rows - len(analysis.included)} excluded (see {out / 'excluded.csv'})"
    )
    click.echo(
        f"aggregate agreement {100 * overall.aggregate:.1f}%, individual {individual}; "
        f"{overall.n_passed} of {overall.n_paradigms} paradigms pass; report in {out / 'summary.md'}"
    )


@validate_group.command("repost")
@batch_option("The batch (or earlier top-up) the results belong to.")
@results_options("Every MTurk results CSV so far; repeat the option or list more files after it.")
@out_option("Top-up batch folder to write (same format as a batch).", folder=True)
@min_seconds_option("Exclude assignments faster than this, as in ingest [default: 2 s per item].")
@FORCE_OPTION
def repost_command(
    batch_folder: Path,
    results: tuple[Path, ...],
    more_results: tuple[Path, ...],
    out: Path,
    min_seconds: float | None,
    force: bool,
) -> None:
    """Write a top-up batch: new replicas of the lists whose pairs are below the requested judgments."""
    from blimpgen.validate.ingest import IngestOptions
    from blimpgen.validate.repost import write_topup

    topup = write_topup(
        batch_folder, [*results, *more_results], out, IngestOptions(min_seconds=min_seconds), force=force
    )
    short = ", ".join(f"list {index}: {n}" for index, n in sorted(topup.shortfall.items()))
    click.echo(
        f"wrote {out}: {len(topup.hits)} HITs, {topup.cost['assignments']} assignments "
        f"(short judgments per list: {short}); cost estimate ${topup.cost['total']}"
    )
    click.echo(
        f"post it with the script (`blimpgen validate post --batch {out}`), then ingest with "
        f"--batch {out} and every results file"
    )


@validate_group.command("simulate")
@batch_option("The batch folder to simulate.")
@RESULTS_CSV_OUT
@click.option("--workers", default=40, show_default=True, help="Workers in the pool.")
@click.option("--accuracy", default=0.9, show_default=True, help="Mean accuracy of attentive workers.")
@click.option("--accuracy-spread", default=0.05, show_default=True, help="Per-worker accuracy offset, +/- this.")
@click.option(
    "--paradigm-accuracy",
    multiple=True,
    callback=_uid_shares,
    help="UID=ACCURACY for a paradigm people disagree with (repeatable).",
)
@click.option("--bots", default=0.05, show_default=True, help="Share of workers that are bots.")
@click.option("--inattentive", default=0.1, show_default=True, help="Share of workers clicking through.")
@click.option("--non-native", default=0.05, show_default=True, help="Share of attentive workers who are not native.")
@click.option("--rejected", default=0.0, show_default=True, help="Share of assignments you rejected.")
@click.option("--seconds-per-item", default=6.0, show_default=True, help="Attentive workers' time per item.")
@click.option("--seed", default=0, show_default=True, help="Random seed.")
def simulate_command(
    batch_folder: Path,
    out: Path,
    workers: int,
    accuracy: float,
    accuracy_spread: float,
    paradigm_accuracy: dict[str, float],
    bots: float,
    inattentive: float,
    non_native: float,
    rejected: float,
    seconds_per_item: float,
    seed: int,
) -> None:
    """Write an MTurk-format results CSV from simulated workers, to rehearse ingest."""
    from blimpgen.validate.simulate import SimulationOptions, simulate

    options = SimulationOptions(
        workers=workers,
        accuracy=accuracy,
        accuracy_spread=accuracy_spread,
        paradigm_accuracy=paradigm_accuracy,
        bots=bots,
        inattentive=inattentive,
        non_native=non_native,
        rejected=rejected,
        seconds_per_item=seconds_per_item,
        seed=seed,
    )
    result = simulate(batch_folder, out, options)
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(result.kinds().items()))
    click.echo(f"wrote {result.path}: {result.n_rows} assignments by {len(result.workers)} workers ({kinds})")
    if result.expected_individual:
        mean = sum(result.expected_individual.values()) / len(result.expected_individual)
        click.echo(f"expected individual agreement of attentive workers: {100 * mean:.1f}% (mean over paradigms)")


@validate_group.command("post")
@batch_option("A batch or top-up with questions/*.xml.")
@click.option("--production", is_flag=True, help="Use the real marketplace and real money (default: sandbox).")
def post_command(batch_folder: Path, production: bool) -> None:
    """Post a batch or top-up with boto3: exclusions and each list's first replica (needs boto3)."""
    from blimpgen.validate.mturk import post_batch

    echo_posted(post_batch(batch_folder, sandbox=not production), batch_folder, production)


@validate_group.command("advance")
@batch_option("A batch posted with --post.")
def advance_command(batch_folder: Path) -> None:
    """Grant each list's exclusion to its workers and post a list's next replica once its last is done (needs boto3).

    Run it every few minutes until it reports nothing left to post.
    """
    from blimpgen.validate.mturk import advance_batch

    granted, posted = advance_batch(batch_folder)
    click.echo(f"excluded {granted} worker(s) from lists they did; posted {posted} HIT(s)")


@validate_group.command("fetch")
@batch_option("A batch posted with --post.")
@RESULTS_CSV_OUT
def fetch_command(batch_folder: Path, out: Path) -> None:
    """Download the assignments of a batch posted with --post as an MTurk results CSV (needs boto3)."""
    from blimpgen.validate.mturk import fetch_results

    click.echo(f"wrote {fetch_results(batch_folder, out)}")
