"""Shared test configuration: hypothesis profiles and the --slow switch."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

REPO = Path(__file__).resolve().parents[1]
# the shared corpora: $BLIMPGEN_CORPORA, else ../shared/corpora beside the checkout
CORPORA = Path(os.environ.get("BLIMPGEN_CORPORA") or REPO.parent / "shared" / "corpora")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False, help="run slow tests")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow test: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def corpora() -> Path:
    """The shared corpora folder; tests that need it skip when it is absent."""
    if not CORPORA.is_dir():
        pytest.skip(f"shared corpora not found at {CORPORA} (set BLIMPGEN_CORPORA to their folder)")
    return CORPORA


FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def mini_lexicon():
    """A small, stable test lexicon: tests/fixtures/lexicon/mini.tsv plus the shipped function words."""
    from importlib import resources

    from blimpgen.vocab import load_lexicon_files

    function_words = resources.files("blimpgen.vocab") / "data" / "lexicon" / "function_words.tsv"
    return load_lexicon_files([FIXTURES / "lexicon" / "mini.tsv", str(function_words)], include_shipped=False)
