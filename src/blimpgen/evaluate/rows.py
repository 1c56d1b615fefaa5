"""Typed result rows: frozen dataclasses from which JSON keys and CSV columns both derive.

A row type lists its fields in the order they are written. :func:`to_json` turns a row (and
the mappings and lists of rows a summary holds) into JSON-ready values, key for field;
:func:`csv_text` writes rows of one type as CSV, column for field. Two field markers, set with
:func:`column`, cover the shapes the result files have:

* ``omit_none``: the key is left out of the JSON when the value is None (a pair's token scores
  without ``--save-tokens``, a probe item's contrast fields when it is a multiple-choice item);
* ``flatten``: a mapping whose entries become keys of the row itself (a probe item's ``top1``,
  ``top5``; a suite's metrics, named by the options).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, field, fields, is_dataclass
from typing import Any

from blimpgen._io import csv_cell


def column(*, default: Any = MISSING, omit_none: bool = False, flatten: bool = False) -> Any:
    """A row field with its JSON markers (see the module docstring)."""
    metadata = {"omit_none": omit_none, "flatten": flatten}
    return field(metadata=metadata) if default is MISSING else field(default=default, metadata=metadata)


def to_json(value: Any) -> Any:
    """JSON-ready form of a row, of a mapping or sequence of rows, or of a plain value."""
    if is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for spec in fields(value):
            item = getattr(value, spec.name)
            if spec.metadata.get("omit_none") and item is None:
                continue
            if spec.metadata.get("flatten"):
                out.update({key: to_json(entry) for key, entry in item.items()})
            else:
                out[spec.name] = to_json(item)
        return out
    if isinstance(value, Mapping):
        return {key: to_json(entry) for key, entry in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(entry) for entry in value]
    return value


def csv_columns(row_type: type) -> list[str]:
    """The CSV header of a row type: its field names, in order."""
    return [spec.name for spec in fields(row_type)]


def csv_text(row_type: type, rows: Iterable[Any]) -> str:
    """Rows of one type as CSV text: floats rounded to 6 places, None as an empty cell, and text
    that a spreadsheet would run as a formula (a UID ``=HYPERLINK(...)``) quoted as text."""
    names = csv_columns(row_type)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(names)
    for row in rows:
        writer.writerow([_cell(getattr(row, name)) for name in names])
    return buffer.getvalue()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        return round(value, 6)
    return value if isinstance(value, (bool, int)) else csv_cell(value)
