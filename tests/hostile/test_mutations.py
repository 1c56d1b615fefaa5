"""Mutation fuzzing of the data a user hands blimpgen: lexicon overlays, MTurk results CSVs, eval JSONL.

``tests/grammar/test_robustness.py`` mutates specs; these tests do the same for the other inputs.
Each starts from a valid input, damages it where and how Hypothesis chooses (a field deleted or
given the wrong type, garbage or invisible text, invalid UTF-8, a truncated file, a column
doubled...) and reads it as the commands do. Reading must succeed or raise a
:class:`~blimpgen.errors.BlimpgenError` of one short line per problem: never another exception.
Where the damage keeps the shape of the input (a cell of a results CSV), what is read must also
be whole: ``--skip-malformed`` still accounts for every row.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from blimpgen.errors import BlimpgenError
from tests.hostile.corpus import MAX_ERROR_LINE, REPO

GARBAGE_TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "\ufeff",
            "\u2028",
            "\u202e",
            "\r",
            "\t",
            '=HYPERLINK("x")',
            "nan",
            "Infinity",
            "-1",
            "1e999",
            "²",
            "é" * 50,
            "a" * 5000,
            "{{ x }}",
            "#",
            "a=b",
            "N:x:y",
            "'",
            '"',
            ",",
            "\\",
            "[",
            "{",
        ]
    ),
)
GARBAGE = st.one_of(
    GARBAGE_TEXT,
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def damage_bytes(data: bytes, draw: st.DataObject) -> bytes:
    """Truncate, insert, replace or delete bytes, or duplicate or drop a line, at a drawn place."""
    action = draw.draw(st.sampled_from(["truncate", "insert", "replace", "duplicate_line", "drop_line", "bom"]))
    at = draw.draw(st.integers(0, max(len(data) - 1, 0)))
    if action == "truncate":
        return data[:at]
    if action == "insert":
        return data[:at] + draw.draw(st.binary(min_size=1, max_size=8)) + data[at:]
    if action == "replace":
        return data[:at] + draw.draw(st.binary(min_size=1, max_size=1)) + data[at + 1 :]
    if action == "bom":
        return b"\xef\xbb\xbf" + data
    lines = data.split(b"\n")
    index = draw.draw(st.integers(0, len(lines) - 1))
    if action == "duplicate_line":
        lines.insert(index, lines[index])
    else:
        del lines[index]
    return b"\n".join(lines)


def assert_clean(exc: BlimpgenError) -> None:
    """A clean error: one short line per problem."""
    for line in str(exc).splitlines():
        assert len(line) <= MAX_ERROR_LINE, line[:300]
    assert "Traceback" not in str(exc)


# ----------------------------------------------------------------------------- eval JSONL


def _pairs() -> list[dict]:
    from tests.hostile.cases_validate import record

    return [
        record("npi_present_1" if i % 2 else "wh_island", i, f"The cat {i} sleeps.", f"The cat {i} sleep.")
        for i in range(6)
    ]


def _scorer():
    from blimpgen.evaluate.scoring.scorers.unigram import UnigramScorer

    return UnigramScorer(counts={"the": 5, "cat": 3, "sleeps": 2, "sleep": 1, ".": 6})


def _evaluate(path: Path) -> None:
    from blimpgen.evaluate.runner import evaluate

    evaluate(_scorer(), [path])


def mutate_record(records: list[Any], draw: st.DataObject) -> list[Any]:  # a record may become any JSON value
    record = records[draw.draw(st.integers(0, len(records) - 1))]
    keys = sorted(record)
    action = draw.draw(st.sampled_from(["delete", "replace", "replace", "add", "not_object"]))
    if action == "delete":
        del record[draw.draw(st.sampled_from(keys))]
    elif action == "replace":
        record[draw.draw(st.sampled_from(keys))] = draw.draw(GARBAGE)
    elif action == "add":
        record[
            draw.draw(
                st.sampled_from(
                    [
                        "item_type",
                        "scorer",
                        "tie_policy",
                        "correct",
                        "x",
                        "pair_id",
                        "contexts",
                        "expected",
                        "control",
                        "good",
                    ]
                )
            )
        ] = draw.draw(GARBAGE)
    else:
        records[records.index(record)] = draw.draw(GARBAGE)
    return records


@given(st.data())
def test_mutations_eval_jsonl_records(data: st.DataObject) -> None:
    records = mutate_record(_pairs(), data)
    text = "".join(json.dumps(r) + "\n" for r in records)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "d.jsonl"
        path.write_text(text, encoding="utf-8")
        try:
            _evaluate(path)
        except BlimpgenError as exc:
            assert_clean(exc)


@functools.cache
def _items() -> str:
    from blimpgen.generators.probe_tsv import read_probe_tsv
    from blimpgen.records.jsonl import dumps_record

    items = read_probe_tsv(REPO / "tests" / "fixtures" / "probes" / "items.tsv", None, None, "semantics")
    return "".join(dumps_record(item) + "\n" for item in items)


@given(st.data())
def test_mutations_eval_jsonl_probe_items(data: st.DataObject) -> None:
    records = mutate_record([json.loads(line) for line in _items().splitlines()], data)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "items.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        try:
            _evaluate(path)
        except BlimpgenError as exc:
            assert_clean(exc)


@given(st.data())
def test_mutations_eval_jsonl_bytes(data: st.DataObject) -> None:
    raw = "".join(json.dumps(r) + "\n" for r in _pairs()).encode("utf-8")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "d.jsonl"
        path.write_bytes(damage_bytes(raw, data))
        try:
            _evaluate(path)
        except BlimpgenError as exc:
            assert_clean(exc)


# ----------------------------------------------------------------------------- lexicon overlays

TSV = "wug\tN\tclass=animal; animate\nblick\tV\tframes=transitive; arg1=animate; arg2=class=artifact\n"
YAML = """\
features:
  zz_size: {type: enum, categories: [N], values: [small, big], doc: a size}
  zz_mark: {type: bool, categories: [N, V], doc: a mark}
entries:
  - {text: gizmo, category: N, features: "class=artifact; zz_size=big"}
  - {text: wug, category: N, features: "class=animal; animate; zz_mark"}
"""


@functools.cache
def _mini_sources() -> tuple[tuple[str, str], ...]:
    from importlib import resources

    function_words = resources.files("blimpgen.vocab") / "data" / "lexicon" / "function_words.tsv"
    mini = REPO / "tests" / "fixtures" / "lexicon" / "mini.tsv"
    return (
        ("mini.tsv", mini.read_text(encoding="utf-8")),
        ("function_words.tsv", function_words.read_text(encoding="utf-8")),
    )


def _load_overlay(path: Path) -> None:
    """load_lexicon_with_overlays on the small test lexicon instead of the shipped one (same code path)."""
    from blimpgen.vocab import overlays

    with mock.patch.object(overlays, "shipped_sources", lambda: list(_mini_sources())):
        overlays.load_lexicon_with_overlays([path])


def mutate_tsv(text: str, draw: st.DataObject) -> str:
    rows = [line.split("\t") for line in text.splitlines()]
    row = rows[draw.draw(st.integers(0, len(rows) - 1))]
    action = draw.draw(st.sampled_from(["replace", "replace", "drop", "add", "feature"]))
    column = draw.draw(st.integers(0, len(row) - 1))
    if action == "replace":
        row[column] = draw.draw(GARBAGE_TEXT)
    elif action == "drop":
        del row[column]
    elif action == "add":
        row.append(draw.draw(GARBAGE_TEXT))
    else:
        row[-1] += "; " + draw.draw(GARBAGE_TEXT)
    return "\n".join("\t".join(r) for r in rows) + "\n"


def mutate_tree(value: object, draw: st.DataObject, depth: int = 0) -> object:
    if isinstance(value, dict) and value and depth < 4:
        key = draw.draw(st.sampled_from(sorted(value, key=str)))
        action = draw.draw(st.sampled_from(["delete", "replace", "descend", "descend", "add"]))
        if action == "delete":
            del value[key]
        elif action == "replace":
            value[key] = draw.draw(GARBAGE)
        elif action == "add":
            value[draw.draw(st.sampled_from(["features", "entries", "categories", "values", "type", "x"]))] = draw.draw(
                GARBAGE
            )
        else:
            value[key] = mutate_tree(value[key], draw, depth + 1)
    elif isinstance(value, list) and value and depth < 4:
        index = draw.draw(st.integers(0, len(value) - 1))
        value[index] = mutate_tree(value[index], draw, depth + 1) if draw.draw(st.booleans()) else draw.draw(GARBAGE)
    else:
        return draw.draw(GARBAGE)
    return value


@given(st.data())
def test_mutations_overlay_tsv(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "w.tsv"
        if data.draw(st.booleans()):
            path.write_text(mutate_tsv(TSV, data), encoding="utf-8")
        else:
            path.write_bytes(damage_bytes(TSV.encode("utf-8"), data))
        try:
            _load_overlay(path)
        except BlimpgenError as exc:
            assert_clean(exc)


@given(st.data())
def test_mutations_overlay_yaml(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "w.yaml"
        if data.draw(st.booleans()):
            path.write_text(
                yaml.safe_dump(mutate_tree(yaml.safe_load(YAML), data), allow_unicode=True), encoding="utf-8"
            )
        else:
            path.write_bytes(damage_bytes(YAML.encode("utf-8"), data))
        try:
            _load_overlay(path)
        except BlimpgenError as exc:
            assert_clean(exc)


def test_mutations_overlay_bases_are_valid(tmp_path: Path) -> None:
    """The inputs the mutations start from load (else every mutation would only test one error)."""
    (tmp_path / "w.tsv").write_text(TSV, encoding="utf-8")
    (tmp_path / "w.yaml").write_text(YAML, encoding="utf-8")
    _load_overlay(tmp_path / "w.tsv")
    _load_overlay(tmp_path / "w.yaml")


# ----------------------------------------------------------------------------- MTurk results CSV


@functools.cache
def _batch() -> tuple[Path, str]:
    """A validation batch and a simulated results CSV (6 assignments), built once per session."""
    from tests.hostile.prerequisites import Prerequisites

    root = Path(tempfile.mkdtemp(prefix="blimpgen-mutations-"))
    prerequisites = Prerequisites(root)
    return prerequisites.get("hits"), prerequisites.get("results.csv").read_text(encoding="utf-8")


def _ingest(results: Path, skip_malformed: bool):
    from blimpgen.validate.ingest import IngestOptions, ingest

    hits, _ = _batch()
    return ingest(hits, [results], IngestOptions(skip_malformed=skip_malformed))


def mutate_csv(text: str, draw: st.DataObject) -> str:
    rows = list(csv.reader(io.StringIO(text)))
    header, body = rows[0], rows[1:]
    action = draw.draw(st.sampled_from(["cell", "cell", "cell", "header", "double_column"]))
    column = draw.draw(st.integers(0, len(header) - 1))
    if action == "cell":
        body[draw.draw(st.integers(0, len(body) - 1))][column] = draw.draw(GARBAGE_TEXT)
    elif action == "header":
        header[column] = draw.draw(GARBAGE_TEXT)
    else:
        header.append(header[column])
        for row in body:
            row.append(draw.draw(GARBAGE_TEXT))
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows([header, *body])
    return buffer.getvalue()


@given(st.data())
def test_mutations_results_csv_cells(data: st.DataObject) -> None:
    """A damaged cell, header or doubled column: a clean error, or every one of the 6 rows accounted for."""
    _, text = _batch()
    skip = data.draw(st.booleans())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.csv"
        path.write_text(mutate_csv(text, data), encoding="utf-8", newline="")
        try:
            analysis = _ingest(path, skip)
        except BlimpgenError as exc:
            assert_clean(exc)
            return
        assert analysis.n_rows == 6, (analysis.n_rows, [m.message for m in analysis.malformed])


@given(st.data())
def test_mutations_results_csv_bytes(data: st.DataObject) -> None:
    _, text = _batch()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.csv"
        path.write_bytes(damage_bytes(text.encode("utf-8"), data))
        try:
            _ingest(path, data.draw(st.booleans()))
        except BlimpgenError as exc:
            assert_clean(exc)


@pytest.mark.parametrize("skip", [False, True])
def test_mutations_results_csv_base_is_valid(skip: bool) -> None:
    """The results CSV the mutations start from is read whole."""
    hits, _ = _batch()
    assert _ingest(hits.parent / "results.csv", skip).n_rows == 6
