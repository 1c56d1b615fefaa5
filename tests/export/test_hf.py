"""Hub-layout export: JSONL -> parquet configs -> ``datasets.load_dataset`` -> the same pairs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blimpgen.errors import BlimpgenError, DataError
from blimpgen.export import hf
from blimpgen.records.jsonl import write_pairs_file
from blimpgen.records.pair import MinimalPair
from tests.export.conftest import FIXTURES, UIDS

datasets = pytest.importorskip("datasets")
pq = pytest.importorskip("pyarrow.parquet")

PY_TYPES = {"string": str, "bool": bool, "int64": int}


def _load(path: Path, uid: str, tmp_path: Path):
    return datasets.load_dataset(str(path), uid, cache_dir=str(tmp_path / "cache"))


@pytest.mark.parametrize("uid", UIDS)
def test_hf_round_trip_through_load_dataset(exported: Path, fixture_pairs, uid: str, tmp_path: Path) -> None:
    loaded = _load(exported, uid, tmp_path)
    assert list(loaded) == ["train"]
    train = loaded["train"]
    assert train.features == hf.make_features()
    assert [hf.pair_from_row(row) for row in train] == fixture_pairs[uid]


@pytest.mark.parametrize("uid", UIDS)
def test_hf_round_trip_keeps_python_types(exported: Path, uid: str, tmp_path: Path) -> None:
    train = _load(exported, uid, tmp_path)["train"]
    for row in train:
        for name, feature in train.features.items():
            value = row[name]
            if name in hf.LIST_COLUMNS:  # a list of strings (the versioned slot kinds)
                assert isinstance(value, list) and all(type(v) is str for v in value), (name, value)
                continue
            assert value is None or type(value) is PY_TYPES[feature.dtype], (name, value)
        assert isinstance(json.loads(row["slots"]), dict)


def test_hf_load_dataset_in_a_fresh_offline_process(exported: Path, tmp_path: Path) -> None:
    """The issue's own check, as a user runs it: a relative path, offline, a new interpreter."""
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")}
    code = (
        "import datasets, sys; d = datasets.load_dataset(sys.argv[1], 'npi_present_1'); "
        "print(d['train'].num_rows, d['train'].features['seed'].dtype)"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code, exported.name],
        cwd=exported.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["6", "int64"]


def test_hf_schema_is_the_same_in_every_config(exported: Path) -> None:
    schemas = {uid: pq.read_schema(exported / "data" / uid / hf.SHARD_NAME) for uid in UIDS}
    first = schemas[UIDS[0]]
    assert all(schema.equals(first, check_metadata=True) for schema in schemas.values())
    assert first.names == list(hf.COLUMNS)


def test_hf_absent_fields_are_null(exported: Path, tmp_path: Path) -> None:
    plain = _load(exported, "anaphor_gender_agreement", tmp_path)["train"][0]
    assert plain["one_prefix_prefix"] is None and plain["two_prefix_word"] is None
    assert plain["pair_id"] is None and plain["seed"] is None
    assert plain["slots"] == "{}"
    assert plain["sentence_good"] == "The boy saw himself."


def test_hf_slots_keep_their_order(exported: Path, fixture_pairs) -> None:
    (pair, *_) = hf.read_export(exported, "wh_vs_that_with_gap")
    assert list(pair.slots) == ["verb", "noun", "subject"]
    assert pair == fixture_pairs["wh_vs_that_with_gap"][0]


@pytest.mark.parametrize("uid", UIDS)
def test_hf_read_export_matches_source(exported: Path, fixture_pairs, uid: str) -> None:
    assert list(hf.read_export(exported, uid)) == fixture_pairs[uid]


def test_hf_save_to_disk_layout_round_trips(fixture_pairs, tmp_path: Path) -> None:
    result = hf.export_dataset(FIXTURES, tmp_path / "disk", layout="disk")
    assert sorted(p.name for p in result.path.iterdir()) == ["README.md", *sorted(UIDS)]
    for uid in UIDS:
        train = datasets.load_from_disk(str(result.path / uid))["train"]
        assert train.features == hf.make_features()
        assert [hf.pair_from_row(row) for row in train] == fixture_pairs[uid]
        assert list(hf.read_export(result.path, uid)) == fixture_pairs[uid]
    assert "configs" not in (result.path / "README.md").read_text(encoding="utf-8").split("\n---\n")[0]


def test_hf_export_counts_and_single_file_input(tmp_path: Path) -> None:
    result = hf.export_dataset(FIXTURES / "npi_present_1.jsonl", tmp_path / "one")
    assert result.counts == {"npi_present_1": 6}
    assert sorted(p.name for p in (result.path / "data").iterdir()) == ["npi_present_1"]


def test_hf_export_is_byte_stable(tmp_path: Path) -> None:
    first = hf.export_dataset(FIXTURES, tmp_path / "a").path
    second = hf.export_dataset(FIXTURES, tmp_path / "b").path
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    assert all((first / f).read_bytes() == (second / f).read_bytes() for f in files)


def test_hf_export_failure_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def fail_on_second(pairs, path):
        calls.append(path)
        if len(calls) == 2:
            raise OSError("disk full")
        return real(pairs, path)

    real = hf.write_parquet
    monkeypatch.setattr(hf, "write_parquet", fail_on_second)
    with pytest.raises(DataError, match="out: cannot write: disk full"):  # one line, no traceback (F20)
        hf.export_dataset(FIXTURES, tmp_path / "out")
    assert os.listdir(tmp_path) == []


def test_hf_export_refuses_existing_folder_without_overwrite(tmp_path: Path) -> None:
    out = hf.export_dataset(FIXTURES, tmp_path / "out").path
    with pytest.raises(BlimpgenError, match="--overwrite"):
        hf.export_dataset(FIXTURES, out)


def test_hf_export_into_an_existing_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    hf.export_dataset(FIXTURES, tmp_path / "out")
    assert (tmp_path / "out" / "README.md").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_hf_export_overwrites_an_earlier_export(tmp_path: Path) -> None:
    out = hf.export_dataset(FIXTURES, tmp_path / "out").path
    hf.export_dataset(FIXTURES / "npi_present_1.jsonl", out, overwrite=True)
    assert [p.name for p in (out / "data").iterdir()] == ["npi_present_1"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_hf_overwrite_never_deletes_a_foreign_folder(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(BlimpgenError, match="not an earlier blimpgen export"):
        hf.export_dataset(FIXTURES, tmp_path, overwrite=True)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_hf_export_refuses_output_that_contains_the_input(tmp_path: Path) -> None:
    write_pairs_file([MinimalPair("A b.", "B a.", "x_1")], tmp_path / "x_1.jsonl")
    with pytest.raises(BlimpgenError, match="contains the input"):
        hf.export_dataset(tmp_path, tmp_path, overwrite=True)


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([MinimalPair("A b.", "B a.", "bad/uid")], "cannot name a config"),
        (
            [MinimalPair("A b.", "B a.", "x", pair_id="x-00000"), MinimalPair("C d.", "D c.", "x", pair_id="x-00000")],
            "duplicate pair_id 'x-00000'",
        ),
        ([MinimalPair("A b.", "B a.", "x", seed="0")], "seed must be an integer"),  # type: ignore[arg-type]
    ],
)
def test_hf_export_rejects_bad_input(tmp_path: Path, pairs: list[MinimalPair], message: str) -> None:
    write_pairs_file(pairs, tmp_path / "in" / "x.jsonl")
    with pytest.raises(BlimpgenError, match=message):
        hf.export_dataset(tmp_path / "in", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_hf_export_rejects_empty_input(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("\n", encoding="utf-8")
    with pytest.raises(BlimpgenError, match="no pairs"):
        hf.export_dataset(tmp_path / "empty.jsonl", tmp_path / "out")


def test_hf_read_export_names_available_configs(exported: Path) -> None:
    with pytest.raises(BlimpgenError, match="npi_present_1"):
        list(hf.read_export(exported, "npi_present_2"))


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_optional_text = st.none() | _text
_pairs = st.builds(
    MinimalPair,
    sentence_good=_text,
    sentence_bad=_text,
    UID=st.from_regex(hf.UID_PATTERN, fullmatch=True),
    field=_text,
    linguistics_term=_text,
    simple_LM_method=st.booleans(),
    one_prefix_method=st.booleans(),
    two_prefix_method=st.booleans(),
    lexically_identical=st.booleans(),
    pairID=_text,
    one_prefix_prefix=_optional_text,
    one_prefix_word_good=_optional_text,
    one_prefix_word_bad=_optional_text,
    two_prefix_prefix_good=_optional_text,
    two_prefix_prefix_bad=_optional_text,
    two_prefix_word=_optional_text,
    pair_id=_optional_text,
    seed=st.none() | st.integers(-(2**63), 2**63 - 1),
    lexicon_hash=_optional_text,
    spec_hash=_optional_text,
    blimpgen_version=_optional_text,
    slots=st.dictionaries(_text, _text, max_size=4),
    levels=st.none() | st.dictionaries(_text, _text, min_size=1, max_size=3),
)


@given(pair=_pairs)
def test_hf_row_round_trip_property(pair: MinimalPair) -> None:
    row = hf.row_from_pair(pair)
    assert list(row) == list(hf.COLUMNS)
    assert hf.pair_from_row(row) == pair
    assert hf.pair_from_row(hf.make_features().encode_example(row)) == pair


@pytest.mark.parametrize("uid", ["npi_present_1", "determiner_noun_agreement_1", "npi_licensor_distance"])
def test_hf_round_trip_from_the_generator(uid: str, tmp_path: Path) -> None:
    """Requirement 4 end to end: ``blimpgen gen`` -> export -> ``load_dataset`` -> the same pairs."""
    from click.testing import CliRunner

    from blimpgen.cli import cli
    from blimpgen.records.jsonl import read_pairs

    generated = CliRunner().invoke(
        cli, ["gen", "-p", uid, "-n", "5", "--seed", "0", "--out-dir", str(tmp_path / "out"), "--quiet"]
    )
    assert generated.exit_code == 0, generated.output
    source = list(read_pairs(tmp_path / "out" / f"{uid}.jsonl"))
    export = hf.export_dataset(tmp_path / "out", tmp_path / "my_blimp").path
    train = _load(export, uid, tmp_path)["train"]
    assert train.features == hf.make_features()
    assert [hf.pair_from_row(row) for row in train] == source
    assert all(p.pair_id and p.seed == 0 and p.lexicon_hash and p.spec_hash and p.slots for p in source)
    assert all((p.levels is not None) == (uid == "npi_licensor_distance") for p in source)  # a design's levels
