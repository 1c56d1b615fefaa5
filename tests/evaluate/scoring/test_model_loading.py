"""Model loading (issue 16): --model-arg passthrough, --tokenizer override, fast offline failure
naming the cause, and the right scorer named for a model of the other kind."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from blimpgen.errors import ModelLoadError, OptionError
from blimpgen.evaluate.scoring.options import parse_model_args
from blimpgen.evaluate.scoring.scorers import _torch

from ..tiny import SENTENCES, make_bert, make_bytelevel_gpt2, make_tokenizer, run_cli


@pytest.fixture(scope="module")
def gpt2_folder(tmp_path_factory) -> Path:
    return make_bytelevel_gpt2(SENTENCES, tmp_path_factory.mktemp("models") / "gpt2")


@pytest.fixture(scope="module")
def bert_folder(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("models") / "bert"
    tokenizer = make_tokenizer("wordlevel")
    make_bert(tokenizer).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def _error(err: str) -> str:
    lines = [line for line in err.strip().splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_model_loading_model_args_reach_from_pretrained_and_results(
    gpt2_folder: Path, blimp_data: Path, tmp_path: Path, capsys
):
    code, _, err = run_cli(
        [
            "eval",
            "--model",
            str(gpt2_folder),
            "--device",
            "cpu",
            "--data",
            str(blimp_data),
            "--model-arg",
            "attn_implementation=eager",
            "--model-arg",
            "trust_remote_code=false",
            "--out",
            str(tmp_path / "out"),
            "-q",
        ],
        capsys,
    )
    assert code == 0, err
    options = json.loads((tmp_path / "out" / "results.json").read_text())["options"]
    assert options["model_args"] == {"attn_implementation": "eager", "trust_remote_code": False}


def test_model_loading_model_arg_the_model_does_not_take_is_one_line(gpt2_folder: Path, blimp_data: Path, capsys):
    code, _, err = run_cli(
        [
            "eval",
            "--model",
            str(gpt2_folder),
            "--device",
            "cpu",
            "--data",
            str(blimp_data),
            "--model-arg",
            "attn_implementation=no-such-kernel",
            "-q",
        ],
        capsys,
    )
    assert code == 1 and "no-such-kernel" in _error(err)


@pytest.mark.parametrize(
    "texts, message",
    [
        (["dtype=float16"], "--model-arg dtype=...: use --dtype instead"),
        (["device_map=auto"], "--model-arg device_map=...: use --device-map instead"),
    ],
)
def test_model_loading_model_args_with_their_own_flag_are_refused(
    gpt2_folder: Path, blimp_data: Path, capsys, texts, message
):
    args = [arg for text in texts for arg in ("--model-arg", text)]
    code, _, err = run_cli(
        ["eval", "--model", str(gpt2_folder), "--device", "cpu", "--data", str(blimp_data), *args], capsys
    )
    assert code == 1 and _error(err) == f"error: {message}"


def test_model_loading_parse_model_args():
    assert parse_model_args(["revision=v1=2", "trust_remote_code=True", "n=3", "x=0.5", "y=none"]) == {
        "revision": "v1=2",
        "trust_remote_code": True,
        "n": 3,
        "x": 0.5,
        "y": None,
    }
    with pytest.raises(OptionError, match="expected KEY=VALUE"):
        parse_model_args(["revision"])
    with pytest.raises(OptionError, match="given twice"):
        parse_model_args(["a=1", "a=2"])


def test_model_loading_tokenizer_override(gpt2_folder: Path, blimp_data: Path, tmp_path: Path, capsys):
    bare = tmp_path / "bare"
    shutil.copytree(gpt2_folder, bare)
    for file in bare.glob("*"):
        if file.name not in ("config.json", "model.safetensors", "generation_config.json"):
            file.unlink()
    code, _, err = run_cli(["eval", "--model", str(bare), "--device", "cpu", "--data", str(blimp_data), "-q"], capsys)
    assert code == 1 and "has no tokenizer files" in _error(err)
    code, out, err = run_cli(
        [
            "eval",
            "--model",
            str(bare),
            "--tokenizer",
            str(gpt2_folder),
            "--device",
            "cpu",
            "--data",
            str(blimp_data),
            "--out",
            str(tmp_path / "out"),
            "-q",
        ],
        capsys,
    )
    assert code == 0, err
    assert json.loads((tmp_path / "out" / "results.json").read_text())["options"]["tokenizer"] == str(gpt2_folder)


@pytest.mark.parametrize("variable", ["HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"])
def test_model_loading_offline_fails_at_once_naming_the_variable(
    blimp_data: Path, capsys, monkeypatch, tmp_path: Path, variable: str
):
    monkeypatch.setenv(variable, "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    started = time.monotonic()
    code, _, err = run_cli(
        ["eval", "--model", "someone/not-cached-model", "--device", "cpu", "--data", str(blimp_data)], capsys
    )
    assert code == 1 and time.monotonic() - started < 10
    line = _error(err)
    assert (
        line.startswith(
            "error: model 'someone/not-cached-model' is not a local folder and not in the Hugging Face cache"
        )
        and f"{variable} is set" in line
    )


def test_model_loading_unreachable_hub_fails_at_once(blimp_data: Path, capsys, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setattr(_torch, "hub_reachable", lambda: False)
    with pytest.raises(ModelLoadError, match=r"the Hugging Face hub \(.*\) cannot be reached; download it"):
        _torch._check_reachable("someone/not-cached-model", None)


@pytest.mark.parametrize(
    "scorer, folder, message",
    [
        (
            "hf-masked",
            "gpt2_folder",
            "is a causal language model (GPT2LMHeadModel), not a masked one; use --scorer hf-causal",
        ),
        (
            "hf-causal",
            "bert_folder",
            "is a masked language model (BertForMaskedLM), not a causal one; use --scorer hf-masked",
        ),
    ],
)
def test_model_loading_wrong_scorer_names_the_right_one(blimp_data: Path, capsys, request, scorer, folder, message):
    path = request.getfixturevalue(folder)
    code, _, err = run_cli(
        ["eval", "--scorer", scorer, "--model", str(path), "--device", "cpu", "--data", str(blimp_data)], capsys
    )
    assert code == 1 and _error(err) == f"error: model {str(path)!r} {message}"
