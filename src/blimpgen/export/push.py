"""Upload an export to the Hugging Face Hub with ``huggingface_hub``.

The Hub layout from :mod:`blimpgen.export.hf` is already what the Hub serves, so pushing is
``create_repo`` plus one ``upload_folder`` commit. Parquet shards of paradigms that are no
longer in the export are deleted in the same commit, so the repo matches the folder.
``huggingface_hub`` is imported only here, only when pushing; tests never reach the network.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from blimpgen.errors import DataError, OptionError, ServiceError
from blimpgen.export import card as dataset_card
from blimpgen.export._deps import require
from blimpgen.export.hf import export_dataset, is_export_folder


@dataclass(frozen=True)
class PushResult:
    """Where the dataset went: the repo id, its URL and the commit URL."""

    repo_id: str
    repo_url: str
    commit_url: str


def push_folder(
    folder: Path | str,
    repo_id: str,
    *,
    token: str | None = None,
    private: bool = False,
    revision: str | None = None,
    commit_message: str | None = None,
) -> PushResult:
    """Create the dataset repo if needed and upload a Hub-layout export as one commit.

    Args:
        folder: a folder written by :func:`blimpgen.export.hf.export_dataset` (hub layout).
        repo_id: ``user/name`` or ``org/name``.
        token: a Hub token; ``None`` uses ``HF_TOKEN`` or the saved login.
        private: create the repo private (an existing repo keeps its visibility).
        revision: branch to commit to; the default branch when ``None``.
        commit_message: defaults to a message naming blimpgen.

    Raises:
        DataError: for a folder that is not an export.
        OptionError: for a bad repo id.
        ServiceError: for a Hub error (authentication, permissions, network), as one line.
        MissingDependencyError: without huggingface_hub.
    """
    folder = Path(folder)
    if not is_export_folder(folder) or not (folder / "data").is_dir():
        raise DataError(f"{folder}: not a hub-layout export; run `blimpgen export hf` without --save-to-disk first")
    hub = require("huggingface_hub")
    errors = require("huggingface_hub.errors")
    try:
        hub.utils.validate_repo_id(repo_id)
        if "/" not in repo_id:
            raise errors.HFValidationError("expected 'user/name' or 'org/name'")
    except errors.HFValidationError as exc:
        raise OptionError(f"invalid Hub repo id {repo_id!r}: {exc}".replace("\n", " ")) from None
    api = hub.HfApi(token=token)
    try:
        # private=None leaves a new repo at the namespace's default visibility
        repo_url = api.create_repo(repo_id, repo_type="dataset", private=private or None, exist_ok=True)
        commit = api.upload_folder(
            repo_id=repo_id,
            repo_type="dataset",
            folder_path=str(folder),
            revision=revision,
            commit_message=commit_message or "Upload minimal pairs exported by blimpgen",
            delete_patterns=["data/**"],
        )
    except (errors.HfHubHTTPError, errors.LocalTokenNotFoundError, OSError, ValueError) as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ServiceError(f"push to {repo_id} failed: {first_line}") from None
    return PushResult(repo_id, str(repo_url), str(getattr(commit, "commit_url", commit)))


def export_and_push(
    data: Path | str,
    repo_id: str,
    out: Path | str | None = None,
    *,
    overwrite: bool = False,
    token: str | None = None,
    private: bool = False,
    revision: str | None = None,
    pretty_name: str = dataset_card.DEFAULT_PRETTY_NAME,
    license_id: str = dataset_card.DEFAULT_LICENSE,
) -> PushResult:
    """Export JSONL pairs in the hub layout and push them; keep the folder only when ``out`` is given.

    Args:
        data: a BLiMP-schema JSONL file or folder.
        repo_id: the Hub dataset repo to create or update.
        out: where to keep the export; a temporary folder when ``None``.
        overwrite: replace an earlier export at ``out``.
        token: a Hub token; ``None`` uses ``HF_TOKEN`` or the saved login.
        private: create the repo private.
        revision: branch to commit to.
        pretty_name: the card's title.
        license_id: the card's Hub license id.

    Raises:
        DataError, OptionError, ServiceError, MissingDependencyError: as
            :func:`~blimpgen.export.hf.export_dataset` and :func:`push_folder`.
    """
    if out is not None:
        result = export_dataset(
            data, out, overwrite=overwrite, pretty_name=pretty_name, license_id=license_id, dataset_id=repo_id
        )
        return push_folder(result.path, repo_id, token=token, private=private, revision=revision)
    with tempfile.TemporaryDirectory(prefix="blimpgen-export-") as tmp:
        result = export_dataset(
            data, Path(tmp) / "export", pretty_name=pretty_name, license_id=license_id, dataset_id=repo_id
        )
        return push_folder(result.path, repo_id, token=token, private=private, revision=revision)
