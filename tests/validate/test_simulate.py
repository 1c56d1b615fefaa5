"""The rehearsal loop: batch -> simulate -> ingest recovers the simulated agreement."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.validate.ingest import ingest
from blimpgen.validate.simulate import BOOKKEEPING_COLUMNS, SimulationOptions, simulate


@pytest.mark.parametrize("seed", [0, 1])
def test_simulate_ingest_recovers_agreement(make_batch, tmp_path: Path, seed: int) -> None:
    batch = make_batch(pairs_per_paradigm=10, judgments=20, items_per_hit=8, seed=seed)
    options = SimulationOptions(
        workers=60,
        accuracy=0.85,
        paradigm_accuracy={"wh_vs_that_no_gap": 0.3},
        bots=0.1,
        inattentive=0.15,
        non_native=0.1,
        rejected=0.02,
        seed=seed,
    )
    result = simulate(batch.folder, tmp_path / "results.csv", options)
    analysis = ingest(batch.folder, [result.path])
    paradigms = {p.uid: p for p in analysis.paradigms}
    for uid, expected in result.expected_individual.items():
        assert paradigms[uid].individual_accuracy == pytest.approx(expected, abs=0.06), uid
    assert not paradigms["wh_vs_that_no_gap"].passed
    assert all(p.passed and p.human_accuracy >= 0.9 for uid, p in paradigms.items() if uid != "wh_vs_that_no_gap")
    reasons = {reason for s in analysis.screened for reason in s.reasons_at(analysis.threshold)}
    assert {"honeypot", "too_fast", "non_native", "failed_attention", "rejected"} <= reasons
    bots = {w.worker_id for w in result.workers if w.kind != "attentive"}
    assert not any(s.row.worker_id in bots for s in analysis.included)  # every bot and clicker caught


def test_simulate_writes_mturk_format(make_batch, tmp_path: Path) -> None:
    batch = make_batch()
    result = simulate(batch.folder, tmp_path / "results.csv", SimulationOptions(workers=25))
    with result.path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
    header = reader.fieldnames
    assert tuple(header[: len(BOOKKEEPING_COLUMNS)]) == BOOKKEEPING_COLUMNS
    assert header[-2:] == ["Approve", "Reject"]
    assert {"Input.hit_code", "Input.s1_a", "Answer.q1", "Answer.native"} <= set(header)
    assert len(rows) == result.n_rows == len(batch.hits) * batch.assignments_per_hit
    for code in batch.hits:  # MTurk never gives one worker the same HIT twice
        workers = [row["WorkerId"] for row in rows if row["Input.hit_code"] == code]
        assert len(workers) == len(set(workers)) == batch.assignments_per_hit
    assert result.path.read_text().startswith('"HITId","HITTypeId"')


def test_simulate_default_design_discards_no_duplicate_workers(make_batch, tmp_path: Path) -> None:
    """Issue 16: the default rehearsal lost 17 % of paid assignments to workers on two replicas of a list."""
    batch = make_batch(pairs_per_paradigm=5, judgments=20, items_per_hit=10)
    result = simulate(batch.folder, tmp_path / "results.csv", SimulationOptions())
    analysis = ingest(batch.folder, [result.path])
    assert result.unfilled == 0 and result.n_rows == len(batch.hits) * batch.assignments_per_hit
    assert not [s for s in analysis.screened if "duplicate_worker_on_list" in s.reasons]
    seen: dict[tuple[str, int], str] = {}
    for entry in analysis.screened:  # replica r+1 of a list is accepted only after replica r is complete
        hit = batch.hits[entry.row.hit_code]
        assert seen.setdefault((entry.row.worker_id, hit.list_index), hit.code) == hit.code


def test_simulate_is_deterministic(make_batch, tmp_path: Path) -> None:
    batch = make_batch()
    simulate(batch.folder, tmp_path / "a.csv", SimulationOptions(seed=3))
    simulate(batch.folder, tmp_path / "b.csv", SimulationOptions(seed=3))
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"accuracy": 1.2}, "accuracy must be between 0 and 1"),
        ({"bots": 0.6, "inattentive": 0.6}, "bots \\+ inattentive"),
        ({"workers": 20}, "workers 20 is below the 21 assignments of a list"),
        ({"paradigm_accuracy": {"nope": 0.5}}, "paradigm-accuracy: nope not in this batch"),
    ],
)
def test_simulate_bad_options(make_batch, tmp_path: Path, options: dict, message: str) -> None:
    batch = make_batch()
    with pytest.raises(BlimpgenError, match=message):
        simulate(batch.folder, tmp_path / "r.csv", SimulationOptions(**options))
