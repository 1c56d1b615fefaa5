"""A generation killed mid-run leaves no partial output file (the target appears only when complete)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

UID = "determiner_noun_agreement_1"


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_killed_generation_leaves_no_output(tmp_path: Path, sig: signal.Signals) -> None:
    target = tmp_path / "out.jsonl"
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from blimpgen.cli import main; main()",
            "gen",
            "-p",
            UID,
            "-n",
            "500000",
            "-o",
            str(target),
            "--quiet",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(".out.jsonl.*.part")):  # writing has started
            assert process.poll() is None and time.monotonic() < deadline, "generation never started writing"
            time.sleep(0.05)
        time.sleep(0.3)
        process.send_signal(sig)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert not target.exists()
    if sig != signal.SIGKILL:  # Ctrl-C and SIGTERM also remove the temporary file; SIGKILL cannot be caught
        assert list(tmp_path.iterdir()) == []
