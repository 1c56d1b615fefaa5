"""docs/api.md runs as written: its python blocks, in order, in one namespace."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from tests.api.test_api import model_dir, pairs  # noqa: F401  (fixtures: a tiny local model)

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_docs_api_blocks_run(model_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setenv("BLIMPGEN_MODEL", str(model_dir))
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 3
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, str(DOC), "exec"), namespace)
    printed = out.getvalue()
    assert "paradigms" in printed and "accuracy" in printed
    assert 0.0 <= namespace["result"].accuracy <= 1.0


def test_docs_readme_python_blocks_run() -> None:
    readme = DOC.parents[1] / "README.md"
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)
    assert blocks
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, str(readme), "exec"), {})
    assert " / " in out.getvalue()
