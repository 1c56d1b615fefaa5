"""Pushing to the Hub, with ``huggingface_hub.HfApi`` replaced by a recorder: no network, ever."""

from __future__ import annotations

from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.export import push
from tests.export.conftest import FIXTURES, UIDS

hub = pytest.importorskip("huggingface_hub")
hub_errors = pytest.importorskip("huggingface_hub.errors")


class RecordingApi:
    """Stands in for ``HfApi``: records calls, and checks the folder while it still exists."""

    calls: list[tuple[str, dict]] = []
    fail_with: Exception | None = None

    def __init__(self, token=None) -> None:
        self.calls.append(("init", {"token": token}))

    def create_repo(self, repo_id, **kwargs):
        self.calls.append(("create_repo", {"repo_id": repo_id, **kwargs}))
        if self.fail_with is not None:
            raise self.fail_with
        return f"https://huggingface.co/datasets/{repo_id}"

    def upload_folder(self, **kwargs):
        folder = Path(kwargs["folder_path"])
        kwargs["files"] = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
        self.calls.append(("upload_folder", kwargs))
        return type("Commit", (), {"commit_url": f"https://huggingface.co/datasets/{kwargs['repo_id']}/commit/1"})()


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> type[RecordingApi]:
    monkeypatch.setattr(RecordingApi, "calls", [])
    monkeypatch.setattr(RecordingApi, "fail_with", None)
    monkeypatch.setattr(hub, "HfApi", RecordingApi)
    return RecordingApi


def test_push_creates_a_dataset_repo_and_uploads_the_export(api, exported: Path) -> None:
    result = push.push_folder(exported, "user/my_blimp", token="hf_test", private=True)
    assert [name for name, _ in api.calls] == ["init", "create_repo", "upload_folder"]
    assert api.calls[0][1] == {"token": "hf_test"}
    assert api.calls[1][1] == {"repo_id": "user/my_blimp", "repo_type": "dataset", "private": True, "exist_ok": True}
    upload = api.calls[2][1]
    assert (upload["repo_id"], upload["repo_type"]) == ("user/my_blimp", "dataset")
    assert upload["folder_path"] == str(exported)
    assert upload["delete_patterns"] == ["data/**"]
    assert upload["files"] == ["README.md", *(f"data/{uid}/train-00000-of-00001.parquet" for uid in UIDS)]
    assert result.commit_url.endswith("/commit/1")


def test_push_public_by_default_leaves_visibility_to_the_hub(api, exported: Path) -> None:
    push.push_folder(exported, "user/my_blimp")
    assert api.calls[1][1]["private"] is None


def test_push_export_and_push_uses_a_temporary_folder(api, tmp_path: Path) -> None:
    push.export_and_push(FIXTURES, "user/my_blimp")
    upload = api.calls[-1][1]
    assert "README.md" in upload["files"]
    assert not Path(upload["folder_path"]).exists()  # the temporary export is gone


def test_push_export_and_push_keeps_the_folder_when_asked(api, tmp_path: Path) -> None:
    push.export_and_push(FIXTURES, "user/my_blimp", tmp_path / "kept")
    assert (tmp_path / "kept" / "README.md").read_text(encoding="utf-8").count('"user/my_blimp"') >= 1


@pytest.mark.parametrize("repo_id", ["no_namespace", "user/bad name", "a/b/c"])
def test_push_rejects_bad_repo_ids(api, exported: Path, repo_id: str) -> None:
    with pytest.raises(BlimpgenError, match="invalid Hub repo id"):
        push.push_folder(exported, repo_id)
    assert api.calls == []


def test_push_refuses_a_folder_that_is_not_an_export(api, tmp_path: Path) -> None:
    with pytest.raises(BlimpgenError, match="not a hub-layout export"):
        push.push_folder(tmp_path, "user/my_blimp")


def test_push_hub_errors_become_one_line(api, exported: Path) -> None:
    api.fail_with = hub_errors.LocalTokenNotFoundError("Token is required.\nRun `hf auth login`.")
    with pytest.raises(BlimpgenError) as caught:
        push.push_folder(exported, "user/my_blimp")
    assert str(caught.value) == "push to user/my_blimp failed: Token is required."
