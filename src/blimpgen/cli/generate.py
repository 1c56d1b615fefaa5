"""``blimpgen list``, ``gen`` and ``show``: option parsing only; the work is in blimpgen.generators."""

from __future__ import annotations

import os
from pathlib import Path

import click

PARADIGM_PATH_ENV = "BLIMPGEN_PARADIGM_PATH"


def paradigm_folders(paths: tuple[str, ...]) -> tuple[str, ...]:
    from blimpgen.grammar.discovery import entry_point_paradigm_paths

    env = os.environ.get(PARADIGM_PATH_ENV, "")
    return tuple(paths) + tuple(p for p in env.split(os.pathsep) if p) + entry_point_paradigm_paths()


def overlaid_lexicon(overlays: tuple[str, ...]):  # noqa: ANN202 - a Lexicon, imported lazily
    from blimpgen.vocab.overlays import load_lexicon_with_overlays, overlay_paths

    return load_lexicon_with_overlays(overlay_paths(overlays))


paradigm_path_option = click.option(
    "--paradigm-path", "paradigm_paths", multiple=True, type=click.Path(file_okay=False),
    help=f"Extra folder of paradigm YAML files (repeatable; also ${PARADIGM_PATH_ENV}).")

lexicon_overlay_option = click.option(
    "--lexicon-overlay", "overlays", multiple=True, type=click.Path(dir_okay=False, exists=True),
    help="Extra lexicon entries: a .tsv of rows or a .yaml overlay (repeatable; also $BLIMPGEN_LEXICON_OVERLAY).")


@click.command("list")
@click.option("--phenomenon", help="Only paradigms and probe suites with this linguistics_term.")
@paradigm_path_option
@lexicon_overlay_option
def list_command(phenomenon: str | None, paradigm_paths: tuple[str, ...], overlays: tuple[str, ...]) -> None:
    """List paradigms, then probe suites: UID, phenomenon, field, one-line description."""
    from blimpgen.grammar.loader import load_shipped_specs, load_specs
    from blimpgen.grammar.probe_spec import ProbeSpec

    if overlays or os.environ.get("BLIMPGEN_LEXICON_OVERLAY"):
        overlaid_lexicon(overlays)  # report overlay errors here too
    paths = paradigm_folders(paradigm_paths)
    specs = load_specs(paths) if paths else load_shipped_specs()
    probes = load_specs(paths, ProbeSpec) if paths else load_shipped_specs(ProbeSpec)
    rows = [s.spec for s in specs.values() if phenomenon in (None, s.spec.linguistics_term)]
    probe_rows = [p.spec for p in probes.values() if phenomenon in (None, p.spec.linguistics_term)]
    if not rows and not probe_rows:
        raise click.ClickException(f"no paradigm or probe suite has linguistics_term {phenomenon!r}")
    width = max(len(r.uid) for r in rows + probe_rows)
    term_width = max(len(r.linguistics_term) for r in rows + probe_rows)
    for r in sorted(rows, key=lambda r: (r.linguistics_term, r.uid)):
        click.echo(f"{r.uid:<{width}}  {r.linguistics_term:<{term_width}}  {r.field:<16}  {r.description}")
    if probe_rows:
        if rows:
            click.echo("")
        click.echo("probe suites (items, not pairs):")
        for r in sorted(probe_rows, key=lambda r: r.uid):
            kind = r.item.replace("_", "-")
            click.echo(f"{r.uid:<{width}}  {r.linguistics_term:<{term_width}}  {kind:<16}  {r.description}")


def _split_names(uids: tuple[str, ...], paths: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(paradigm UIDs, probe suite names) among ``uids``; probe suites are loaded only when a
    name is not a paradigm, so generating pairs costs nothing extra.

    Raises:
        UnknownNameError: for a name that is neither, with suggestions from both.
    """
    from blimpgen.errors import UnknownNameError
    from blimpgen.grammar.loader import load_shipped_specs, load_specs
    from blimpgen.grammar.probe_spec import ProbeSpec

    specs = load_specs(paths) if paths else load_shipped_specs()
    others = [u for u in uids if u not in specs]
    if not others:
        return list(uids), []
    probes = load_specs(paths, ProbeSpec) if paths else load_shipped_specs(ProbeSpec)
    unknown = [u for u in others if u not in probes]
    if unknown:
        raise UnknownNameError("paradigm or probe suite", unknown[0], [*specs, *probes])
    return [u for u in uids if u in specs], others


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
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Output JSONL file (one paradigm); stdout when omitted.")
@click.option("--out-dir", type=click.Path(file_okay=False),
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
    from blimpgen.generators.generate import load_paradigms, write_jsonl
    from blimpgen.generators.probes import load_probe_suites, write_items

    if not (all_paradigms or all_probes or uids) or (uids and (all_paradigms or all_probes)):
        raise click.UsageError("give --paradigm UID (one or more), --all or --all-probes")
    if output and out_dir:
        raise click.UsageError("give either -o/--output or --out-dir, not both")
    paths = paradigm_folders(paradigm_paths)
    pair_uids, probe_uids = _split_names(uids, paths)
    if (probe_options or controls) and not (probe_uids or all_probes):
        raise click.UsageError("--option and --control apply to probe suites only")
    lexicon = overlaid_lexicon(overlays)
    paradigms = []
    if all_paradigms or pair_uids:
        paradigms = load_paradigms(None if all_paradigms else pair_uids, paths, lexicon)
    probes = []
    if all_probes or probe_uids:
        probes = load_probe_suites(None if all_probes else probe_uids, paths, lexicon, _parse_options(probe_options))
    if len(paradigms) + len(probes) > 1 and not out_dir:
        raise click.UsageError("several paradigms need --out-dir")
    for paradigm in paradigms:
        target = Path(out_dir) / f"{paradigm.uid}.jsonl" if out_dir else (Path(output) if output else None)
        count = write_jsonl(paradigm, n, seed, target, progress=not quiet)
        if target is not None and not quiet:
            click.echo(f"{paradigm.uid}: {count} pairs -> {target}", err=True)
    for probe in probes:
        wanted = ("none",) + tuple(c for c in controls if c not in ("none", "all"))
        if "all" in controls:
            wanted = tuple(probe.spec.controls)
        if out_dir:
            for control in wanted:
                name = probe.uid if control == "none" else f"{probe.uid}.{control}"
                target = Path(out_dir) / f"{name}.jsonl"
                count = write_items(probe, n, seed, target, (control,))
                if not quiet:
                    click.echo(f"{name}: {count} items -> {target}", err=True)
        else:
            count = write_items(probe, n, seed, Path(output) if output else None, wanted)
            if output and not quiet:
                click.echo(f"{probe.uid}: {count} items -> {output}", err=True)


@click.command("show")
@click.argument("uid")
@click.option("-n", "--num", "n", type=click.IntRange(1, 10_000), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@paradigm_path_option
@lexicon_overlay_option
def show_command(uid: str, n: int, seed: int, paradigm_paths: tuple[str, ...], overlays: tuple[str, ...]) -> None:
    """Preview a paradigm: the good sentence, then the bad one starred (probe suites: items)."""
    from blimpgen.generators.generate import generate, load_paradigms
    from blimpgen.grammar.loader import load_shipped_specs, load_specs
    from blimpgen.grammar.probe_spec import ProbeSpec

    paths = paradigm_folders(paradigm_paths)
    if uid not in (load_specs(paths) if paths else load_shipped_specs()) and \
            uid in (load_specs(paths, ProbeSpec) if paths else load_shipped_specs(ProbeSpec)):
        from blimpgen.generators.probes import generate_items, load_probe_suites

        (probe,) = load_probe_suites([uid], paths, overlaid_lexicon(overlays))
        spec = probe.spec
        click.echo(f"{spec.uid} ({spec.linguistics_term}, {spec.item}): {spec.description}")
        for item in generate_items(probe, n, seed):
            click.echo(f"  {item.context}   [{' / '.join(item.candidates)}] -> {item.answer}"
                       + (f"   expected: {', '.join(item.expected)}" if item.expected else ""))
        return
    (paradigm,) = load_paradigms([uid], paths, overlaid_lexicon(overlays))
    spec = paradigm.spec
    click.echo(f"{spec.uid} ({spec.linguistics_term}, {spec.field}): {spec.description}")
    for pair in generate(paradigm, n, seed):
        click.echo(f"  {pair.sentence_good}")
        click.echo(f" *{pair.sentence_bad}")


@click.command("catalogue")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Markdown file; stdout when omitted.")
@paradigm_path_option
def catalogue_command(output: str | None, paradigm_paths: tuple[str, ...]) -> None:
    """Write the paradigm catalogue (Markdown) from the specs."""
    from blimpgen.authoring.catalogue import render_catalogue
    from blimpgen.generators.generate import load_paradigms
    from blimpgen._io import atomic_writer

    text = render_catalogue(load_paradigms(None, paradigm_folders(paradigm_paths)))
    if output is None:
        click.echo(text, nl=False)
        return
    with atomic_writer(output) as handle:
        handle.write(text)
