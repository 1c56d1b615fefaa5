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

A killed parent takes its workers with it: SIGINT, SIGTERM and SIGHUP end a worker that is writing
through ``SystemExit`` (its temporary file removed) and a waiting one at once, and on Linux a
worker gets SIGTERM when its parent dies. When every file is written the workers exit by themselves.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

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


def write_files(
    files: Sequence[tuple[str, Source[Record], Path | None]], n: int, seed: int, jobs: int, write: Write
) -> Iterator[int]:
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
    done = False
    try:
        tasks = [(index, n, seed) for index in range(len(files))]
        for count, error in pool.imap(_write_one, tasks, chunksize=1):
            if error is not None:
                raise error
            yield count
        # Every file is written: each worker takes its end-of-work sentinel and exits by itself.
        # (terminate() would signal workers that may be blocking on the task queue's lock, which
        # the pool then holds: a signal that arrives just before they block was lost, a hang.)
        pool.close()
        _join_workers(pool)
        pool.join()
        done = True
    finally:
        if not done:  # an error, Ctrl-C or an abandoned generator: stop the workers still writing
            pool.terminate()
            pool.join()
        _FILES = ()


# Seconds a finished run waits for a worker to take its end-of-work sentinel and exit.
JOIN_GRACE = 5.0


def _join_workers(pool: Any) -> None:
    """Every result is in: wait a little for each worker to exit, then end the ones still there.

    A worker normally exits on its sentinel. One that waits on the task queue's lock held by a
    worker that died holding it (seen once under heavy load, cause not found) would wait for
    ever, and ``pool.join()`` with it; since nothing is left to write, ending it loses nothing
    (idle workers keep the default action of SIGTERM, so it ends at once).
    """
    workers = list(getattr(pool, "_pool", ()))  # multiprocessing keeps the worker processes there
    for worker in workers:
        worker.join(JOIN_GRACE)
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
            worker.join()


_write: Write | None = None


# The signals that stop a worker, as they stop the CLI.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def _start_worker(write: Write) -> None:
    global _write
    _write = write
    # Ctrl-C reaches the whole process group: the parent alone decides, and ends the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _on_stop(signal.SIG_DFL)
    _die_with_parent()


def _on_stop(handler: Callable[[int, Any], Any] | int) -> None:
    """What a stop signal does to this worker. While it writes a file: :class:`SystemExit`, so the
    temporary file is removed. While it waits for work: the default, the end of the process, at
    once; a Python handler would run only when the wait ends, and a worker waiting on the task
    queue's lock, which a terminating pool holds, would wait for ever. The signals are blocked
    while the handler changes (blocking runs a handler already due), so none is lost."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        for signum in STOP_SIGNALS:
            signal.signal(signum, handler)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


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
    _on_stop(_exit_on_signal)
    try:
        return _write(source, n, seed, target), None
    except BlimpgenError as error:  # returned, not raised: no traceback travels with it
        return 0, error.with_traceback(None)
    finally:
        _on_stop(signal.SIG_DFL)
