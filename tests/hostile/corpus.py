"""The mechanism of the hostile-input corpus: what a case is, how it runs, what it must end in.

A :class:`Case` is one hostile input: the files it needs (static files from ``inputs/``,
literal text or bytes, or files built by a function), the commands that use it, and what they
must end in:

* :class:`Error`: every command under test exits with a code other than 0, prints no
  traceback, and its error output (one line per problem, each short) contains the expected
  text; ``located=True`` also requires every error line to start with the input file's path
  (``file:line: key: message``);
* :class:`Ok`: every command exits 0 (a correct result), and the case's checks hold.

Either may carry ``check``: a function of the workspace that asserts what the outcome left
behind (the old output intact, no partial file, the right mode...), or returns False when it
is wrong. A case whose fix waits for
another change is ``deferred`` to it: it must still fail (``xfail(strict=True)``), so the day
it passes the corpus says so.

Commands: :func:`cli` runs ``blimpgen ARGS`` in this process (cwd = the case's workspace);
:func:`proc` runs it in a subprocess (signals, resource limits, pipes); :func:`py` runs a
Python function of the workspace (the library API); :func:`load_spec`, :func:`load_rows`
and :func:`load_overlay` load one input file against the test lexicon, as a library caller does.
Hangs cannot happen by construction (budgets and refusals in the code); the alarm set around
every command is only a guard that turns a regression into a failing case instead of a stuck run.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
INPUTS = HERE / "inputs"
REPO = HERE.parents[1]
GUARD_SECONDS = 60  # a command still running after this is a hang: the case fails
MAX_ERROR_LINE = 1000  # an error line longer than this is not a one-line message (report F19)
CHECK_SUMMARY = re.compile(r"^\d+ problem\(s\) in ")

Check = Callable[[Path], Any]


# ----------------------------------------------------------------------------- files


@dataclass(frozen=True)
class Input:
    """A static file of ``inputs/``, copied into the workspace."""

    name: str

    @property
    def path(self) -> Path:
        return INPUTS / self.name


FileSpec = str | bytes | Input | Callable[[Path], Any]


def materialise(ws: Path, files: dict[str, FileSpec]) -> None:
    """Create each file of a case in the workspace (folders as needed)."""
    for name, content in files.items():
        path = ws / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Input):
            shutil.copyfile(content.path, path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        elif isinstance(content, str):
            path.write_bytes(content.encode("utf-8"))
        else:
            content(path)


# ----------------------------------------------------------------------------- commands


@dataclass
class Outcome:
    """What one command did."""

    code: int
    out: str
    err: str
    crashed: str = ""  # the exception type of an escaped non-blimpgen exception ("Traceback")


class CaseHang(BaseException):
    """Raised by the guard alarm: the command ran past ``GUARD_SECONDS``."""


@contextlib.contextmanager
def guard(seconds: float = GUARD_SECONDS):
    """Turn a command that runs too long into :class:`CaseHang` (a guard; the fix is in the code).

    A signal cannot stop a long call inside C code (a tokenizer on a 50 MB line): an input that
    may do that runs in a subprocess (:func:`proc`) with a timeout instead.
    """

    def alarm(signum: int, frame: object) -> None:
        raise CaseHang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Command:
    """One step of a case; ``run(ws, ctx)`` gives its :class:`Outcome`."""

    label: str
    runner: Callable[[Path, dict], Outcome]

    def run(self, ws: Path, ctx: dict) -> Outcome:
        return self.runner(ws, ctx)


def _expand(args: Sequence[str], ws: Path, ctx: dict) -> list[str]:
    return [str(a).replace("{ws}", str(ws)) for a in args]


def cli(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> Command:
    """``blimpgen ARGS`` in this process, in the workspace, with ``env`` added to the environment."""

    def runner(ws: Path, ctx: dict) -> Outcome:
        from blimpgen.cli import main

        argv = _expand(args, ws, ctx)
        out, err = io.StringIO(), io.StringIO()
        saved_env = dict(os.environ)
        saved_cwd = os.getcwd()
        code, crashed = 0, ""
        os.environ.update(env or {})
        os.chdir(ws)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), guard():
                try:
                    main(argv)
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                except CaseHang:
                    raise
                except BaseException as exc:  # noqa: BLE001 - what escapes main() is the finding
                    code, crashed = 1, f"Traceback: {type(exc).__name__}: {exc}"
        finally:
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
        return Outcome(code, out.getvalue(), err.getvalue(), crashed)

    return Command("blimpgen " + " ".join(args), runner)


def proc(
    *args: str,
    env: dict[str, str] | None = None,
    prepare: Callable[[], None] | None = None,
    interact: Callable[[subprocess.Popen, Path], None] | None = None,
    timeout: float = GUARD_SECONDS,
    stdout: int | None = subprocess.PIPE,
) -> Command:
    """``blimpgen ARGS`` in a subprocess; ``interact(process, ws)`` may signal it before it ends."""

    def runner(ws: Path, ctx: dict) -> Outcome:
        argv = [sys.executable, "-c", "from blimpgen.cli import main; main()", *_expand(args, ws, ctx)]
        process = subprocess.Popen(
            argv,
            cwd=ws,
            env={**os.environ, **(env or {})},
            stdout=stdout,
            stderr=subprocess.PIPE,
            preexec_fn=prepare,
            start_new_session=True,
        )
        try:
            if interact is not None:
                interact(process, ws)
            out, err = process.communicate(timeout=timeout)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
        text = (err or b"").decode("utf-8", "replace")
        crashed = "Traceback" if "Traceback (most recent call last)" in text else ""
        return Outcome(process.returncode, (out or b"").decode("utf-8", "replace"), text, crashed)

    return Command("blimpgen " + " ".join(args) + " (subprocess)", runner)


def py(function: Callable[[Path], Any], label: str = "") -> Command:
    """A library call: ``function(ws)``; a BlimpgenError is a clean error, anything else a crash."""

    def runner(ws: Path, ctx: dict) -> Outcome:
        from blimpgen.errors import BlimpgenError

        saved_cwd = os.getcwd()
        os.chdir(ws)
        try:
            with guard():
                result = function(ws)
        except BlimpgenError as exc:
            return Outcome(1, "", str(exc))
        except CaseHang:
            raise
        except Exception as exc:  # noqa: BLE001 - what escapes the API is the finding
            return Outcome(1, "", f"{type(exc).__name__}: {exc}", crashed=f"Traceback: {type(exc).__name__}: {exc}")
        finally:
            os.chdir(saved_cwd)
        return Outcome(0, "" if result is None else str(result), "")

    return Command(label or getattr(function, "__name__", "python"), runner)


def load_spec(name: str) -> Command:
    """Load and build a spec file against the test lexicon (no UID rule: the file is not in a catalogue)."""

    def load(ws: Path) -> None:
        from blimpgen.generators import build_paradigm
        from blimpgen.grammar.loader import load_spec_file

        build_paradigm(load_spec_file(ws / name, name), _mini_lexicon())

    return py(load, f"load_spec {name}")


def load_rows(name: str) -> Command:
    """Check a file of lexicon rows against the shipped feature inventory."""

    def load(ws: Path) -> None:
        from blimpgen.vocab.features import load_inventory
        from blimpgen.vocab.lexicon import load_lexicon_files

        load_lexicon_files([ws / name], load_inventory(), include_shipped=False)

    return py(load, f"load_rows {name}")


def load_overlay(name: str) -> Command:
    """Load the shipped lexicon plus one overlay file."""

    def load(ws: Path) -> None:
        from blimpgen.vocab.overlays import load_lexicon_with_overlays

        load_lexicon_with_overlays([name])

    return py(load, f"load_overlay {name}")


_MINI: list = []


def _mini_lexicon():
    if not _MINI:
        from importlib import resources

        from blimpgen.vocab import load_lexicon_files

        function_words = resources.files("blimpgen.vocab") / "data" / "lexicon" / "function_words.tsv"
        _MINI.append(
            load_lexicon_files(
                [REPO / "tests" / "fixtures" / "lexicon" / "mini.tsv", str(function_words)], include_shipped=False
            )
        )
    return _MINI[0]


# ----------------------------------------------------------------------------- expectations


@dataclass(frozen=True)
class Error:
    """Every command under test fails cleanly with ``text`` in its error output.

    Args:
        text: expected in an error line (``:14: good: message`` for a located one), or several
            parts that must all be in one line (around a number that depends on generated data).
        located: every error line starts with the path of ``file`` (default: the case's first file).
        file: the input whose path starts each located line.
        check: asserts what the failure left behind.
    """

    text: str | tuple[str, ...]
    located: bool = False
    file: str | None = None
    check: Check | None = None


@dataclass(frozen=True)
class Ok:
    """Every command under test succeeds; ``check`` asserts the result is correct."""

    check: Check | None = None


@dataclass(frozen=True)
class Case:
    """One hostile input of the corpus.

    Args:
        id: the report's input id (``S01``, ``V18a``...) or the fixture's name.
        surface: spec, template, overlay, lexicon, cli, eval, validate, export, api.
        what: the input in a few words.
        run: the commands under test (each must meet ``expect``).
        expect: :class:`Error` or :class:`Ok`.
        files: workspace files (name -> text, bytes, :class:`Input` or a builder of the path).
        needs: prerequisites copied into the workspace (see ``prerequisites`` in the runner).
        setup: commands run first, each of which must succeed.
        finding: the report's finding (``F4``), when there is one.
        deferred: why the input still fails and which change will fix it (strict xfail).
    """

    id: str
    surface: str
    what: str
    run: tuple[Command, ...]
    expect: Error | Ok
    files: dict[str, FileSpec] = field(default_factory=dict)
    needs: tuple[str, ...] = ()
    setup: tuple[Command, ...] = ()
    finding: str = ""
    deferred: str = ""


def outcome_problems(case: Case, outcome: Outcome, ws: Path) -> list[str]:
    """Why an outcome does not meet the case's expectation (empty when it does)."""
    problems = []
    if outcome.crashed:
        problems.append(f"crashed: {outcome.crashed[:2000]}")
    if "Traceback (most recent call last)" in outcome.err:
        problems.append("printed a traceback")
    expect = case.expect
    if isinstance(expect, Ok):
        if outcome.code != 0:
            problems.append(f"exit {outcome.code}, expected success: {outcome.err.strip()[:2000]}")
        return problems
    if outcome.code == 0:
        problems.append(f"accepted (exit 0), expected an error containing {expect.text!r}")
        return problems
    # check prints its problems on stdout, then a count on stderr; other commands print errors on stderr
    lines = [line for line in (outcome.out + "\n" + outcome.err).splitlines() if line.strip()]
    errors = _error_lines(lines)
    if not errors:
        problems.append(f"no error message: {outcome.err[:2000]!r}")
    long = [line for line in errors if len(line) > MAX_ERROR_LINE]
    if long:
        problems.append(f"error line of {len(long[0])} characters (not a one-line message): {long[0][:300]}...")
    if expect.located:
        name = expect.file or next(iter(case.files), "")
        prefix = name if not errors or errors[0].startswith(name) else str(ws / name)
        for line in errors:
            if not line.startswith(prefix) and not CHECK_SUMMARY.match(line):
                problems.append(f"error line does not start with {prefix}: {line[:500]}")
                break
    parts = (expect.text,) if isinstance(expect.text, str) else expect.text
    if not any(all(part in line for part in parts) for line in errors):
        problems.append(f"expected {expect.text!r} in the error, got {errors[:3] or lines[:5]}")
    return problems


def _error_lines(lines: list[str]) -> list[str]:
    """The error lines of a command's output: click's usage block is left out, ``error: `` removed."""
    out = []
    for line in lines:
        if line.startswith(("Usage:", "Try ", "  ")) and not line.startswith("error:"):
            continue
        out.append(line.removeprefix("error: ").removeprefix("Error: "))
    return out


def wait_for(predicate: Callable[[], bool], seconds: float = 60, what: str = "condition") -> None:
    """Poll until ``predicate()`` holds (for subprocess interactions)."""
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
