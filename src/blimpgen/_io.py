"""Files read safely, files written whole or not at all, and finding data files.

:func:`read_text` reads a regular file as UTF-8 text, or raises the caller's error class naming
the file and what is wrong (missing, a folder, a FIFO or device, too big, not UTF-8): it never
blocks on a FIFO and never prints a traceback for a bad file.

:func:`atomic_writer` writes one file to a temporary sibling and renames it into place only
when every byte is written; :func:`atomic_directory` does the same for a folder of files
(parquet shards, a card, task YAMLs). An interrupted run (an error, Ctrl-C, SIGTERM) never
leaves a partial output behind. :func:`data_files` finds the ``.jsonl`` files a ``--data``
argument names. Every layer writes through these; nothing here knows what is written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from blimpgen.errors import DataError, LocatedError, OptionError

_KINDS = {stat.S_IFLNK: "a symbolic link", stat.S_IFIFO: "a FIFO", stat.S_IFSOCK: "a socket",
          stat.S_IFBLK: "a block device", stat.S_IFCHR: "a character device", stat.S_IFDIR: "a folder"}


# ----------------------------------------------------------------------------- reading


def read_text(path: Path | str, display: str | None = None, *, error: type[LocatedError] = DataError,
              max_bytes: int | None = None, what: str = "a file", encoding: str = "utf-8") -> str:
    """The text of a regular file.

    Args:
        path: the file.
        display: its name in messages (default: ``path`` as given).
        error: the error class to raise (``SpecError`` for a spec, ``DataError`` for data...).
        max_bytes: refuse files larger than this.
        what: what the file is, for the size message (``a spec file``).
        encoding: ``utf-8``, or ``utf-8-sig`` to drop a byte-order mark.

    Raises:
        LocatedError: (of class ``error``) ``file: cannot read file: why``.
    """
    name = display or str(path)
    with open_regular(path, name, error) as handle:
        size = os.fstat(handle.fileno()).st_size
        if max_bytes is not None and size > max_bytes:
            raise error(f"cannot read file: it is {_size(size)}; {what} is at most {_size(max_bytes)}", name)
        data = handle.read() if max_bytes is None else handle.read(max_bytes + 1)
    if max_bytes is not None and len(data) > max_bytes:
        raise error(f"cannot read file: it is larger than {_size(max_bytes)}; {what} is at most "
                    f"{_size(max_bytes)}", name)
    return decode(data, name, error, encoding)


def decode(data: bytes, name: str, error: type[LocatedError] = DataError, encoding: str = "utf-8",
           line: int = 0) -> str:
    """Bytes as UTF-8 text, or ``error`` saying where the first bad byte is."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise error(f"cannot read file: not UTF-8 text (byte 0x{data[exc.start]:02x} at position {exc.start})",
                    name, line) from None


@contextlib.contextmanager
def open_regular(path: Path | str, display: str | None = None,
                 error: type[LocatedError] = DataError) -> Iterator[IO[bytes]]:
    """Open a regular file for reading in binary mode; anything else is ``error`` (never blocks on a FIFO)."""
    name = display or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise error(f"cannot read file: {_read_problem(Path(path), exc)}", name) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise error(f"cannot read file: not a regular file ({_KINDS.get(stat.S_IFMT(mode), 'a special file')})",
                    name)
    with os.fdopen(fd, "rb") as handle:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        yield handle


def _read_problem(path: Path, exc: OSError) -> str:
    if exc.errno == errno.ENOENT:
        return "a dangling symbolic link" if path.is_symlink() else "no such file"
    if exc.errno == errno.EISDIR:
        return "it is a folder, not a file"
    if exc.errno == errno.ELOOP:
        return "a loop of symbolic links"
    return exc.strerror or str(exc)


# Characters a template, lexicon row or sentence may not hold: control, invisible format and separator
# characters (U+FEFF, U+200B, bidirectional overrides, U+2028...) would reach the sentences unseen.
_ODD_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def odd_character(text: str, allowed: str = "") -> str | None:
    """The first control, invisible or separator character of ``text`` (None when there is none)."""
    for char in text:
        if (char < " " or char > "~") and char not in allowed and unicodedata.category(char) in _ODD_CATEGORIES:
            return char
    return None


def describe_character(char: str) -> str:
    """``control character U+0007`` or ``invisible character U+FEFF (ZERO WIDTH NO-BREAK SPACE)``."""
    kind = "control" if unicodedata.category(char) == "Cc" else "invisible"
    name = unicodedata.name(char, "")
    return f"{kind} character U+{ord(char):04X}" + (f" ({name})" if name else "")


def _size(count: int) -> str:
    return f"{count / 1_000_000:.3g} MB" if count >= 100_000 else f"{count:,} bytes"



# ----------------------------------------------------------------------------- writing



@contextlib.contextmanager
def atomic_writer(path: Path | str, mode: str = "w") -> Iterator[IO]:
    """Open a temporary file beside ``path``; rename it over ``path`` on success only."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8", newline=None) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_directory(target: Path | str, *, overwrite: bool = False,
                     is_ours: Callable[[Path], bool] = lambda path: False) -> Iterator[Path]:
    """Yield an empty temporary folder that replaces ``target`` when the block succeeds.

    Args:
        target: the folder to create.
        overwrite: replace an existing ``target``; it must be empty or pass ``is_ours``, so a
            mistyped ``-o .`` never deletes a folder that blimpgen did not write.
        is_ours: tells whether an existing folder is an earlier output of the same exporter.

    Raises:
        OptionError: when ``target`` exists and may not be replaced.
    """
    target = Path(target)
    _check_target(target, overwrite, is_ours)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent))
    try:
        yield tmp
        os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes 0700; give the usual permissions
        _swap_in(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _check_target(target: Path, overwrite: bool, is_ours: Callable[[Path], bool]) -> None:
    if not target.exists():
        return
    if not target.is_dir():
        raise OptionError(f"{target}: exists and is not a folder; choose another output path")
    if not any(target.iterdir()):
        return
    if not overwrite:
        raise OptionError(f"{target}: folder exists and is not empty; pass --overwrite to replace it")
    if not is_ours(target):
        raise OptionError(f"{target}: not an earlier blimpgen export, so --overwrite will not "
                          "delete it; choose a new or empty output folder")


def _swap_in(tmp: Path, target: Path) -> None:
    if not target.exists():
        os.replace(tmp, target)
        return
    if target.is_dir() and not any(target.iterdir()):
        target.rmdir()
        os.replace(tmp, target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
    old.rmdir()
    os.replace(target, old)
    try:
        os.replace(tmp, target)
    except BaseException:
        os.replace(old, target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def data_files(path: Path | str) -> list[Path]:
    """A JSONL file, or every ``*.jsonl`` in a folder (sorted).

    Raises:
        DataError: when nothing is found.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.jsonl"))
        if not files:
            raise DataError("no .jsonl files in this folder", str(path))
        return files
    if not path.exists():
        raise DataError("no such file or folder", str(path))
    return [path]
