"""BLiMP-style figures (matplotlib, Agg backend, PNG).

* ``accuracy_by_phenomenon.png``: accuracy per phenomenon, one bar per model.
* ``paradigm_correlation.png``: Pearson correlation of paradigm accuracies between models
  (and humans, when given), like BLiMP's Figure 1.
* ``accuracy_by_length_perplexity_confidence.png``: accuracy against sentence length (words),
  the good sentence's per-token perplexity and the model's confidence ``|log P(good) - log P(bad)|``,
  in quantile bins, like BLiMP's Figure 2.

Probe results (:func:`draw_probe_figures`, one metric) get the bars by phenomenon, bars by
suite and the correlation of suite accuracies; the length/perplexity/confidence bins are
about pairs of sentences and are not drawn.

A learning curve (:func:`plot_curve`) is the best-of-seeds accuracy against N, with the mean ±
std as a band, for the language items and the control.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from blimpgen.evaluate.curves.protocol import CurveResult

BINS = 5


def draw_figures(results: Sequence[Any], folder: str | Path, human: dict[str, float] | None = None) -> list[Path]:
    """Draw every figure into ``folder``; return the paths written."""
    import matplotlib

    matplotlib.use("Agg")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = [_by_phenomenon(results, folder / "accuracy_by_phenomenon.png")]
    series = {r.label: {uid: row["accuracy"] for uid, row in r.groups.items()} for r in results}
    if human:
        series["human"] = human
    if len(series) >= 2:
        written.append(_correlation(series, folder / "paradigm_correlation.png"))
    written.append(_by_bins(results, folder / "accuracy_by_length_perplexity_confidence.png"))
    return written


def _save(figure: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    tmp = path.with_name(f".{path.name}.part")
    figure.savefig(tmp, dpi=120, bbox_inches="tight", format="png")
    plt.close(figure)
    tmp.replace(path)
    return path


def draw_probe_figures(
    results: Sequence[Any], folder: str | Path, human: dict[str, float] | None = None, metric: str = "mc_accuracy"
) -> list[Path]:
    """Draw the probe figures of one metric into ``folder``; return the paths written.

    ``results`` are probe results seen through ``metric`` (:meth:`ModelResult.for_metric
    <blimpgen.evaluate.tasks.base.ModelResult.for_metric>`).
    """
    import matplotlib

    matplotlib.use("Agg")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = "accuracy" if metric == "mc_accuracy" else metric
    label = "multiple-choice accuracy (%)" if metric == "mc_accuracy" else f"{metric} (%)"
    written = [
        _by_phenomenon(results, folder / f"{stem}_by_phenomenon.png", label=label, chance=None),
        _by_phenomenon(results, folder / f"{stem}_by_suite.png", label=label, chance=None, rows="groups"),
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
        written.append(_correlation(series, folder / name, title=f"correlation of suite {stem}"))
    return written


def _by_phenomenon(
    results: Sequence[Any], path: Path, label: str = "accuracy (%)", chance: float | None = 50, rows: str = "phenomena"
) -> Path:
    import matplotlib.pyplot as plt

    phenomena = sorted(
        {name for r in results for name in getattr(r, rows)}, key=lambda n: (n.split("[", 1)[0], "[" in n, n)
    )  # a control after its suite
    height = 0.8 / len(results)
    figure, axis = plt.subplots(figsize=(8, 0.45 * len(phenomena) * max(1, len(results) / 2) + 1.5))
    for i, result in enumerate(results):
        values = [100 * getattr(result, rows).get(name, {}).get("accuracy", math.nan) for name in phenomena]
        axis.barh([k + i * height for k in range(len(phenomena))], values, height=height, label=result.label)
    axis.set_yticks([k + 0.4 - height / 2 for k in range(len(phenomena))], phenomena)
    if chance is not None:
        axis.axvline(chance, color="grey", linestyle="--", linewidth=0.8)
    axis.set_xlim(0, 100)
    axis.set_xlabel(label)
    axis.invert_yaxis()
    axis.legend(loc="lower right", fontsize="small")
    return _save(figure, path)


def _pearson(a: list[float], b: list[float]) -> float:
    n = len(a)
    if n < 2:
        return math.nan
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    va, vb = sum((x - ma) ** 2 for x in a), sum((y - mb) ** 2 for y in b)
    return cov / math.sqrt(va * vb) if va > 0 and vb > 0 else math.nan


def _correlation(
    series: dict[str, dict[str, float]], path: Path, title: str = "correlation of paradigm accuracies"
) -> Path:
    import matplotlib.pyplot as plt

    labels = list(series)
    matrix = []
    for a in labels:
        row = []
        for b in labels:
            common = sorted(set(series[a]) & set(series[b]))
            row.append(_pearson([series[a][u] for u in common], [series[b][u] for u in common]))
        matrix.append(row)
    figure, axis = plt.subplots(figsize=(1.2 * len(labels) + 2, 1.0 * len(labels) + 1.5))
    image = axis.imshow(matrix, vmin=-1, vmax=1, cmap="RdBu_r")
    axis.set_xticks(range(len(labels)), labels, rotation=45, ha="right")
    axis.set_yticks(range(len(labels)), labels)
    for i, row in enumerate(matrix):
        for j, value in enumerate(row):
            axis.text(j, i, "-" if math.isnan(value) else f"{value:.2f}", ha="center", va="center", fontsize="small")
    axis.set_title(title)
    figure.colorbar(image, ax=axis)
    return _save(figure, path)


def _quantile_bins(values: list[float], correct: list[float]) -> tuple[list[float], list[float]]:
    order = sorted(range(len(values)), key=values.__getitem__)
    xs, ys = [], []
    for k in range(BINS):
        chunk = order[k * len(order) // BINS : (k + 1) * len(order) // BINS]
        if chunk:
            xs.append(sum(values[i] for i in chunk) / len(chunk))
            ys.append(100 * sum(correct[i] for i in chunk) / len(chunk))
    return xs, ys


def _by_bins(results: Sequence[Any], path: Path) -> Path:
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 3, figsize=(14, 4), sharey=True)
    for result in results:
        pairs = result.records()
        correct = [float(p["correct"]) for p in pairs]
        measures = {
            "sentence length (words)": [float(len(p["sentence_good"].split())) for p in pairs],
            "perplexity of good sentence": [math.exp(-p["logprob_good"] / max(1, p["tokens_good"])) for p in pairs],
            "confidence |log P(good) - log P(bad)|": [abs(p["logprob_good"] - p["logprob_bad"]) for p in pairs],
        }
        for axis, (name, values) in zip(axes, measures.items()):
            xs, ys = _quantile_bins(values, correct)
            axis.plot(xs, ys, marker="o", label=result.label)
            axis.set_xlabel(name)
    axes[1].set_xscale("log")
    axes[0].set_ylabel("accuracy (%)")
    for axis in axes:
        axis.axhline(50, color="grey", linestyle="--", linewidth=0.8)
    axes[-1].legend(fontsize="small")
    return _save(figure, path)


def plot_curve(result: CurveResult, path: str | Path) -> Path:
    """Draw the curves (mean over seeds, with mean ± std as a band) against N on a log axis, as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from blimpgen._io import atomic_writer

    figure, axis = plt.subplots(figsize=(6.5, 4))
    for curve, style in zip(result.curves(), ["-", "-.", "--", ":", "--", ":"]):
        points = curve.points()
        sizes = [p["size"] for p in points]
        means = [p["mean"] for p in points]
        spread = [p["std"] for p in points]
        summary = curve.summary()
        (line,) = axis.plot(
            sizes, means, style, marker="o", label=f"{curve.label} (WS {summary['ws']:.2f}, MAX {summary['max']:.2f})"
        )
        axis.fill_between(
            sizes,
            [m - s for m, s in zip(means, spread)],
            [m + s for m, s in zip(means, spread)],
            color=line.get_color(),
            alpha=0.15,
            linewidth=0,
        )
    axis.axhline(result.language.chance, color="grey", linestyle=":", linewidth=1, label="chance")
    axis.set_xscale("log")
    ticks = sorted({p["size"] for curve in result.curves() for p in curve.points()})
    axis.set_xticks(ticks, [str(n) for n in ticks])
    axis.minorticks_off()
    axis.set_ylim(0, 1.02)
    axis.set_xlabel("training items N")
    axis.set_ylabel("held-out accuracy (mean of seeds; band: ± std)")
    axis.set_title(f"{Path(result.model).name}: head-only learning curve", fontsize=10)
    axis.legend(fontsize=8)
    path = Path(path)
    try:
        with atomic_writer(path, "wb") as handle:
            figure.savefig(handle, dpi=120, bbox_inches="tight", format="png")
    finally:
        plt.close(figure)
    return path
