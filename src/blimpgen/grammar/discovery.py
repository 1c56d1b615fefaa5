"""Where spec files are: the shipped ones, user folders, and folders of installed packages.

:func:`read_spec_text` reads one safely (a regular UTF-8 file of at most 1 MB). Nothing here
parses a spec; :mod:`blimpgen.grammar.loader` does, and
:class:`blimpgen.generators.catalog.Catalog` puts the sources together in their documented order.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from blimpgen._io import read_text
from blimpgen.errors import SpecError, SpecErrors

SHIPPED = "blimpgen.grammar"
SHIPPED_FOLDERS = ("paradigms", "probes")
PARADIGM_PATH_ENV = "BLIMPGEN_PARADIGM_PATH"
ENTRY_POINT_GROUP = "blimpgen.paradigms"
# A spec is a few kilobytes; a larger file is refused before YAML parses it (report F19).
MAX_SPEC_BYTES = 1_000_000


def shipped_spec_files() -> list[tuple[str, Any]]:
    """(display name, traversable) of every shipped spec (paradigms and probe suites), sorted by path."""
    found = []
    stack = [(resources.files(SHIPPED) / name, f"grammar/{name}") for name in SHIPPED_FOLDERS]
    while stack:
        folder, display = stack.pop()
        for entry in folder.iterdir():
            if entry.is_dir():
                stack.append((entry, f"{display}/{entry.name}"))
            elif entry.name.endswith(".yaml") and not entry.name.startswith("_"):
                found.append((f"{display}/{entry.name}", entry))
    return sorted(found, key=lambda item: item[0])


def spec_files(folder: Path | str) -> list[tuple[str, Path]]:
    """Spec files under a user folder (recursively, ``_*.yaml`` and folders named ``*.yaml`` left out), sorted.

    Anything else named ``*.yaml`` is listed, so that reading it reports what is wrong (a
    dangling link, a FIFO) instead of the file silently missing.

    Raises:
        SpecErrors: when ``folder`` is not a folder.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise SpecErrors([SpecError("paradigm path is not a folder", str(folder))])
    return [(str(p), p) for p in sorted(folder.rglob("*.yaml")) if not p.name.startswith("_") and not p.is_dir()]


def environment_paradigm_paths(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The folders in ``$BLIMPGEN_PARADIGM_PATH`` (``os.pathsep``-separated, empty entries dropped)."""
    value = (os.environ if environ is None else environ).get(PARADIGM_PATH_ENV, "")
    return tuple(p for p in value.split(os.pathsep) if p)


def entry_point_paradigm_paths() -> tuple[str, ...]:
    """Paradigm folders provided by installed packages.

    A package declares ``[project.entry-points."blimpgen.paradigms"] mypack = "mypack:paradigm_dir"``
    where the target is a folder path (``str`` or ``Path``), a list of them, or a function
    returning either (e.g. ``lambda: importlib.resources.files("mypack") / "paradigms"``).

    Raises:
        SpecErrors: when an entry point cannot be loaded or gives something that is not a path.
    """
    from importlib import metadata

    found: list[str] = []
    errors: list[SpecError] = []
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        where = f"entry point {ep.name} = {ep.value}"
        try:
            value = ep.load()
            if callable(value):
                value = value()
        except Exception as exc:  # a third-party package's import error must not crash the tool
            errors.append(SpecError(f"cannot load ({exc.__class__.__name__}: {exc})", where))
            continue
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if not isinstance(item, (str, Path)) and not hasattr(item, "is_dir"):
                errors.append(SpecError(f"must give a folder path, got {type(item).__name__}", where))
                continue
            found.append(str(item))
    if errors:
        raise SpecErrors(errors)
    return tuple(found)


def read_spec_text(entry: Any, display: str) -> str:
    """The text of a spec or fragment file (a path, or a shipped traversable), at most ``MAX_SPEC_BYTES``.

    Raises:
        SpecError: ``file: cannot read file: why`` (missing, a folder or FIFO, too big, not UTF-8).
    """
    if isinstance(entry, (str, Path)):
        return read_text(entry, display, error=SpecError, max_bytes=MAX_SPEC_BYTES, what="a spec file")
    text: str = entry.read_text(encoding="utf-8")  # shipped with the package
    return text
