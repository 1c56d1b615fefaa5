"""The generated reference speaks the spec's language, not Python's, and covers probe suites."""

from __future__ import annotations

import re

from blimpgen.authoring.reference import render_reference
from blimpgen.grammar.probe_spec import ProbeSpec


def test_reference_prints_no_python_types_or_rst() -> None:
    text = render_reference()
    for python in ("Literal[", "dict[", "tuple[", "list[", "| None", "typing.", "<class"):
        assert python not in text, python
    assert not re.search(r"``[^`]", text.replace("```", "")), "reStructuredText double backticks left"


def test_reference_covers_probe_suite_keys_and_formulas() -> None:
    text = render_reference()
    section = text.split("## Probe suite keys", 1)[1].split("## Slot kinds", 1)[0]
    for key in ("item", "context", "candidates", "answer", "controls"):
        assert f"| `{key}` |" in section
    assert set(ProbeSpec.model_fields) >= {"item", "context"}
    assert "| `where` | formula | required |" in text and "| `distinct` | slot names |" in text
