"""Records as JSON lines: one writer and one reader for every record type.

Lines are byte-stable for the same record (``dumps_record``). Readers name ``file:line`` in
every error; :func:`read_records` picks each line's record class (:mod:`blimpgen.records.types`)
and, when a type is expected, reports a line of the other type instead of a confusing missing
field. Files are written through :func:`blimpgen._io.atomic_writer`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

from blimpgen._io import atomic_writer, decode, open_regular
from blimpgen.errors import DataError, SourceLoc
from blimpgen.records.item import ProbeItem
from blimpgen.records.pair import MinimalPair
from blimpgen.records.types import Record, mismatch, record_type

RecordT = TypeVar("RecordT", bound=Record)


# What json.dumps(..., ensure_ascii=False, separators=(", ", ": ")) builds at every call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def dumps_record(record: Record) -> str:
    """One JSONL line (no newline), byte-stable for the same record."""
    return _ENCODER.encode(record.to_dict())


def write_records(records: Iterable[Record], handle: IO[str]) -> int:
    """Stream records to an open text handle, one JSON object per line; return the count."""
    count = 0
    for record in records:
        handle.write(dumps_record(record) + "\n")
        count += 1
    return count


def write_records_file(records: Iterable[Record], path: Path | str) -> int:
    """Write records to ``path`` atomically; return the count."""
    with atomic_writer(path) as handle:
        return write_records(records, handle)


# Names kept for pair callers.
write_pairs = write_records
write_pairs_file = write_records_file


# A record is a pair or an item of a few sentences: a line this long is not one (a file of
# another kind, or a runaway sentence that would keep a tokenizer busy for minutes).
MAX_LINE_BYTES = 1_000_000


def read_json_lines(path: Path | str) -> Iterator[tuple[SourceLoc, Any]]:
    """(``file:line``, decoded JSON) for every non-blank line of a JSONL file.

    Raises:
        DataError: when the file cannot be read, or at ``file:line`` for invalid JSON, a line
            that is not UTF-8, or a line longer than :data:`MAX_LINE_BYTES`.
    """
    path = Path(path)
    with open_regular(path, str(path), DataError) as handle:
        for number, raw in enumerate(_lines(handle), start=1):  # binary lines end at LF only
            if len(raw.rstrip(b"\n")) > MAX_LINE_BYTES:
                raise DataError(
                    f"line longer than {MAX_LINE_BYTES // 1_000_000} MB; a record (a pair, a probe "
                    "item) is at most that, so this is no JSONL file of records",
                    str(path),
                    number,
                )
            line = decode(raw, str(path), DataError, line=number)
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"invalid JSON: {exc.msg}", str(path), number) from None
            except RecursionError:
                raise DataError("invalid JSON: nested too deeply", str(path), number) from None
            yield SourceLoc(str(path), number), data


def _lines(handle: IO[bytes]) -> Iterator[bytes]:
    """The lines of a binary file, each cut after ``MAX_LINE_BYTES + 1`` bytes (the rest of a longer
    line is never read: the reader stops at it)."""
    while raw := handle.readline(MAX_LINE_BYTES + 1):
        yield raw


def read_located(path: Path | str, expected: type[Record] | None = None) -> Iterator[tuple[Record, SourceLoc]]:
    """Each record of a JSONL file (or only ``expected`` ones) with the ``file:line`` it was read from.

    Raises:
        DataError: at ``file:line`` for invalid JSON, a bad record, or a record of another type.
    """
    for where, data in read_json_lines(path):
        found = record_type(data)
        if expected is not None and found is not expected:
            raise DataError(mismatch(found, expected), where.file, where.line)
        yield found.from_dict(data, where=where), where


def read_records(path: Path | str, expected: type[Record] | None = None) -> Iterator[Record]:
    """Read records of any type from a JSONL file (or only ``expected`` ones).

    Raises:
        DataError: at ``file:line`` for invalid JSON, a bad record, or a record of another type.
    """
    return (record for record, _ in read_located(path, expected))


def read_pairs(path: Path | str) -> Iterator[MinimalPair]:
    """Read a BLiMP-schema JSONL file (ours or the original BLiMP release).

    Raises:
        DataError: at ``file:line`` for invalid JSON, missing fields, or a probe item.
    """
    return _as_type(read_records(path, MinimalPair), MinimalPair)


def read_items(path: Path | str) -> Iterator[ProbeItem]:
    """Read probe items from a JSONL file.

    Raises:
        DataError: at ``file:line`` for invalid JSON, a minimal pair, or a bad item.
    """
    return _as_type(read_records(path, ProbeItem), ProbeItem)


def _as_type(records: Iterator[Record], expected: type[RecordT]) -> Iterator[RecordT]:
    """``records`` as the ``expected`` type the reader has checked each of them against."""
    for record in records:
        if not isinstance(record, expected):
            raise DataError(f"a {record.noun}, not a {expected.noun}")
        yield record


def first_record_type(path: Path | str) -> type[Record] | None:
    """The type of a JSONL file's first record (None for an empty, unreadable or invalid file)."""
    try:
        with open_regular(path) as handle:
            for raw in _lines(handle):
                if len(raw.rstrip(b"\n")) > MAX_LINE_BYTES:
                    return None
                if raw.strip():
                    try:
                        return record_type(json.loads(raw.decode("utf-8")))
                    except (ValueError, RecursionError):  # invalid JSON or UTF-8
                        return None
    except (OSError, DataError):
        return None
    return None


def file_holds_items(path: Path | str) -> bool:
    """Whether the first record of a JSONL file is a probe item (False for pairs or empty files)."""
    return first_record_type(path) is ProbeItem
