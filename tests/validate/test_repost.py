"""Top-up batches: after one repost round every pair has the judgments asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.validate.batch import load_batch
from blimpgen.validate.ingest import ingest
from blimpgen.validate.repost import write_topup
from blimpgen.validate.simulate import SimulationOptions, simulate


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_repost_one_round_reaches_the_requested_judgments(make_batch, tmp_path: Path, seed: int) -> None:
    batch = make_batch(pairs_per_paradigm=5, judgments=20, items_per_hit=10, seed=seed)
    options = SimulationOptions(rejected=0.03, seed=seed)
    first = simulate(batch.folder, tmp_path / "first.csv", options)
    before = ingest(batch.folder, [first.path])
    assert min(p.n_judgments for p in before.pairs) < 20  # judgments were lost to exclusions
    topup = write_topup(batch.folder, [first.path], tmp_path / "topup")
    loaded = load_batch(topup.folder)
    assert set(loaded.hits) == set(batch.hits) | {hit.code for hit in topup.hits}
    assert all(n <= 9 for n in topup.assignments.values())
    for plan in loaded.posting_lists():  # nobody who did the list, nobody excluded before
        did = {s.row.worker_id for s in before.screened if batch.hits[s.row.hit_code].list_index == plan.list_index}
        assert did <= set(plan.exclude_workers)
    second = simulate(topup.folder, tmp_path / "second.csv", options)
    after = ingest(topup.folder, [first.path, second.path])
    assert min(p.n_judgments for p in after.pairs) >= 20
    assert not [s for s in after.screened if "duplicate_worker_on_list" in s.reasons]


def test_repost_refuses_when_nothing_is_short(make_batch, tmp_path: Path) -> None:
    batch = make_batch(judgments=2, items_per_hit=10)
    options = SimulationOptions(bots=0, inattentive=0, non_native=0, check_accuracy=1.0)
    first = simulate(batch.folder, tmp_path / "first.csv", options)
    with pytest.raises(BlimpgenError, match="nothing to repost"):
        write_topup(batch.folder, [first.path], tmp_path / "topup")
    with pytest.raises(BlimpgenError, match="new folder"):
        write_topup(batch.folder, [first.path], batch.folder)
