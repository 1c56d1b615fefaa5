"""results.json's provenance: library versions, model id and revision or weights hash, device,
dtype, date, command line, and the data's seed and hashes per paradigm (issue 16, requirement 3)."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path

import pytest

from blimpgen.evaluate.provenance import data_provenance, library_versions, weights_digest
from blimpgen.evaluate.runner import evaluate, run_eval, write_results
from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer

from .tiny import ANAPHOR, SENTENCES, blimp_record, make_bytelevel_gpt2, mc, write_items

PROVENANCE = {"seed": 7, "lexicon_hash": "lex0", "spec_hash": "spec0", "spec_version": 1, "blimpgen_version": "0.4.0"}


def _generated_data(folder: Path) -> Path:
    """Two paradigms with record provenance; the second mixes two seeds."""
    folder.mkdir()
    first = [
        {**blimp_record("anaphor_a", "anaphor_agreement", i, good, bad, None), **PROVENANCE}
        for i, (good, bad, _) in enumerate(ANAPHOR)
    ]
    second = [
        {**blimp_record("anaphor_b", "anaphor_agreement", i, good, bad, None), **PROVENANCE, "seed": i % 2}
        for i, (good, bad, _) in enumerate(ANAPHOR)
    ]
    for uid, records in (("anaphor_a", first), ("anaphor_b", second)):
        (folder / f"{uid}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    return make_bytelevel_gpt2(SENTENCES, tmp_path_factory.mktemp("models") / "tiny-gpt2")


def test_provenance_results_json_of_a_tiny_model_has_every_field(tiny_model: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setattr("sys.argv", ["blimpgen", "eval", "--model", str(tiny_model)])
    data = _generated_data(tmp_path / "data")
    run_eval("hf-causal", {"model": str(tiny_model), "device": "cpu"}, [data], tmp_path / "out")
    provenance = json.loads((tmp_path / "out" / "results.json").read_text())["provenance"]

    assert set(provenance) == {"libraries", "model", "device", "dtype", "date", "command_line", "data"}
    assert {"python", "blimpgen", "torch", "transformers", "tokenizers", "numpy"} <= set(provenance["libraries"])
    model = provenance["model"]
    assert model["id"] == str(tiny_model) and model["model_type"] == "gpt2" and model["revision"] is None
    weights = tiny_model / "model.safetensors"
    assert model["weight_files"] == {"model.safetensors": hashlib.sha256(weights.read_bytes()).hexdigest()}
    assert len(model["weights_sha256"]) == 64
    assert provenance["device"] == "cpu" and provenance["dtype"] == "float32"
    assert datetime.fromisoformat(provenance["date"]).utcoffset().total_seconds() == 0
    assert provenance["command_line"] == ["blimpgen", "eval", "--model", str(tiny_model)]
    assert provenance["data"] == {"anaphor_a": PROVENANCE, "anaphor_b": {**PROVENANCE, "seed": [0, 1]}}


def test_provenance_of_probe_results_is_per_suite(tmp_path: Path):
    items = [
        mc(f"age-{i:05d}", "A cat is [MASK] than a dog .", ["older", "younger"], "older", seed=3, spec_hash="s1")
        for i in range(3)
    ]
    path = write_items(tmp_path / "items.jsonl", items)
    result = evaluate(UnigramScorer(counts={"older": 2, "younger": 1}), path)
    write_results(result, tmp_path / "out")
    provenance = json.loads((tmp_path / "out" / "results.json").read_text())["provenance"]
    assert provenance["data"] == {
        "age": {"seed": 3, "lexicon_hash": None, "spec_hash": "s1", "spec_version": None, "blimpgen_version": None}
    }
    assert provenance["model"] is None and provenance["device"] == "cpu"


def test_provenance_of_blimp_data_without_provenance_is_null(blimp_data: Path):
    result = evaluate(UnigramScorer(counts={"the": 2}), blimp_data)
    assert all(set(fields.values()) == {None} for fields in result.provenance["data"].values())
    assert set(result.provenance["data"]) == {"subject_verb_agreement_1", "anaphor_number_agreement"}


def test_provenance_library_versions_skip_what_is_not_installed(monkeypatch):
    monkeypatch.setattr("blimpgen.evaluate.provenance.LIBRARIES", ("numpy", "no-such-distribution-here"))
    assert set(library_versions()) == {"python", "blimpgen", "numpy"}


def test_provenance_weights_digest_names_every_weight_file(tmp_path: Path):
    (tmp_path / "a.bin").write_bytes(b"a")
    (tmp_path / "shard").mkdir()
    (tmp_path / "shard" / "b.safetensors").write_bytes(b"b")
    (tmp_path / "config.json").write_text("{}")
    digest = weights_digest(tmp_path)
    assert digest is not None and set(digest["weight_files"]) == {"a.bin", "shard/b.safetensors"}
    assert weights_digest(tmp_path / "shard") != digest
    assert weights_digest(tmp_path / "nothing") is None


def test_provenance_data_lists_distinct_values_when_mixed():
    class Record:
        def __init__(self, uid, seed):
            self.UID, self.seed = uid, seed

    found = data_provenance(
        [Record("x", 2), Record("x", 1), Record("x", 2), Record("y", None)], lambda record: record.UID
    )
    assert found["x"]["seed"] == [1, 2] and found["y"]["seed"] is None
