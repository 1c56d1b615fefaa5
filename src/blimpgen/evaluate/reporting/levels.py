"""Accuracy per factor level and per cell of a factorial design (``report --levels DATA``).

Pairs of a paradigm with factors carry ``levels`` (:mod:`blimpgen.grammar.factors`); a result
folder's ``pairs.jsonl`` has each scored pair's ``pair_id`` and ``correct``. Joining the two
gives, per paradigm and model: accuracy per level of each factor and per cell, with 95% Wilson
intervals, and each factor's effect: the accuracy of every other level minus that of the first
level (the reference), with Newcombe's interval for a difference of independent proportions.
``figure_levels`` draws one bar chart per factor (levels x models, with the intervals).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from blimpgen._io import atomic_writer, data_files
from blimpgen.errors import DataError
from blimpgen.evaluate.metrics import wilson_interval
from blimpgen.records.jsonl import read_json_lines, read_pairs


@dataclass
class Cell:
    """Correct answers out of ``n`` (ties count half, as in the scored rows)."""

    correct: float = 0.0
    n: int = 0

    @property
    def accuracy(self) -> float:
        return self.correct / self.n if self.n else float("nan")

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.correct, self.n)


@dataclass
class LevelResult:
    """One paradigm scored by one model, by level and by cell."""

    uid: str
    model: str
    factors: list[tuple[str, list[str]]]
    levels: dict[tuple[str, str], Cell] = field(default_factory=dict)
    cells: dict[tuple[str, ...], Cell] = field(default_factory=dict)

    def effect(self, factor: str, level: str) -> tuple[float, float, float]:
        """(difference, low, high): accuracy at ``level`` minus at the factor's first level."""
        reference = dict(self.factors)[factor][0]
        a, b = self.levels[(factor, level)], self.levels[(factor, reference)]
        (la, ua), (lb, ub) = a.interval(), b.interval()
        difference = a.accuracy - b.accuracy
        return (
            difference,
            difference - math.hypot(a.accuracy - la, ub - b.accuracy),
            difference + math.hypot(ua - a.accuracy, b.accuracy - lb),
        )


def _design(data: Path | str) -> dict[str, dict[str, str]]:
    """pair_id -> levels of every pair with levels in the data."""
    found: dict[str, dict[str, str]] = {}
    for path in data_files(data):
        for pair in read_pairs(path):
            if pair.levels is not None and pair.pair_id is not None:
                found[pair.pair_id] = pair.levels
    if not found:
        raise DataError("no pair with levels here: generate a paradigm with factors (docs/factors.md)", str(data))
    return found


def level_results(data: Path | str, results: Sequence[Path | str]) -> list[LevelResult]:
    """Per-level and per-cell accuracy of every paradigm with factors, per result folder.

    Raises:
        DataError: when the data holds no pair with levels, or a folder has no ``pairs.jsonl``.
    """
    levels_of = _design(data)
    out = []
    for folder in results:
        path = Path(folder) / "pairs.jsonl"
        if not path.exists():
            raise DataError("no pairs.jsonl: run `blimpgen eval` into this folder", str(folder))
        by_uid: dict[str, LevelResult] = {}
        orders: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for where, row in read_json_lines(path):  # a bad line is located, as report reads per-pair rows
            if not isinstance(row, dict):
                raise DataError(f"expected a JSON object, got {type(row).__name__}", where.file, where.line)
            pair_id = row.get("pair_id")
            levels = levels_of.get(pair_id) if isinstance(pair_id, str) else None
            if levels is None:
                continue
            for name, types in (("UID", (str,)), ("correct", (int, float))):
                if not isinstance(row.get(name), types):
                    raise DataError(
                        f"expected a per-pair result row: {name!r} missing or of the wrong type "
                        f"({row.get(name)!r:.40})",
                        where.file,
                        where.line,
                        name,
                    )
            result = by_uid.setdefault(row["UID"], LevelResult(row["UID"], row.get("model") or str(folder), []))
            for factor, level in levels.items():
                if level not in orders[row["UID"]][factor]:
                    orders[row["UID"]][factor].append(level)
                result.levels.setdefault((factor, level), Cell())
            key = tuple(levels.values())
            result.cells.setdefault(key, Cell())
            for cell in [result.levels[(f, v)] for f, v in levels.items()] + [result.cells[key]]:
                cell.correct += float(row["correct"])
                cell.n += 1
        for uid, result in by_uid.items():
            result.factors = [(factor, levels) for factor, levels in orders[uid].items()]
            out.append(result)
    return out


def _fmt(cell: Cell) -> str:
    low, high = cell.interval()
    return f"{cell.accuracy:.3f} [{low:.3f}, {high:.3f}] (n={cell.n})"


def format_levels(results: Sequence[LevelResult]) -> str:
    """Text tables: per factor level, the effect of each factor, then per cell."""
    lines = []
    for result in results:
        lines.append(f"{result.uid} ({result.model})")
        for factor, levels in result.factors:
            lines.append(f"  {factor}:")
            for level in levels:
                cell = result.levels[(factor, level)]
                effect = ""
                if level != levels[0]:
                    difference, low, high = result.effect(factor, level)
                    effect = f"   effect vs {levels[0]}: {difference:+.3f} [{low:+.3f}, {high:+.3f}]"
                lines.append(f"    {level:<12} {_fmt(cell)}{effect}")
        lines.append("  cells:")
        for key, cell in result.cells.items():
            lines.append(f"    {', '.join(f'{f}={v}' for (f, _), v in zip(result.factors, key)):<40} {_fmt(cell)}")
    return "\n".join(lines)


# A UID or factor name that may be part of a figure's file name (the data names them; no path).
FILE_NAME_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def figure_levels(results: Sequence[LevelResult], folder: Path | str) -> list[Path]:
    """One PNG per paradigm and factor: accuracy per level, one bar per model, with intervals.

    Raises:
        DataError: for a UID or factor name that cannot be part of a file name, or a figure
            that cannot be written (each is written whole or not at all).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    written = []
    by_uid: dict[str, list[LevelResult]] = defaultdict(list)
    for result in results:
        by_uid[result.uid].append(result)
    for uid, group in by_uid.items():
        for factor, levels in group[0].factors:
            figure, axis = plt.subplots(figsize=(1.6 + 1.2 * len(levels), 3.2))
            width = 0.8 / len(group)
            for k, result in enumerate(group):
                cells = [result.levels[(factor, level)] for level in levels]
                heights = [c.accuracy for c in cells]
                errors = [
                    [h - c.interval()[0] for h, c in zip(heights, cells)],
                    [c.interval()[1] - h for h, c in zip(heights, cells)],
                ]
                axis.bar(
                    [i + k * width for i in range(len(levels))],
                    heights,
                    width,
                    yerr=errors,
                    capsize=3,
                    label=result.model,
                )
            axis.set_xticks([i + 0.4 - width / 2 for i in range(len(levels))], levels)
            axis.set_ylim(0, 1)
            axis.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
            axis.set_title(f"{uid}: {factor}")
            axis.set_ylabel("accuracy")
            if len(group) > 1:
                axis.legend(fontsize="small")
            try:
                if not (FILE_NAME_PART.fullmatch(uid) and FILE_NAME_PART.fullmatch(factor)):
                    raise DataError(
                        f"UID {uid!r} or factor {factor!r} cannot name a figure file; use letters, "
                        "digits, '_', '.' and '-'"
                    )
                path = folder / f"levels_{uid}_{factor}.png"
                with atomic_writer(path, "wb") as handle:
                    figure.savefig(handle, dpi=120, bbox_inches="tight", format="png")
            finally:
                plt.close(figure)
            written.append(path)
    return written
