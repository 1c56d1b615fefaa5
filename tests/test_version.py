"""One version, raised whenever generated output changes."""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path

import blimpgen

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import output_fingerprint  # noqa: E402


def test_version_is_written_once() -> None:
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()
    assert importlib.metadata.version("blimpgen") == blimpgen.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", blimpgen.__version__)


def test_version_changelog_has_an_entry_for_it() -> None:
    assert f"## {blimpgen.__version__}" in (ROOT / "CHANGELOG.md").read_text()


def test_version_output_unchanged_or_version_raised() -> None:
    """Changed output with an unchanged version fails: raise ``__version__``, add a CHANGELOG
    entry, run ``python tools/output_fingerprint.py --write``."""
    known = output_fingerprint.recorded()
    assert blimpgen.__version__ in known, "run python tools/output_fingerprint.py --write for the new version"
    assert output_fingerprint.fingerprint() == known[blimpgen.__version__], (
        f"generated output changed since {blimpgen.__version__} was recorded: raise __version__ in "
        "src/blimpgen/__init__.py, add a CHANGELOG.md entry, run python tools/output_fingerprint.py --write"
    )
