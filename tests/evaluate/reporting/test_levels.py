"""Accuracy per level, per cell and each factor's effect, on hand-made scores where the answer is known."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blimpgen.errors import DataError
from blimpgen.evaluate.reporting.levels import figure_levels, format_levels, level_results
from blimpgen.records.pair import MinimalPair


def write_case(tmp_path: Path) -> tuple[Path, Path]:
    data, results = tmp_path / "data.jsonl", tmp_path / "res"
    results.mkdir()
    pairs, rows = [], []
    # attractor none: 8 of 10 correct; pp: 4 of 10 (with one tie counting half)
    for i in range(20):
        level = "none" if i < 10 else "pp"
        pair = MinimalPair("a b.", "a c.", "u", levels={"attractor": level}, pair_id=f"u-{i:05d}")
        pairs.append(json.dumps(pair.to_dict()))
        correct = (1.0 if i < 8 else 0.0) if level == "none" else (1.0 if i < 13 else 0.5 if i == 13 else 0.0)
        rows.append(json.dumps({"pair_id": pair.pair_id, "UID": "u", "correct": correct, "model": "m"}))
    pairs.append(json.dumps(MinimalPair("x.", "y.", "plain", pair_id="plain-00000").to_dict()))
    rows.append(json.dumps({"pair_id": "plain-00000", "UID": "plain", "correct": 1.0, "model": "m"}))
    data.write_text("\n".join(pairs) + "\n")
    (results / "pairs.jsonl").write_text("\n".join(rows) + "\n")
    return data, results


def test_levels_accuracy_intervals_and_effect(tmp_path: Path) -> None:
    data, results = write_case(tmp_path)
    (result,) = level_results(data, [results])
    assert result.uid == "u" and result.factors == [("attractor", ["none", "pp"])]
    none, pp = result.levels[("attractor", "none")], result.levels[("attractor", "pp")]
    assert (none.correct, none.n, pp.correct, pp.n) == (8.0, 10, 3.5, 10)
    difference, low, high = result.effect("attractor", "pp")
    assert difference == pytest.approx(-0.45) and low < -0.45 < high < 0
    text = format_levels([result])
    assert "none         0.800 [" in text and "effect vs none: -0.450 [" in text and "attractor=pp" in text


def test_levels_need_levels_and_scores(tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    plain.write_text(json.dumps(MinimalPair("x.", "y.", "plain").to_dict()) + "\n")
    with pytest.raises(DataError, match="no pair with levels here"):
        level_results(plain, [tmp_path])
    data, _ = write_case(tmp_path)
    with pytest.raises(DataError, match="no pairs.jsonl"):
        level_results(data, [tmp_path / "missing"])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"pairs.jsonl:3: invalid JSON"),
        ("[1, 2]", r"pairs.jsonl:3: expected a JSON object, got list"),
        (
            '{"pair_id": "u-00002", "UID": "u", "correct": "yes"}',
            r"pairs.jsonl:3: correct: expected a per-pair result row",
        ),
        ('{"pair_id": "u-00002", "correct": 1.0}', r"pairs.jsonl:3: UID: expected a per-pair result row"),
    ],
)
def test_levels_bad_result_row_is_located(tmp_path: Path, line: str, message: str) -> None:
    data, results = write_case(tmp_path)
    rows = (results / "pairs.jsonl").read_text().splitlines()
    rows[2] = line
    (results / "pairs.jsonl").write_text("\n".join(rows) + "\n")
    with pytest.raises(DataError, match=message):
        level_results(data, [results])


def test_levels_cli_report_with_figures(tmp_path: Path) -> None:
    from tests.cli.test_author_cli import run

    data, results = write_case(tmp_path)
    code, output = run("report", str(results), "--levels", str(data), "--plots", str(tmp_path / "plots"))
    assert code == 0 and "u (m)" in output and "effect vs none" in output, output
    assert (tmp_path / "plots" / "levels_u_attractor.png").stat().st_size > 1000


def test_levels_figures_refuse_a_uid_that_is_a_path(tmp_path: Path) -> None:
    data, results = write_case(tmp_path)
    for path in (data, results / "pairs.jsonl"):
        path.write_text(path.read_text().replace('"u"', '"../evil"').replace('"u-', '"../evil-'))
    found = level_results(data, [results])
    assert [result.uid for result in found] == ["../evil"]
    with pytest.raises(DataError, match=r"UID '\.\./evil' or factor 'attractor' cannot name a figure file"):
        figure_levels(found, tmp_path / "plots")
    assert not (tmp_path / "evil_attractor.png").exists() and not (tmp_path / "plots").exists()


def test_levels_attractor_lowers_accuracy_of_a_trained_ngram(tmp_path: Path) -> None:
    """The done-when check of docs/factors.md, end to end through the CLI: a trigram model trained on
    good sentences without attractors (the design's attractor=none cells, another seed) agrees with
    the head when nothing intervenes, and is pulled to the attractor's number by a prepositional
    phrase or a relative clause: both effects are negative with their 95% interval below 0."""
    from tests.cli.test_author_cli import run

    uid = "subject_verb_agreement_attractor_distance"
    train_pairs, data = tmp_path / "train.jsonl", tmp_path / "design.jsonl"
    code, output = run(
        "gen", "-p", uid, "--design", "attractor=none", "-n", "2000", "--seed", "101", "-o", str(train_pairs), "--quiet"
    )
    assert code == 0, output
    corpus = tmp_path / "train.txt"
    good = [json.loads(line)["sentence_good"] for line in train_pairs.read_text().splitlines()]
    corpus.write_text("".join(sentence + "\n" for sentence in good))
    code, output = run(
        "ngram", "train", str(corpus), "-o", str(tmp_path / "lm.arpa"), "--order", "3", "--unk-cutoff", "1"
    )
    assert code == 0, output
    code, output = run(
        "gen", "-p", uid, "--design", "distance=adjacent", "-n", "60", "--seed", "1", "-o", str(data), "--quiet"
    )
    assert code == 0, output
    code, output = run(
        "eval",
        "--scorer",
        "ngram",
        "--scorer-option",
        f"ngram_model={tmp_path / 'lm.arpa'}",
        "--data",
        str(data),
        "--out",
        str(tmp_path / "res"),
    )
    assert code == 0, output
    code, output = run("report", str(tmp_path / "res"), "--levels", str(data), "--plots", str(tmp_path / "plots"))
    assert code == 0 and "effect vs none" in output, output
    assert {path.name for path in (tmp_path / "plots").iterdir()} == {
        f"levels_{uid}_attractor.png",
        f"levels_{uid}_distance.png",
    }

    (result,) = level_results(data, [tmp_path / "res"])
    assert {cell.n for cell in result.cells.values()} == {60} and len(result.cells) == 3  # the chosen cells
    assert result.levels[("attractor", "none")].accuracy > 0.6
    for attractor in ("pp", "rc"):
        difference, low, high = result.effect("attractor", attractor)
        assert high < 0, (attractor, difference, low, high, output)
