"""Several output files generated at once, one per worker process, byte-identical to one at a time.

``blimpgen gen --all`` (or ``--all-probes``, or several ``-p``) writes one file per paradigm, and
each file depends only on its source, ``n`` and the seed: every source draws from its own
``random.Random`` seeded by ``(seed, UID)`` (:func:`~blimpgen.generators.source.paradigm_rng`),
and the lexicon's caches only remember pure results. So the files can be written by several
processes in any order and still be the bytes the serial run writes.

The workers are forked after the parent has parsed the specs, loaded the lexicon, built every
source and its lexicon's index (:func:`~blimpgen.generators.generate.write_outputs` calls
:meth:`~blimpgen.vocab.lexicon.Lexicon.prepare`), so none of that is done twice and the workers
share the parent's memory. Forking is used on Linux only
(elsewhere, or with ``jobs=1``, :func:`write_files` runs in this process).

Why not :class:`multiprocessing.pool.Pool`: its workers share one task queue guarded by a
semaphore, and a worker that dies holding it (killed while it reads a task) leaves every other
worker, and ``terminate()``, waiting on it for ever; it was seen hanging so. Here nothing is
shared: each worker has a pipe of its own, and the parent, the only one that hands out work,
waits on the pipes and on the workers' exit sentinels together
(:func:`multiprocessing.connection.wait`). A worker that exits is seen at once, whatever it was
doing, and there is no lock for anyone to wait on. The parent sends a worker one file's index at
a time (``None`` when there is nothing more), in the order of the files; the worker answers
``(index, count, error)``. No thread is started, so every worker is forked by the main thread
(which is what a worker's parent-death signal is tied to).

A worker's :class:`~blimpgen.errors.BlimpgenError` travels back pickled (every blimpgen error
pickles with its message and location) and is raised here for the first file, in the serial
order, that failed: the same one-line error the serial run gives. A worker that dies (killed,
out of memory) fails its file with a :class:`~blimpgen.errors.GenerationError` naming it, and its
temporary file is removed. Files after a failed one may already be written (each one complete);
the serial run would not have started them.

A stopped parent (an error, Ctrl-C, SIGTERM, an abandoned generator) ends its workers: SIGTERM
ends a worker through :class:`SystemExit` (its temporary file removed by
:func:`~blimpgen._io.atomic_writer`), SIGKILL ends one that has not exited after
:data:`JOIN_GRACE` seconds, and the temporary files of killed workers are removed. Ctrl-C reaches
the whole process group, and the workers ignore it: the parent decides. On Linux a worker gets
SIGTERM when its parent dies.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from blimpgen._io import remove_stale_parts
from blimpgen.errors import BlimpgenError, GenerationError
from blimpgen.generators.source import Source
from blimpgen.records import Record

# prctl(PR_SET_PDEATHSIG): the signal a Linux process gets when the thread that forked it ends.
PR_SET_PDEATHSIG = 1
# Seconds a stopping run waits for its workers to exit before it kills them.
JOIN_GRACE = 5.0
# The signals that stop a worker, as they stop the CLI; SIGINT is the parent's to act on.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))

File = tuple[str, Source[Record], Path | None]
Write = Callable[[Source[Record], int, int, Path | None], int]


def default_jobs() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Whether workers can be forked here (Linux; other systems generate in this process)."""
    return sys.platform.startswith("linux")


def write_files(files: Sequence[File], n: int, seed: int, jobs: int, write: Write) -> Iterator[int]:
    """Write each ``(stem, source, target)`` with ``write(source, n, seed, target)``; yield each
    count, in the order of ``files``.

    With ``jobs`` > 1, more than one file, and a system that forks, up to ``jobs`` worker
    processes write the files (``write`` need not pickle: the workers are forked).

    Raises:
        BlimpgenError: the error of the first file (in order) that failed, as the serial run
            raises it; GenerationError naming the file when the process writing it died.
    """
    jobs = min(jobs, len(files))
    if jobs <= 1 or not can_fork():
        for _, source, target in files:
            yield write(source, n, seed, target)
        return
    workers = _Workers(files, n, seed, write)
    try:
        for _ in range(jobs):
            workers.start()
        yield from workers.results()
    finally:
        workers.stop()


@dataclass(eq=False)
class _Worker:
    process: Any  # multiprocessing's Process (its fork context's class)
    connection: Connection
    task: int | None = None  # the index of the file it is writing


class _Workers:
    """The worker processes of one :func:`write_files` call, and the files they were given."""

    def __init__(self, files: Sequence[File], n: int, seed: int, write: Write) -> None:
        import multiprocessing

        self.context = multiprocessing.get_context("fork")
        self.files, self.n, self.seed, self.write = files, n, seed, write
        self.busy: list[_Worker] = []
        self.finished: list[_Worker] = []  # told to stop, or dead
        self.next_task = 0
        self.last_task = len(files) - 1  # no file after a failed one is started

    def start(self) -> None:
        """Fork a worker and hand it the next file."""
        ours, theirs = self.context.Pipe(duplex=True)
        # The worker must close the parent's ends of the other workers' pipes, which it inherits.
        inherited = [worker.connection for worker in self.busy] + [ours]
        args = (theirs, inherited, os.getpid(), self.files, self.n, self.seed, self.write)
        process = self.context.Process(target=_serve, args=args, daemon=True)
        # Stop signals wait until the worker has its handlers, and the parent knows the worker.
        with _signals_blocked():
            try:
                process.start()
            except OSError as exc:  # no memory or no process left for a fork
                ours.close()
                raise GenerationError(f"could not start a worker process ({exc}); try --jobs 1") from None
            finally:
                theirs.close()
            worker = _Worker(process, ours)
            self.busy.append(worker)
        self._hand_out(worker)

    def results(self) -> Iterator[int]:
        """Each file's count in order, as the workers report them."""
        from multiprocessing.connection import wait

        reported: dict[int, tuple[int, BaseException | None]] = {}
        for index in range(len(self.files)):
            while index not in reported:
                # Every file up to the first failed one is handed out in order, and each busy
                # worker either reports its file or dies, so a file not yet reported is busy.
                if not self.busy:  # cannot happen; were it to, waiting on nothing would hang
                    raise RuntimeError(f"{self.files[index][0]}: handed to no worker")
                waits: dict[Any, _Worker] = {}
                for worker in self.busy:
                    waits[worker.connection] = worker
                    waits[worker.process.sentinel] = worker
                ready = wait(list(waits))
                for worker in list(dict.fromkeys(waits[handle] for handle in ready)):
                    reported.update(self._hear(worker))
            count, error = reported.pop(index)
            if error is not None:
                raise error
            yield count

    def _hear(self, worker: _Worker) -> dict[int, tuple[int, BaseException | None]]:
        """What a ready worker reports: a file done (the worker then gets the next), or its death."""
        readable = worker.connection.poll()
        if not readable and worker.process.is_alive():
            return {}  # nothing to hear yet (wait() names only ready ones; this costs nothing)
        try:
            message = worker.connection.recv() if readable else None
        except (EOFError, OSError):
            message = None
        if message is not None:
            index, count, error, remote_traceback = message
            if error is not None:
                self.last_task = min(self.last_task, index)
                if remote_traceback:
                    error.__cause__ = RemoteTraceback(remote_traceback)
            worker.task = None
            self._hand_out(worker)
            return {index: (count, error)}
        # The pipe is closed: the worker has exited, or is exiting (nothing else closes it).
        worker.process.join(JOIN_GRACE)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(JOIN_GRACE)
        self._retire(worker)
        if worker.task is None:
            return {}
        index, worker.task = worker.task, None
        self.last_task = min(self.last_task, index)
        stem, _, target = self.files[index]
        if target is not None:
            remove_stale_parts(target)
        return {index: (0, GenerationError(f"{stem}: {_death(worker.process.exitcode)}"))}

    def _hand_out(self, worker: _Worker) -> None:
        """Give an idle worker the next file, or tell it to exit when there is none."""
        task = self.next_task if self.next_task <= self.last_task else None
        if task is not None:
            self.next_task += 1
        worker.task = task
        with contextlib.suppress(OSError):  # a dead worker is seen by its sentinel
            worker.connection.send(task)
        if task is None:
            self._retire(worker)

    def _retire(self, worker: _Worker) -> None:
        if worker in self.busy:
            self.busy.remove(worker)
            self.finished.append(worker)

    def stop(self) -> None:
        """Every worker gone, and no temporary file of theirs left: those still writing are ended."""
        workers = self.busy + self.finished
        writing = [self.files[worker.task][2] for worker in self.busy if worker.task is not None]
        for worker in self.busy:
            worker.process.terminate()  # SystemExit in the worker: its atomic writer cleans up
        deadline = time.monotonic() + JOIN_GRACE
        for worker in workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
        for worker in workers:
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(JOIN_GRACE)
        for worker in workers:
            worker.connection.close()
        for target in writing:
            if target is not None:
                remove_stale_parts(target)  # of workers that were killed before they could clean up
        self.busy, self.finished = [], []


def _death(exitcode: int | None) -> str:
    """What ended a worker, as a user reads it."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        why = " (out of memory?)" if exitcode == -signal.SIGKILL else ""
        how = f"was killed by {name}{why}"
    else:
        how = f"exited with status {exitcode}"
    return f"the worker process generating it {how}; its file was not written"


@contextlib.contextmanager
def _signals_blocked() -> Iterator[None]:
    """Hold back Ctrl-C and the stop signals; the ones that arrive meanwhile are delivered after."""
    held = (signal.SIGINT, *STOP_SIGNALS)
    signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)


def _serve(
    connection: Connection,
    inherited: list[Connection],
    parent: int,
    files: Sequence[File],
    n: int,
    seed: int,
    write: Write,
) -> None:
    """A worker: write the files the parent names, one at a time, until it sends ``None``.

    It starts with the stop signals blocked (see :meth:`_Workers.start`): its handlers are in
    place before any of them can arrive."""
    for other in inherited:
        other.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent decides
    for signum in STOP_SIGNALS:
        signal.signal(signum, _exit_on_signal)
    _die_with_parent(parent)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, (signal.SIGINT, *STOP_SIGNALS))
    while True:
        try:
            index = connection.recv()
        except EOFError:  # the parent is gone
            return
        if index is None:
            return
        connection.send(_write_one(files, index, n, seed, write))


def _write_one(files: Sequence[File], index: int, n: int, seed: int, write: Write) -> tuple[int, int, Any, str]:
    """``(index, count, error, traceback)`` for one file. A blimpgen error is sent back without its
    traceback (the user sees its one line); any other is a bug, sent with its traceback's text."""
    import pickle

    stem, source, target = files[index]
    remote = ""
    try:
        return index, write(source, n, seed, target), None, remote
    except BlimpgenError as caught:
        error: BaseException = caught.with_traceback(None)
    except Exception as caught:
        remote = "".join(traceback.format_exception(caught))
        error = caught.with_traceback(None)
    try:
        pickle.dumps(error)
    except Exception:  # an exception that does not pickle still gets back, as its text
        error = GenerationError(f"{stem}: {type(error).__name__}: {error}")
    return index, 0, error, remote


class RemoteTraceback(Exception):
    """The traceback of an unexpected exception in a worker (shown as the cause of its copy here)."""

    def __str__(self) -> str:
        return f"\n\n(in the worker process)\n{self.args[0]}"


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _die_with_parent(parent: int) -> None:
    with contextlib.suppress(Exception):  # best effort: Linux only, and ctypes may be missing
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before prctl
        raise SystemExit(1)
