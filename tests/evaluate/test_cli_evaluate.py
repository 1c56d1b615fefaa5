"""The eval / report / ngram commands (tests for ``blimpgen.cli.evaluate``, kept beside evaluate's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from blimpgen.cli import main


def run_cli(args: list[str], capsys) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("command", [["eval"], ["report"], ["ngram"], ["ngram", "train"]])
def test_cli_evaluate_help(command, capsys):
    code, out, _ = run_cli([*command, "--help"], capsys)
    assert code == 0 and "Usage:" in out


def test_cli_evaluate_ngram_train_then_eval_then_report(blimp_data: Path, tmp_path: Path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat is sleeping .\nthe cats are sleeping .\nthe cat is here .\n" * 3, encoding="utf-8")
    arpa = tmp_path / "m.arpa"
    code, out, err = run_cli(["ngram", "train", str(corpus), "-o", str(arpa), "--order", "3"], capsys)
    assert code == 0, err
    assert arpa.exists() and "order 3" in out
    results = tmp_path / "res"
    code, out, err = run_cli(["eval", "--scorer", "ngram", "--ngram-model", str(arpa), "--data", str(blimp_data),
                              "--out", str(results)], capsys)
    assert code == 0, err
    assert "overall (mean of paradigms)" in out
    assert json.loads((results / "results.json").read_text())["options"]["scorer"] == "ngram"
    code, out, err = run_cli(["report", str(results)], capsys)
    assert code == 0 and out.splitlines()[0].split() == ["phenomenon", "res"]


@pytest.mark.parametrize("args,message", [
    (["--scorer", "ngram", "--dtype", "float32"], "takes no option 'dtype'"),
    (["--scorer", "hf-causl"], "unknown scorer 'hf-causl'"),
    (["--model", "./no/such/model"], "unknown model './no/such/model': no such folder"),
    (["--scorer", "unigram", "--method", "two-prefix", "--unigram-corpus", "{corpus}"], "none of the 2 paradigms"),
    (["--scorer", "unigram", "--reduction", "slor"], "needs a unigram model"),
])
def test_cli_evaluate_errors_are_one_line_and_write_nothing(args, message, blimp_data: Path, tmp_path: Path,
                                                            capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("the cat\n", encoding="utf-8")
    out = tmp_path / "out"
    args = [a.replace("{corpus}", str(corpus)) for a in args]
    code, _, err = run_cli(["eval", "--data", str(blimp_data), "--out", str(out), *args], capsys)
    assert code == 1
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_cli_evaluate_help_does_not_import_torch():
    code = ("import sys; from blimpgen.cli import main\n"
            "try:\n    main(['eval', '--help'])\nexcept SystemExit:\n    pass\n"
            "assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_cli_evaluate_truncated_arpa_is_refused_and_writes_nothing(blimp_data: Path, tmp_path: Path, capsys):
    """F8 (E21b): an ARPA file cut after its header used to score every pair as a tie, exit 0."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat is sleeping .\nthe cats are sleeping .\nthe dog was barking .\n" * 3, encoding="utf-8")
    arpa, truncated, out = tmp_path / "lm.arpa", tmp_path / "t.arpa", tmp_path / "out"
    assert run_cli(["ngram", "train", str(corpus), "-o", str(arpa), "--order", "3"], capsys)[0] == 0
    truncated.write_bytes(arpa.read_bytes()[:300])
    code, _, err = run_cli(["eval", "--scorer", "ngram", "--ngram-model", str(truncated), "--data", str(blimp_data),
                            "--out", str(out)], capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert f"{truncated}:" in err and "\\1-grams: section" in err and "truncated" in err
    assert not out.exists()
