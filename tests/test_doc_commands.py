"""Every command in README.md and docs/*.md runs as written (issue 16, requirement 8).

Each file is one session in a fresh temporary folder, as a reader following it from the top:

* a fenced block (any language) under ``<!-- file: PATH -->`` is written to PATH;
* every line of a ``bash``/``sh``/``console`` block runs in order and must exit 0, or, under
  ``<!-- fails: MESSAGE -->``, exit non-zero and print MESSAGE. ``blimpgen ...`` runs in-process
  through :func:`blimpgen.cli.main`; ``python tools/X.py ...`` runs the checkout's script
  in-process; any other line must be in :data:`ALLOWLIST`, which says why it cannot run here
  (the network: PyPI, the Hugging Face hub, MTurk);
* ``docs/examples/`` and ``tools/`` are copied in, so paths relative to the checkout work.

What the default run changes, to stay within about a minute (``--slow`` runs everything as
written): an explicit ``-n`` of ``gen`` or ``audit`` is capped at :data:`CAP_ALL` for whole
catalogues (``--all``, ``--all-probes``, ``--all-designs``) and at :data:`CAP_ONE` otherwise
(a capacity failure such as "made 420 of 1000" then shows only with ``--slow``; a default
``-n`` is never changed); ``gen`` runs with ``--jobs 1`` (the same bytes; no fork of a process
that has loaded torch); the lines of :data:`SLOW_ONLY` are left out.

Blocks elsewhere: README's and docs/api.md's python blocks run in ``tests/api/test_docs_api.py``,
docs/authoring.md in ``test_docs_authoring_tutorial_runs`` and the reproduction guide of
docs/probes.md in ``test_docs_probes_reproduction_guide_runs`` (``tests/test_docs.py``); this
test skips those parts (:data:`ELSEWHERE`) and checks that the named tests exist.
"""

from __future__ import annotations

import contextlib
import io
import re
import runpy
import shlex
import shutil
import sys
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOC_FILES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
COMMAND_LANGS = {"bash", "sh", "shell", "console"}
CAP_ALL, CAP_ONE = 5, 100
# Lines that cannot run in a test, and why. Each pattern is searched in the line.
ALLOWLIST = {
    r"^python3 -m venv \.venv && \.venv/bin/pip install": "makes a virtualenv and installs from PyPI (network); "
    "CI's .ci/run runs the test-command line itself",
    r"^pip install ": "installs from PyPI (network)",
    r"--model (gpt2|bert-base-cased|bert-base-uncased|roberta-large)\b": "a model id from the Hugging Face hub "
    "(network); the line before it runs the same command on a local stand-in",
    r"^blimpgen validate (post|advance|fetch)\b": "posts to or reads from MTurk (boto3, AWS credentials, network)",
}
# Lines the default run leaves to --slow, and why (each is still run with --slow).
SLOW_ONLY = {
    r"probe curve .*--linear": "trains a head 12 times (3 seeds x language, LINEAR and two controls; about 11 s of "
    "CPU on the stand-in); test_docs_probes_reproduction_guide_runs runs a curve with --linear and controls by default",
    r"probe curve .*--protocol mc-qa": "fine-tunes the whole network for every seed (about 20 s of CPU on the "
    "stand-in); test_docs_probes_reproduction_guide_runs runs an MC-QA curve of 10 steps by default",
}
# Parts of docs run by other tests: file -> (the heading whose section is skipped, or None for the
# whole file; the test that runs it).
ELSEWHERE = {
    "docs/authoring.md": (None, "tests/test_docs.py::test_docs_authoring_tutorial_runs"),
    "docs/probes.md": (
        "## Reproducing the papers' tables",
        "tests/test_docs.py::test_docs_probes_reproduction_guide_runs",
    ),
}
BLOCK_RE = re.compile(
    r"(?:^<!-- (?P<note>file|fails): (?P<arg>.*?) -->\n)?"
    r"^(?P<indent> *)```(?P<lang>[\w-]*)\n(?P<body>.*?)^(?P=indent)```",
    re.S | re.M,
)


def doc_text(path: Path) -> str:
    """The file's text, less the parts another test runs."""
    text = path.read_text(encoding="utf-8")
    heading, _ = ELSEWHERE.get(path.relative_to(REPO).as_posix(), ("", ""))
    if heading:
        before, found, after = text.partition(heading + "\n")
        assert found, f"{path.name}: no heading {heading!r}"
        rest = re.search(r"^## ", after, re.M)
        text = before + (after[rest.start() :] if rest else "")
    return text


def blocks(text: str) -> list[tuple[str, str | None, str | None, str]]:
    """(language, note, note argument, body) of each fenced block, bodies dedented."""
    return [(m["lang"], m["note"], m["arg"], textwrap.dedent(m["body"])) for m in BLOCK_RE.finditer(text)]


def command_lines(body: str) -> list[str]:
    """The logical lines of a shell block: continuations joined, comments and blank lines left out."""
    lines, current = [], ""
    for raw in body.splitlines():
        current += raw.rstrip()
        if current.endswith("\\"):
            current = current[:-1] + " "
            continue
        if current.strip() and not current.lstrip().startswith("#"):
            lines.append(current.strip())
        current = ""
    return lines


def allowed(line: str) -> str | None:
    """Why ``line`` cannot run here (None when it must run)."""
    return next((reason for pattern, reason in ALLOWLIST.items() if re.search(pattern, line)), None)


def capped(args: list[str], slow: bool) -> list[str]:
    """``blimpgen ARGS`` as the default run runs it (see the module docstring)."""
    args = list(args)
    if slow or not args or args[0] not in ("gen", "audit"):
        return args + (["--jobs", "1"] if args[:1] == ["gen"] else [])
    whole = any(flag in args for flag in ("--all", "--all-probes", "--all-designs"))
    cap = CAP_ALL if whole else CAP_ONE
    cap = max(cap, 10) if args[0] == "audit" else cap  # audit takes at least 10
    for i, arg in enumerate(args[:-1]):
        if arg in ("-n", "--num") and args[i + 1].isdigit():
            args[i + 1] = str(min(int(args[i + 1]), cap))
    return args + (["--jobs", "1"] if args[0] == "gen" else [])


def run_line(line: str, slow: bool) -> tuple[int, str]:
    """Run one command line in the current folder; (exit code, stdout and stderr)."""
    words = shlex.split(line, comments=True)
    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            if words[0] == "blimpgen":
                from blimpgen.cli import main

                main(capped(words[1:], slow))
            elif words[0] in ("python", "python3") and words[1].startswith("tools/"):
                saved = sys.argv
                sys.argv = words[1:]
                try:
                    runpy.run_path(words[1], run_name="__main__")
                finally:
                    sys.argv = saved
            else:
                raise AssertionError(f"cannot run {line!r}: add it to ALLOWLIST with the reason, or rewrite it")
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return code, out.getvalue()


def session(path: Path, folder: Path, slow: bool) -> list[tuple[str, float]]:
    """Follow one file from the top in ``folder``; return (line, CPU seconds) per line run."""
    shutil.copytree(REPO / "docs" / "examples", folder / "docs" / "examples")
    shutil.copytree(REPO / "tools", folder / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    timings = []
    for lang, note, arg, body in blocks(doc_text(path)):
        if note == "file":
            target = folder / arg
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, encoding="utf-8")
            continue
        if lang not in COMMAND_LANGS:
            continue
        for line in command_lines(body):
            if allowed(line) or (not slow and any(re.search(pattern, line) for pattern in SLOW_ONLY)):
                continue
            start, cpu = time.perf_counter(), time.process_time()
            code, output = run_line(line, slow)
            timings.append((line, time.process_time() - cpu))
            print(f"{time.perf_counter() - start:6.1f} s {timings[-1][1]:6.1f} s CPU  {line}", file=sys.__stderr__)
            if note == "fails":
                assert code != 0 and arg in output, f"{path.name}: {line}\nexpected to fail with {arg!r}:\n{output}"
            else:
                assert code == 0, f"{path.name}: `{line}` exited {code}:\n{output[-3000:]}"
    return timings


def files_with_commands() -> list[Path]:
    return [
        path
        for path in DOC_FILES
        if ELSEWHERE.get(path.relative_to(REPO).as_posix(), ("", ""))[0] is not None
        and any(lang in COMMAND_LANGS for lang, *_ in blocks(doc_text(path)))
    ]


@pytest.mark.parametrize("path", files_with_commands(), ids=lambda p: p.name)
def test_doc_commands_run_as_written(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    for name in ("BLIMPGEN_PARADIGM_PATH", "BLIMPGEN_LEXICON_OVERLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    timings = session(path, tmp_path, slow=request.config.getoption("--slow"))
    assert timings, f"{path.name}: no command ran"
    slowest = sorted(timings, key=lambda item: -item[1])[:3]
    print(f"{path.name}: {len(timings)} lines in {sum(t for _, t in timings):.1f} s CPU; slowest:", slowest)


def test_doc_commands_every_command_block_is_labelled_and_every_skip_has_a_reason() -> None:
    """A block of blimpgen lines without a shell label would escape the test; an allowlisted line
    must still be a real command of the docs (no stale entries); delegated tests exist."""
    used = set()
    for path in DOC_FILES:
        for lang, _, _, body in blocks(path.read_text(encoding="utf-8")):
            lines = command_lines(body)
            if lang not in COMMAND_LANGS and lang != "python":
                starts = [line for line in lines if line.startswith("blimpgen ")]
                assert not starts, f"{path.name}: unlabelled block with commands (label it ```bash): {starts[0]}"
            if lang in COMMAND_LANGS:
                used |= {pattern for line in lines for pattern in ALLOWLIST if re.search(pattern, line)}
    assert used == set(ALLOWLIST), f"allowlist entries no doc line needs: {set(ALLOWLIST) - used}"
    for _, test in ELSEWHERE.values():
        file, _, name = test.partition("::")
        assert f"def {name}(" in (REPO / file).read_text(encoding="utf-8"), test
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert re.search(r"```bash\n(?:.*\n)*?blimpgen eval --model gpt2 .*hub", readme), "README keeps one hub line"
