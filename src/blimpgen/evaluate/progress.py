"""Progress of a long evaluation: a bar on a terminal, periodic one-line updates elsewhere.

The runner scores records a chunk (thousands) at a time, and a scorer runs each chunk in many
batches; the scorer reports each batch (:meth:`~blimpgen.evaluate.scoring.base.Scorer.report_batch`),
so progress moves per batch, not per chunk. Within a chunk the records done are estimated from
the share of its batches done.

On a terminal (stderr is a TTY) a tqdm bar shows records done, rate and ETA. Otherwise (a log
file, a pipe, a batch job) a line like::

    eval: 1,024/4,020 pairs (25%), 312.4 pairs/s, ETA 0:00:10

goes to stderr after the first batch and then at most every ``interval`` seconds, and one
line when the run ends. ``blimpgen eval --quiet`` shows neither.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import timedelta
from typing import IO, Any

# Seconds between two progress lines when stderr is not a terminal.
LOG_INTERVAL = 10.0


class Progress:
    """Records done out of ``total``, shown as a bar on a terminal, else as periodic lines.

    Args:
        total: records to score.
        noun: one record (``pair``, ``item``).
        stream: where to write (default: stderr).
        interval: seconds between lines when ``stream`` is not a terminal (default: :data:`LOG_INTERVAL`).
        tty: whether ``stream`` is a terminal (default: ask it).
        clock: seconds, monotonic (for tests).
        label: the line's first word.
    """

    def __init__(
        self,
        total: int,
        noun: str,
        stream: IO[str] | None = None,
        interval: float | None = None,
        tty: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        label: str = "eval",
    ) -> None:
        self.total, self.noun, self.clock, self.label = total, noun, clock, label
        self.interval = LOG_INTERVAL if interval is None else interval
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.done = 0
        self.start = clock()
        self.last_line: float | None = None
        self.bar: Any = None
        if self.tty:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit=noun, file=self.stream, leave=False, dynamic_ncols=True)

    def update_to(self, done: float) -> None:
        """Record that ``done`` records are scored (never moves back)."""
        count = min(self.total, int(done))
        if count <= self.done:
            return
        if self.bar is not None:
            self.bar.update(count - self.done)
        self.done = count
        if self.bar is None:
            now = self.clock()
            if self.last_line is None or now - self.last_line >= self.interval:
                self.last_line = now
                self._line(self.line())

    def line(self) -> str:
        """The progress line: records done, share, rate and ETA."""
        elapsed = max(self.clock() - self.start, 1e-9)
        rate = self.done / elapsed
        eta = _duration((self.total - self.done) / rate) if rate > 0 else "?"
        share = 100 * self.done // max(1, self.total)
        return (
            f"{self.label}: {self.done:,}/{self.total:,} {self.noun}s ({share}%), {rate:,.1f} {self.noun}s/s, ETA {eta}"
        )

    def close(self) -> None:
        """End the bar, or write the final line (records and time taken)."""
        if self.bar is not None:
            self.bar.close()
        elif self.last_line is not None:
            self._line(
                f"{self.label}: {self.done:,}/{self.total:,} {self.noun}s scored in "
                f"{_duration(self.clock() - self.start)}"
            )

    def _line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()


def _duration(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))
