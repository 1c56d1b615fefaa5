"""Data-parallel scoring: two CPU processes under ``accelerate launch`` give the one-process results."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("accelerate")
pytest.importorskip("torch")

ENTRY = Path(__file__).with_name("distributed_entry.py")


def test_distributed_two_processes_match_one(blimp_data: Path, tmp_path: Path):
    from .tiny import make_gpt2, make_tokenizer

    tokenizer = make_tokenizer("bpe")
    model_dir = tmp_path / "tiny-gpt2"
    make_gpt2(tokenizer).save_pretrained(model_dir)
    tokenizer.save_pretrained(model_dir)
    args = ["eval", "--model", str(model_dir), "--data", str(blimp_data), "--device", "cpu"]
    single, double = tmp_path / "one", tmp_path / "two"
    subprocess.run([sys.executable, str(ENTRY), *args, "--out", str(single)], check=True, capture_output=True)
    # accelerate's --cpu launcher needs mpirun for several processes; its torchrun-based launcher
    # runs CPU processes over gloo when no GPU is visible
    launcher = [
        sys.executable,
        "-m",
        "accelerate.commands.launch",
        "--multi_gpu",
        "--num_processes",
        "2",
        "--num_machines",
        "1",
        "--mixed_precision",
        "no",
        "--dynamo_backend",
        "no",
    ]
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [*launcher, str(ENTRY), *args, "--out", str(double)], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    one = [json.loads(line) for line in (single / "pairs.jsonl").read_text().splitlines()]
    two = [json.loads(line) for line in (double / "pairs.jsonl").read_text().splitlines()]
    assert [r["pair_id"] for r in one] == [r["pair_id"] for r in two]
    for a, b in zip(one, two):
        assert abs(a["logprob_good"] - b["logprob_good"]) < 1e-4 and a["correct"] == b["correct"]
    options = json.loads((double / "results.json").read_text())["options"]
    assert options["processes"] == 2
    shutil.rmtree(model_dir)


def test_distributed_error_in_one_shard_stops_every_process(blimp_data: Path, tmp_path: Path):
    """A pair only process 1 scores is too long for the model: every process reports it and exits
    cleanly, nothing written. Process 0 used to wait for process 1's records in the gather and
    then die in it (gloo: a RuntimeError traceback; other backends may wait for ever)."""
    from .tiny import make_gpt2, make_tokenizer

    tokenizer = make_tokenizer("wordlevel")
    model_dir = tmp_path / "tiny-gpt2"
    make_gpt2(tokenizer).save_pretrained(model_dir)
    tokenizer.save_pretrained(model_dir)
    data = tmp_path / "long_1.jsonl"
    long = "The cat " + "is " * 80 + "sleeping ."
    data.write_text(
        "".join(
            json.dumps(
                {"sentence_good": good, "sentence_bad": "The cat are sleeping .", "UID": "long_1", "pairID": str(i)}
            )
            + "\n"
            for i, good in enumerate(["The cat is sleeping .", long, "The cat is sleeping ."])
        )
    )
    launcher = [
        sys.executable,
        "-m",
        "accelerate.commands.launch",
        "--multi_gpu",
        "--num_processes",
        "2",
        "--num_machines",
        "1",
        "--mixed_precision",
        "no",
        "--dynamo_backend",
        "no",
    ]
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "OMP_NUM_THREADS": "1"}
    out = tmp_path / "out"
    done = subprocess.run(
        [
            *launcher,
            str(ENTRY),
            "eval",
            "--model",
            str(model_dir),
            "--data",
            str(data),
            "--device",
            "cpu",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode != 0  # and no TimeoutExpired: neither process waits forever
    assert f"error: {data}:2: pair long_1-1: sentence_good is 84 tokens, more than the 64" in done.stderr
    # no process dies with a traceback of its own ("[rank0]: RuntimeError: ... Connection closed by peer")
    assert "[rank0]:" not in done.stderr and "[rank1]:" not in done.stderr
    assert not out.exists()
