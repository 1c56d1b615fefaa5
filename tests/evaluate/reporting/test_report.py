"""Reports across result folders: the models x phenomena table and PNG figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.evaluate.reporting.report import run_report
from blimpgen.evaluate.run import evaluate, write_results
from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer

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
    assert names == ["accuracy_by_length_perplexity_confidence.png", "accuracy_by_phenomenon.png",
                     "paradigm_correlation.png"]
    for name in names:
        assert (plots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert table_csv.read_text().startswith("phenomenon,freq,flat")


def test_report_folder_without_results_is_an_error(tmp_path: Path):
    with pytest.raises(BlimpgenError, match="no results.json here"):
        run_report([tmp_path])
