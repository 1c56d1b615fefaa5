"""Combine evaluation result folders (``blimpgen report``): a models x phenomena table and figures.

Each folder is what ``blimpgen eval -o`` wrote (``results.json`` and the records file); a
model is labelled by its folder's name. ``records.types.result_type`` says which record type a
``results.json`` is about, and that type's task (:data:`blimpgen.evaluate.tasks.TASKS`) says
how it is tabulated and drawn (:meth:`~blimpgen.evaluate.tasks.base.EvalTask.report_table`,
:meth:`~blimpgen.evaluate.tasks.base.EvalTask.report_figures`):

* minimal pairs: models x phenomena; accuracy by phenomenon, the correlation of paradigm
  accuracies and accuracy by length, perplexity and confidence (:mod:`.figures`);
* probe items: models x suites of one metric (multiple-choice accuracy unless another is
  asked for); bars by phenomenon and by suite, the correlation of suite accuracies. A control
  (``neg_simp[shuffled]``) is a row and a bar right after its suite; it is not in the
  phenomenon or overall figures, nor among the suites correlated.

Folders of different record types are reported separately.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
from collections.abc import Sequence
from pathlib import Path

from blimpgen._io import atomic_writer, csv_text, read_text, refuse_inputs
from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate.reporting.tables import format_grid
from blimpgen.evaluate.tasks import task_for
from blimpgen.evaluate.tasks.base import ModelResult
from blimpgen.records.types import result_type


def load_result(folder: str | Path) -> ModelResult:
    """Read one result folder.

    Raises:
        DataError: when ``results.json`` is missing, unreadable or not ours: invalid JSON at its
            line, a missing or mistyped key named with its line.
    """
    folder = Path(folder)
    path = folder / "results.json"
    if not os.path.lexists(path):
        raise DataError(f"{folder}: no results.json here; pass folders written by `blimpgen eval -o`")
    name = str(path)
    text = read_text(path, name, max_bytes=MAX_RESULTS_BYTES, what="a results.json")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not a blimpgen results file: invalid JSON: {exc.msg}", name, exc.lineno) from None
    except RecursionError:
        raise DataError("not a blimpgen results file: invalid JSON: nested too deeply", name) from None
    if not isinstance(data, dict):
        raise DataError(f"not a blimpgen results file: expected a JSON object, got {_json_kind(data)}", name, 1)
    task = task_for(result_type(data))
    for key in ("options", "overall", "phenomena", task.groups_key):
        if key not in data:
            raise DataError(
                f"not a blimpgen results file: no {key!r}; pass folders written by `blimpgen eval -o`", name, key=key
            )
        if not isinstance(data[key], dict):
            raise DataError(
                f"expected a JSON object, got {_json_kind(data[key])}; not a blimpgen results file",
                name,
                _key_line(text, key),
                key,
            )
    for key in ("phenomena", task.groups_key):
        for group, row in data[key].items():
            if not isinstance(row, dict):
                raise DataError(
                    f"expected a JSON object, got {_json_kind(row)}; not a blimpgen results file",
                    name,
                    _key_line(text, group),
                    f"{key}.{group}",
                )
    metrics = data.get("metrics", [])
    if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
        raise DataError(
            "expected a list of metric names; not a blimpgen results file", name, _key_line(text, "metrics"), "metrics"
        )
    return ModelResult(
        folder.resolve().name,
        folder,
        task,
        data["options"],
        data["overall"],
        data["phenomena"],
        data[task.groups_key],
        tuple(metrics),
    )


# results.json holds tables per paradigm or suite, never this much.
MAX_RESULTS_BYTES = 100_000_000


def _json_kind(value: object) -> str:
    kinds = {
        list: "a list",
        str: "a string",
        bool: "true or false",
        type(None): "null",
        int: "a number",
        float: "a number",
    }
    return kinds.get(type(value), type(value).__name__)


def _key_line(text: str, key: str) -> int:
    """The line where ``"key":`` first appears in a JSON text (0 when it does not)."""
    at = text.find(json.dumps(key) + ":")
    return text.count("\n", 0, at) + 1 if at >= 0 else 0


def read_human(path: str | Path) -> dict[str, float]:
    """Human accuracy per paradigm from JSON (``{UID: acc}``, or ``{"paradigms": {UID: {"accuracy": acc}}}``)
    or CSV (columns ``UID`` and ``accuracy`` or ``human_accuracy``); accuracies in [0, 1].

    Raises:
        DataError: when the file cannot be read (a bad value at its line and key), or has no
            per-paradigm accuracies.
    """
    path = Path(path)
    name = str(path)
    text = read_text(path, name, encoding="utf-8-sig")
    out: dict[str, float] = {}
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise DataError(
                f"cannot read human accuracies: invalid JSON: {getattr(exc, 'msg', exc)}",
                name,
                getattr(exc, "lineno", 0),
            ) from None
        data = data.get("paradigms", data) if isinstance(data, dict) else data
        if not isinstance(data, dict):
            raise DataError(
                f"cannot read human accuracies: expected a JSON object of UID: accuracy, got {_json_kind(data)}",
                name,
                1,
            )
        for uid, value in data.items():
            value = value.get("accuracy") if isinstance(value, dict) else value
            out[uid] = _accuracy(value, name, _key_line(text, uid), uid)
    else:
        reader = csv.DictReader(io.StringIO(text))
        try:
            for row in reader:
                column = "accuracy" if row.get("accuracy") else "human_accuracy"
                value = row.get(column)
                if row.get("UID") and value:
                    out[row["UID"]] = _accuracy(value, name, reader.line_num, column)
        except csv.Error as exc:
            raise DataError(f"cannot read human accuracies: {exc}", name, reader.line_num) from None
    if not out:
        raise DataError(f"{path}: no per-paradigm human accuracies (expected UID and accuracy)")
    return out


def _accuracy(value: object, name: str, line: int, key: str) -> float:
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        with contextlib.suppress(ValueError):
            return float(value)
    raise DataError(f"cannot read human accuracies: {value!r} is not a number", name, line, key)


# -o/--output: the suffix picks the table's format; any other suffix is CSV, as it always was
TABLE_FORMATS = {".md": "markdown", ".markdown": "markdown", ".tex": "latex"}


def run_report(
    folders: Sequence[str | Path],
    plots: str | Path | None = None,
    human: str | Path | None = None,
    out: str | Path | Sequence[str | Path] | None = None,
    metric: str | None = None,
) -> str:
    """Read result folders, optionally save the table and draw figures; return the table text.

    Args:
        folders: result folders, all about one record type.
        plots: folder for the figures.
        human: human accuracies per paradigm (per suite for probes).
        out: file(s) for the table, the suffix picking the format: ``.md`` or ``.tex`` (BLiMP's
            Table 3, :mod:`.paper`: models x phenomena, overall first, the human row last), any
            other (``.csv``) the printed table as CSV (phenomena x models).
        metric: for results with several metrics (probes): the one to report (default ``mc_accuracy``).

    Raises:
        DataError: for unreadable folders or human accuracies.
        OptionError: for folders about different record types, a metric the results do not have,
            or an ``out`` that is one of the files read.
    """
    outputs = [Path(out)] if isinstance(out, (str, Path)) else [Path(path) for path in out or ()]
    for path in outputs:
        refuse_inputs(  # the table must not replace what the report reads
            path,
            {
                "RESULTS": [Path(f) / name for f in folders for name in ("results.json", "pairs.jsonl", "items.jsonl")],
                "--human": [human] if human else [],
            },
        )
    results = [load_result(folder) for folder in folders]
    labels = [r.label for r in results]
    if len(set(labels)) != len(labels):
        results = [r.relabel(f"{r.label}#{i + 1}") for i, r in enumerate(results)]
    tasks = list(dict.fromkeys(r.task for r in results))
    if len(tasks) > 1:
        first, second = (next(r for r in results if r.task is task) for task in tasks[:2])
        raise OptionError(
            f"cannot combine {first.task.result_noun} ({first.folder}) and {second.task.result_noun} "
            f"({second.folder}) in one report; report them separately"
        )
    task = tasks[0]
    views, header, rows, note = task.report_table(results, metric)
    human_accuracy = read_human(human) if human else None
    tables = []
    for path in outputs:
        text = _table_text(path.suffix.lower(), header, rows, views, human_accuracy, note.strip())
        with atomic_writer(path) as handle:
            handle.write(text)
        tables.append(path)
    text = format_grid(header, rows) + note
    text += "".join(f"\ntable: {path}" for path in tables)
    if plots:
        written = task.report_figures(views, plots, human_accuracy, metric)
        text += "\n" + "\n".join(f"figure: {path}" for path in written)
    return text


def _table_text(
    suffix: str,
    header: list[str],
    rows: list[list[object]],
    views: Sequence[ModelResult],
    human: dict[str, float] | None,
    note: str,
) -> str:
    """The table in the format ``suffix`` names (``note``: what the report says under its table)."""
    from blimpgen.evaluate.reporting import paper

    kind = TABLE_FORMATS.get(suffix)
    if kind is None:
        return csv_text(header, rows)  # model labels and phenomena neutralised as formulas
    table = paper.paper_table(views, human, note)
    return paper.render_markdown(table) if kind == "markdown" else paper.render_latex(table)
