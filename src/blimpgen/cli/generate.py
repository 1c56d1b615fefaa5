"""``blimpgen list``, ``gen``, ``show`` and ``catalogue``: option parsing only.

Every command builds one :class:`~blimpgen.generators.catalog.Catalog` from its flags (and the
environment) and calls one library function with it.
"""

from __future__ import annotations

import click

from blimpgen.cli import OutputPath

paradigm_path_option = click.option(
    "--paradigm-path", "paradigm_paths", multiple=True, type=click.Path(file_okay=False),
    help="Extra folder of paradigm YAML files (repeatable; also $BLIMPGEN_PARADIGM_PATH).")

lexicon_overlay_option = click.option(
    "--lexicon-overlay", "overlays", multiple=True, type=click.Path(dir_okay=False, exists=True),
    help="Extra lexicon entries: a .tsv of rows or a .yaml overlay (repeatable; also $BLIMPGEN_LEXICON_OVERLAY).")


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
@click.option("-n", "--num", "n", type=click.IntRange(0, 10_000_000), default=1000, show_default=True,
              help="Pairs (or probe items) per paradigm.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("-o", "--output", type=OutputPath(dir_okay=False),
              help="Output JSONL file (one paradigm); stdout when omitted.")
@click.option("--out-dir", type=OutputPath(file_okay=False),
              help="Folder for UID.jsonl files (probe controls: UID.CONTROL.jsonl).")
@click.option("--option", "probe_options", multiple=True, metavar="NAME=VALUE",
              help="Probe suites: set a suite option, e.g. --option max_age=30 (repeatable).")
@click.option("--control", "controls", multiple=True,
              type=click.Choice(["none", "no_language", "perturbed_language", "shuffled", "truncated", "all"]),
              help="Probe suites: also write this control (repeatable; 'all' for every control the suite offers).")
@paradigm_path_option
@lexicon_overlay_option
@click.option("--quiet", is_flag=True, help="No progress bar.")
def gen_command(uids: tuple[str, ...], all_paradigms: bool, all_probes: bool, n: int, seed: int, output: str | None,
                out_dir: str | None, probe_options: tuple[str, ...], controls: tuple[str, ...],
                paradigm_paths: tuple[str, ...], overlays: tuple[str, ...], quiet: bool) -> None:
    """Generate minimal pairs as BLiMP-schema JSONL, or probe items."""
    from blimpgen.generators.catalog import Catalog
    from blimpgen.generators.generate import write_outputs
    from blimpgen.grammar import ParadigmSpec, ProbeSpec

    if not (all_paradigms or all_probes or uids) or (uids and (all_paradigms or all_probes)):
        raise click.UsageError("give --paradigm UID (one or more), --all or --all-probes")
    if output and out_dir:
        raise click.UsageError("give either -o/--output or --out-dir, not both")
    catalog = Catalog.from_environment(paradigm_paths, overlays)
    names = [catalog.get(uid).uid for uid in uids]
    names += catalog.names(ParadigmSpec) if all_paradigms else []
    names += catalog.names(ProbeSpec) if all_probes else []
    if (probe_options or controls) and not catalog.takes_options(names):
        raise click.UsageError("--option and --control apply to probe suites only")
    sources = catalog.build(names, options=_parse_options(probe_options))
    if len(sources) > 1 and not out_dir:
        raise click.UsageError("several paradigms need --out-dir")
    write_outputs(sources, n, seed, output, out_dir, controls, progress=not quiet,
                  report=None if quiet else (lambda line: click.echo(line, err=True)), inputs=catalog.inputs())


@click.command("show")
@click.argument("uid")
@click.option("-n", "--num", "n", type=click.IntRange(1, 10_000), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@paradigm_path_option
@lexicon_overlay_option
def show_command(uid: str, n: int, seed: int, paradigm_paths: tuple[str, ...], overlays: tuple[str, ...]) -> None:
    """Preview a paradigm: the good sentence, then the bad one starred (probe suites: items)."""
    from blimpgen.authoring.browse import render_preview
    from blimpgen.generators.catalog import Catalog

    for line in render_preview(Catalog.from_environment(paradigm_paths, overlays), uid, n, seed):
        click.echo(line)


@click.command("catalogue")
@click.option("-o", "--output", type=OutputPath(dir_okay=False), help="Markdown file; stdout when omitted.")
@paradigm_path_option
def catalogue_command(output: str | None, paradigm_paths: tuple[str, ...]) -> None:
    """Write the paradigm catalogue (Markdown) from the specs."""
    from blimpgen._io import atomic_writer, refuse_inputs
    from blimpgen.authoring.catalogue import render_catalogue
    from blimpgen.generators.catalog import Catalog
    from blimpgen.grammar import ParadigmSpec

    catalog = Catalog.from_environment(paradigm_paths)
    refuse_inputs(output, catalog.inputs())
    text = render_catalogue(catalog.build(spec_type=ParadigmSpec))
    if output is None:
        click.echo(text, nl=False)
        return
    with atomic_writer(output) as handle:
        handle.write(text)
