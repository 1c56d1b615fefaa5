"""The bench scripts run: ``bench/gpu_throughput.py --dry-run`` scores on CPU with tiny models in seconds."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load_bench(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_bench_gpu_throughput_dry_run_scores_every_model_family(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "rows.json"
    result = subprocess.run(
        [sys.executable, str(BENCH / "gpu_throughput.py"), "--dry-run", "--peak-tflops", "1", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(out.read_text())
    tools = {(row["model"], row["tool"]) for row in report["rows"]}
    assert {
        ("gpt2", "blimpgen"),
        ("bert-base", "blimpgen pll=original"),
        ("bert-base", "blimpgen pll=within-word-l2r"),
    } <= tools
    for row in report["rows"]:
        assert row["scored_tokens"] > 0 and row["fed_tokens"] > 0 and row["tflops"] > 0
        assert row["share_of_peak"] == pytest.approx(row["tflops"] / 1.0)
    pll = {row["tool"]: row for row in report["rows"] if row["model"] == "bert-base"}
    original = pll["blimpgen pll=original"]
    assert original["fed_tokens"] > original["scored_tokens"]  # a masked copy per scored token
    if importlib.util.find_spec("lm_eval") is not None:  # the same sentences, the same scores
        assert ("gpt2", "lm-eval batch_size=64") in tools
        [comparison] = report["comparisons"]
        assert comparison["max_abs_diff"] < 1e-4 and comparison["flips"] == 0


@pytest.mark.parametrize(
    "device, dtype, peak",
    [
        ("NVIDIA H100 80GB HBM3", "bfloat16", 989.0),
        ("NVIDIA H100 PCIe", "bfloat16", 756.0),
        ("NVIDIA H200", "float32", 67.0),
        ("NVIDIA A100-SXM4-80GB", "bfloat16", 312.0),
        ("cpu", "float32", None),
    ],
)
def test_bench_gpu_throughput_peak_by_device_name(device: str, dtype: str, peak: float | None) -> None:
    bench = load_bench("gpu_throughput")
    assert bench.peak_tflops(device, dtype, None) == peak
    assert bench.peak_tflops(device, dtype, 12.5) == 12.5
