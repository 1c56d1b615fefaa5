"""Reading a corpus for ``audit --overlap``: text or JSONL, plain or gzipped, streamed in blocks.

A corpus is a file or a folder of files (every regular file under it, sorted by path; hidden
files are skipped). How a file is read depends on its name:

* ``*.jsonl`` / ``*.jsonl.gz``: one JSON object per line; its ``sentence_good`` and
  ``sentence_bad`` (minimal pairs: ours, or the released BLiMP files) or else its ``text``
  field (a common form of training-data samples). Each string counts as one line of text.
* anything else (``*.txt``, ``*.gz``, ...): plain UTF-8 text, one document or one sentence a line.

:func:`corpus_blocks` yields the text as blocks of whole lines (about :data:`BLOCK` bytes each),
so memory stays flat whatever the corpus size. A corpus file is read only if it is a regular
file (a FIFO is refused, never waited on). An unreadable file, a line that is not UTF-8,
invalid JSON or a line longer than :data:`MAX_LINE` is a :class:`~blimpgen.errors.DataError`
that names ``file:line``.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from blimpgen._io import open_regular
from blimpgen.errors import DataError

BLOCK = 1 << 20  # bytes of text handed on at once
MAX_LINE = 1 << 26  # a longer line is refused: split the corpus into lines
JSON_FIELDS = ("sentence_good", "sentence_bad")
TEXT_FIELD = "text"
BOM = b"\xef\xbb\xbf"


def corpus_files(path: Path | str) -> list[Path]:
    """The files a corpus argument names: the file itself, or every file under a folder (sorted).

    Raises:
        DataError: when the path does not exist or the folder holds no file.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
        if not files:
            raise DataError("no files in this corpus folder", str(path))
        return files
    if not path.exists():
        raise DataError("no such corpus file or folder", str(path))
    return [path]


def is_jsonl(path: Path) -> bool:
    """Whether a corpus file is read as JSON lines (by its name)."""
    return path.name.endswith((".jsonl", ".jsonl.gz"))


@contextlib.contextmanager
def _open(path: Path) -> Iterator[IO[bytes] | gzip.GzipFile]:
    """A corpus file's bytes (gunzipped for ``*.gz``); a regular file only (a FIFO is refused, never read)."""
    with open_regular(path, str(path), DataError) as raw:
        if path.name.endswith(".gz"):
            with gzip.GzipFile(fileobj=raw, mode="rb") as unzipped:
                yield unzipped
        else:
            yield raw


def _raw_blocks(path: Path) -> Iterator[tuple[bytes, int]]:
    """(block of whole lines, number of its first line) of one file, as bytes, checked as UTF-8."""
    with _open(path) as handle:
        line = 1
        first = True
        while True:
            try:
                block = handle.read(BLOCK)
                if block and not block.endswith(b"\n"):
                    rest = handle.readline(MAX_LINE)
                    if len(rest) >= MAX_LINE and not rest.endswith(b"\n"):
                        raise DataError(
                            f"line longer than {MAX_LINE >> 20} MiB; put one document or sentence on a line",
                            str(path),
                            line + block.count(b"\n"),
                        )
                    block += rest
            except (OSError, EOFError, zlib.error) as exc:
                raise DataError(f"cannot read corpus: {exc}", str(path), line) from None
            if not block:
                return
            if first:
                block = block.removeprefix(BOM)
                first = False
            try:
                block.decode("utf-8")
            except UnicodeDecodeError as exc:
                where = line + block.count(b"\n", 0, exc.start)
                column = exc.start - (block.rfind(b"\n", 0, exc.start) + 1) + 1
                raise DataError(
                    f"not UTF-8 (byte 0x{block[exc.start]:02x} at column {column}); convert the corpus to UTF-8",
                    str(path),
                    where,
                ) from None
            yield block, line
            line += block.count(b"\n")


def _json_texts(path: Path) -> Iterator[str]:
    """The sentences of a JSONL corpus file, one string per sentence."""
    for block, first in _raw_blocks(path):
        for offset, raw in enumerate(block.splitlines()):
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise DataError(f"invalid JSON: {exc.msg}", str(path), first + offset) from None
            if not isinstance(data, dict):
                raise DataError(f"expected a JSON object, got {type(data).__name__}", str(path), first + offset)
            texts = [data[name] for name in JSON_FIELDS if name in data] or (
                [data[TEXT_FIELD]] if TEXT_FIELD in data else []
            )
            if not texts:
                raise DataError(
                    f"no {', '.join(JSON_FIELDS)} or {TEXT_FIELD} field to compare", str(path), first + offset
                )
            for text in texts:
                if not isinstance(text, str):
                    raise DataError(f"expected a string, got {type(text).__name__}", str(path), first + offset)
                yield text


def _json_blocks(path: Path) -> Iterator[bytes]:
    batch: list[str] = []
    size = 0
    for text in _json_texts(path):
        # A sentence is a line of its own: n-grams never run from one sentence into the next.
        batch.append(text.replace("\n", " "))
        size += len(text)
        if size >= BLOCK:
            yield ("\n".join(batch) + "\n").encode("utf-8")
            batch, size = [], 0
    if batch:
        yield ("\n".join(batch) + "\n").encode("utf-8")


def corpus_blocks(path: Path | str) -> Iterator[bytes]:
    """The corpus text as UTF-8 blocks of whole lines, file after file.

    Raises:
        DataError: at ``file:line`` for an unreadable file, a line that is not UTF-8, a line
            longer than :data:`MAX_LINE`, or (JSONL) invalid JSON or a record without text.
    """
    for file in corpus_files(path):
        if is_jsonl(file):
            yield from _json_blocks(file)
        else:
            for block, _ in _raw_blocks(file):
                yield block


def corpus_size(path: Path | str) -> int:
    """Bytes on disk of the corpus files (compressed size for ``.gz``), for progress bars."""
    return sum(file.stat().st_size for file in corpus_files(path))
