"""Write a whole output folder or nothing: build it beside the target, then rename it in.

An export is several files (parquet shards, a card, task YAMLs). Writing them one by one
into the target would leave a half-written export behind when something fails midway, so
every exporter builds into a temporary sibling folder and swaps it in only on success.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from blimpgen.errors import BlimpgenError


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
        BlimpgenError: when ``target`` exists and may not be replaced.
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
        raise BlimpgenError(f"{target}: exists and is not a folder; choose another output path")
    if not any(target.iterdir()):
        return
    if not overwrite:
        raise BlimpgenError(f"{target}: folder exists and is not empty; pass --overwrite to replace it")
    if not is_ours(target):
        raise BlimpgenError(f"{target}: not an earlier blimpgen export, so --overwrite will not "
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
