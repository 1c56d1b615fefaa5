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
    from .conftest import make_gpt2, make_tokenizer

    tokenizer = make_tokenizer("bpe")
    model_dir = tmp_path / "tiny-gpt2"
    make_gpt2(tokenizer).save_pretrained(model_dir)
    tokenizer.save_pretrained(model_dir)
    args = ["eval", "--model", str(model_dir), "--data", str(blimp_data), "--device", "cpu"]
    single, double = tmp_path / "one", tmp_path / "two"
    subprocess.run([sys.executable, str(ENTRY), *args, "--out", str(single)], check=True, capture_output=True)
    # accelerate's --cpu launcher needs mpirun for several processes; its torchrun-based launcher
    # runs CPU processes over gloo when no GPU is visible
    launcher = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
                "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no"]
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "OMP_NUM_THREADS": "1"}
    done = subprocess.run([*launcher, str(ENTRY), *args, "--out", str(double)], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    one = [json.loads(line) for line in (single / "pairs.jsonl").read_text().splitlines()]
    two = [json.loads(line) for line in (double / "pairs.jsonl").read_text().splitlines()]
    assert [r["pair_id"] for r in one] == [r["pair_id"] for r in two]
    for a, b in zip(one, two):
        assert abs(a["logprob_good"] - b["logprob_good"]) < 1e-4 and a["correct"] == b["correct"]
    options = json.loads((double / "results.json").read_text())["options"]
    assert options["processes"] == 2
    shutil.rmtree(model_dir)
