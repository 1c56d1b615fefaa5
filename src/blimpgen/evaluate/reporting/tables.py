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
    names = sorted(
        {name for r in results for name in getattr(r, level)}, key=lambda n: (n.split("[", 1)[0], "[" in n, n)
    )
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
    return "\n".join(
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))) for row in cells
    )


def format_curve(result: CurveResult) -> str:
    """A plain-text table: N x (mean ± std, max) per curve; then zero-shot, WS and MAX of the
    mean-over-seeds curve (oLMpics' headline) with the best-of-seeds values beside them, chance;
    then oLMpics' table row: zero-shot, MLP_MLM WS/MAX, LINEAR WS/MAX, LANGSENSE pert/nolang."""
    curves = result.curves()
    points = [{p["size"]: p for p in curve.points()} for curve in curves]
    seeds = ",".join(map(str, result.options["seeds"]))
    width = max(22, *(len(c.label) for c in curves))
    qa = result.options.get("protocol") == "mc-qa"
    trained = "MC-QA: whole network, new MLP_QA head" if qa else f"head only: {result.options['head']}"
    lines = [
        f"learning curve of {result.model} ({trained}; seeds {seeds})",
        f"{'':>13}" + "".join(f"  {curve.label:<{width}}" for curve in curves),
        f"{'N':>13}" + "".join(f"  {'mean ± std':<{width - 7}}{'max':>7}" for _ in curves),
    ]
    for size in sorted({n for by_size in points for n in by_size}):
        cells = []
        for by_size in points:
            p = by_size.get(size)
            text = f"{p['mean']:.3f} ± {p['std']:.3f}" if p else "-"
            best = f"{p['max']:.3f}" if p else "-"
            cells.append(f"  {text:<{width - 7}}{best:>7}")
        lines.append(f"{size:>13}" + "".join(cells))
    summaries = [c.summary() for c in curves]
    for name, values in [
        ("zero-shot", [c.zero_shot for c in curves]),
        ("WS", [s["ws"] for s in summaries]),
        ("MAX", [s["max"] for s in summaries]),
        ("WS best seed", [s["ws_best"] for s in summaries]),
        ("MAX best seed", [s["max_best"] for s in summaries]),
        ("chance", [c.chance for c in curves]),
    ]:
        lines.append(f"{name:>13}" + "".join(f"  {value:>{width}.3f}" for value in values))
    lines.append("WS and MAX: of the mean-over-seeds curve, as oLMpics reports them; best seed beside them")
    lines.append(olmpics_row(result))
    for note in [*result.notes, *(f"{c.label}: {n}" for c in curves for n in c.notes)]:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def olmpics_row(result: CurveResult) -> str:
    """The run as a row of oLMpics' tables (percent): Zero-shot | MLP_MLM WS MAX | LINEAR WS MAX |
    LANGSENSE pert nolang (a dash where the run has no such curve). For MC-QA the paper's tables
    have no zero-shot (an untrained head) and the trained head is MLP_QA."""

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{100 * value:.0f}"

    language, linear = result.language.summary(), result.linear.summary() if result.linear else None
    sense = result.langsense()
    qa = result.options.get("protocol") == "mc-qa"
    cells = [
        pct(None if qa else result.language.zero_shot),
        pct(language["ws"]),
        pct(language["max"]),
        pct(linear["ws"] if linear else None),
        pct(linear["max"] if linear else None),
        pct(sense.get("perturbed_language")),
        pct(sense.get("no_language")),
    ]
    head = "MLP_QA" if qa else "MLP_MLM"
    return (
        f"oLMpics row (%): zero-shot | {head} WS MAX | LINEAR WS MAX | LANGSENSE pert nolang\n"
        f"                 {cells[0]} | {cells[1]} {cells[2]} | {cells[3]} {cells[4]} | {cells[5]} {cells[6]}"
    )
