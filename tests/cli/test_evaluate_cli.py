"""The eval / report / ngram commands (``blimpgen.cli.evaluate``): pairs and probes, errors, scorer options."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from blimpgen.records.jsonl import dumps_record

from ..evaluate.tiny import ITEMS, make_bert, make_gpt2, make_tokenizer, mc, run_cli, write_items


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
    code, out, err = run_cli(
        [
            "eval",
            "--scorer",
            "ngram",
            "--scorer-option",
            f"ngram_model={arpa}",
            "--data",
            str(blimp_data),
            "--out",
            str(results),
        ],
        capsys,
    )
    assert code == 0, err
    assert "overall (mean of paradigms)" in out
    assert json.loads((results / "results.json").read_text())["options"]["scorer"] == "ngram.v1"
    code, out, err = run_cli(["report", str(results)], capsys)
    assert code == 0 and out.splitlines()[0].split() == ["phenomenon", "res"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--scorer", "ngram", "--dtype", "float32"], "takes no option 'dtype'"),
        (["--scorer", "hf-causl"], "unknown scorer 'hf-causl'"),
        (["--model", "./no/such/model"], "unknown model './no/such/model': no such folder"),
        (
            ["--scorer", "unigram", "--method", "two-prefix", "--scorer-option", "corpus={corpus}"],
            "none of the 2 paradigms",
        ),
        (["--scorer", "unigram", "--reduction", "slor"], "needs a unigram model"),
    ],
)
def test_cli_evaluate_errors_are_one_line_and_write_nothing(args, message, blimp_data: Path, tmp_path: Path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("the cat\n", encoding="utf-8")
    out = tmp_path / "out"
    args = [a.replace("{corpus}", str(corpus)) for a in args]
    code, _, err = run_cli(["eval", "--data", str(blimp_data), "--out", str(out), *args], capsys)
    assert code == 1
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_cli_evaluate_help_does_not_import_torch():
    code = (
        "import sys; from blimpgen.cli import main\n"
        "try:\n    main(['eval', '--help'])\nexcept SystemExit:\n    pass\n"
        "assert 'torch' not in sys.modules, 'torch imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_cli_evaluate_truncated_arpa_is_refused_and_writes_nothing(blimp_data: Path, tmp_path: Path, capsys):
    """F8 (E21b): an ARPA file cut after its header used to score every pair as a tie, exit 0."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat is sleeping .\nthe cats are sleeping .\nthe dog was barking .\n" * 3, encoding="utf-8")
    arpa, truncated, out = tmp_path / "lm.arpa", tmp_path / "t.arpa", tmp_path / "out"
    assert run_cli(["ngram", "train", str(corpus), "-o", str(arpa), "--order", "3"], capsys)[0] == 0
    truncated.write_bytes(arpa.read_bytes()[:300])
    code, _, err = run_cli(
        [
            "eval",
            "--scorer",
            "ngram",
            "--scorer-option",
            f"ngram_model={truncated}",
            "--data",
            str(blimp_data),
            "--out",
            str(out),
        ],
        capsys,
    )
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert f"{truncated}:" in err and "\\1-grams: section" in err and "truncated" in err
    assert not out.exists()


@pytest.fixture
def saved_gpt2(tmp_path: Path) -> Path:
    """A tiny GPT-2 (n_positions=64) and its tokenizer saved as a model folder."""
    pytest.importorskip("torch")
    tokenizer = make_tokenizer("wordlevel")
    path = tmp_path / "gpt2"
    make_gpt2(tokenizer).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def test_cli_evaluate_model_folder_without_tokenizer_is_refused(
    saved_gpt2: Path, blimp_data: Path, tmp_path: Path, capsys
):
    """F2 (E12a): it used to print accuracy 0.0 (50.0 with --tie half), every pair a 0-token tie, exit 0."""
    for file in saved_gpt2.glob("tokenizer*"):
        file.unlink()
    out = tmp_path / "out"
    code, stdout, err = run_cli(
        [
            "eval",
            "--model",
            str(saved_gpt2),
            "--device",
            "cpu",
            "--data",
            str(blimp_data),
            "--tie",
            "half",
            "--out",
            str(out),
        ],
        capsys,
    )
    assert code == 1 and "Traceback" not in err and "overall" not in stdout
    assert err.strip().splitlines()[-1] == (
        f"error: model folder {saved_gpt2} has no tokenizer files (none of "
        "tokenizer.json, tokenizer_config.json, vocab.json, vocab.txt, "
        "tokenizer.model, spiece.model, sentencepiece.bpe.model); save the "
        "model's tokenizer into it with tokenizer.save_pretrained()"
    )
    assert not out.exists()


def test_cli_evaluate_sentence_longer_than_the_context_names_pair_and_limit(saved_gpt2: Path, tmp_path: Path, capsys):
    """F14 (E06): a 300-token sentence on a 64-position model was torch's IndexError traceback."""
    long = "The cat " + "is " * 150
    data = tmp_path / "x_1.jsonl"
    data.write_text(
        json.dumps(
            {
                "sentence_good": "The cat is sleeping .",
                "sentence_bad": "The cat are sleeping .",
                "UID": "x_1",
                "pairID": "0",
            }
        )
        + "\n"
        + json.dumps(
            {"sentence_good": long + "sleeping .", "sentence_bad": long + "sleep .", "UID": "x_1", "pairID": "1"}
        )
        + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    code, _, err = run_cli(
        ["eval", "--model", str(saved_gpt2), "--device", "cpu", "--data", str(data), "--out", str(out)], capsys
    )
    assert code == 1 and "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        f"error: {data}:2: pair x_1-1: sentence_good is 154 tokens, more than "
        f"the 64 that model {saved_gpt2} can score (n_positions=64, after the "
        "BOS token); shorten it or use a model with a longer context"
    )
    assert not out.exists()


# -- probe items ---------------------------------------------------------------------------------
@pytest.fixture
def probe_file(tmp_path: Path) -> Path:
    return write_items(tmp_path / "probes.jsonl", ITEMS)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.txt"
    path.write_text("the cat is sleeping .\nthe dog is here .\nthe children have eaten .\n", encoding="utf-8")
    return path


def test_cli_evaluate_probes_writes_three_files(probe_file: Path, corpus: Path, tmp_path: Path, capsys):
    out = tmp_path / "res"
    code, text, err = run_cli(
        [
            "eval",
            "--scorer",
            "unigram",
            "--scorer-option",
            f"corpus={corpus}",
            "--data",
            str(probe_file),
            "--out",
            str(out),
            "--paradigms",
            "--top-k",
            "1",
            "--top-k",
            "3",
        ],
        capsys,
    )
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["items.jsonl", "results.csv", "results.json"]
    assert "overall (mean of suites)" in text and "  agreement" in text and "not applicable" in text
    records = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    assert [r["item_id"] for r in records] == [item.item_id for item in ITEMS]
    results = json.loads((out / "results.json").read_text())
    assert results["kind"] == "probes" and results["options"]["probe_method"] == "sentence"
    assert results["metrics"] == ["mc_accuracy", "top1", "top3", "sensitivity", "sensitivity@0.01"]
    assert set(results["suites"]) == {"agreement", "role"}
    rows = list(csv.DictReader((out / "results.csv").read_text().splitlines()))
    assert {(r["level"], r["metric"]) for r in rows} >= {
        ("overall", "mc_accuracy"),
        ("suite", "sensitivity"),
        ("phenomenon", "top1"),
    }


@pytest.mark.parametrize(
    "args,message",
    [
        (["--method", "one-prefix"], "--method applies to minimal pairs"),
        (["--data", "{bad}"], "bad.jsonl:2: missing required field 'UID'"),
        (["--data", "{pairs}"], "--data mixes minimal pairs"),
    ],
)
def test_cli_evaluate_probes_errors_are_one_line_and_write_nothing(
    args, message, probe_file: Path, corpus: Path, tmp_path: Path, capsys
):
    bad = tmp_path / "bad.jsonl"
    first = mc("bad-00000", "A [MASK] .", ["b", "c"], "b")
    bad.write_text(dumps_record(first) + "\n" + json.dumps({"item_type": "multiple_choice", "item_id": "x"}) + "\n")
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"sentence_good": "a b", "sentence_bad": "b a", "UID": "p"}) + "\n")
    args = [a.replace("{bad}", str(bad)).replace("{pairs}", str(pairs)) for a in args]
    out = tmp_path / "out"
    code, _, err = run_cli(
        [
            "eval",
            "--scorer",
            "unigram",
            "--scorer-option",
            f"corpus={corpus}",
            "--data",
            str(probe_file),
            "--out",
            str(out),
            *args,
        ],
        capsys,
    )
    assert code == 1
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_cli_evaluate_probes_masked_multi_token_fails_cleanly(tmp_path: Path, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    tokenizer = make_tokenizer("bpe")
    model_dir = tmp_path / "tiny-bert"
    make_bert(tokenizer).save_pretrained(model_dir)
    tokenizer.save_pretrained(model_dir)
    capsys.readouterr()  # saving prints progress bars
    data = write_items(
        tmp_path / "sleep.jsonl", [mc("sleep-00000", "The cat is [MASK] .", ["sleeping", "."], "sleeping")]
    )
    out = tmp_path / "out"
    code, _, err = run_cli(
        [
            "eval",
            "--scorer",
            "hf-masked",
            "--model",
            str(model_dir),
            "--device",
            "cpu",
            "--data",
            str(data),
            "--out",
            str(out),
        ],
        capsys,
    )
    assert code == 1
    lines = [
        line
        for line in err.replace("\r", "\n").splitlines()
        if line.strip() and "it/s]" not in line and not line.startswith("eval: ")
    ]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines  # loading bars and eval progress aside
    # the one item is dropped (not one token), so nothing is left to score: a one-line error naming it
    assert "every one of the 1 items was dropped (e.g. sleep-00000: candidate 'sleeping' is" in lines[0]
    assert str(model_dir) in lines[0]
    assert not out.exists()


# -- scorer options ---------------------------------------------------------------------------------
def test_cli_evaluate_list_options_needs_no_data_and_no_torch():
    code = (
        "import sys; from blimpgen.cli import main\n"
        "try:\n    main(['eval', '--scorer', 'hf-masked', '--list-options'])\nexcept SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "assert 'torch' not in sys.modules, 'torch imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("hf-masked.v1 (blimpgen.evaluate.scoring.scorers.hf_masked:MaskedLMScorer)\n")
    assert "  pll (one of: original, within-word-l2r; default: within-word-l2r)" in done.stdout


def test_cli_evaluate_without_data_is_a_usage_error(capsys):
    code, _, err = run_cli(["eval", "--scorer", "unigram"], capsys)
    assert code == 2 and "Missing option '--data'" in err


@pytest.mark.parametrize(
    "args,message",
    [
        (
            ["--scorer-option", "lowercse=no"],
            "error: scorer 'unigram' takes no option 'lowercse'; did you mean 'lowercase'?",
        ),
        (
            ["--scorer-option", "lowercase=perhaps"],
            "error: --scorer-option lowercase=perhaps: expected true or false (lowercase: bool)",
        ),
        (["--model", "gpt2"], "error: scorer 'unigram' takes no option 'model'"),
        (
            ["--scorer-option", "counts=3"],
            "error: --scorer-option counts=3: counts takes Mapping[str, int] | None, "
            "which only a library caller can pass",
        ),
    ],
)
def test_cli_evaluate_scorer_option_errors_are_one_line(args, message, blimp_data: Path, tmp_path: Path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("the cat is here .\n", encoding="utf-8")
    code, _, err = run_cli(
        [
            "eval",
            "--scorer",
            "unigram",
            "--scorer-option",
            f"corpus={corpus}",
            "--data",
            str(blimp_data),
            "--out",
            str(tmp_path / "out"),
            *args,
        ],
        capsys,
    )
    assert code == 1 and err.strip().splitlines() == [err.strip()] and err.strip().startswith(message)
    assert not (tmp_path / "out").exists()


def test_cli_evaluate_deprecated_scorer_flags_still_work_with_a_note(blimp_data: Path, tmp_path: Path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat is sleeping .\nthe cats are sleeping .\nthe cat is here .\n" * 3, encoding="utf-8")
    arpa = tmp_path / "m.arpa"
    assert run_cli(["ngram", "train", str(corpus), "-o", str(arpa), "--order", "3"], capsys)[0] == 0
    old, new = tmp_path / "old", tmp_path / "new"
    code, _, err = run_cli(
        [
            "eval",
            "--scorer",
            "ngram",
            "--ngram-model",
            str(arpa),
            "--data",
            str(blimp_data),
            "--out",
            str(old),
            "--quiet",
        ],
        capsys,
    )
    assert code == 0 and err.strip() == (f"note: --ngram-model is deprecated; use --scorer-option ngram_model={arpa}")
    code, _, err = run_cli(
        [
            "eval",
            "--scorer",
            "ngram",
            "--scorer-option",
            f"ngram_model={arpa}",
            "--data",
            str(blimp_data),
            "--out",
            str(new),
            "--quiet",
        ],
        capsys,
    )
    assert code == 0 and err == ""
    assert (old / "pairs.jsonl").read_text() == (new / "pairs.jsonl").read_text()

    def results(folder: Path) -> dict:  # all but the provenance (its date and command line differ)
        return {k: v for k, v in json.loads((folder / "results.json").read_text()).items() if k != "provenance"}

    assert results(old) == results(new)


def test_cli_evaluate_unigram_corpus_sets_the_scorer_corpus_and_slor(blimp_data: Path, tmp_path: Path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat is sleeping .\nthe cats are here .\n", encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run_cli(
        [
            "eval",
            "--scorer",
            "unigram",
            "--unigram-corpus",
            str(corpus),
            "--reduction",
            "slor",
            "--data",
            str(blimp_data),
            "--out",
            str(out),
        ],
        capsys,
    )
    assert code == 0 and err.startswith("note: --unigram-corpus is deprecated; use --scorer-option corpus=")
    options = json.loads((out / "results.json").read_text())["options"]
    assert options["corpus"] == options["unigram_corpus"] == str(corpus) and options["reduction"] == "slor"
