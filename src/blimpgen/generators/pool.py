"""Several output files generated at once, one per worker process, byte-identical to one at a time.

``blimpgen gen --all`` (or ``--all-probes``, or several ``-p``) writes one file per paradigm, and
each file depends only on its source, ``n`` and the seed: every source draws from its own
``random.Random`` seeded by ``(seed, UID)`` (:func:`~blimpgen.generators.source.paradigm_rng`),
and the lexicon's caches only remember pure results. So the files can be written by a pool of
processes in any order and still be the bytes the serial run writes.

The workers are forked after the parent has parsed the specs, loaded the lexicon and built every
source, so none of that is done twice and the workers share the parent's memory. Forking is
used on Linux only (elsewhere, or with ``jobs=1``, :func:`write_files` runs in this process).
Each file is still written through :func:`~blimpgen._io.atomic_writer`. A worker's
:class:`~blimpgen.errors.BlimpgenError` travels back pickled (every blimpgen error pickles with
its message and location) and is raised here for the first file, in the serial order, that
failed: the same one-line error the serial run gives. Files after it may already be written
(each one complete); the serial run would not have started them.

A killed parent takes its workers with it: SIGINT, SIGTERM and SIGHUP end them through ``SystemExit``
(their temporary files removed), and on Linux a worker gets SIGTERM when its parent dies.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from blimpgen.errors import BlimpgenError
from blimpgen.generators.source import Source
from blimpgen.records import Record

# (file stem, source, target) for each file; set in the parent just before forking, read by workers.
_FILES: Sequence[tuple[str, Source[Record], Path | None]] = ()

# prctl(PR_SET_PDEATHSIG): the signal a Linux process gets when its parent dies.
PR_SET_PDEATHSIG = 1


def default_jobs() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Whether workers can be forked here (Linux; other systems generate in this process)."""
    return sys.platform.startswith("linux")


Write = Callable[[Source[Record], int, int, Path | None], int]


def write_files(files: Sequence[tuple[str, Source[Record], Path | None]], n: int, seed: int, jobs: int,
                write: Write) -> Iterator[int]:
    """Write each ``(stem, source, target)`` with ``write(source, n, seed, target)``; yield each
    count, in the order of ``files``.

    With ``jobs`` > 1, more than one file, and a system that forks, up to ``jobs`` worker
    processes write the files (``write`` need not pickle: the workers are forked).

    Raises:
        BlimpgenError: the error of the first file (in order) that failed, as the serial run raises it.
    """
    jobs = min(jobs, len(files))
    if jobs <= 1 or not can_fork():
        for _, source, target in files:
            yield write(source, n, seed, target)
        return
    import multiprocessing

    global _FILES
    _FILES = files
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_start_worker, initargs=(write,))
    try:
        tasks = [(index, n, seed) for index in range(len(files))]
        for count, error in pool.imap(_write_one, tasks, chunksize=1):
            if error is not None:
                raise error
            yield count
        pool.close()
    finally:
        pool.terminate()  # stops the workers still writing (SystemExit removes their temporary files)
        pool.join()
        _FILES = ()


_write: Write | None = None


def _start_worker(write: Write) -> None:
    global _write
    _write = write
    # Ctrl-C reaches the whole process group: the parent alone decides, and ends the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):  # as the CLI stops on either; the parent alone says so
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _exit_on_signal)
    _die_with_parent()


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _die_with_parent() -> None:
    with contextlib.suppress(Exception):  # best effort: Linux only, and ctypes may be missing
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() == 1:  # the parent died before prctl
            raise SystemExit(1)


def _write_one(task: tuple[int, int, int]) -> tuple[int, BlimpgenError | None]:
    index, n, seed = task
    _, source, target = _FILES[index]
    assert _write is not None
    try:
        return _write(source, n, seed, target), None
    except BlimpgenError as error:  # returned, not raised: no traceback travels with it
        return 0, error.with_traceback(None)
