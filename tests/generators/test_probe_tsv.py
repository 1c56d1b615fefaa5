"""Importing hand-written probe items from TSV."""

from __future__ import annotations

from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError
from blimpgen.generators.probe_tsv import import_probe_tsv, read_probe_tsv
from blimpgen.records.jsonl import read_items

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "probes" / "items.tsv"


def test_fixture_items_read_with_their_types_and_fields() -> None:
    items = {i.item_id: i for i in read_probe_tsv(FIXTURE, suite="handmade", phenomenon="world_knowledge")}
    knife = items["k-1"]
    assert knife.item_type == "cloze_contrast" and knife.candidates == ("knife", "spoon") and knife.answer == "knife"
    assert knife.expected == ("knife", "blade") and knife.group == "contrast" and knife.UID == "handmade"
    assert knife.linguistics_term == "world_knowledge" and knife.contexts is None
    negated = items["k-2"]
    assert negated.contexts == {"insect": "A sparrow is not an [MASK].", "bird": "A sparrow is not a [MASK]."}
    assert negated.context == "A sparrow is not an [MASK]." and negated.expected == ()
    mc = items["k-4"]
    assert mc.item_type == "multiple_choice" and mc.candidates == ("smaller", "larger") and mc.answer == "larger"


def test_import_writes_jsonl_that_reads_back(tmp_path) -> None:
    out = tmp_path / "items.jsonl"
    assert import_probe_tsv(FIXTURE, out, suite="handmade") == 4
    assert [i.item_id for i in read_items(out)] == ["k-1", "k-2", "k-3", "k-4"]


@pytest.mark.parametrize(
    "body, message",
    [
        ("id\tcontext\tgood\nx\tNo blank here.\tyes\n", r"t.tsv:2: context: must contain \[MASK\] exactly once"),
        (
            "id\tcontext\tgood\tbad\nx\tA [MASK].\tyes\t\n",
            r"t.tsv:2: bad: a cloze contrast row needs both good and bad",
        ),
        (
            "id\tcontext\tcandidates\tanswer\nx\tA [MASK].\ta|b\tc\n",
            r"t.tsv:2: answer: 'c' is not one of the candidates",
        ),
        ("id\tcontext\tcolour\n", r"t.tsv:1: colour: unknown column"),
        ("id\tgood\tbad\n", r"t.tsv:1: header: missing required column 'context'"),
        ("id\tcontext\tgood\tbad\nx\tA [MASK].\ty\tn\nx\tB [MASK].\ty\tn\n", r"t.tsv:3: id: 'x' repeats line 2"),
        ("context\tgood\tbad\nA [MASK].\ty\tn\textra\n", r"t.tsv:2: row: 4 cells but 3 columns"),
        ("context\tgood\tbad\tcandidates\nA [MASK].\ty\tn\ta|b\n", r"t.tsv:2: row: fill either good/bad"),
    ],
)
def test_bad_rows_are_located_and_nothing_is_written(tmp_path, body, message) -> None:
    source = tmp_path / "t.tsv"
    source.write_text(body)
    out = tmp_path / "out.jsonl"
    with pytest.raises(BlimpgenError, match=message):
        import_probe_tsv(source, out)
    assert not out.exists() and list(tmp_path.iterdir()) == [source]
