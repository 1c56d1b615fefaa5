"""Reading MTurk results CSVs ("Batch_123_results.csv") into typed rows.

MTurk's results file has one row per assignment: bookkeeping columns (``HITId``,
``AssignmentId``, ``WorkerId``, ``AssignmentStatus``, ``WorkTimeInSeconds``, ...), then
``Input.<name>`` for every ``batch.csv`` column and ``Answer.<name>`` for every form field,
then ``Approve``/``Reject``. A row that cannot be read is *malformed* and is reported with its
file and 1-based line (the line where the record starts; quoted fields may span lines); reading
goes on after it, so no row is lost silently. A column named twice is an error (which one would
count?), and a row whose ``Input.sN_a``/``Input.sN_b`` differ from the batch's key (the worker
saw other sentences than the key scores) is malformed.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from blimpgen._io import open_regular
from blimpgen.errors import OptionError, SpecError
from blimpgen.validate.batch import LoadedBatch
from blimpgen.validate.page import ELAPSED_FIELD, HIT_FIELD, HONEYPOT_FIELD, NATIVE_FIELD, QUESTION_PREFIX, element_text

REQUIRED = ("AssignmentId", "WorkerId", "AssignmentStatus", "WorkTimeInSeconds")
STATUSES = ("Submitted", "Approved", "Rejected")
ANSWERS = ("", "1", "2")
NATIVE_ANSWERS = ("", "yes", "no")
SECONDS_RE = re.compile(r"^[0-9]+$")  # str.isdigit() also accepts '²' and other digits int() refuses
# A worker may paste a long text into the comments box: fields up to this size are read.
MAX_FIELD_CHARS = 64 * 1024 * 1024


@dataclass(frozen=True)
class ResultRow:
    """One assignment from a results file; ``answers[slot]`` is ``"1"``, ``"2"`` or ``""``."""

    file: str
    line: int
    order: int
    assignment_id: str
    worker_id: str
    hit_id: str
    hit_code: str
    status: str
    seconds: int
    submit_time: datetime | None
    answers: dict[int, str]
    native: str
    honeypot: str
    elapsed: str = ""
    marked_reject: bool = False

    @property
    def where(self) -> str:
        """``file:line`` of the row."""
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Malformed:
    """A row that could not be read, with what was wrong."""

    file: str
    line: int
    message: str
    assignment_id: str = ""
    worker_id: str = ""
    hit_id: str = ""
    raw: dict[str, str] = field(default_factory=dict)


def read_results(paths: Sequence[Path | str], batch: LoadedBatch) -> tuple[list[ResultRow], list[Malformed]]:
    """Read and merge results files for ``batch``.

    Args:
        paths: one or more MTurk results CSVs.
        batch: the batch the HITs were made from.

    Returns:
        Readable rows (in file order) and malformed rows.

    Raises:
        SpecError: ``file:1`` when a required column is missing (the wrong file or batch).
        DataError: when a file cannot be opened.
        OptionError: when no file is given.
    """
    if not paths:
        raise OptionError("no results files given; pass --results Batch_..._results.csv")
    rows: list[ResultRow] = []
    malformed: list[Malformed] = []
    for path in paths:
        for item in _read_file(Path(path), batch, len(rows) + len(malformed)):
            if isinstance(item, ResultRow):
                rows.append(item)
            else:
                malformed.append(item)
    return rows, malformed


def parse_submit_time(text: str) -> datetime | None:
    """Parse MTurk's ``Wed Mar 06 10:15:01 PST 2024`` (zone ignored) or ISO 8601; else ``None``."""
    parts = text.split()
    if len(parts) == 6:
        try:
            return datetime.strptime(" ".join(parts[:4] + parts[5:]), "%a %b %d %H:%M:%S %Y")
        except ValueError:
            return None
    try:
        return datetime.fromisoformat(text).replace(tzinfo=None)
    except ValueError:
        return None


def _read_file(path: Path, batch: LoadedBatch, order: int) -> Iterator[ResultRow | Malformed]:
    with open_regular(path, error=SpecError) as raw:
        handle = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
        limit = csv.field_size_limit()
        csv.field_size_limit(max(limit, MAX_FIELD_CHARS))
        try:
            yield from _read_rows(handle, path, batch, order)
        except UnicodeDecodeError as exc:
            raise SpecError(
                f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); save the results file as UTF-8", str(path)
            ) from None
        finally:
            csv.field_size_limit(limit)


def _read_rows(handle: io.TextIOWrapper, path: Path, batch: LoadedBatch, order: int) -> Iterator[ResultRow | Malformed]:
    reader = csv.reader(handle)
    try:
        header = next(reader)
    except StopIteration:
        raise SpecError("empty file: expected an MTurk results CSV with a header row", str(path), 1) from None
    except csv.Error as exc:
        raise SpecError(f"not a CSV file: {exc}", str(path), 1) from None
    _check_header(header, path, batch)
    end = reader.line_num
    while True:
        start = end + 1
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:  # reported; reading goes on from the next line (nothing lost silently)
            end = reader.line_num
            order += 1
            yield Malformed(str(path), start, f"unreadable CSV: {exc}")
            continue
        end = reader.line_num
        if not fields:
            continue  # blank line: not a results row
        order += 1
        yield _parse_row(fields, header, path, start, order, batch)


def _check_header(header: list[str], path: Path, batch: LoadedBatch) -> None:
    needed = list(REQUIRED) + [f"Answer.{QUESTION_PREFIX}{slot}" for slot in range(1, batch.slots + 1)]
    needed.append(f"Answer.{NATIVE_FIELD}")
    twice = sorted({name for name in header if header.count(name) > 1})
    if twice:
        columns = ", ".join(str(i + 1) for i, name in enumerate(header) if name == twice[0])
        raise SpecError(
            f"column {twice[0]!r} appears more than once (columns {columns}); which one counts is "
            "unclear: remove the extra column",
            str(path),
            1,
        )
    missing = [name for name in needed if name not in header]
    if f"Input.{HIT_FIELD}" not in header and f"Answer.{HIT_FIELD}" not in header:
        missing.append(f"Input.{HIT_FIELD}")
    if missing:
        raise SpecError(
            f"missing column(s) {', '.join(missing)}: is this the MTurk results file of batch "
            f"{batch.tag} ({batch.slots} items per HIT)?",
            str(path),
            1,
        )


def _parse_row(
    fields: list[str], header: list[str], path: Path, line: int, order: int, batch: LoadedBatch
) -> ResultRow | Malformed:
    raw = dict(zip(header, fields, strict=False))  # a count mismatch is reported below
    ids = {
        "assignment_id": raw.get("AssignmentId", ""),
        "worker_id": raw.get("WorkerId", ""),
        "hit_id": raw.get("HITId", ""),
    }

    def bad(message: str) -> Malformed:
        return Malformed(str(path), line, message, raw=raw, **ids)

    if len(fields) != len(header):
        return bad(f"has {len(fields)} fields, the header has {len(header)}")
    if not ids["assignment_id"] or not ids["worker_id"]:
        return bad("empty AssignmentId or WorkerId")
    status = raw["AssignmentStatus"]
    if status not in STATUSES:
        return bad(f"AssignmentStatus {status!r} is not one of {', '.join(STATUSES)}")
    seconds_text = raw["WorkTimeInSeconds"].strip()
    if not SECONDS_RE.match(seconds_text):
        return bad(f"WorkTimeInSeconds {seconds_text!r} is not a whole number of seconds")
    code = raw.get(f"Input.{HIT_FIELD}") or raw.get(f"Answer.{HIT_FIELD}", "")
    hit = batch.hits.get(code)
    if hit is None:
        return bad(f"HIT code {code!r} is not in batch {batch.tag}: results of another batch?")
    answers: dict[int, str] = {}
    for item in hit.items:
        value = raw[f"Answer.{QUESTION_PREFIX}{item.slot}"].strip()
        if value not in ANSWERS:
            return bad(f"Answer.{QUESTION_PREFIX}{item.slot} is {value!r}; expected 1, 2 or empty")
        shown = raw.get(f"Input.s{item.slot}_id")
        expected = item.item_id or item.code
        if shown is not None and shown != expected:
            return bad(f"Input.s{item.slot}_id {shown!r} differs from the batch key ({expected!r})")
        for column, sentence in zip("ab", item.options, strict=True):
            text = raw.get(f"Input.s{item.slot}_{column}")
            if text is not None and text != element_text(sentence):
                return bad(
                    f"Input.s{item.slot}_{column} differs from the batch key: the worker saw other sentences "
                    "than the key scores"
                )
        answers[item.slot] = value
    native = raw[f"Answer.{NATIVE_FIELD}"].strip().lower()
    if native not in NATIVE_ANSWERS:
        return bad(f"Answer.{NATIVE_FIELD} is {native!r}; expected yes, no or empty")
    return ResultRow(
        file=str(path),
        line=line,
        order=order,
        hit_id=ids["hit_id"],
        assignment_id=ids["assignment_id"],
        worker_id=ids["worker_id"],
        hit_code=code,
        status=status,
        seconds=int(seconds_text),
        submit_time=parse_submit_time(raw.get("SubmitTime", "")),
        answers=answers,
        native=native,
        honeypot=raw.get(f"Answer.{HONEYPOT_FIELD}", ""),
        elapsed=raw.get(f"Answer.{ELAPSED_FIELD}", ""),
        marked_reject=bool(raw.get("Reject", "").strip()),
    )
