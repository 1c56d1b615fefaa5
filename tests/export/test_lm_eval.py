"""lm-evaluation-harness task files: written from an export, loaded by lm-eval's own TaskManager."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from blimpgen.errors import BlimpgenError
from blimpgen.export import lm_eval as tasks
from tests.export.conftest import FIXTURES, UIDS

TASK_NAMES = [f"blimpgen_{uid}" for uid in UIDS]


@pytest.fixture(scope="module")
def task_dir(exported: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tasks.write_task_files(exported, tmp_path_factory.mktemp("lm_eval") / "tasks").path


def test_lm_eval_writes_one_task_per_config_and_a_group(task_dir: Path, exported: Path) -> None:
    assert sorted(p.name for p in task_dir.iterdir()) == ["_blimpgen.yaml", *(f"{t}.yaml" for t in TASK_NAMES)]
    group = yaml.safe_load((task_dir / "_blimpgen.yaml").read_text(encoding="utf-8"))
    assert group["group"] == "blimpgen" and group["task"] == TASK_NAMES
    assert group["aggregate_metric_list"] == [{"metric": "acc", "aggregation": "mean", "weight_by_size": False}]
    task = yaml.safe_load((task_dir / "blimpgen_npi_present_1.yaml").read_text(encoding="utf-8"))
    assert task["dataset_path"] == str(exported.resolve())
    assert (task["dataset_name"], task["output_type"], task["doc_to_text"], task["doc_to_target"]) == (
        "npi_present_1",
        "multiple_choice",
        "",
        0,
    )
    assert task["doc_to_choice"] == "{{[sentence_good, sentence_bad]}}"
    assert task["target_delimiter"] == ""  # lm-eval's default " " would score " " + sentence
    assert task["metric_list"][0]["metric"] == "acc"


def test_lm_eval_task_files_load_in_task_manager(task_dir: Path, fixture_pairs) -> None:
    lm_tasks = pytest.importorskip("lm_eval.tasks")
    manager = lm_tasks.TaskManager(include_path=str(task_dir), include_defaults=False)
    assert manager.all_groups == ["blimpgen"]
    assert manager.all_subtasks == TASK_NAMES
    loaded = manager.load(["blimpgen"])
    assert loaded["group_map"]["blimpgen"] == TASK_NAMES
    for uid, name in zip(UIDS, TASK_NAMES):
        task = loaded["tasks"][name]
        docs = list(task.eval_docs)
        assert [(d["sentence_good"], d["sentence_bad"]) for d in docs] == [
            (p.sentence_good, p.sentence_bad) for p in fixture_pairs[uid]
        ]
        assert task.doc_to_choice(docs[0]) == [docs[0]["sentence_good"], docs[0]["sentence_bad"]]
        assert task.doc_to_target(docs[0]) == 0
        assert task.doc_to_text(docs[0]) == ""
        # the request lm-eval sends the model: empty context (its prefix token), the bare sentence
        requests = task.construct_requests(docs[0], task.fewshot_context(docs[0], num_fewshot=0))
        assert [r.args for r in requests] == [("", docs[0]["sentence_good"]), ("", docs[0]["sentence_bad"])]


def test_lm_eval_dataset_path_and_group_options(exported: Path, tmp_path: Path) -> None:
    written = tasks.write_task_files(exported, tmp_path / "t", group="mine", dataset_path="user/my_blimp")
    assert written.tasks == [f"mine_{uid}" for uid in UIDS]
    task = yaml.safe_load((tmp_path / "t" / "mine_npi_present_1.yaml").read_text(encoding="utf-8"))
    assert task["dataset_path"] == "user/my_blimp"
    assert (tmp_path / "t" / "_mine.yaml").is_file()


def test_lm_eval_overwrite_replaces_only_our_files(exported: Path, tmp_path: Path) -> None:
    out = tasks.write_task_files(exported, tmp_path / "t").path
    with pytest.raises(BlimpgenError, match="--overwrite"):
        tasks.write_task_files(exported, out)
    tasks.write_task_files(exported, out, group="again", overwrite=True)
    assert sorted(p.name for p in out.iterdir())[0] == "_again.yaml"
    (out / "mine.yaml").write_text("task: mine\n", encoding="utf-8")
    with pytest.raises(BlimpgenError, match="not an earlier blimpgen export"):
        tasks.write_task_files(exported, out, overwrite=True)
    assert (out / "mine.yaml").is_file()


@pytest.mark.parametrize("data", [FIXTURES, None])
def test_lm_eval_needs_a_hub_layout_export(tmp_path: Path, data: Path | None) -> None:
    with pytest.raises(BlimpgenError, match="README.md"):
        tasks.write_task_files(data or tmp_path, tmp_path / "t")
    assert not (tmp_path / "t").exists()


def test_lm_eval_rejects_card_config_without_data(exported: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "README.md").write_text((exported / "README.md").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(BlimpgenError, match="no parquet files"):
        tasks.write_task_files(copy, tmp_path / "t")
    assert sorted(os.listdir(tmp_path)) == ["copy"]


def test_lm_eval_rejects_bad_group_name(exported: Path, tmp_path: Path) -> None:
    with pytest.raises(BlimpgenError, match="group name"):
        tasks.write_task_files(exported, tmp_path / "t", group="my group")
