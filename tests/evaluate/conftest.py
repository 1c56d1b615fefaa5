"""Fixtures for the evaluate tests: BLiMP-schema data and narrow warning filters (helpers in ``tiny.py``)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from .tiny import AGREEMENT, ANAPHOR, write_fixture


@pytest.fixture
def blimp_data(tmp_path: Path) -> Path:
    """A folder with two paradigms in BLiMP's schema (one supports the one-prefix method)."""
    folder = tmp_path / "data"
    folder.mkdir()
    write_fixture(folder, "subject_verb_agreement_1", "subject_verb_agreement", AGREEMENT)
    write_fixture(folder, "anaphor_number_agreement", "anaphor_agreement", ANAPHOR)
    return folder


@pytest.fixture(autouse=True)
def _narrow_warning_filters():
    """Library warnings we do not control, ignored by message only (pytest turns the rest into errors)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*`resume_download` is deprecated.*")
        warnings.filterwarnings("ignore", message=r".*TypedStorage is deprecated.*")
        yield
