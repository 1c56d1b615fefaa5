"""BLiMP's aggregation: a phenomenon and overall are means over paradigms, not over pairs."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from blimpgen.evaluate.rows import csv_text
from blimpgen.evaluate.tasks.pair_summary import PairCsvRow, summarize_pairs


def Outcome(uid: str, phenomenon: str, field: str, correct: float) -> SimpleNamespace:
    return SimpleNamespace(UID=uid, phenomenon=phenomenon, field=field, correct=correct)


def test_pair_summary_overall_is_mean_over_paradigms_not_pairs():
    outcomes = [Outcome("a", "p1", "syntax", 1.0)] * 90 + [Outcome("b", "p2", "syntax", 0.0)] * 10
    summary = summarize_pairs(outcomes).to_json()
    assert summary["overall"]["accuracy"] == pytest.approx(0.5)
    assert summary["overall"]["pair_accuracy"] == pytest.approx(0.9)
    assert "pair_accuracy" not in summary["phenomena"]["p1"]  # the pooled accuracy is overall only
    assert summary["paradigms"]["a"]["accuracy"] == 1.0
    assert set(summary["phenomena"]) == {"p1", "p2"}
    overall = summary["overall"]
    assert overall["ci_low"] < 0.5 < overall["ci_high"]


def test_pair_summary_phenomenon_averages_its_paradigms():
    outcomes = [Outcome("a", "p", "f", 1.0)] * 4 + [Outcome("b", "p", "f", 1.0), Outcome("b", "p", "f", 0.0)]
    phenomenon = summarize_pairs(outcomes).phenomena["p"]
    assert phenomenon.accuracy == pytest.approx(0.75)
    assert phenomenon.n_paradigms == 2 and phenomenon.n_pairs == 6


def test_pair_summary_csv_columns_derive_from_the_row_type():
    summary = summarize_pairs([Outcome("a", "p", "f", 1.0), Outcome("a", "p", "f", 0.0), Outcome("b", "q", "g", 1.0)])
    options = {
        "model": "m",
        "scorer": "unigram.v1",
        "method": "full-sentence",
        "reduction": "sum",
        "tie_policy": "wrong",
        "first_token": None,
    }
    lines = csv_text(PairCsvRow, summary.csv_rows(options)).splitlines()
    assert lines[0] == (
        "level,name,phenomenon,field,n_paradigms,n_pairs,accuracy,ci_low,ci_high,model,scorer,method,"
        "reduction,tie_policy,first_token"
    )
    assert [line.split(",")[:6] for line in lines[1:]] == [
        ["overall", "overall", "", "", "2", "3"],
        ["phenomenon", "p", "p", "", "1", "2"],
        ["phenomenon", "q", "q", "", "1", "1"],
        ["paradigm", "a", "p", "f", "1", "2"],
        ["paradigm", "b", "q", "g", "1", "1"],
    ]
    assert lines[1].split(",")[6] == "0.75" and lines[1].endswith(",m,unigram.v1,full-sentence,sum,wrong,")
