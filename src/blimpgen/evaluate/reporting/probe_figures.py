"""Probe figures of one metric: bars by phenomenon and by suite, and the correlation of suites.

Multiple-choice accuracy has two baselines, drawn across each bar (they differ between suites,
so a single line would be wrong for most of them):

* **chance (1/K)**: a uniform guess among the item's K candidates, averaged over the items;
* **majority answer**: always the suite's most common answer when it is among the item's
  candidates, else a uniform guess (:func:`~blimpgen.evaluate.metrics.majority_baseline`; with
  one candidate set for every item, the majority-class baseline). A suite whose answers are
  unbalanced (``olmpics_taxonomy_conjunction``: most items answer *animal*) is solved far above
  chance this way, and a model is only doing something where it beats this line.

Both are computed from the scored items (``items.jsonl``) of each result, over the items with a
multiple-choice judgement; a phenomenon's baseline is the mean over its suites, controls left
out, as its accuracy is. Top-k and sensitivity have no such baselines and are drawn without them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from blimpgen.evaluate.metrics import chance_baseline, majority_baseline
from blimpgen.evaluate.reporting.figures import Baselines, bar_figure, correlation_figure, save, use_agg

CHANCE, MAJORITY = "chance (1/K)", "majority answer"


def draw_probe_figures(
    results: Sequence[Any], folder: str | Path, human: dict[str, float] | None = None, metric: str = "mc_accuracy"
) -> list[Path]:
    """Draw the probe figures of one metric into ``folder``; return the paths written.

    ``results`` are probe results seen through ``metric`` (:meth:`ModelResult.for_metric
    <blimpgen.evaluate.tasks.base.ModelResult.for_metric>`).
    """
    use_agg()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = "accuracy" if metric == "mc_accuracy" else metric
    label = "multiple-choice accuracy (%)" if metric == "mc_accuracy" else f"{metric} (%)"
    title = "Multiple-choice accuracy" if metric == "mc_accuracy" else f"{metric} accuracy"
    by_suite: dict[str, Baselines] = {}
    by_phenomenon: dict[str, Baselines] = {}
    if metric == "mc_accuracy":
        by_suite, by_phenomenon = probe_baselines(results)
    written = [
        save(
            bar_figure(results, "phenomena", f"{title} by phenomenon", label, None, by_phenomenon),
            folder / f"{stem}_by_phenomenon.png",
        ),
        save(
            bar_figure(results, "groups", f"{title} by suite", label, None, by_suite),
            folder / f"{stem}_by_suite.png",
        ),
    ]
    # controls are baselines beside their suites (bars above), not suites to correlate
    series = {
        r.label: {suite: row["accuracy"] for suite, row in r.groups.items() if row.get("control", "none") == "none"}
        for r in results
    }
    if human:
        series["human"] = human
    if len(series) >= 2:
        name = "suite_correlation.png" if metric == "mc_accuracy" else f"suite_correlation_{metric}.png"
        written.append(save(correlation_figure(series, unit="suite"), folder / name))
    return written


def probe_baselines(results: Sequence[Any]) -> tuple[dict[str, Baselines], dict[str, Baselines]]:
    """Chance and majority-answer baselines per (model, suite) and per (model, phenomenon).

    Returns:
        ({CHANCE: ..., MAJORITY: ...} by suite, the same by phenomenon), each mapping
        (result label, row name) to a proportion.
    """
    suites: dict[str, dict[tuple[str, str], float | None]] = {CHANCE: {}, MAJORITY: {}}
    phenomena: dict[str, dict[tuple[str, str], float | None]] = {CHANCE: {}, MAJORITY: {}}
    for result in results:
        items: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for record in result.records():
            if record.get("correct") is not None and record.get("candidates"):
                items[str(record["suite"])].append(record)
        members: dict[str, list[str]] = defaultdict(list)
        for suite, rows in items.items():
            suites[CHANCE][(result.label, suite)] = chance_baseline(row["candidates"] for row in rows)
            suites[MAJORITY][(result.label, suite)] = majority_baseline(
                (str(row["answer"]), [str(c) for c in row["candidates"]]) for row in rows
            )
            if rows[0].get("control", "none") == "none":
                members[str(rows[0].get("phenomenon", ""))].append(suite)
        for phenomenon, names in members.items():
            for kind in (CHANCE, MAJORITY):
                values = [v for name in names if (v := suites[kind][(result.label, name)]) is not None]
                phenomena[kind][(result.label, phenomenon)] = sum(values) / len(values) if values else None
    return dict(suites), dict(phenomena)
