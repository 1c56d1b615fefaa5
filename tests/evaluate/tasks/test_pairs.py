"""The pair task: BLiMP's methods, skipped paradigms, ties, SLOR, and what it refuses to score."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError, OptionError
from blimpgen.evaluate.runner import evaluate, format_table, run_eval, write_results
from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer
from blimpgen.evaluate.tasks.pairs import PairOptions

from ..tiny import write_fixture

COUNTS = {"the": 50, "cat": 5, "cats": 5, "is": 20, "are": 4, "was": 10, "were": 3, "herself": 2, "themselves": 1}


def test_pairs_writes_pairs_json_and_csv_with_options(blimp_data: Path, tmp_path: Path):
    result = evaluate(UnigramScorer(counts=COUNTS), blimp_data)
    out = tmp_path / "results"
    write_results(result, out)
    assert sorted(p.name for p in out.iterdir()) == ["pairs.jsonl", "results.csv", "results.json"]
    records = [json.loads(line) for line in (out / "pairs.jsonl").read_text().splitlines()]
    assert len(records) == 9
    first = records[0]
    for key in (
        "logprob_good",
        "logprob_bad",
        "tokens_good",
        "tokens_bad",
        "correct",
        "method",
        "reduction",
        "tie_policy",
        "scorer",
    ):
        assert key in first
    assert "token_scores_good" not in first  # only with save_tokens
    summary = json.loads((out / "results.json").read_text())
    assert summary["options"]["method"] == "full-sentence" and summary["options"]["tie_policy"] == "wrong"
    assert summary["options"]["scorer"] == first["scorer"] == "unigram.v1"  # the resolved registry id
    assert "kind" not in summary and list(summary)[1:] == ["provenance", "overall", "phenomena", "paradigms"]
    assert set(summary["phenomena"]) == {"anaphor_agreement", "subject_verb_agreement"}
    rows = list(csv.DictReader((out / "results.csv").read_text().splitlines()))
    assert rows[0]["level"] == "overall" and rows[0]["reduction"] == "sum"
    assert {r["level"] for r in rows} == {"overall", "phenomenon", "paradigm"}
    assert "overall (mean of paradigms)" in format_table(result)


def test_pairs_unigram_prefers_frequent_verb(blimp_data: Path):
    result = evaluate(UnigramScorer(counts=COUNTS), blimp_data / "subject_verb_agreement_1.jsonl")
    judged = {r.sentence_good: r.correct for r in result.rows}
    assert judged["The cat is sleeping ."] == 1.0  # "is" is more frequent than "are"
    assert judged["The cats are sleeping ."] == 0.0


def test_pairs_one_prefix_skips_paradigms_without_the_flag(blimp_data: Path):
    result = evaluate(UnigramScorer(counts=COUNTS), blimp_data, PairOptions(method="one-prefix"))
    assert result.skipped == ["anaphor_number_agreement"]
    assert result.options["skipped_paradigms"] == ["anaphor_number_agreement"]
    assert {r.UID for r in result.rows} == {"subject_verb_agreement_1"}
    assert result.rows[0].tokens_good == 1


def test_pairs_method_no_paradigm_supports_is_one_line_error(blimp_data: Path):
    with pytest.raises(BlimpgenError, match="--method two-prefix: none of the 2 paradigms"):
        evaluate(UnigramScorer(counts=COUNTS), blimp_data, PairOptions(method="two-prefix"))


def test_pairs_missing_required_field_is_reported_with_line(tmp_path: Path):
    path = tmp_path / "broken_1.jsonl"
    path.write_text('{"sentence_good": "a", "UID": "broken_1"}\n', encoding="utf-8")
    with pytest.raises(BlimpgenError, match=r"broken_1.jsonl:1: missing required field 'sentence_bad'"):
        evaluate(UnigramScorer(counts=COUNTS), path)


def test_pairs_flagged_pair_missing_prefix_fields_writes_nothing(tmp_path: Path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "p_1.jsonl").write_text(
        json.dumps(
            {"sentence_good": "a b", "sentence_bad": "b a", "UID": "p_1", "one_prefix_method": True, "pairID": "0"}
        )
        + "\n"
    )
    out = tmp_path / "out"
    with pytest.raises(BlimpgenError, match="no 'one_prefix_prefix'"):
        run_eval("unigram", {"counts": COUNTS}, [data], out, PairOptions(method="one-prefix"))
    assert not out.exists()


def test_pairs_limit_and_tie_policy(blimp_data: Path):
    tie = evaluate(UnigramScorer(counts={}), blimp_data, PairOptions(tie="half", limit=2))
    assert len(tie.rows) == 4
    assert all(r.tie and r.correct == 0.5 for r in tie.rows)
    assert tie.summary.overall.accuracy == 0.5


def test_pairs_slor_needs_unigram_corpus(blimp_data: Path, tmp_path: Path):
    with pytest.raises(OptionError, match="^reduction 'slor' needs a unigram model: pass --slor-corpus FILE$"):
        PairOptions(reduction="slor")
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat is here .\nthe cats are here .\n", encoding="utf-8")
    result = evaluate(
        UnigramScorer(counts=COUNTS), blimp_data, PairOptions(reduction="slor", unigram_corpus=str(corpus))
    )
    assert result.options["reduction"] == "slor" and result.options["unigram_corpus"] == str(corpus)


def test_pairs_reads_original_blimp_records_without_provenance(tmp_path: Path):
    folder = tmp_path / "blimp"
    folder.mkdir()
    write_fixture(
        folder,
        "regular_plural_subject_verb_agreement_1",
        "subject_verb_agreement",
        [("The cat is here .", "The cat are here .", None)],
    )
    result = evaluate(UnigramScorer(counts=COUNTS), folder)
    assert result.rows[0].pair_id == "regular_plural_subject_verb_agreement_1-0"


# -- results that used to be silently wrong (reliability report E05, F2, F8) ----------------------
def _pairs_file(path: Path, pairs: list[tuple[str, str]]) -> Path:
    path.write_text(
        "".join(
            json.dumps({"sentence_good": good, "sentence_bad": bad, "UID": "p_1", "pairID": str(i)}) + "\n"
            for i, (good, bad) in enumerate(pairs)
        ),
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    "good,bad,side", [("  ", "The cat are here .", "sentence_good"), ("The cat is here .", "", "sentence_bad")]
)
def test_pairs_sentence_of_zero_tokens_is_an_error_naming_pair_and_line(tmp_path: Path, good, bad, side):
    """E05: an empty sentence was scored 0.0 (0 tokens) and judged like any other pair."""
    data = _pairs_file(tmp_path / "p_1.jsonl", [("The cat is here .", "The cat are here ."), (good, bad)])
    out = tmp_path / "out"
    with pytest.raises(BlimpgenError) as info:
        run_eval("unigram", {"counts": COUNTS}, [data], out, PairOptions())
    assert str(info.value).startswith(f"{data}:2: pair p_1-1: {side} ")
    assert "is 0 tokens for scorer 'unigram'" in str(info.value)
    assert not out.exists()


@pytest.mark.parametrize("n", [9, 10, 25])
def test_pairs_where_every_pair_ties_is_refused_from_ten_pairs(tmp_path: Path, n):
    """F2/F8: a broken model ties every pair; accuracy was then the tie policy's (0.0, or 50.0 with --tie half)."""
    data = _pairs_file(tmp_path / "p_1.jsonl", [("The cat is here .", "The cat are here .")] * n)
    out = tmp_path / "out"
    if n < 10:  # a handful of pairs may tie by design (tie-policy tests, tiny samples)
        assert run_eval("unigram", {"counts": {}}, [data], out, PairOptions(tie="half")).summary.overall.accuracy == 0.5
        return
    with pytest.raises(
        BlimpgenError,
        match=rf"^every pair tied: in all {n} pairs \(e.g. p_1-0\) good and bad got "
        r"equal scores from unigram .*check the model/tokenizer",
    ):
        run_eval("unigram", {"counts": {}}, [data], out, PairOptions(tie="half"))
    assert not out.exists()
    one_differs = evaluate(
        UnigramScorer(counts=COUNTS),
        _pairs_file(
            tmp_path / "q_1.jsonl",
            [("The cat is here .", "The cat are here .")] + [("The cat is here .", "The cat here is .")] * (n - 1),
        ),
    )
    assert sum(r.tie for r in one_differs.rows) == n - 1
