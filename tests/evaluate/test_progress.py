"""Progress of eval: per batch, with rate and ETA; a bar on a terminal, lines in a log; --quiet (issue 16)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from blimpgen.evaluate.progress import Progress

from .tiny import SENTENCES, make_bytelevel_gpt2, run_cli

LINE = re.compile(r"^eval: [\d,]+/[\d,]+ (pair|item)s \(\d+%\), [\d,.]+ (pair|item)s/s, ETA (\d+:\d\d:\d\d|\?)$")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_log_lines_come_after_the_first_batch_then_every_interval():
    stream, clock = io.StringIO(), Clock()
    progress = Progress(1000, "pair", stream=stream, interval=10, tty=False, clock=clock)
    clock.now = 2
    progress.update_to(100)  # the first batch: a line at once
    clock.now = 5
    progress.update_to(250)  # within the interval: none
    clock.now = 12.5
    progress.update_to(500.7)
    progress.update_to(400)  # never back
    clock.now = 20
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines == [
        "eval: 100/1,000 pairs (10%), 50.0 pairs/s, ETA 0:00:18",
        "eval: 500/1,000 pairs (50%), 40.0 pairs/s, ETA 0:00:12",
        "eval: 500/1,000 pairs scored in 0:00:20",
    ]
    assert all(LINE.match(line) for line in lines[:2])


def test_progress_on_a_terminal_is_a_bar():
    stream = io.StringIO()
    progress = Progress(10, "item", stream=stream, tty=True)
    progress.update_to(4)
    assert progress.bar is not None and progress.bar.n == 4
    progress.close()
    assert "eval:" not in stream.getvalue()


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    return make_bytelevel_gpt2(SENTENCES, tmp_path_factory.mktemp("models") / "tiny-gpt2")


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_eval_writes_lines_to_a_log_unless_quiet(
    tiny_model: Path, blimp_data: Path, capsys, monkeypatch, quiet: bool
):
    monkeypatch.setattr("blimpgen.evaluate.progress.LOG_INTERVAL", 0.0)  # a line per batch
    args = [
        "eval",
        "--model",
        str(tiny_model),
        "--device",
        "cpu",
        "--data",
        str(blimp_data),
        "--scorer-option",
        "batch_tokens=16",
        *(["--quiet"] if quiet else []),
    ]
    code, out, err = run_cli(args, capsys)
    assert code == 0 and "acc" in out
    lines = [line for line in err.splitlines() if line.startswith("eval:")]
    if quiet:
        assert lines == []
        return
    assert len(lines) >= 3 and all(LINE.match(line) for line in lines[:-1])
    counts = [int(line.split()[1].split("/")[0]) for line in lines[:-1]]
    assert counts == sorted(counts) and counts[0] < 9  # per batch, not once per chunk of 8,192
    assert lines[-1].startswith("eval: 9/9 pairs scored in ")
