"""``blimpgen audit --overlap`` as a user runs it: freshly generated pairs or a data folder against a corpus."""

from __future__ import annotations

import json
from pathlib import Path

from blimpgen.generators.generate import generate, load_paradigms
from tests.cli.test_author_cli import run

UID = "determiner_noun_agreement_1"


def test_overlap_cli_finds_planted_sentences(tmp_path: Path) -> None:
    pairs = list(generate(load_paradigms([UID])[0], 20, seed=3))
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(
        f"Some text.\nShe said: {pairs[4].sentence_good.upper()} Then left.\n{pairs[7].sentence_bad}\n",
        encoding="utf-8",
    )
    code, output = run("audit", "--overlap", str(corpus), UID, "-n", "20", "--seed", "3", "--fail-on-flag")
    assert code == 1 and f"{UID}: OVERLAP (20 pairs)" in output, output
    assert "verbatim: good 1/20 (5.0%), bad 1/20 (5.0%)" in output and "have sentences in the corpus" in output


def test_overlap_cli_data_folder_markdown(tmp_path: Path) -> None:
    data = tmp_path / "suite"
    code, output = run("gen", "-p", UID, "-p", "npi_present_1", "-n", "30", "--out-dir", str(data), "--quiet")
    assert code == 0, output
    first = json.loads((data / f"{UID}.jsonl").read_text().splitlines()[0])
    corpus = tmp_path / "blimp.jsonl"
    corpus.write_text(json.dumps({"sentence_good": first["sentence_good"], "sentence_bad": "x"}) + "\n")
    out = tmp_path / "overlap.md"
    code, output = run(
        "audit", "--overlap", str(corpus), "--data", str(data), "--markdown", "-o", str(out), "--ngram", "5"
    )
    assert code == 0, output
    table = out.read_text()
    assert f"| `{UID}` | 30 | 1/30 (3.3%) | 0/30 |" in table and "| `npi_present_1` | 30 | 0/30 |" in table
    assert "5-grams found" in table


def test_overlap_cli_usage_errors(tmp_path: Path) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text("x\n")
    for args, message in [
        (("--data", str(corpus), UID), "--data goes with --overlap"),
        (("--overlap", str(corpus), "--plausibility", UID), "not both"),
        (("--overlap", str(corpus), "--data", str(corpus), UID), "give --data or UID/--all"),
        (("--overlap", str(corpus)), "give UID (one or more) or --all or --data"),
    ]:
        code, output = run("audit", *args)
        assert code == 2 and message in output, (args, output)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\n\xff\n")
    code, output = run("audit", "--overlap", str(bad), UID, "-n", "10")
    assert code == 1 and f"{bad}:2: not UTF-8" in output, output
