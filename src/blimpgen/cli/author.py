"""``blimpgen check``, ``new``, ``audit`` and ``reference``: the authoring kit. Option parsing only."""

from __future__ import annotations

import click

from blimpgen.cli import OutputPath, output_option
from blimpgen.cli.generate import lexicon_overlay_option, paradigm_path_option


@click.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "-n",
    "--num",
    "n",
    type=click.IntRange(1, 10_000_000),
    default=1000,
    show_default=True,
    help="Pairs you plan to generate per paradigm (for the capacity estimate).",
)
@click.option(
    "--attempts",
    type=click.IntRange(1, 100_000),
    default=300,
    show_default=True,
    help="Sampling attempts per paradigm.",
)
@lexicon_overlay_option
def check_command(paths: tuple[str, ...], n: int, attempts: int, overlays: tuple[str, ...]) -> None:
    """Check paradigm and probe-suite files or folders (the shipped ones when none): every problem, one line each."""
    from blimpgen.authoring.check import check_paradigms

    report = check_paradigms(tuple(paths), n=n, attempts=attempts, overlays=overlays)
    for line in report.lines():
        click.echo(line)
    if not report.ok:
        raise click.ClickException(f"{len(report.problems)} problem(s) in {len(paths) or 'the shipped'} path(s)")
    click.echo(report.summary())


@click.command("new")
@click.argument("uid")
@click.option("--phenomenon", required=True, help="linguistics_term of the paradigm (e.g. npi_licensing).")
@click.option("--field", "field_name", help="BLiMP field; guessed from the phenomenon when omitted.")
@output_option(
    "Folder to write UID.yaml into.", dest="folder", type=OutputPath(file_okay=False), default=".", show_default=True
)
def new_command(uid: str, phenomenon: str, field_name: str | None, folder: str) -> None:
    """Write a commented skeleton paradigm that passes `blimpgen check` as written."""
    from blimpgen.authoring.scaffold import write_skeleton

    click.echo(f"wrote {write_skeleton(uid, phenomenon, folder, field_name)}")


@click.command("audit")
@click.argument("uids", nargs=-1)
@click.option("--all", "all_paradigms", is_flag=True, help="Every paradigm.")
@click.option(
    "-n",
    "--num",
    "n",
    type=click.IntRange(10, 1_000_000),
    default=1000,
    show_default=True,
    help="Pairs generated per paradigm for the audit.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (as for gen).")
@click.option(
    "--threshold",
    type=click.FloatRange(0.5, 1.0),
    default=0.9,
    show_default=True,
    help="Flag a paradigm when a heuristic reaches this accuracy.",
)
@click.option("--markdown", is_flag=True, help="A Markdown table (for docs/audit.md).")
@output_option("Text or Markdown file to write the report to; stdout when omitted.", type=OutputPath(dir_okay=False))
@click.option(
    "--fail-on-flag",
    is_flag=True,
    help="Exit 1 when any paradigm is flagged (with --overlap: has a sentence in the corpus).",
)
@click.option(
    "--plausibility",
    is_flag=True,
    help="Instead of shallow cues, count the subject x predicate x object classes the sampler produces, "
    "least plausible first.",
)
@click.option(
    "--evidence",
    type=click.Path(exists=True, dir_okay=False),
    help="With --plausibility: corpus co-occurrence counts (tools/lexicon/count_cooccurrence.py) to mark "
    "unattested combinations.",
)
@click.option(
    "--top",
    type=click.IntRange(1, 10_000),
    default=25,
    show_default=True,
    help="With --plausibility: combinations listed per paradigm.",
)
@click.option(
    "--overlap",
    "corpus",
    type=click.Path(exists=True),
    help="Instead of shallow cues, count generated sentences and long n-grams found in this corpus: "
    'a text file (one document or sentence a line; .gz read), a JSONL file of pairs or {"text": ...} '
    "records, or a folder of such files.",
)
@click.option(
    "--ngram",
    type=click.IntRange(1, 100),
    default=8,
    show_default=True,
    help="With --overlap: n-gram length in tokens.",
)
@click.option(
    "--data",
    type=click.Path(exists=True),
    help="With --overlap: compare these generated pairs (a JSONL file or folder) instead of generating.",
)
@paradigm_path_option
@lexicon_overlay_option
def audit_command(
    uids: tuple[str, ...],
    all_paradigms: bool,
    n: int,
    seed: int,
    threshold: float,
    markdown: bool,
    output: str | None,
    fail_on_flag: bool,
    plausibility: bool,
    evidence: str | None,
    top: int,
    corpus: str | None,
    ngram: int,
    data: str | None,
    paradigm_paths: tuple[str, ...],
    overlays: tuple[str, ...],
) -> None:
    """Report shallow cues (exclusive words, length, frequency, bag of words) per paradigm; with
    --plausibility the verb/adjective argument classes its acceptable sentences use; with --overlap
    CORPUS the generated sentences and long n-grams a corpus already contains."""
    from blimpgen.authoring.audit import audit_catalog, render_markdown, render_text
    from blimpgen.generators.catalog import Catalog

    if data and not corpus:
        raise click.UsageError("--data goes with --overlap")
    if corpus and plausibility:
        raise click.UsageError("give --overlap or --plausibility, not both")
    if data and (uids or all_paradigms):
        raise click.UsageError("give --data or UID/--all, not both")
    if not data and all_paradigms == bool(uids):
        raise click.UsageError("give UID (one or more) or --all" + (" or --data" if corpus else ""))
    if evidence and not plausibility:
        raise click.UsageError("--evidence goes with --plausibility")
    if corpus:
        from blimpgen._io import data_files, refuse_inputs
        from blimpgen.authoring import overlap
        from blimpgen.authoring.corpus import corpus_files

        refuse_inputs(
            output, {"--overlap": [corpus, *corpus_files(corpus)], "--data": [data, *data_files(data)] if data else []}
        )
        report = (
            overlap.overlap_data(data, corpus, ngram, progress=True)
            if data
            else overlap.overlap_catalog(
                Catalog.from_environment(paradigm_paths, overlays),
                None if all_paradigms else uids,
                corpus,
                n,
                seed,
                ngram,
                progress=True,
            )
        )
        _write(overlap.render_markdown(report) if markdown else overlap.render_text(report), output)
        flagged = [row.uid for row in report.rows if row.flagged]
        if fail_on_flag and flagged:
            raise click.ClickException(f"{len(flagged)} paradigm(s) have sentences in the corpus: {', '.join(flagged)}")
        return
    catalog = Catalog.from_environment(paradigm_paths, overlays)
    if plausibility:
        from blimpgen.authoring import plausibility as plaus

        counts = plaus.Evidence.read(evidence) if evidence else plaus.Evidence()
        found = plaus.plausibility_catalog(catalog, None if all_paradigms else uids, n, seed)
        text = plaus.render_markdown(found, n, seed, counts) if markdown else plaus.render_text(found, counts, top)
        results = []
    else:
        results = audit_catalog(catalog, None if all_paradigms else uids, n, seed, threshold)
        text = render_markdown(results, n, seed, threshold) if markdown else render_text(results)
    _write(text, output)
    flagged = [r.uid for r in results if r.flags]
    if fail_on_flag and flagged:
        raise click.ClickException(f"{len(flagged)} paradigm(s) flagged: {', '.join(flagged)}")


def _write(text: str, output: str | None) -> None:
    from blimpgen._io import atomic_writer

    if output is None:
        click.echo(text, nl=False)
        return
    with atomic_writer(output) as handle:
        handle.write(text)


@click.command("reference")
@output_option("Markdown file; stdout when omitted.", type=OutputPath(dir_okay=False))
def reference_command(output: str | None) -> None:
    """Write the spec-language and feature reference (Markdown) from the code and data."""
    from blimpgen._io import atomic_writer
    from blimpgen.authoring.reference import render_reference

    text = render_reference()
    if output is None:
        click.echo(text, nl=False)
        return
    with atomic_writer(output) as handle:
        handle.write(text)
