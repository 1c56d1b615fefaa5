"""Plain-text tables: the grids of ``blimpgen report`` and the learning-curve table.

The tables ``blimpgen eval`` prints are drawn by each result's summary
(:meth:`PairSummary.table <blimpgen.evaluate.tasks.pair_summary.PairSummary.table>`,
:meth:`ProbeSummary.table <blimpgen.evaluate.tasks.probe_summary.ProbeSummary.table>`) with the
cells defined here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from blimpgen.evaluate.curves.protocol import CurveResult


def model_table(results: Sequence[Any], first: str, level: str) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of a models x ``level`` table (``phenomena`` or ``groups``): accuracy in %,
    overall last; a control (``neg_simp[shuffled]``) sorts right after its suite."""
    names = sorted({name for r in results for name in getattr(r, level)},
                   key=lambda n: (n.split("[", 1)[0], "[" in n, n))
    header = [first, *[r.label for r in results]]
    rows = [[name, *[_percent(getattr(r, level).get(name)) for r in results]] for name in names]
    rows.append(["overall", *[_percent(r.overall) for r in results]])
    return header, rows


def _percent(row: dict[str, Any] | None) -> float | None:
    return None if row is None or row.get("accuracy") is None else round(100 * row["accuracy"], 1)


def format_grid(header: list[str], rows: list[list[Any]]) -> str:
    """A plain-text table."""
    cells = [header] + [[str(c) if c is not None else "-" for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
                     for row in cells)


def format_curve(result: CurveResult) -> str:
    """A plain-text table: N x (mean ± std, max) per curve, then zero-shot, WS, MAX and chance."""
    curves = result.curves()
    points = [{p["size"]: p for p in curve.points()} for curve in curves]
    seeds = ",".join(map(str, result.options["seeds"]))
    lines = [f"learning curve of {result.model} (head only: {result.options['head']}; seeds {seeds})",
             f"{'':>8}" + "".join(f"  {curve.label:<22}" for curve in curves),
             f"{'N':>8}" + "".join(f"  {'mean ± std':<15}{'max':>7}" for _ in curves)]
    for size in sorted({n for by_size in points for n in by_size}):
        cells = []
        for by_size in points:
            p = by_size.get(size)
            cells.append(f"  {p['mean']:.3f} ± {p['std']:.3f}    {p['max']:.3f}" if p else f"  {'-':<15}{'-':>7}")
        lines.append(f"{size:>8}" + "".join(cells))
    for name, values in [("zero-shot", [c.zero_shot for c in curves]), ("WS", [c.summary()["ws"] for c in curves]),
                         ("MAX", [c.summary()["max"] for c in curves]), ("chance", [c.chance for c in curves])]:
        lines.append(f"{name:>9}" + "".join(f" {value:>22.3f} " for value in values))
    for note in [*result.notes, *(f"{c.label}: {n}" for c in curves for n in c.notes)]:
        lines.append(f"note: {note}")
    return "\n".join(lines)
