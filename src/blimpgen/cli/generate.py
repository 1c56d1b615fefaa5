"""``blimpgen list``, ``gen`` and ``show``: option parsing only; the work is in blimpgen.generators."""

from __future__ import annotations

import os
from pathlib import Path

import click

PARADIGM_PATH_ENV = "BLIMPGEN_PARADIGM_PATH"


def _paradigm_paths(paths: tuple[str, ...]) -> tuple[str, ...]:
    from blimpgen.grammar.loader import entry_point_paradigm_paths

    env = os.environ.get(PARADIGM_PATH_ENV, "")
    return tuple(paths) + tuple(p for p in env.split(os.pathsep) if p) + entry_point_paradigm_paths()


def _lexicon(overlays: tuple[str, ...]):  # noqa: ANN202 - a Lexicon, imported lazily
    from blimpgen.generators.sources import load_lexicon_with_overlays, overlay_paths

    return load_lexicon_with_overlays(overlay_paths(overlays))


paradigm_path_option = click.option(
    "--paradigm-path", "paradigm_paths", multiple=True, type=click.Path(file_okay=False),
    help=f"Extra folder of paradigm YAML files (repeatable; also ${PARADIGM_PATH_ENV}).")

lexicon_overlay_option = click.option(
    "--lexicon-overlay", "overlays", multiple=True, type=click.Path(dir_okay=False, exists=True),
    help="Extra lexicon entries: a .tsv of rows or a .yaml overlay (repeatable; also $BLIMPGEN_LEXICON_OVERLAY).")


@click.command("list")
@click.option("--phenomenon", help="Only paradigms with this linguistics_term.")
@paradigm_path_option
@lexicon_overlay_option
def list_command(phenomenon: str | None, paradigm_paths: tuple[str, ...], overlays: tuple[str, ...]) -> None:
    """List paradigms: UID, phenomenon, field, one-line description."""
    from blimpgen.grammar.loader import load_shipped_specs, load_specs

    if overlays or os.environ.get("BLIMPGEN_LEXICON_OVERLAY"):
        _lexicon(overlays)  # report overlay errors here too
    paths = _paradigm_paths(paradigm_paths)
    specs = load_specs(paths) if paths else load_shipped_specs()
    rows = [s.spec for s in specs.values() if phenomenon in (None, s.spec.linguistics_term)]
    if not rows:
        raise click.ClickException(f"no paradigm has linguistics_term {phenomenon!r}")
    width = max(len(r.uid) for r in rows)
    term_width = max(len(r.linguistics_term) for r in rows)
    for r in sorted(rows, key=lambda r: (r.linguistics_term, r.uid)):
        click.echo(f"{r.uid:<{width}}  {r.linguistics_term:<{term_width}}  {r.field:<16}  {r.description}")


@click.command("gen")
@click.option("--paradigm", "-p", "uids", multiple=True, help="Paradigm UID (repeatable).")
@click.option("--all", "all_paradigms", is_flag=True, help="Every paradigm.")
@click.option("-n", "--num", "n", type=click.IntRange(0, 10_000_000), default=1000, show_default=True,
              help="Pairs per paradigm.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Output JSONL file (one paradigm); stdout when omitted.")
@click.option("--out-dir", type=click.Path(file_okay=False), help="Folder for UID.jsonl files.")
@paradigm_path_option
@lexicon_overlay_option
@click.option("--quiet", is_flag=True, help="No progress bar.")
def gen_command(uids: tuple[str, ...], all_paradigms: bool, n: int, seed: int, output: str | None,
                out_dir: str | None, paradigm_paths: tuple[str, ...], overlays: tuple[str, ...], quiet: bool) -> None:
    """Generate minimal pairs as BLiMP-schema JSONL."""
    from blimpgen.generators.generate import load_paradigms, write_jsonl

    if all_paradigms == bool(uids):
        raise click.UsageError("give --paradigm UID (one or more) or --all")
    if output and out_dir:
        raise click.UsageError("give either -o/--output or --out-dir, not both")
    paradigms = load_paradigms(None if all_paradigms else list(uids), _paradigm_paths(paradigm_paths),
                               _lexicon(overlays))
    if len(paradigms) > 1 and not out_dir:
        raise click.UsageError("several paradigms need --out-dir")
    for paradigm in paradigms:
        target = Path(out_dir) / f"{paradigm.uid}.jsonl" if out_dir else (Path(output) if output else None)
        count = write_jsonl(paradigm, n, seed, target, progress=not quiet)
        if target is not None and not quiet:
            click.echo(f"{paradigm.uid}: {count} pairs -> {target}", err=True)


@click.command("show")
@click.argument("uid")
@click.option("-n", "--num", "n", type=click.IntRange(1, 10_000), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@paradigm_path_option
@lexicon_overlay_option
def show_command(uid: str, n: int, seed: int, paradigm_paths: tuple[str, ...], overlays: tuple[str, ...]) -> None:
    """Preview a paradigm: the good sentence, then the bad one starred."""
    from blimpgen.generators.generate import generate, load_paradigms

    (paradigm,) = load_paradigms([uid], _paradigm_paths(paradigm_paths), _lexicon(overlays))
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
    from blimpgen.generators.catalogue import render_catalogue
    from blimpgen.generators.generate import load_paradigms
    from blimpgen.generators.jsonl import atomic_writer

    text = render_catalogue(load_paradigms(None, _paradigm_paths(paradigm_paths)))
    if output is None:
        click.echo(text, nl=False)
        return
    with atomic_writer(output) as handle:
        handle.write(text)
