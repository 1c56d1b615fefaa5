"""``blimpgen export hf`` and ``blimpgen export lm-eval``: option parsing only.

The work is in :mod:`blimpgen.export`; its modules are imported inside the commands so
``blimpgen export --help`` needs neither ``datasets`` nor ``huggingface_hub``.
"""

from __future__ import annotations

import click

from blimpgen.cli import OutputPath, output_option
from blimpgen.export.card import DEFAULT_LICENSE, DEFAULT_PRETTY_NAME
from blimpgen.export.lm_eval import DEFAULT_GROUP


@click.group("export")
def export_group() -> None:
    """Export to Hugging Face datasets and lm-evaluation-harness."""


@export_group.command("hf")
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True),
    help="BLiMP-schema JSONL file, or a folder of <UID>.jsonl files.",
)
@output_option(
    "Folder to write (one parquet config per paradigm + README card).", dest="out", type=OutputPath(file_okay=False)
)
@click.option(
    "--push-to-hub",
    "repo_id",
    metavar="USER/NAME",
    help="Also upload to this Hub dataset repo (needs a token and network).",
)
@click.option(
    "--save-to-disk",
    is_flag=True,
    help="Write datasets.save_to_disk folders (one per paradigm) instead of the hub layout.",
)
@click.option("--pretty-name", default=DEFAULT_PRETTY_NAME, show_default=True, help="Dataset card title.")
@click.option(
    "--license", "license_id", default=DEFAULT_LICENSE, show_default=True, help="Hub license id for the card."
)
@click.option("--private", is_flag=True, help="Create the Hub repo private.")
@click.option("--token", envvar="HF_TOKEN", help="Hub token (default: $HF_TOKEN or the saved login).")
@click.option("--overwrite", is_flag=True, help="Replace an earlier export at -o.")
def hf_command(
    data: str,
    out: str | None,
    repo_id: str | None,
    save_to_disk: bool,
    pretty_name: str,
    license_id: str,
    private: bool,
    token: str | None,
    overwrite: bool,
) -> None:
    """Export pairs as a Hugging Face dataset: parquet per paradigm plus a dataset card."""
    if repo_id and save_to_disk:
        raise click.UsageError("--push-to-hub needs the hub layout; drop --save-to-disk")
    if repo_id:
        from blimpgen.export.push import export_and_push

        pushed = export_and_push(
            data,
            repo_id,
            out,
            overwrite=overwrite,
            token=token,
            private=private,
            pretty_name=pretty_name,
            license_id=license_id,
        )
        click.echo(f"pushed {pushed.repo_id}: {pushed.commit_url}", err=True)
        return
    if out is None:
        raise click.UsageError("give -o/--output, --push-to-hub USER/NAME, or both")
    from blimpgen.export.hf import export_dataset

    result = export_dataset(
        data,
        out,
        layout="disk" if save_to_disk else "hub",
        overwrite=overwrite,
        pretty_name=pretty_name,
        license_id=license_id,
    )
    total = sum(result.counts.values())
    click.echo(f"{len(result.counts)} configs, {total} pairs -> {result.path}", err=True)


@export_group.command("lm-eval")
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="Folder written by `blimpgen export hf`.",
)
@output_option(
    "Folder for the task YAMLs (pass it to lm_eval --include_path).",
    dest="out",
    required=True,
    type=OutputPath(file_okay=False),
)
@click.option("--group", default=DEFAULT_GROUP, show_default=True, help="Group name; tasks are named GROUP_UID.")
@click.option(
    "--dataset-path", help="What the tasks load: default the absolute --data path; a Hub repo id after a push."
)
@click.option("--overwrite", is_flag=True, help="Replace earlier task files at -o.")
def lm_eval_command(data: str, out: str, group: str, dataset_path: str | None, overwrite: bool) -> None:
    """Write lm-evaluation-harness task files: one per paradigm plus a group."""
    from blimpgen.export.lm_eval import write_task_files

    written = write_task_files(data, out, group=group, dataset_path=dataset_path, overwrite=overwrite)
    click.echo(f"{len(written.tasks)} tasks in group {written.group} -> {written.path}", err=True)
