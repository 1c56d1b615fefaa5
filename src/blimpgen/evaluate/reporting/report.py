"""Combine evaluation result folders (``blimpgen report``): a models x phenomena table and figures.

Each folder is what ``blimpgen eval --out`` wrote (``results.json`` and the records file); a
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

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path

from blimpgen._io import atomic_writer
from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate.reporting.tables import format_grid
from blimpgen.evaluate.tasks import task_for
from blimpgen.evaluate.tasks.base import ModelResult
from blimpgen.records.types import result_type


def load_result(folder: str | Path) -> ModelResult:
    """Read one result folder.

    Raises:
        DataError: when ``results.json`` is missing or not ours.
    """
    folder = Path(folder)
    path = folder / "results.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        task = task_for(result_type(data))
        return ModelResult(folder.resolve().name, folder, task, data["options"], data["overall"], data["phenomena"],
                           data[task.groups_key], tuple(data.get("metrics", ())))
    except OSError:
        raise DataError(f"{folder}: no results.json here; pass folders written by `blimpgen eval --out`") from None
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"{path}: not a blimpgen results file ({exc})") from None


def read_human(path: str | Path) -> dict[str, float]:
    """Human accuracy per paradigm from JSON (``{UID: acc}``, or ``{"paradigms": {UID: {"accuracy": acc}}}``)
    or CSV (columns ``UID`` and ``accuracy`` or ``human_accuracy``); accuracies in [0, 1].

    Raises:
        DataError: when the file cannot be read or has no per-paradigm accuracies.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: cannot read human accuracies: {exc.strerror or exc}") from None
    out: dict[str, float] = {}
    try:
        if path.suffix == ".json":
            data = json.loads(text)
            data = data.get("paradigms", data)
            for uid, value in data.items():
                out[uid] = float(value["accuracy"] if isinstance(value, dict) else value)
        else:
            for row in csv.DictReader(io.StringIO(text)):
                value = row.get("accuracy") or row.get("human_accuracy")
                if row.get("UID") and value:
                    out[row["UID"]] = float(value)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"{path}: cannot read human accuracies ({exc})") from None
    if not out:
        raise DataError(f"{path}: no per-paradigm human accuracies (expected UID and accuracy)")
    return out


def run_report(folders: Sequence[str | Path], plots: str | Path | None = None, human: str | Path | None = None,
               out: str | Path | None = None, metric: str | None = None) -> str:
    """Read result folders, optionally save the table as CSV and draw figures; return the table text.

    Args:
        folders: result folders, all about one record type.
        plots: folder for the figures.
        human: human accuracies per paradigm (per suite for probes).
        out: CSV file for the table.
        metric: for results with several metrics (probes): the one to report (default ``mc_accuracy``).

    Raises:
        DataError: for unreadable folders or human accuracies.
        OptionError: for folders about different record types, or a metric the results do not have.
    """
    results = [load_result(folder) for folder in folders]
    labels = [r.label for r in results]
    if len(set(labels)) != len(labels):
        results = [r.relabel(f"{r.label}#{i + 1}") for i, r in enumerate(results)]
    tasks = list(dict.fromkeys(r.task for r in results))
    if len(tasks) > 1:
        first, second = (next(r for r in results if r.task is task) for task in tasks[:2])
        raise OptionError(f"cannot combine {first.task.result_noun} ({first.folder}) and {second.task.result_noun} "
                          f"({second.folder}) in one report; report them separately")
    task = tasks[0]
    views, header, rows, note = task.report_table(results, metric)
    human_accuracy = read_human(human) if human else None
    if out:
        with atomic_writer(out) as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(rows)
    text = format_grid(header, rows) + note
    if plots:
        written = task.report_figures(views, plots, human_accuracy, metric)
        text += "\n" + "\n".join(f"figure: {path}" for path in written)
    return text
