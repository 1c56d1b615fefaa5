"""Reports across result folders: models x phenomena (pairs) or x suites (probes), CSV and PNG figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.evaluate.reporting.report import load_result, run_report
from blimpgen.evaluate.runner import evaluate, write_results
from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer
from blimpgen.evaluate.tasks import PairTask, ProbeTask

from ..tiny import ITEMS, write_items

pytest.importorskip("matplotlib")


@pytest.fixture
def two_results(blimp_data: Path, tmp_path: Path) -> list[Path]:
    folders = []
    for name, counts in (("freq", {"is": 9, "are": 1, "herself": 3}), ("flat", {})):
        folder = tmp_path / "results" / name
        write_results(evaluate(UnigramScorer(counts=counts), blimp_data), folder)
        folders.append(folder)
    return folders


def test_report_table_and_figures(two_results: list[Path], tmp_path: Path):
    human = tmp_path / "human.json"
    human.write_text(json.dumps({"subject_verb_agreement_1": 0.9, "anaphor_number_agreement": 0.95}))
    plots = tmp_path / "plots"
    table_csv = tmp_path / "table.csv"
    text = run_report(two_results, plots=plots, human=human, out=table_csv)
    lines = text.splitlines()
    assert lines[0].split() == ["phenomenon", "freq", "flat"]
    assert any(line.startswith("overall") for line in lines)
    names = sorted(p.name for p in plots.iterdir())
    assert names == [
        "accuracy_by_length_perplexity_confidence.png",
        "accuracy_by_phenomenon.png",
        "paradigm_correlation.png",
    ]
    for name in names:
        assert (plots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert table_csv.read_text().startswith("phenomenon,freq,flat")


def test_report_folder_without_results_is_an_error(tmp_path: Path):
    with pytest.raises(BlimpgenError, match="no results.json here"):
        run_report([tmp_path])


def test_report_reads_back_the_task_of_each_folder(two_results: list[Path], two_probe_results: list[Path]):
    pairs, probes = load_result(two_results[0]), load_result(two_probe_results[0])
    assert (pairs.task, pairs.metrics) == (PairTask, ())
    assert probes.task is ProbeTask and probes.metrics[0] == "mc_accuracy"
    assert set(probes.groups) == {"agreement", "role"}
    assert len(pairs.records()) == 9 and len(probes.records()) == len(ITEMS)


# -- probe results ---------------------------------------------------------------------------------
@pytest.fixture
def probe_file(tmp_path: Path) -> Path:
    return write_items(tmp_path / "probes.jsonl", ITEMS)


@pytest.fixture
def two_probe_results(probe_file: Path, tmp_path: Path) -> list[Path]:
    folders = []
    for name, counts in (("freq", {"is": 9, "have": 4, "dog": 3}), ("flat", {"are": 2, "cat": 5})):
        folder = tmp_path / "probe-results" / name
        write_results(evaluate(UnigramScorer(counts=counts), probe_file), folder)
        folders.append(folder)
    return folders


def test_report_probes_two_folders_table_and_figures(two_probe_results: list[Path], tmp_path: Path):
    pytest.importorskip("matplotlib")
    plots = tmp_path / "plots"
    table_csv = tmp_path / "table.csv"
    text = run_report(two_probe_results, plots=plots, out=table_csv)
    lines = text.splitlines()
    assert lines[0].split() == ["suite", "freq", "flat"]
    assert [line.split()[0] for line in lines[1:4]] == ["agreement", "role", "overall"]
    assert "metric: mc_accuracy" in text
    assert sorted(p.name for p in plots.iterdir()) == [
        "accuracy_by_phenomenon.png",
        "accuracy_by_suite.png",
        "suite_correlation.png",
    ]
    assert table_csv.read_text().startswith("suite,freq,flat")
    sensitivity = run_report(two_probe_results, metric="sensitivity").splitlines()
    assert sensitivity[1].split()[0] == "role" and sensitivity[2].split()[0] == "overall"
    assert run_report(two_probe_results, metric="top1").splitlines()[1].split()[1:] == ["-", "-"]  # no top-k


def test_report_probes_errors(two_probe_results: list[Path], blimp_data: Path, tmp_path: Path):
    with pytest.raises(BlimpgenError, match="no metric 'top9'"):
        run_report(two_probe_results, metric="top9")
    pairs = tmp_path / "pairs-result"
    write_results(evaluate(UnigramScorer(counts={}), blimp_data), pairs)
    with pytest.raises(BlimpgenError, match="cannot combine pair results"):
        run_report([pairs, *two_probe_results])
    with pytest.raises(BlimpgenError, match="--metric applies to probe results"):
        run_report([pairs], metric="top1")
