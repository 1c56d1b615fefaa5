"""Records: one reader and writer for every type, shared provenance, and the type dispatch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blimpgen.errors import DataError
from blimpgen.records import (
    MinimalPair,
    ProbeItem,
    Provenance,
    dumps_record,
    read_items,
    read_pairs,
    read_records,
    record_type,
    write_records_file,
)
from blimpgen.records.types import spec_tag

PAIR = MinimalPair(
    "A cat sleeps.", "A cat sleep.", "agr", pair_id="agr-00000", seed=3, lexicon_hash="abc", slots={"noun": "cat:N:sg"}
)
ITEM = ProbeItem(
    item_id="age-00000",
    UID="age",
    item_type="multiple_choice",
    context="Ten is [MASK] than two.",
    candidates=("smaller", "larger"),
    answer="larger",
    seed=3,
    spec_hash="def",
)


@pytest.mark.parametrize(
    "raw, tag",
    [
        ({"uid": "x", "item": "multiple_choice"}, "probe"),
        ({"uid": "x"}, "paradigm"),
        (["not", "a", "mapping"], "paradigm"),
    ],
)
def test_records_spec_tag_reads_the_item_key(raw: object, tag: str) -> None:
    assert spec_tag(raw) == tag


def test_records_type_of_a_line_and_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    write_records_file([PAIR, ITEM], path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [record_type(line) for line in lines] == [MinimalPair, ProbeItem]
    assert list(read_records(path)) == [PAIR, ITEM]


def test_records_share_provenance() -> None:
    assert isinstance(PAIR, Provenance) and isinstance(ITEM, Provenance)
    assert PAIR.provenance_dict() == {"seed": 3, "lexicon_hash": "abc", "slots": {"noun": "cat:N:sg"}}
    assert list(ITEM.to_dict())[-2:] == ["seed", "spec_hash"]
    assert (PAIR.record_id, ITEM.record_id) == ("agr-00000", "age-00000")


def test_records_dumps_is_byte_stable() -> None:
    assert dumps_record(PAIR).startswith('{"sentence_good": "A cat sleeps.", "sentence_bad": "A cat sleep.", ')
    assert dumps_record(PAIR) == dumps_record(MinimalPair.from_dict(json.loads(dumps_record(PAIR))))


@pytest.mark.parametrize(
    "reader, record, message",
    [
        (read_pairs, ITEM, "a probe item, not a minimal pair (it has an 'item_type' field)"),
        (read_items, PAIR, "a minimal pair, not a probe item (no 'item_type' field)"),
    ],
)
def test_records_wrong_type_is_a_located_data_error(tmp_path: Path, reader, record, message: str) -> None:
    path = tmp_path / "data.jsonl"
    write_records_file([record], path)
    with pytest.raises(DataError) as caught:
        list(reader(path))
    assert (caught.value.file, caught.value.line, str(caught.value)) == (str(path), 1, f"{path}:1: {message}")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"seed": "3"}, "seed must be an integer, got '3'"),
        ({"slots": {"a": 1}}, "field 'slots' must be an object of strings"),
    ],
)
def test_records_provenance_is_checked_for_every_type(tmp_path: Path, change: dict, message: str) -> None:
    for record in (PAIR, ITEM):
        path = tmp_path / "bad.jsonl"
        path.write_text(json.dumps({**record.to_dict(), **change}) + "\n")
        with pytest.raises(DataError, match=f"bad.jsonl:1: {message}"):
            list(read_records(path))


def test_records_lexicon_mode_round_trips_and_old_records_read() -> None:
    from blimpgen.errors import DataError
    from blimpgen.records.pair import MinimalPair

    pair = MinimalPair("A b.", "A c.", "u", seed=1, lexicon_hash="abc", lexicon_mode="nonce")
    data = pair.to_dict()
    assert list(data)[list(data).index("lexicon_hash") + 1] == "lexicon_mode"
    assert MinimalPair.from_dict(data) == pair
    old = {k: v for k, v in data.items() if k != "lexicon_mode"}
    assert MinimalPair.from_dict(old).lexicon_mode is None
    assert "lexicon_mode" not in MinimalPair.from_dict(old).to_dict()
    with pytest.raises(DataError, match="field 'lexicon_mode' must be a string"):
        MinimalPair.from_dict({**data, "lexicon_mode": 3}, where="f.jsonl:4")


def test_records_item_type_names_are_the_shapes() -> None:
    # ItemType (what specs and mypy accept) and the shape classes (what items are) name the same types
    from typing import get_args

    from blimpgen.records.item_types import ITEM_TYPES, SHAPES, ItemType, item_shape

    assert get_args(ItemType) == ITEM_TYPES
    assert [item_shape(name) for name in ITEM_TYPES] == list(SHAPES)
    assert item_shape("multi_choice") is None
