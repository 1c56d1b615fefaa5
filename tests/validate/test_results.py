"""Reading MTurk results files: columns, line-numbered errors for malformed rows."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from blimpgen.errors import SpecError, SpecErrors
from blimpgen.validate.ingest import IngestOptions, ingest
from blimpgen.validate.results import parse_submit_time, read_results
from blimpgen.validate.simulate import write_results

from .conftest import submission


@pytest.fixture
def results(make_batch, tmp_path: Path):
    """A batch and a clean results file with three assignments; returns (batch, path, rows)."""
    batch = make_batch()
    codes = list(batch.hits)
    path = write_results(
        tmp_path / "results.csv",
        batch,
        [submission(batch, codes[0], "W1"), submission(batch, codes[1], "W2"), submission(batch, codes[2], "W3")],
    )
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    return batch, path, rows


def _rewrite(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)


def test_results_read_clean_file(results) -> None:
    batch, path, _ = results
    rows, malformed = read_results([path], batch)
    assert malformed == []
    assert [(r.worker_id, r.line) for r in rows] == [("W1", 2), ("W2", 3), ("W3", 4)]
    assert all(set(r.answers.values()) <= {"1", "2"} for r in rows)


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("Answer.q1", "3", "Answer.q1 is '3'; expected 1, 2 or empty"),
        ("Answer.native", "maybe", "Answer.native is 'maybe'"),
        ("WorkTimeInSeconds", "fast", "WorkTimeInSeconds 'fast' is not a whole number"),
        ("AssignmentStatus", "Lost", "AssignmentStatus 'Lost' is not one of"),
        ("WorkerId", "", "empty AssignmentId or WorkerId"),
        ("Input.hit_code", "zzz-001-1", "HIT code 'zzz-001-1' is not in batch"),
        ("Input.s2_id", "2|real|x|y", "Input.s2_id '2|real|x|y' differs from the batch key"),
    ],
)
def test_results_malformed_rows_have_line_numbers(results, column: str, value: str, message: str) -> None:
    batch, path, rows = results
    rows[2][rows[0].index(column)] = value
    _rewrite(path, rows)
    with pytest.raises(SpecErrors) as caught:
        ingest(batch.folder, [path])
    lines = str(caught.value).splitlines()
    assert lines[0].startswith(f"{path}:3: ") and message in lines[0]
    assert "1 malformed row(s)" in lines[-1]


def test_results_wrong_field_count(results) -> None:
    batch, path, rows = results
    rows[3] = rows[3][:-2]
    _rewrite(path, rows)
    with pytest.raises(SpecErrors, match=rf"{path}:4: has {len(rows[0]) - 2} fields, the header has"):
        ingest(batch.folder, [path])


def test_results_line_numbers_count_multiline_fields_and_blank_lines(results) -> None:
    batch, path, rows = results
    rows[1][rows[0].index("Answer.comments")] = "two\nlines"
    rows[3][rows[0].index("Answer.q1")] = "x"
    _rewrite(path, rows)
    text = path.read_text(encoding="utf-8").replace("\n", "\n\n", 1)  # blank line after the header
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecErrors, match=rf"{path}:6: Answer.q1 is 'x'"):
        ingest(batch.folder, [path])


def test_results_skip_malformed_lists_them_as_excluded(results) -> None:
    batch, path, rows = results
    rows[2][rows[0].index("Answer.q1")] = "3"
    _rewrite(path, rows)
    analysis = ingest(batch.folder, [path], IngestOptions(skip_malformed=True))
    assert analysis.n_rows == 3 and len(analysis.included) == 2
    assert [(m.line, m.worker_id) for m in analysis.malformed] == [(3, "W2")]


def test_results_missing_column_is_a_header_error(results) -> None:
    batch, path, rows = results
    index = rows[0].index("Answer.q3")
    _rewrite(path, [row[:index] + row[index + 1 :] for row in rows])
    with pytest.raises(SpecError, match=rf"{path}:1: missing column\(s\) Answer.q3"):
        ingest(batch.folder, [path])


def test_results_byte_order_mark_and_empty_file(results, tmp_path: Path) -> None:
    batch, path, _ = results
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert len(read_results([path], batch)[0]) == 3
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(SpecError, match=r"empty\.csv:1: empty file"):
        read_results([empty], batch)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Wed Mar 06 10:15:01 PST 2024", (2024, 3, 6, 10, 15, 1)),
        ("Mon Mar 04 09:00:00 UTC 2024", (2024, 3, 4, 9, 0, 0)),
        ("2024-03-04T09:00:00+00:00", (2024, 3, 4, 9, 0, 0)),
        ("", None),
        ("yesterday", None),
        ("Xyz Mar 06 10:15:01 PST 2024", None),
    ],
)
def test_results_submit_time(text: str, expected: tuple | None) -> None:
    parsed = parse_submit_time(text)
    assert (parsed.timetuple()[:6] if parsed else None) == expected
