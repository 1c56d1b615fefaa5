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


@pytest.fixture
def saved_gpt2(tmp_path: Path) -> Path:
    """A tiny GPT-2 (n_positions=64) and its tokenizer saved as a model folder."""
    pytest.importorskip("torch")
    from .conftest import make_gpt2, make_tokenizer

    tokenizer = make_tokenizer("wordlevel")
    path = tmp_path / "gpt2"
    make_gpt2(tokenizer).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def test_cli_evaluate_model_folder_without_tokenizer_is_refused(saved_gpt2: Path, blimp_data: Path,
                                                                 tmp_path: Path, capsys):
    """F2 (E12a): it used to print accuracy 0.0 (50.0 with --tie half), every pair a 0-token tie, exit 0."""
    for file in saved_gpt2.glob("tokenizer*"):
        file.unlink()
    out = tmp_path / "out"
    code, stdout, err = run_cli(["eval", "--model", str(saved_gpt2), "--device", "cpu", "--data", str(blimp_data),
                                 "--tie", "half", "--out", str(out)], capsys)
    assert code == 1 and "Traceback" not in err and "overall" not in stdout
    assert err.strip().splitlines()[-1] == (f"error: model folder {saved_gpt2} has no tokenizer files (none of "
                                            "tokenizer.json, tokenizer_config.json, vocab.json, vocab.txt, "
                                            "tokenizer.model, spiece.model, sentencepiece.bpe.model); save the "
                                            "model's tokenizer into it with tokenizer.save_pretrained()")
    assert not out.exists()


def test_cli_evaluate_sentence_longer_than_the_context_names_pair_and_limit(saved_gpt2: Path, tmp_path: Path,
                                                                            capsys):
    """F14 (E06): a 300-token sentence on a 64-position model was torch's IndexError traceback."""
    long = "The cat " + "is " * 150
    data = tmp_path / "x_1.jsonl"
    data.write_text(json.dumps({"sentence_good": "The cat is sleeping .", "sentence_bad": "The cat are sleeping .",
                                "UID": "x_1", "pairID": "0"}) + "\n"
                    + json.dumps({"sentence_good": long + "sleeping .", "sentence_bad": long + "sleep .",
                                  "UID": "x_1", "pairID": "1"}) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run_cli(["eval", "--model", str(saved_gpt2), "--device", "cpu", "--data", str(data),
                            "--out", str(out)], capsys)
    assert code == 1 and "Traceback" not in err
    assert err.strip().splitlines()[-1] == (f"error: {data}:2: pair x_1-1: sentence_good is 154 tokens, more than "
                                            f"the 64 that model {saved_gpt2} can score (n_positions=64, after the "
                                            "BOS token); shorten it or use a model with a longer context")
    assert not out.exists()
