"""Ingest: every exclusion reason, the row accounting, agreement and the report files."""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from pathlib import Path

import pytest

from blimpgen.validate.ingest import IngestOptions, ingest
from blimpgen.validate.simulate import write_results
from blimpgen.validate.summary import PARADIGM_COLUMNS, write_report

from .conftest import UIDS, submission


def _reasons(analysis) -> dict[str, str]:
    return {s.row.worker_id: ",".join(s.reasons_at(analysis.threshold)) for s in analysis.screened}


@pytest.fixture
def batch(make_batch):
    return make_batch()


def test_ingest_each_exclusion_reason(batch, tmp_path: Path) -> None:
    codes = list(batch.hits)
    same_list = [code for code in codes if batch.hits[code].list_index == 1]
    subs = [
        submission(batch, codes[0], "GOOD"),
        submission(batch, codes[0], "REJECTED", status="Rejected"),
        submission(batch, codes[0], "HONEY", honeypot="http://spam.example"),
        submission(batch, codes[0], "NONNATIVE", native="no"),
        submission(batch, codes[0], "INATTENTIVE", check_correct=False),
        submission(batch, codes[0], "FAST", seconds=3),
        submission(batch, same_list[0], "TWICE", minute=5),
        submission(batch, same_list[1], "TWICE", minute=1),  # submitted first: kept
    ]
    incomplete = submission(batch, codes[0], "INCOMPLETE")
    incomplete.answers["q2"] = ""
    subs.append(incomplete)
    path = write_results(tmp_path / "r.csv", batch, subs)
    analysis = ingest(batch.folder, [path])
    reasons = _reasons(analysis)
    assert reasons["GOOD"] == ""
    assert reasons["REJECTED"] == "rejected"
    assert reasons["HONEY"] == "honeypot"
    assert reasons["NONNATIVE"] == "non_native"
    assert reasons["INATTENTIVE"] == "failed_attention"
    assert reasons["FAST"] == "too_fast"
    assert reasons["INCOMPLETE"] == "incomplete"
    twice = {s.row.hit_code: s.reasons_at(analysis.threshold) for s in analysis.screened if s.row.worker_id == "TWICE"}
    assert twice == {same_list[1]: (), same_list[0]: ("duplicate_worker_on_list",)}


def test_ingest_reject_column_and_duplicate_assignment_across_files(batch, tmp_path: Path) -> None:
    codes = list(batch.hits)
    one, two, three = (submission(batch, code, f"W{n}") for n, code in enumerate(codes[:3], start=1))
    first = write_results(tmp_path / "a.csv", batch, [one, two])
    second = write_results(tmp_path / "b.csv", batch, [two, three])
    with second.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    rows[2][rows[0].index("Reject")] = "did not follow instructions"
    with second.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    analysis = ingest(batch.folder, [first, second])
    found = [(Path(s.row.file).name, s.row.worker_id, s.reasons_at(analysis.threshold)) for s in analysis.screened]
    assert found == [
        ("a.csv", "W1", ()),
        ("a.csv", "W2", ()),
        ("b.csv", "W2", ("duplicate_assignment",)),
        ("b.csv", "W3", ("rejected",)),
    ]
    assert analysis.n_rows == 4 and len(analysis.included) == 2


def test_ingest_every_row_counted_or_excluded(batch, tmp_path: Path) -> None:
    codes = list(batch.hits)
    subs = [
        submission(batch, code, f"W{i % 5}", minute=i, seconds=10 + 7 * i, native="no" if i % 7 == 0 else "yes")
        for i, code in enumerate(codes * 2)
    ]
    path = write_results(tmp_path / "r.csv", batch, subs)
    analysis = ingest(batch.folder, [path])
    write_report(analysis, tmp_path / "report")
    with (tmp_path / "report" / "excluded.csv").open(encoding="utf-8", newline="") as handle:
        excluded = list(csv.DictReader(handle))
    assert len(excluded) + len(analysis.included) == analysis.n_rows == len(subs)
    assert all(row["reason"] and row["line"] for row in excluded)
    summary = json.loads((tmp_path / "report" / "summary.json").read_text())
    assert summary["rows"] == summary["included"] + summary["excluded"]
    assert sum(summary["excluded_by_reason"].values()) == summary["excluded"]
    assert (
        f"{len(subs)} rows read = {summary['included']} included + {summary['excluded']} excluded"
        in (tmp_path / "report" / "summary.md").read_text()
    )


def test_ingest_majority_and_pass_rule(batch, tmp_path: Path) -> None:
    # Three workers per HIT; two choose wrong on wh_vs_that_no_gap, so its pairs lose the majority.
    subs = []
    for code in batch.hits:
        subs.append(submission(batch, code, f"A-{code}"))
        subs.append(submission(batch, code, f"B-{code}", wrong_uids=("wh_vs_that_no_gap",)))
        subs.append(submission(batch, code, f"C-{code}", wrong_uids=("wh_vs_that_no_gap", UIDS[0])))
    path = write_results(tmp_path / "r.csv", batch, subs)
    analysis = ingest(batch.folder, [path])
    paradigms = {p.uid: p for p in analysis.paradigms}
    assert paradigms["wh_vs_that_no_gap"].human_accuracy == 0.0 and not paradigms["wh_vs_that_no_gap"].passed
    assert paradigms["wh_vs_that_no_gap"].individual_accuracy == pytest.approx(1 / 3)
    assert paradigms[UIDS[0]].human_accuracy == 1.0 and paradigms[UIDS[0]].passed
    assert paradigms[UIDS[0]].individual_accuracy == pytest.approx(2 / 3)
    assert paradigms[UIDS[1]].individual_accuracy == 1.0
    assert analysis.overall.aggregate == pytest.approx(15 / 20)
    assert all(p.n_pairs == 5 and p.min_judgments == 9 for p in analysis.paradigms)


def test_ingest_tie_is_not_a_majority_and_pass_fraction_is_configurable(batch, tmp_path: Path) -> None:
    codes = [code for code in batch.hits if batch.hits[code].replica == 1]
    subs = [submission(batch, code, f"A-{code}") for code in codes]
    subs += [submission(batch, code, f"B-{code}", wrong_uids=(UIDS[0],)) for code in codes]
    path = write_results(tmp_path / "r.csv", batch, subs)
    strict = ingest(batch.folder, [path])
    assert {p.uid: p.n_majority for p in strict.paradigms}[UIDS[0]] == 0  # 1 vs 1 on every pair
    lenient = ingest(batch.folder, [path], IngestOptions(pass_fraction=Fraction(1, 5)))
    assert {p.uid: p.passed for p in lenient.paradigms} == {UIDS[0]: False, UIDS[1]: True, UIDS[2]: True, UIDS[3]: True}


def test_ingest_speed_table_changes_with_threshold(batch, tmp_path: Path) -> None:
    subs = [submission(batch, code, f"W{i}", seconds=5 * (i + 1)) for i, code in enumerate(batch.hits)]
    path = write_results(tmp_path / "r.csv", batch, subs)
    analysis = ingest(batch.folder, [path], IngestOptions(min_seconds=30))
    table = {row.threshold: row.n_included for row in analysis.speed}
    assert table == {0.0: 12, 15.0: 10, 30.0: 7, 45.0: 4, 60.0: 1}
    assert len(analysis.included) == 7
    write_report(analysis, tmp_path / "report")
    assert "| 30 (used) | 7 | 5 |" in (tmp_path / "report" / "summary.md").read_text()


def test_ingest_report_contract(batch, tmp_path: Path) -> None:
    path = write_results(tmp_path / "r.csv", batch, [submission(batch, code, "W") for code in batch.hits])
    write_report(ingest(batch.folder, [path]), tmp_path / "report")
    names = {p.name for p in (tmp_path / "report").iterdir()}
    assert {"summary.md", "per_paradigm.csv", "per_pair.csv", "per_worker.csv", "excluded.csv"} <= names
    with (tmp_path / "report" / "per_paradigm.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == PARADIGM_COLUMNS
    assert tuple(PARADIGM_COLUMNS[:6]) == (
        "UID",
        "linguistics_term",
        "n_pairs",
        "human_accuracy",
        "individual_accuracy",
        "pass",
    )
    assert [row["UID"] for row in rows] == sorted(UIDS)
    # one worker did all three replicas of each list: only the first counts
    assert {row["n_judgments"] for row in rows} == {"5"} and {row["pass"] for row in rows} == {"True"}
    with (tmp_path / "report" / "per_worker.csv").open(encoding="utf-8", newline="") as handle:
        worker = next(csv.DictReader(handle))
    assert worker["exclusion_reasons"] == "duplicate_worker_on_list:8" and worker["accuracy"] == "1.0"
