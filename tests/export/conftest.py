"""Export test fixtures: hand-written BLiMP-schema JSONL, an export of it, and an offline Hub.

``fixtures/<UID>.jsonl`` covers the shapes an export must keep apart: a plain paradigm with
provenance (``npi_present_1``), one-prefix fields (``determiner_noun_agreement_1``),
two-prefix fields with slots in non-alphabetical order (``wh_vs_that_with_gap``), and an
original-BLiMP-style file with no provenance and a non-ASCII word (``anaphor_gender_agreement``).
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from blimpgen._io import data_files
from blimpgen.records.jsonl import read_pairs
from blimpgen.records.pair import MinimalPair

FIXTURES = Path(__file__).parent / "fixtures"
UIDS = ("anaphor_gender_agreement", "determiner_noun_agreement_1", "npi_present_1", "wh_vs_that_with_gap")


@pytest.fixture(autouse=True)
def offline_hub(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Offline mode and a private cache, and any non-local connection fails loudly.

    ``datasets`` and ``huggingface_hub`` read their environment when first imported (at
    collection), so the module constants are patched as well as the variables.
    """
    cache = tmp_path_factory.getbasetemp() / "hf-home"
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(var, "1")
    monkeypatch.setenv("HF_HOME", str(cache))
    monkeypatch.setenv("HF_DATASETS_CACHE", str(cache / "datasets"))
    hub_constants = pytest.importorskip("huggingface_hub.constants")
    monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", True)
    datasets_config = pytest.importorskip("datasets.config")
    monkeypatch.setattr(datasets_config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets_config, "HF_DATASETS_OFFLINE", True)
    monkeypatch.setattr(datasets_config, "HF_DATASETS_CACHE", cache / "datasets")

    real_connect = socket.socket.connect

    def local_only(sock: socket.socket, address: object) -> object:
        host = address[0] if isinstance(address, tuple) else ""
        if sock.family != socket.AF_UNIX and host not in ("127.0.0.1", "::1", "localhost"):
            raise AssertionError(f"export tests must not use the network (tried {address!r})")
        return real_connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", local_only)


@pytest.fixture(scope="session")
def fixture_pairs() -> dict[str, list[MinimalPair]]:
    """The fixture pairs by UID, in file order, read straight from the JSONL."""
    return {path.stem: list(read_pairs(path)) for path in data_files(FIXTURES)}


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A hub-layout export of the fixtures (shared: tests only read it)."""
    from blimpgen.export.hf import export_dataset

    return export_dataset(FIXTURES, tmp_path_factory.mktemp("export") / "my_blimp").path
