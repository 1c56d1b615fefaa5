"""Files read safely and written whole or not at all, and finding data files.

Reading: :func:`read_text` reads a regular file as UTF-8 text, or raises the caller's error
class naming the file and what is wrong (missing, a folder, a FIFO or device, too big, not
UTF-8): it never blocks on a FIFO and never prints a traceback for a bad file.

Writing: :func:`atomic_writer` writes one file to a temporary sibling and renames it into place
only when every byte is written; :func:`atomic_directory` does the same for a folder of files
(parquet shards, a card, task YAMLs, a validation batch). An interrupted run (an error, Ctrl-C,
SIGTERM, SIGHUP) never leaves a partial output behind, and a temporary file left by a killed run
(SIGKILL, power loss) is removed by the next write to the same path. Outputs only ever replace
regular files (a symbolic link, FIFO or folder in the way is refused; a character device such
as ``/dev/null`` is written in place), get the user's umask, and a failed write (disk full, a
name too long, a parent that is a file) is a :class:`DataError` naming the output.
:func:`write_files` writes several files as one output (all of them or none).
:func:`refuse_inputs` stops a command whose output path is one of its inputs.
:func:`data_files` finds the ``.jsonl`` files a ``--data`` argument names. Every layer writes
through these; nothing here knows what is written.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import os
import re
import shutil
import stat
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Literal, cast

from blimpgen.errors import DataError, LocatedError, OptionError

# A temporary name keeps at most this much of the target's name, so that it fits where the target fits.
_TEMP_NAME_CHARS = 100
_TEMP_RE = re.compile(r"^\.(?P<name>.*)\.(?P<pid>\d+)\.[^.]+\.part$")
_KINDS = {
    stat.S_IFLNK: "a symbolic link",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFBLK: "a block device",
    stat.S_IFCHR: "a character device",
    stat.S_IFDIR: "a folder",
}


# ----------------------------------------------------------------------------- reading


def read_text(
    path: Path | str,
    display: str | None = None,
    *,
    error: type[LocatedError] = DataError,
    max_bytes: int | None = None,
    what: str = "a file",
    encoding: str = "utf-8",
) -> str:
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
        raise error(
            f"cannot read file: it is larger than {_size(max_bytes)}; {what} is at most {_size(max_bytes)}", name
        )
    return decode(data, name, error, encoding)


def decode(
    data: bytes, name: str, error: type[LocatedError] = DataError, encoding: str = "utf-8", line: int = 0
) -> str:
    """Bytes as UTF-8 text, or ``error`` saying where the first bad byte is."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise error(
            f"cannot read file: not UTF-8 text (byte 0x{data[exc.start]:02x} at position {exc.start})", name, line
        ) from None


@contextlib.contextmanager
def open_regular(
    path: Path | str, display: str | None = None, error: type[LocatedError] = DataError
) -> Iterator[IO[bytes]]:
    """Open a regular file for reading in binary mode; anything else is ``error`` (never blocks on a FIFO)."""
    name = display or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise error(f"cannot read file: {_read_problem(Path(path), exc)}", name) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise error(f"cannot read file: not a regular file ({_KINDS.get(stat.S_IFMT(mode), 'a special file')})", name)
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


class _Writer:
    """A file handle whose write errors (disk full, file too large) name the output file."""

    def __init__(self, handle: IO[Any], display: str) -> None:
        self._handle = handle
        self._display = display

    def write(self, data: Any) -> int:
        try:
            return self._handle.write(data)
        except OSError as exc:
            raise write_error(self._display, exc) from None

    def writelines(self, lines: Iterable[Any]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._handle.flush()
        except OSError as exc:
            raise write_error(self._display, exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)


def _writer(handle: IO[Any], display: str) -> IO[Any]:
    """``handle`` behind a :class:`_Writer`, typed as the file it stands in for: it forwards every
    attribute it does not define to ``handle``, so callers use it as that file."""
    return cast(IO[Any], _Writer(handle, display))


def write_error(display: str, exc: OSError) -> DataError:
    """A write failure as a one-line error naming the output."""
    return DataError(f"cannot write: {exc.strerror or exc}", display)


@contextlib.contextmanager
def atomic_writer(path: Path | str, mode: str = "w") -> Iterator[IO[Any]]:  # IO[str] or IO[bytes] by mode
    """Open a temporary file beside ``path``; rename it over ``path`` on success only.

    A character device (``/dev/null``) is written in place; any other path that exists and is
    not a regular file is refused.

    Raises:
        DataError: when the path is not writable, or writing fails (the old file stays).
    """
    path = Path(path)
    display = str(path)
    encoding = None if "b" in mode else "utf-8"
    if _existing_kind(path, display) == stat.S_IFCHR:
        try:
            raw = open(path, mode, encoding=encoding)  # noqa: SIM115 - closed below
        except OSError as exc:
            raise write_error(display, exc) from None
        with raw:
            yield _writer(raw, display)
        return
    _make_parent(path.parent, display)
    remove_stale_parts(path)
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{path.name[:_TEMP_NAME_CHARS]}.{os.getpid()}.", suffix=".part", dir=path.parent
        )
    except OSError as exc:
        raise write_error(display, exc) from None
    try:
        os.fchmod(fd, 0o666 & ~umask())
        raw = os.fdopen(fd, mode, encoding=encoding, newline=None)
        try:
            yield _writer(raw, display)
            try:
                raw.flush()
                os.fsync(raw.fileno())
            except OSError as exc:
                raise write_error(display, exc) from None
        finally:
            with contextlib.suppress(OSError):  # after a failed write, closing fails the same way
                raw.close()
        try:
            os.replace(tmp, path)
        except OSError as exc:
            raise write_error(display, exc) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_files(texts: Sequence[tuple[Path | str, str]]) -> list[Path]:
    """Write several text files as one output: each goes to a temporary sibling first, and only
    when every one is complete on disk are they renamed into place, so a failure (disk full, a
    kill) leaves every old file as it was, never some new files beside old ones.

    Raises:
        DataError: naming the file that could not be written (every old file intact).
    """
    with contextlib.ExitStack() as stack:
        opened = [(Path(path), stack.enter_context(atomic_writer(path)), text) for path, text in texts]
        for path, handle, text in opened:
            handle.write(text)
            handle.flush()
            try:
                os.fsync(handle.fileno())
            except OSError as exc:
                raise write_error(str(path), exc) from None
    return [Path(path) for path, _ in texts]


def _existing_kind(path: Path, display: str) -> int | None:
    """The file type of an existing output path (None when absent); refuses what may not be replaced."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise DataError(f"cannot write: {_file_in_the_way(path)} is a file, not a folder", display) from None
    except OSError as exc:
        raise write_error(display, exc) from None
    kind = stat.S_IFMT(mode)
    if kind in (stat.S_IFREG, stat.S_IFCHR):
        return kind
    raise DataError(
        f"exists and is {_KINDS.get(kind, 'not a regular file')}; blimpgen only replaces regular "
        "files: remove it or choose another output path",
        display,
    )


def _file_in_the_way(path: Path) -> str:
    for parent in reversed(path.parents):
        if parent.exists() and not parent.is_dir():
            return str(parent)
    return str(path.parent)


def _make_parent(folder: Path, display: str) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise DataError(f"cannot write: {_file_in_the_way(folder / 'x')} is a file, not a folder", display) from None
    except OSError as exc:
        raise write_error(display, exc) from None


def remove_stale_parts(path: Path) -> list[Path]:
    """Remove temporary files and folders that killed runs left beside ``path`` (their process is gone)."""
    removed: list[Path] = []
    prefix = f".{path.name[:_TEMP_NAME_CHARS]}."
    try:
        siblings = list(path.parent.iterdir())
    except OSError:
        return removed
    for sibling in siblings:
        if not sibling.name.startswith(prefix):
            continue
        found = _TEMP_RE.match(sibling.name)
        if found is None or found.group("name") != path.name[:_TEMP_NAME_CHARS] or _alive(int(found.group("pid"))):
            continue
        with contextlib.suppress(OSError):
            if sibling.is_dir() and not sibling.is_symlink():
                shutil.rmtree(sibling)
            else:
                sibling.unlink()
            removed.append(sibling)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists but belongs to someone else
    return True


def umask() -> int:
    """The process's umask (read without changing it where the system allows)."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_directory(
    target: Path | str,
    *,
    overwrite: bool = False,
    is_ours: Callable[[Path], bool] = lambda path: False,
    owned: Callable[[str], bool] = lambda relative: True,
) -> Iterator[Path]:
    """Yield an empty temporary folder that replaces ``target`` when the block succeeds.

    Replacing an earlier output keeps every file of it that this writer did not write (a
    ``.git`` folder, notes, results files): they are moved into the new folder before it takes
    the old one's place; only the old folder's own files (``owned``) go.

    Args:
        target: the folder to create.
        overwrite: replace an existing ``target``; it must be empty or pass ``is_ours``, so a
            mistyped ``-o .`` never deletes a folder that blimpgen did not write.
        is_ours: tells whether an existing folder is an earlier output of the same writer.
        owned: tells whether a path inside an earlier output (``data/x/y.parquet``, with ``/``)
            was written by this writer; everything else is kept.

    Raises:
        OptionError: when ``target`` exists and may not be replaced, or a kept file is in the way
            of a new one.
        DataError: when the folder cannot be written.
    """
    target = Path(target)
    _check_target(target, overwrite, is_ours)
    _make_parent(target.parent, str(target))
    remove_stale_parts(target)
    try:
        tmp = Path(
            tempfile.mkdtemp(
                prefix=f".{target.name[:_TEMP_NAME_CHARS]}.{os.getpid()}.", suffix=".part", dir=target.parent
            )
        )
    except OSError as exc:
        raise write_error(str(target), exc) from None
    try:
        yield tmp
        os.chmod(tmp, 0o777 & ~umask())  # mkdtemp makes 0700; give the usual permissions
        _swap_in(tmp, target, owned)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise write_error(str(target), exc) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _check_target(target: Path, overwrite: bool, is_ours: Callable[[Path], bool]) -> None:
    if not os.path.lexists(target):
        return
    if target.is_symlink() or not target.is_dir():
        kind = "a symbolic link" if target.is_symlink() else "not a folder"
        raise OptionError(f"{target}: exists and is {kind}; choose another output path")
    if not any(target.iterdir()):
        return
    if not overwrite:
        raise OptionError(f"{target}: folder exists and is not empty; pass --overwrite to replace it")
    if not is_ours(target):
        raise OptionError(
            f"{target}: not an earlier blimpgen export, so --overwrite will not "
            "delete it; choose a new or empty output folder"
        )


def _swap_in(tmp: Path, target: Path, owned: Callable[[str], bool]) -> None:
    if not target.exists():
        os.replace(tmp, target)
        return
    if target.is_dir() and not any(target.iterdir()):
        target.rmdir()
        os.replace(tmp, target)
        return
    old = _sibling(target, ".old")
    os.replace(target, old)
    moved: list[tuple[Path, Path]] = []
    try:
        _keep_foreign(old, tmp, "", owned, moved)
        os.replace(tmp, target)
    except BaseException:
        for source, destination in reversed(moved):
            with contextlib.suppress(OSError):
                os.replace(destination, source)
        os.replace(old, target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _sibling(target: Path, suffix: str) -> Path:
    path = Path(
        tempfile.mkdtemp(prefix=f".{target.name[:_TEMP_NAME_CHARS]}.{os.getpid()}.", suffix=suffix, dir=target.parent)
    )
    path.rmdir()
    return path


def _keep_foreign(
    old: Path, new: Path, relative: str, owned: Callable[[str], bool], moved: list[tuple[Path, Path]]
) -> None:
    """Move every entry of ``old`` that ``owned`` does not claim into ``new`` (same relative path).

    A folder holding none of the writer's files moves whole (with its empty folders); a folder
    that holds some is gone through entry by entry.
    """
    for entry in sorted(old.iterdir()):
        rel = f"{relative}{entry.name}"
        if owned(rel):
            continue
        destination = new / entry.name
        if entry.is_dir() and not entry.is_symlink() and (destination.is_dir() or _holds_owned(entry, rel, owned)):
            created = not destination.is_dir()
            if created:
                destination.mkdir()
            _keep_foreign(entry, destination, rel + "/", owned, moved)
            if created and not any(destination.iterdir()):
                destination.rmdir()  # it held only the writer's files (a config the new export no longer has)
            continue
        if os.path.lexists(destination):
            raise OptionError(
                f"{new.name}: {rel} was not written by blimpgen and a new file would replace it; "
                "move it away and run again"
            )
        os.replace(entry, destination)
        moved.append((entry, destination))


def _holds_owned(folder: Path, relative: str, owned: Callable[[str], bool]) -> bool:
    for root, dirs, files in os.walk(folder):
        base = relative + "/" + os.path.relpath(root, folder).replace(os.sep, "/")
        base = base.removesuffix("/.")
        if any(owned(f"{base}/{name}") for name in files + dirs):
            return True
    return False


# ----------------------------------------------------------------------------- CSV

# A cell starting with one of these is a formula to Excel, LibreOffice and Google Sheets
# (OWASP "CSV injection"); a leading quote marks a cell as text there, and is our escape.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "'")
_NUMBER_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def csv_cell(value: Any) -> str:
    """A value as a CSV cell a spreadsheet shows as text: a formula prefix is neutralised with ``'``.

    Numbers (``-3``, ``0.25``) stay numbers; a cell that starts with ``'`` gets another, so
    :func:`csv_value` reads every cell back exactly.
    """
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_PREFIXES) and not _NUMBER_RE.match(text):
        return "'" + text
    return text


def csv_value(cell: str) -> str:
    """The value of a cell written by :func:`csv_cell`."""
    return cell[1:] if cell.startswith("'") else cell


def csv_text(
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    lineterminator: str = "\n",
    quoting: Literal[0, 1, 2, 3] = csv.QUOTE_MINIMAL,
) -> str:
    """A whole CSV file as text, every cell through :func:`csv_cell`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=lineterminator, quoting=quoting)
    writer.writerow([csv_cell(name) for name in header])
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    return buffer.getvalue()


# ----------------------------------------------------------------------------- inputs and outputs


def refuse_inputs(output: Path | str | None, inputs: Mapping[str, Iterable[Path | str]]) -> None:
    """Refuse an output path that is one of the command's inputs (it would be destroyed).

    Args:
        output: the output file (None: stdout).
        inputs: option name -> the files it names (``{"--lexicon-overlay": [...]}``).

    Raises:
        OptionError: naming the output and the option that reads it.
    """
    if output is None:
        return
    for option, paths in inputs.items():
        for path in paths:
            if same_file(output, path):
                raise OptionError(
                    f"{output}: the output is also an input ({option} {path}); choose another output path"
                )


def same_file(a: Path | str, b: Path | str) -> bool:
    """Whether two paths name the same file (the same path resolved, or the same inode)."""
    a, b = Path(a), Path(b)
    with contextlib.suppress(OSError):
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    return a.resolve() == b.resolve()


def data_files(path: Path | str) -> list[Path]:
    """A JSONL file, or every ``*.jsonl`` file in a folder (sorted; folders named ``x.jsonl`` left out).

    Raises:
        DataError: when nothing is found.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.glob("*.jsonl") if not p.is_dir())
        if not files:
            raise DataError("no .jsonl files in this folder", str(path))
        return files
    if not os.path.lexists(path):
        raise DataError("no such file or folder", str(path))
    return [path]
