"""Combine evaluation result folders: a models x phenomena table and BLiMP-style figures.

Each folder is what ``blimpgen eval --out`` wrote (``results.json`` and ``pairs.jsonl``);
a model is labelled by its folder's name. Figures are drawn by :mod:`blimpgen.evaluate.reporting.figures`.

Probe result folders (``"kind": "probes"``) give a models x suites table of one metric
(multiple-choice accuracy unless another is asked for), the accuracy-by-phenomenon and
by-suite bars and the correlation of suite accuracies; pair and probe folders are reported
separately. A control (``neg_simp[shuffled]``) is a row and a bar right after its suite; it is
not in the phenomenon or overall figures, nor among the suites correlated.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from blimpgen._io import atomic_writer
from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate.reporting.tables import format_grid


@dataclass(frozen=True)
class ModelResult:
    """One model's evaluation, as read back from its folder."""

    label: str
    folder: Path
    options: dict[str, Any]
    overall: dict[str, Any]
    phenomena: dict[str, dict[str, Any]]
    paradigms: dict[str, dict[str, Any]]
    kind: str = "pairs"
    metrics: tuple[str, ...] = ()

    def for_metric(self, metric: str) -> ModelResult:
        """A probe result seen through one metric: every row is that metric's row, and suites
        or phenomena where no item was judged are left out (so tables and figures read
        ``accuracy`` as they do for pairs).

        Raises:
            BlimpgenError: when the result has no such metric.
        """
        if metric not in self.metrics:
            raise OptionError(f"{self.folder}: no metric {metric!r} in these probe results; "
                              f"they have: {', '.join(self.metrics)}")

        def pick(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
            return {name: {**row[metric], **({"control": row["control"]} if "control" in row else {})}
                    for name, row in rows.items() if metric in row and row[metric]["accuracy"] is not None}

        return ModelResult(self.label, self.folder, self.options, self.overall.get(metric, {"accuracy": None}),
                           pick(self.phenomena), pick(self.paradigms), self.kind, self.metrics)

    def pairs(self) -> list[dict[str, Any]]:
        """The per-pair records (read on demand: they can be large)."""
        path = self.folder / "pairs.jsonl"
        try:
            return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        except (OSError, json.JSONDecodeError) as exc:
            raise DataError(f"{path}: cannot read per-pair results: {exc}") from None


def load_result(folder: str | Path) -> ModelResult:
    """Read one result folder.

    Raises:
        BlimpgenError: when ``results.json`` is missing or not ours.
    """
    folder = Path(folder)
    path = folder / "results.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("kind") == "probes":
            return ModelResult(folder.resolve().name, folder, data["options"], data["overall"], data["phenomena"],
                               data["suites"], "probes", tuple(data["metrics"]))
        return ModelResult(folder.resolve().name, folder, data["options"], data["overall"], data["phenomena"],
                           data["paradigms"])
    except OSError:
        raise DataError(f"{folder}: no results.json here; pass folders written by `blimpgen eval --out`") from None
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise DataError(f"{path}: not a blimpgen results file ({exc})") from None


def read_human(path: str | Path) -> dict[str, float]:
    """Human accuracy per paradigm from JSON (``{UID: acc}``, or ``{"paradigms": {UID: {"accuracy": acc}}}``)
    or CSV (columns ``UID`` and ``accuracy`` or ``human_accuracy``); accuracies in [0, 1].

    Raises:
        BlimpgenError: when the file has no per-paradigm accuracies.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
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


def phenomenon_table(results: Sequence[ModelResult]) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of the models x phenomena table (accuracy in %, overall last)."""
    return _model_table(results, "phenomenon", lambda r: r.phenomena)


def suite_table(results: Sequence[ModelResult]) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of the models x suites table of probe results seen through one metric."""
    return _model_table(results, "suite", lambda r: r.paradigms)


def _model_table(results: Sequence[ModelResult], first: str, rows_of: Any) -> tuple[list[str], list[list[Any]]]:
    # a control ("neg_simp[shuffled]") sorts right after its suite ("neg_simp"), before "neg_simp2"
    names = sorted({name for r in results for name in rows_of(r)}, key=lambda n: (n.split("[", 1)[0], "[" in n, n))
    header = [first, *[r.label for r in results]]
    rows = [[name, *[_pct(rows_of(r).get(name)) for r in results]] for name in names]
    rows.append(["overall", *[_pct(r.overall) for r in results]])
    return header, rows


def _pct(row: dict[str, Any] | None) -> float | None:
    return None if row is None or row.get("accuracy") is None else round(100 * row["accuracy"], 1)


def run_report(folders: Sequence[str | Path], plots: str | Path | None = None, human: str | Path | None = None,
               out: str | Path | None = None, metric: str | None = None) -> str:
    """Read result folders, optionally save the table as CSV and draw figures; return the table text.

    Args:
        folders: result folders, all of pairs or all of probes.
        plots: folder for the figures.
        human: human accuracies per paradigm (per suite for probes).
        out: CSV file for the table.
        metric: probes only: the metric to report (default ``mc_accuracy``).

    Raises:
        BlimpgenError: for unreadable folders, pair and probe folders together, or a metric
            the results do not have.
    """
    results = [load_result(folder) for folder in folders]
    labels = [r.label for r in results]
    if len(set(labels)) != len(labels):
        results = [ModelResult(f"{r.label}#{i + 1}", r.folder, r.options, r.overall, r.phenomena, r.paradigms,
                               r.kind, r.metrics) for i, r in enumerate(results)]
    kinds = {r.kind for r in results}
    if len(kinds) > 1:
        pair = next(r for r in results if r.kind == "pairs")
        probe = next(r for r in results if r.kind == "probes")
        raise OptionError(f"cannot combine pair results ({pair.folder}) and probe results ({probe.folder}) "
                          "in one report; report them separately")
    if "probes" in kinds:
        return _probe_report(results, plots, human, out, metric or "mc_accuracy")
    if metric is not None:
        raise OptionError("--metric applies to probe results; these folders hold minimal-pair results")
    human_accuracy = read_human(human) if human else None
    header, rows = phenomenon_table(results)
    if out:
        with atomic_writer(out) as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(rows)
    text = format_grid(header, rows)
    if plots:
        from blimpgen.evaluate.reporting.figures import draw_figures

        written = draw_figures(results, plots, human_accuracy)
        text += "\n" + "\n".join(f"figure: {path}" for path in written)
    return text


def _probe_report(results: Sequence[ModelResult], plots: str | Path | None, human: str | Path | None,
                  out: str | Path | None, metric: str) -> str:
    views = [r.for_metric(metric) for r in results]
    header, rows = suite_table(views)
    if out:
        with atomic_writer(out) as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(rows)
    text = format_grid(header, rows) + f"\nmetric: {metric}"
    if plots:
        from blimpgen.evaluate.reporting.figures import draw_probe_figures

        written = draw_probe_figures(views, plots, read_human(human) if human else None, metric)
        text += "\n" + "\n".join(f"figure: {path}" for path in written)
    return text
