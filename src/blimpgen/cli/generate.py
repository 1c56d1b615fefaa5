"""``blimpgen list``, ``gen``, ``show`` and ``catalogue``: option parsing only.

Every command builds one :class:`~blimpgen.generators.catalog.Catalog` from its flags (and the
environment) and calls one library function with it.
"""

from __future__ import annotations

import os

import click

from blimpgen.cli import OutputPath, output_option
from blimpgen.records.item_types import CONTROLS

paradigm_path_option = click.option(
    "--paradigm-path",
    "paradigm_paths",
    multiple=True,
    type=click.Path(file_okay=False),
    help="Extra folder of paradigm YAML files (repeatable; also $BLIMPGEN_PARADIGM_PATH).",
)

lexicon_mode_option = click.option(
    "--lexicon-mode",
    type=click.Choice(["default", "colorless", "nonce"]),
    default="default",
    show_default=True,
    help="colorless: real words without selectional restrictions or plausibility; nonce: pseudo-words for "
    "open-class words, stable per seed. Paradigms whose contrast needs what a mode removes refuse it "
    "(docs/paradigms.md); with --all they are skipped.",
)

lexicon_overlay_option = click.option(
    "--lexicon-overlay",
    "overlays",
    multiple=True,
    type=click.Path(dir_okay=False, exists=True),
    help="Extra lexicon entries: a .tsv of rows or a .yaml overlay (repeatable; also $BLIMPGEN_LEXICON_OVERLAY).",
)


@click.command("list")
@click.option("--phenomenon", help="Only paradigms and probe suites with this linguistics_term.")
@paradigm_path_option
@lexicon_overlay_option
def list_command(phenomenon: str | None, paradigm_paths: tuple[str, ...], overlays: tuple[str, ...]) -> None:
    """List paradigms, then probe suites: UID, phenomenon, field, one-line description."""
    from blimpgen.authoring.browse import render_list
    from blimpgen.generators.catalog import Catalog

    text = render_list(Catalog.from_environment(paradigm_paths, overlays), phenomenon)
    if text is None:
        raise click.ClickException(f"no paradigm or probe suite has linguistics_term {phenomenon!r}")
    click.echo(text)


def _parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise click.UsageError(f"--option takes NAME=VALUE, got {pair!r}")
        out[name.strip()] = value.strip()
    return out


@click.command("gen")
@click.option("--paradigm", "-p", "uids", multiple=True, help="Paradigm UID or probe suite name (repeatable).")
@click.option("--all", "all_paradigms", is_flag=True, help="Every minimal-pair paradigm.")
@click.option("--all-probes", is_flag=True, help="Every probe suite.")
@click.option(
    "--all-designs",
    is_flag=True,
    help="Every shipped factorial design (paradigms with factors; not part of --all: docs/factors.md).",
)
@click.option(
    "-n",
    "--num",
    "n",
    type=click.IntRange(0, 10_000_000),
    default=1000,
    show_default=True,
    help="Pairs (or probe items) per paradigm.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@output_option(
    "JSONL file of one paradigm, or a folder of UID.jsonl files (probe controls: UID.CONTROL.jsonl) when "
    "several are asked for or the path ends in /; stdout when omitted.",
    type=OutputPath(),
)
@click.option("--out-dir", type=OutputPath(file_okay=False), hidden=True)  # before -o took folders
@click.option(
    "--option",
    "probe_options",
    multiple=True,
    metavar="NAME=VALUE",
    help="Probe suites: set a suite option, e.g. --option max_age=30 (repeatable).",
)
@click.option(
    "--control",
    "controls",
    multiple=True,
    type=click.Choice([*CONTROLS, "all"]),
    help="Probe suites: also write this control (repeatable; 'all' for every control the suite offers; "
    "--option shuffles=N makes N versions of each shuffling control).",
)
@lexicon_mode_option
@click.option(
    "--design",
    "design",
    multiple=True,
    metavar="full|FACTOR=LEVEL,...",
    help="Paradigms with factors: every combination of levels (full), or only those with the levels "
    "listed (attractor=none,pp; repeatable; paradigms without that factor keep every cell), -n "
    "pairs each, in turn (docs/factors.md).",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(1),
    default=None,
    show_default="the CPUs this process may use",
    help="Processes writing files at once (several paradigms); 1 writes one after another. "
    "The output is the same bytes either way.",
)
@paradigm_path_option
@lexicon_overlay_option
@click.option("-q", "--quiet", is_flag=True, help="No progress bar or per-file lines on stderr.")
def gen_command(
    uids: tuple[str, ...],
    all_paradigms: bool,
    all_probes: bool,
    all_designs: bool,
    n: int,
    seed: int,
    output: str | None,
    out_dir: str | None,
    probe_options: tuple[str, ...],
    controls: tuple[str, ...],
    lexicon_mode: str,
    design: tuple[str, ...],
    jobs: int | None,
    paradigm_paths: tuple[str, ...],
    overlays: tuple[str, ...],
    quiet: bool,
) -> None:
    """Generate minimal pairs as BLiMP-schema JSONL, or probe items."""
    from blimpgen.generators.catalog import Catalog
    from blimpgen.generators.generate import write_outputs
    from blimpgen.generators.modes import build_in_mode
    from blimpgen.generators.pool import default_jobs
    from blimpgen.grammar import ParadigmSpec, ProbeSpec

    every = all_paradigms or all_probes or all_designs
    if not (every or uids) or (uids and every):
        raise click.UsageError("give --paradigm UID (one or more), --all, --all-probes or --all-designs")
    if output and out_dir:
        raise click.UsageError("give -o/--output once (--out-dir is its earlier name for a folder)")
    catalog = Catalog.from_environment(paradigm_paths, overlays)
    names = [catalog.get(uid).uid for uid in uids]
    names += catalog.names(ParadigmSpec) if all_paradigms else []
    names += catalog.names(ProbeSpec) if all_probes else []
    names += catalog.design_names() if all_designs else []
    if (probe_options or controls) and not catalog.takes_options(names):
        raise click.UsageError("--option and --control apply to probe suites only")
    sources, skipped = build_in_mode(
        catalog, names, lexicon_mode, seed, skip_refused=every, options=_parse_options(probe_options)
    )
    if skipped and not quiet:
        click.echo(
            f"skipped {len(skipped)} that refuse --lexicon-mode {lexicon_mode} (docs/paradigms.md says why): "
            f"{', '.join(uid for uid, _ in skipped)}",
            err=True,
        )
    if output and (len(sources) > 1 or output.endswith(("/", os.sep))):
        output, out_dir = None, output
    elif output and os.path.isdir(output):
        raise click.BadParameter(
            f"File {output!r} is a directory. For a UID.jsonl file in it, end the path with /.",
            param_hint="'-o' / '--output'",
        )
    if len(sources) > 1 and not out_dir:
        raise click.UsageError("several paradigms need -o/--output FOLDER")
    report = None if quiet else (lambda line: click.echo(line, err=True))
    if design:
        from blimpgen.generators.design import balanced_all, parse_design

        for source in balanced_all(sources, parse_design(design)):  # -n pairs per cell
            write_outputs(
                [source],
                n * source.cells,
                seed,
                output,
                out_dir,
                progress=not quiet,
                report=report,
                inputs=catalog.inputs(),
            )
        return
    write_outputs(
        sources,
        n,
        seed,
        output,
        out_dir,
        controls,
        progress=not quiet,
        report=report,
        jobs=default_jobs() if jobs is None else jobs,
        inputs=catalog.inputs(),
    )


@click.command("show")
@click.argument("uid")
@click.option(
    "-n", "--num", "n", type=click.IntRange(1, 10_000), default=10, show_default=True, help="Pairs (items) to show."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (as for gen).")
@lexicon_mode_option
@paradigm_path_option
@lexicon_overlay_option
def show_command(
    uid: str, n: int, seed: int, lexicon_mode: str, paradigm_paths: tuple[str, ...], overlays: tuple[str, ...]
) -> None:
    """Preview a paradigm: the good sentence, then the bad one starred (probe suites: items)."""
    from blimpgen.authoring.browse import render_preview
    from blimpgen.generators.catalog import Catalog

    for line in render_preview(Catalog.from_environment(paradigm_paths, overlays), uid, n, seed, lexicon_mode):
        click.echo(line)


@click.command("catalogue")
@output_option("Markdown file; stdout when omitted.", type=OutputPath(dir_okay=False))
@paradigm_path_option
def catalogue_command(output: str | None, paradigm_paths: tuple[str, ...]) -> None:
    """Write the paradigm catalogue (Markdown) from the specs."""
    from blimpgen._io import atomic_writer, refuse_inputs
    from blimpgen.authoring.catalogue import render_catalogue
    from blimpgen.generators.catalog import Catalog, sources_as
    from blimpgen.generators.paradigm import Paradigm
    from blimpgen.grammar import ParadigmSpec

    catalog = Catalog.from_environment(paradigm_paths)
    refuse_inputs(output, catalog.inputs())
    sources = catalog.build(spec_type=ParadigmSpec)
    text = render_catalogue(sources_as(sources, Paradigm))
    if output is None:
        click.echo(text, nl=False)
        return
    with atomic_writer(output) as handle:
        handle.write(text)
