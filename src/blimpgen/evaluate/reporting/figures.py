"""BLiMP-style figures (matplotlib, Agg backend, PNG), titled and labelled for a paper.

* ``accuracy_by_phenomenon.png``: accuracy per phenomenon, one bar per model, with error bars
  from the results' 95 % intervals (a phenomenon: the interval of a mean over its paradigms,
  :func:`~blimpgen.evaluate.metrics.mean_interval`), the chance line labelled, and a 0 % bar
  marked so that it is not mistaken for a missing one.
* ``paradigm_correlation.png``: Pearson correlation of paradigm accuracies between models
  (and humans, when given), like BLiMP's Figure 1; an undefined cell (a series without variance,
  such as human accuracies that are all 100 %) is a dash, explained under the figure.
* ``accuracy_by_length_perplexity_confidence.png``: accuracy against sentence length (words),
  the good sentence's per-token perplexity (pseudo-perplexity for a masked LM) and the model's
  confidence ``|log P(good) - log P(bad)|``, in quantile bins, like BLiMP's Figure 2.

Probe figures (:mod:`.probe_figures`) and the learning curve (:func:`plot_curve`) share the
bar and saving helpers here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from blimpgen.evaluate.curves.protocol import CurveResult

BINS = 5
DPI = 150
# A per-bar baseline marker: (value in [0, 1] or None) per (model label, row name).
Baselines = Mapping[tuple[str, str], float | None]


def use_agg() -> None:
    """Select the non-interactive backend (no display needed, same pixels everywhere)."""
    import matplotlib

    matplotlib.use("Agg")


def draw_figures(results: Sequence[Any], folder: str | Path, human: dict[str, float] | None = None) -> list[Path]:
    """Draw every minimal-pair figure into ``folder``; return the paths written."""
    use_agg()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = [save(bar_figure(results, "phenomena", "Accuracy by phenomenon"), folder / "accuracy_by_phenomenon.png")]
    series = {r.label: {uid: row["accuracy"] for uid, row in r.groups.items()} for r in results}
    if human:
        series["human"] = human
    if len(series) >= 2:
        written.append(save(correlation_figure(series), folder / "paradigm_correlation.png"))
    written.append(save(bins_figure(results), folder / "accuracy_by_length_perplexity_confidence.png"))
    return written


def save(figure: Any, path: Path) -> Path:
    """Write ``figure`` as PNG to ``path`` atomically and close it."""
    import matplotlib.pyplot as plt

    from blimpgen._io import atomic_writer

    try:
        with atomic_writer(path, "wb") as handle:
            figure.savefig(handle, dpi=DPI, bbox_inches="tight", format="png")
    finally:
        plt.close(figure)
    return path


def readable(name: str) -> str:
    """A phenomenon, paradigm or suite name for a label: ``filler_gap_dependency`` -> ``filler gap dependency``."""
    return name.replace("_", " ")


def sort_rows(names: set[str]) -> list[str]:
    """Row names sorted, a control (``neg_simp[shuffled]``) right after its suite."""
    return sorted(names, key=lambda n: (n.split("[", 1)[0], "[" in n, n))


def bar_figure(
    results: Sequence[Any],
    rows: str,
    title: str,
    label: str = "accuracy (%)",
    chance: float | None = 0.5,
    baselines: Mapping[str, Baselines] | None = None,
) -> Any:
    """Horizontal bars of ``rows`` (``phenomena`` or ``groups``), one per model, with 95 % error bars.

    Args:
        results: the models' results (one metric's view for probes).
        rows: which table of each result to draw.
        title: the figure's title.
        label: the x axis label.
        chance: a chance line (proportion) for every row, or None.
        baselines: per-bar markers drawn as short vertical lines across each bar, by name
            (``chance (1/K)``, ``majority answer``): for rows whose chance differs.
    """
    import matplotlib.pyplot as plt

    names = sort_rows({name for r in results for name in getattr(r, rows)})
    height = 0.8 / len(results)
    figure, axis = plt.subplots(figsize=(8, 0.45 * len(names) * max(1, len(results) / 2) + 1.8))
    styles: dict[str, tuple[str, Any]] = {"chance (1/K)": ("grey", "--"), "majority answer": ("black", "-")}
    drawn: set[str] = set()
    for i, result in enumerate(results):
        table = getattr(result, rows)
        ys = [k + i * height for k in range(len(names))]
        values, low, high = [], [], []
        for name in names:
            row = table.get(name, {})
            value = 100 * row["accuracy"] if row.get("accuracy") is not None else math.nan
            values.append(value)
            low.append(value - 100 * row["ci_low"] if row.get("ci_low") is not None else 0.0)
            high.append(100 * row["ci_high"] - value if row.get("ci_high") is not None else 0.0)
        bars = axis.barh(
            ys,
            values,
            height=height,
            xerr=[[max(0.0, v) for v in low], [max(0.0, v) for v in high]],
            error_kw={"ecolor": "black", "elinewidth": 0.8, "capsize": 2},
            label=result.label,
        )
        colour = bars.patches[0].get_facecolor() if bars.patches else None
        for y, value in zip(ys, values):
            if value == 0:  # a 0 % bar has no width: mark it
                axis.plot([0], [y], marker="|", markersize=10, color=colour)
                axis.annotate("0%", (0, y), xytext=(3, 1), textcoords="offset points", va="bottom", fontsize=7)
        for marker, found in (baselines or {}).items():
            colour_line, style = styles.get(marker, ("black", ":"))
            for y, name in zip(ys, names):
                value = found.get((result.label, name))
                if value is None:
                    continue
                axis.vlines(
                    100 * value,
                    y - height / 2,
                    y + height / 2,
                    colors=colour_line,
                    linestyles=style,
                    linewidth=1.6,
                    label=marker if marker not in drawn else "_nolegend_",
                    zorder=3,
                )
                drawn.add(marker)
    axis.set_yticks([k + 0.4 - height / 2 for k in range(len(names))], [readable(n) for n in names])
    if chance is not None:
        axis.axvline(100 * chance, color="grey", linestyle="--", linewidth=0.8, label=f"chance ({100 * chance:.0f}%)")
    axis.set_xlim(0, 100)
    axis.set_xlabel(label)
    axis.set_title(f"{title} (error bars: 95% intervals)", fontsize=10)
    axis.invert_yaxis()
    axis.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    return figure


def pearson(a: list[float], b: list[float]) -> float:
    """Pearson's r (NaN for fewer than two values or a series without variance)."""
    n = len(a)
    if n < 2:
        return math.nan
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    va, vb = sum((x - ma) ** 2 for x in a), sum((y - mb) ** 2 for y in b)
    return cov / math.sqrt(va * vb) if va > 0 and vb > 0 else math.nan


def correlation_figure(series: dict[str, dict[str, float]], unit: str = "paradigm") -> Any:
    """A labels x labels heatmap of Pearson's r over the {unit}s each two series share."""
    import matplotlib.pyplot as plt

    labels = list(series)
    matrix, shared = [], set()
    for a in labels:
        row = []
        for b in labels:
            common = sorted(set(series[a]) & set(series[b]))
            shared.add(len(common))
            row.append(pearson([series[a][u] for u in common], [series[b][u] for u in common]))
        matrix.append(row)
    figure, axis = plt.subplots(figsize=(1.2 * len(labels) + 2.5, 1.0 * len(labels) + 2.0))
    image = axis.imshow(matrix, vmin=-1, vmax=1, cmap="RdBu_r")
    axis.set_xticks(range(len(labels)), labels, rotation=45, ha="right")
    axis.set_yticks(range(len(labels)), labels)
    undefined = False
    for i, row in enumerate(matrix):
        for j, value in enumerate(row):
            undefined |= math.isnan(value)
            colour = "white" if not math.isnan(value) and abs(value) > 0.6 else "black"
            text = "-" if math.isnan(value) else f"{value:.2f}"
            axis.text(j, i, text, ha="center", va="center", fontsize="small", color=colour)
    counts = "n = " + "-".join(str(n) for n in sorted({min(shared), max(shared)})) if shared else ""
    axis.set_title(f"Correlation of {unit} accuracies (Pearson r, {counts} {unit}s)", fontsize=10)
    figure.colorbar(image, ax=axis, label="Pearson r")
    if undefined:
        figure.text(
            0.01,
            0.0,
            f'"-" = undefined: one of the two has the same accuracy on every {unit} (e.g. every human accuracy 100%)',
            fontsize=7,
            ha="left",
            va="top",
        )
    return figure


def _quantile_bins(values: list[float], correct: list[float]) -> tuple[list[float], list[float]]:
    order = sorted(range(len(values)), key=values.__getitem__)
    xs, ys = [], []
    for k in range(BINS):
        chunk = order[k * len(order) // BINS : (k + 1) * len(order) // BINS]
        if chunk:
            xs.append(sum(values[i] for i in chunk) / len(chunk))
            ys.append(100 * sum(correct[i] for i in chunk) / len(chunk))
    return xs, ys


def bins_figure(results: Sequence[Any]) -> Any:
    """Accuracy in quantile bins of sentence length, perplexity and confidence, one line per model."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    figure, axes = plt.subplots(1, 3, figsize=(14, 4.4), sharey=True)
    measures: dict[str, Callable[[dict[str, Any]], float]] = {
        "sentence length (words)": lambda p: float(len(p["sentence_good"].split())),
        "perplexity of the good sentence\n(pseudo-perplexity for masked LMs; log scale)": lambda p: math.exp(
            -p["logprob_good"] / max(1, p["tokens_good"])
        ),
        "confidence |log P(good) - log P(bad)|": lambda p: abs(p["logprob_good"] - p["logprob_bad"]),
    }
    sizes = []
    for result in results:
        pairs = result.records()
        sizes.append(len(pairs))
        correct = [float(p["correct"]) for p in pairs]
        for axis, (name, measure) in zip(axes, measures.items()):
            xs, ys = _quantile_bins([measure(p) for p in pairs], correct)
            axis.plot(xs, ys, marker="o", label=result.label)
            axis.set_xlabel(name)
    axes[1].set_xscale("log")
    axes[1].xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0), numticks=8))
    axes[1].xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axes[1].xaxis.set_minor_formatter(NullFormatter())
    axes[0].set_ylabel("accuracy (%)")
    for axis in axes:
        axis.axhline(50, color="grey", linestyle="--", linewidth=0.8, label="chance (50%)")
        axis.tick_params(axis="x", labelsize=8)
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=min(6, len(labels)), fontsize="small", frameon=False)
    per_bin = ", ".join(f"{n // BINS}" for n in sizes)
    figure.suptitle(f"Accuracy by sentence length, perplexity and confidence ({BINS} quantile bins of {per_bin} pairs)")
    figure.tight_layout(rect=(0, 0.08, 1, 1))
    return figure


def plot_curve(result: CurveResult, path: str | Path) -> Path:
    """Draw the curves (mean over seeds, with mean ± std as a band) against N on a log axis, as PNG,
    with chance and, for the language items, the majority-answer baseline of the held-out items."""
    use_agg()
    import matplotlib.pyplot as plt

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
    if result.language.majority is not None:
        axis.axhline(
            result.language.majority,
            color="black",
            linestyle="--",
            linewidth=1,
            label=f"majority answer ({result.language.majority:.2f})",
        )
    axis.set_xscale("log")
    ticks = sorted({p["size"] for curve in result.curves() for p in curve.points()})
    axis.set_xticks(ticks, [str(n) for n in ticks])
    axis.minorticks_off()
    axis.set_ylim(0, 1.02)
    axis.set_xlabel("training items N")
    axis.set_ylabel("held-out accuracy (mean of seeds; band: ± std)")
    axis.set_title(f"{Path(result.model).name}: learning curve", fontsize=10)
    axis.legend(fontsize=8)
    return save(figure, Path(path))
