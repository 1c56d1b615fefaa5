"""The batch folder: files, RFC 4180 CSV, answer key, properties, overwrite protection."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError, SpecError
from blimpgen.validate.batch import KEY_COLUMNS, load_batch, write_batch
from blimpgen.validate.design import BatchOptions
from blimpgen.validate.page import placeholders

from .conftest import DATA, write_jsonl


def _write(folder: Path, data: Path = DATA, **kwargs: object) -> None:
    write_batch(data, folder, BatchOptions(pairs_per_paradigm=5, judgments=20, items_per_hit=6), **kwargs)


def test_batch_writes_every_file(tmp_path: Path) -> None:
    _write(tmp_path / "hits", questions=True)
    names = {p.relative_to(tmp_path / "hits").as_posix() for p in (tmp_path / "hits").rglob("*") if p.is_file()}
    assert {"layout.html", "batch.csv", "key.csv", "hit_properties.json"} <= names
    batch = load_batch(tmp_path / "hits")
    assert {f"preview/{code}.html" for code in batch.hits} <= names
    assert {f"questions/{code}.xml" for code in batch.hits} <= names
    assert not any(".part" in name for name in names)


def test_batch_csv_headers_are_the_layout_placeholders(tmp_path: Path) -> None:
    _write(tmp_path / "hits")
    layout = (tmp_path / "hits" / "layout.html").read_text(encoding="utf-8")
    raw = (tmp_path / "hits" / "batch.csv").read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n")  # RFC 4180 line ends
    with (tmp_path / "hits" / "batch.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == placeholders(layout)
    batch = load_batch(tmp_path / "hits")
    assert len(rows) - 1 == len(batch.hits)
    assert [dict(zip(rows[0], row, strict=True)) for row in rows[1:]] == batch.batch_rows()


def test_batch_page_reveals_no_kind_paradigm_or_pair(tmp_path: Path) -> None:
    _write(tmp_path / "hits", questions=True)
    batch = load_batch(tmp_path / "hits")
    folder = tmp_path / "hits"
    pages = [
        folder / "layout.html",
        folder / "batch.csv",
        *folder.glob("preview/*.html"),
        *folder.glob("questions/*.xml"),
    ]
    secrets = {item.uid for hit in batch.hits.values() for item in hit.items if item.uid}
    secrets |= {item.pair_id for hit in batch.hits.values() for item in hit.items}
    secrets |= {item.code for hit in batch.hits.values() for item in hit.items}
    for path in pages:
        text = path.read_text(encoding="utf-8")
        lowered = text.lower()
        assert "attention" not in lowered, path
        assert not re.search(r"\bcheck\b|filler", lowered), path
        for secret in secrets:
            assert secret not in text, (path, secret)
    ids = [
        row[f"s{item.slot}_id"]
        for row, hit in zip(batch.batch_rows(), batch.hits.values(), strict=True)
        for item in hit.items
    ]
    assert all(re.fullmatch(r"[0-9a-f]{16}", value) for value in ids)
    assert len(set(ids)) == len(ids)  # a check's id looks like, and is as unique as, a test item's
    again = tmp_path / "again"
    _write(again)
    assert load_batch(again).batch_rows()[0]["s1_id"] != batch.batch_rows()[0]["s1_id"]  # a fresh secret per batch


def test_batch_key_holds_the_answers(tmp_path: Path) -> None:
    _write(tmp_path / "hits")
    with (tmp_path / "hits" / "key.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == KEY_COLUMNS
    batch_rows = {row["hit_code"]: row for row in load_batch(tmp_path / "hits").batch_rows()}
    for row in rows:
        shown = batch_rows[row["hit_code"]][f"s{row['slot']}_{'a' if row['good_position'] == '1' else 'b'}"]
        assert shown == row["sentence_good"]


def test_batch_properties(tmp_path: Path) -> None:
    _write(tmp_path / "hits")
    properties = json.loads((tmp_path / "hits" / "hit_properties.json").read_text())
    assert properties["MaxAssignments"] == 7 <= 9
    assert {
        "Title",
        "Description",
        "Keywords",
        "Reward",
        "AssignmentDurationInSeconds",
        "LifetimeInSeconds",
        "AutoApprovalDelayInSeconds",
        "QualificationRequirements",
    } <= set(properties)
    design = properties["blimpgen"]
    assert design["judgments_per_pair"] == 21 and design["replicas_per_list"] == 3
    assert design["cost"]["assignments"] == design["hits"] * 7


def test_batch_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    _write(tmp_path / "hits")
    with pytest.raises(BlimpgenError, match="already holds a batch"):
        _write(tmp_path / "hits")
    _write(tmp_path / "hits", force=True)


def test_batch_hostile_sentences_are_escaped_in_batch_csv(tmp_path: Path) -> None:
    good = [
        'It\'s "fine" & <good> today, friend.',
        "She said 'yes' to the offer.",
        "Tom & Ann left early today.",
        "The cat sat on the mat there.",
    ]
    data = write_jsonl(tmp_path / "data", "hostile", [(g, g[:-1] + " extra.") for g in good])
    write_batch(data.parent, tmp_path / "hits", BatchOptions(pairs_per_paradigm=2, judgments=3, items_per_hit=2))
    text = (tmp_path / "hits" / "batch.csv").read_text(encoding="utf-8")
    assert "<good>" not in text and "&lt;good>" in text and 'It\'s ""fine"" &amp;' in text


def test_batch_load_reports_damaged_key_lines(tmp_path: Path) -> None:
    _write(tmp_path / "hits")
    key = tmp_path / "hits" / "key.csv"
    lines = key.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[3] = lines[3].replace(",real,", ",bogus,", 1).replace(",check,", ",bogus,", 1).replace(",filler,", ",bogus,")
    key.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(SpecError, match=r"key.csv:4: kind must be one of"):
        load_batch(tmp_path / "hits")


def test_batch_load_needs_a_batch_folder(tmp_path: Path) -> None:
    with pytest.raises(BlimpgenError, match="not a batch folder"):
        load_batch(tmp_path)
