"""Files written whole or not at all, and finding data files.

:func:`atomic_writer` writes one file to a temporary sibling and renames it into place only
when every byte is written; :func:`atomic_directory` does the same for a folder of files
(parquet shards, a card, task YAMLs). An interrupted run (an error, Ctrl-C, SIGTERM) never
leaves a partial output behind. :func:`data_files` finds the ``.jsonl`` files a ``--data``
argument names. Every layer writes through these; nothing here knows what is written.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from blimpgen.errors import DataError, OptionError


@contextlib.contextmanager
def atomic_writer(path: Path | str, mode: str = "w") -> Iterator[IO[Any]]:  # IO[str] or IO[bytes] by mode
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
