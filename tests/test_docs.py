"""The docs cannot rot: the tutorial's code blocks run, and generated pages are current.

``docs/authoring.md``: every fenced ``yaml`` block is written to the file named in the
``<!-- file: PATH -->`` comment above it, and every ``blimpgen`` line of a ``bash`` block runs
(in order, in a temporary folder) and must exit 0, unless the comment above the block is
``<!-- fails: MESSAGE -->``, in which case it must exit non-zero and print MESSAGE.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
BLOCK_RE = re.compile(
    r"(?:<!-- (?P<note>file|fails): (?P<arg>.*?) -->\n)?```(?P<lang>yaml|bash)\n(?P<body>.*?)```", re.S
)


def blocks(text: str) -> list[tuple[str, str | None, str | None, str]]:
    return [(m["lang"], m["note"], m["arg"], m["body"]) for m in BLOCK_RE.finditer(text)]


def run(args: list[str]) -> tuple[int, str]:
    from blimpgen.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main(args)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue()


def test_docs_authoring_tutorial_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BLIMPGEN_PARADIGM_PATH", raising=False)
    monkeypatch.delenv("BLIMPGEN_LEXICON_OVERLAY", raising=False)
    found = blocks((DOCS / "authoring.md").read_text(encoding="utf-8"))
    assert sum(lang == "bash" for lang, *_ in found) >= 4
    for lang, note, arg, body in found:
        if lang == "yaml":
            assert note == "file", f"a yaml block needs <!-- file: PATH -->: {body[:60]}"
            target = tmp_path / arg
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, encoding="utf-8")
            continue
        for line in body.splitlines():
            if not line.startswith("blimpgen "):
                continue
            code, output = run(shlex.split(line)[1:])
            if note == "fails":
                assert code != 0 and arg in output, (line, output)
            else:
                assert code == 0, (line, output)
    assert (tmp_path / "wug.jsonl").read_text().count("\n") == 50


def test_docs_reference_is_current() -> None:
    from blimpgen.authoring.reference import render_reference

    assert (DOCS / "reference.md").read_text(encoding="utf-8") == render_reference(), (
        "docs/reference.md is stale: run `blimpgen reference -o docs/reference.md`"
    )


@pytest.mark.slow
def test_docs_audit_is_current() -> None:
    """Slow (generates 1,000 pairs of every paradigm): run with --slow."""
    from blimpgen.authoring.audit import audit_paradigm, render_markdown
    from blimpgen.generators.generate import load_paradigms

    results = [audit_paradigm(p, 1000, 0) for p in load_paradigms()]
    assert (DOCS / "audit.md").read_text(encoding="utf-8") == render_markdown(results, 1000, 0, 0.9), (
        "docs/audit.md is stale: run `blimpgen audit --all --markdown -o docs/audit.md`"
    )


@pytest.mark.slow
def test_docs_plausibility_is_current() -> None:
    """Slow (generates 1,000 pairs of every paradigm): run with --slow."""
    from blimpgen.authoring.plausibility import audit_plausibility, render_markdown
    from blimpgen.generators.generate import load_paradigms

    results = [audit_plausibility(p, 1000, 0) for p in load_paradigms()]
    assert (DOCS / "plausibility.md").read_text(encoding="utf-8") == render_markdown(results, 1000, 0), (
        "docs/plausibility.md is stale: run `blimpgen audit --plausibility --all --markdown -o docs/plausibility.md`"
    )


GUIDE_RE = re.compile(r"```(?P<lang>bash|python)\n(?P<body>.*?)```", re.S)


def test_docs_probes_reproduction_guide_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/probes.md, 'Reproducing the papers' tables': every python block and every blimpgen line
    of a bash block runs, in order, in a temporary folder (a tiny random BERT stands in for a real one)."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BLIMPGEN_PARADIGM_PATH", raising=False)
    monkeypatch.delenv("BLIMPGEN_LEXICON_OVERLAY", raising=False)
    guide = (DOCS / "probes.md").read_text(encoding="utf-8").split("## Reproducing the papers' tables", 1)[1]
    found = [(m["lang"], m["body"]) for m in GUIDE_RE.finditer(guide)]
    assert sum(lang == "bash" for lang, _ in found) >= 4 and any(lang == "python" for lang, _ in found)
    outputs = []
    for lang, body in found:
        if lang == "python":
            exec(compile(body, "docs/probes.md", "exec"), {"__name__": "docs_probes"})  # noqa: S102 - our own docs
            continue
        for line in body.splitlines():
            if line.startswith("blimpgen "):
                code, output = run(shlex.split(line)[1:])
                assert code == 0, (line, output)
                outputs.append(output)
    text = "\n".join(outputs)
    assert "oLMpics row (%): zero-shot | MLP_MLM WS MAX | LINEAR WS MAX | LANGSENSE pert nolang" in text
    assert "oLMpics row (%): zero-shot | MLP_QA WS MAX" in text and "role_reversal" in text
