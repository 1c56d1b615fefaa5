"""Learning curves for cloze probes (the oLMpics protocol): train only the masked-LM head.

oLMpics (Talmor et al. 2020, TACL, section 2) asks whether a probe is solved by what
pre-training put into the representations or by what fine-tuning teaches. Besides zero-shot
scoring, it fine-tunes on N in {62, 125, 250, 500, 1K, 2K, 4K} training items, evaluates on
held-out items, and summarises the curve with two numbers:

* **MAX**: the highest accuracy on the curve.
* **WS**: a weighted average of the accuracies on the curve, with higher weights for small N
  (0.23, 0.20, 0.17, 0.14, 0.11, 0.08, 0.07 for the seven sizes; they sum to 1). WS rewards a
  model that learns the task from few items, as a pre-trained ability should allow.

The weights and the sum ``WS = sum(w_i * acc_i)`` are the paper's (checked against a public
re-implementation of its evaluator); as the weights sum to 1, WS is a weighted average.
Seeds: each point of the curve is the *best* accuracy over the seeds at that N, as we read
oLMpics (fine-tuning on a few items is unstable, and a failed seed says little about what the
model can do); the mean and standard deviation over seeds are reported beside it, and WS and
MAX of the mean curve too, so the other reading is at hand. When some sizes do not run (too
few training items) or other sizes are asked for, WS is renormalised over the sizes that ran:
``sum(w_i * acc_i) / sum(w_i)``. Sizes outside the oLMpics grid take the weights by rank
(smallest size, largest weight).

Training is head-only (see :mod:`blimpgen.evaluate.mlm_head`): the encoder and the embeddings
stay frozen, their states at the blank are cached, and each (N, seed) run starts from the
pre-trained head, restored in place (the same as loading the model afresh). For each N and
seed the training items are the first N of a shuffle seeded by that seed, so a seed's sets
are nested across N. The no-language control's items go through the same procedure, so the
two curves can be read side by side.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from blimpgen.errors import DataError, MissingDependencyError, OptionError
from blimpgen.evaluate.mlm_head import (
    EncodedItems,
    HeadTrainer,
    PreparedItems,
    TrainOptions,
    load_masked_lm,
    load_masked_lm_tokenizer,
    prepare_items,
)
from blimpgen.records.item import ProbeItem

SIZES = (62, 125, 250, 500, 1000, 2000, 4000)
WEIGHTS = (0.23, 0.20, 0.17, 0.14, 0.11, 0.08, 0.07)


@dataclass(frozen=True)
class Run:
    """One (N, seed) run: held-out accuracy and the mean training loss of the first and last epoch."""

    size: int
    seed: int
    accuracy: float
    first_loss: float
    last_loss: float
    steps: int


@dataclass(frozen=True)
class Curve:
    """One learning curve (the language items, or a control's) and its summary."""

    label: str
    train_items: int
    eval_items: int
    chance: float
    zero_shot: float
    runs: tuple[Run, ...]
    weights: dict[int, float]
    skipped: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()

    def points(self) -> list[dict[str, Any]]:
        """Per size: the seeds' accuracies, their mean, standard deviation and maximum."""
        out = []
        for size in sorted(self.weights):
            accuracies = [run.accuracy for run in self.runs if run.size == size]
            out.append({"size": size, "weight": self.weights[size], "accuracies": accuracies,
                        "mean": statistics.fmean(accuracies),
                        "std": statistics.stdev(accuracies) if len(accuracies) > 1 else 0.0,
                        "max": max(accuracies)})
        return out

    def summary(self) -> dict[str, float]:
        """WS and MAX of the curve of best-over-seeds accuracies (oLMpics), and of the mean curve."""
        points = self.points()
        ws, top = summarise({p["size"]: p["max"] for p in points}, self.weights)
        ws_mean, top_mean = summarise({p["size"]: p["mean"] for p in points}, self.weights)
        return {"ws": ws, "max": top, "ws_mean": ws_mean, "max_mean": top_mean}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"label": self.label, "train_items": self.train_items, "eval_items": self.eval_items,
                "chance": self.chance, "zero_shot": self.zero_shot, **self.summary(),
                "weights": {str(n): w for n, w in self.weights.items()}, "skipped": list(self.skipped),
                "points": self.points(), "runs": [vars(run) for run in self.runs], "notes": list(self.notes)}


@dataclass(frozen=True)
class CurveResult:
    """The language curve, the control's (when given), and the options they ran with."""

    model: str
    options: dict[str, Any]
    language: Curve
    control: Curve | None = None
    notes: tuple[str, ...] = ()

    def curves(self) -> list[Curve]:
        """The language curve, then the control's."""
        return [self.language] + ([self.control] if self.control is not None else [])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"model": self.model, "options": self.options,
                "protocol": "oLMpics learning curve, head only; WS and MAX over the best-of-seeds curve",
                "language": self.language.to_dict(),
                "control": self.control.to_dict() if self.control is not None else None,
                "notes": list(self.notes)}


def weights_for(sizes: Sequence[int]) -> dict[int, float]:
    """The WS weight of each size, before renormalisation.

    The oLMpics sizes keep their weights; any other set of sizes takes them by rank.

    Raises:
        BlimpgenError: for more than seven sizes outside the oLMpics grid.
    """
    ordered = sorted(set(sizes))
    if set(ordered) <= set(SIZES):
        return {n: WEIGHTS[SIZES.index(n)] for n in ordered}
    if len(ordered) > len(WEIGHTS):
        raise OptionError(f"at most {len(WEIGHTS)} sizes outside the oLMpics grid {list(SIZES)} can be "
                          f"weighted for WS; got {len(ordered)}")
    return {n: WEIGHTS[i] for i, n in enumerate(ordered)}


def summarise(points: dict[int, float], weights: dict[int, float]) -> tuple[float, float]:
    """(WS, MAX) of a curve ``{N: accuracy}``: WS renormalised over the sizes in ``points``."""
    total = sum(weights[n] for n in points)
    ws = sum(weights[n] * accuracy for n, accuracy in points.items()) / total
    return ws, max(points.values())


def split_items(items: Sequence[ProbeItem], fraction: float, seed: int = 0) -> tuple[list, list]:
    """(train, held-out): a seeded shuffle, the last ``fraction`` held out.

    Two files of the same length (items and their no-language versions, line by line) are
    split the same way.

    Raises:
        BlimpgenError: when either part would be empty.
    """
    if not 0 < fraction < 1:
        raise OptionError(f"eval fraction must be between 0 and 1, got {fraction}")
    order = list(range(len(items)))
    random.Random(seed).shuffle(order)
    held = round(len(items) * fraction)
    if held == 0 or held == len(items):
        raise OptionError(f"cannot hold out {fraction:.0%} of {len(items)} items and keep both parts non-empty")
    return [items[i] for i in order[:-held]], [items[i] for i in order[-held:]]


def run_curve(trainer: HeadTrainer, label: str, train: EncodedItems, held_out: EncodedItems,
              sizes: Sequence[int], seeds: Sequence[int], options: TrainOptions,
              progress: Callable[[str], None] | None = None) -> Curve:
    """One learning curve: for each N that fits and each seed, train on the first N items of a
    seeded shuffle, then score the held-out items.

    Raises:
        BlimpgenError: when no size fits the training set.
    """
    weights = weights_for(sizes)
    ran = [n for n in sorted(weights) if n <= len(train)]
    skipped = tuple(n for n in sorted(weights) if n > len(train))
    if not ran:
        raise DataError(f"{label}: {len(train)} training items, fewer than the smallest size {min(weights)}")
    notes = [f"N={', '.join(map(str, skipped))} skipped: only {len(train)} training items"] if skipped else []
    if not set(weights) <= set(SIZES):
        notes.append("sizes are not the oLMpics grid: WS weights taken by rank (smallest N, largest weight)")
    if set(ran) != set(SIZES):
        kept = sum(weights[n] for n in ran)
        notes.append(f"WS renormalised over the {len(ran)} sizes that ran (their weights sum to {kept:.2f})")
    trainer.reset()
    zero_shot = trainer.accuracy(held_out)
    runs = []
    for size in ran:
        for seed in seeds:
            order = list(range(len(train)))
            random.Random(seed).shuffle(order)
            trainer.reset()
            losses = trainer.fit(train, order[:size], seed, options)
            accuracy = trainer.accuracy(held_out)
            steps = options.steps if options.steps is not None else options.epochs * math.ceil(size / options.batch_size)
            runs.append(Run(size, seed, accuracy, losses[0], losses[-1], steps))
            if progress is not None:
                progress(f"{label} N={size} seed={seed}: accuracy {accuracy:.3f} "
                         f"(train loss {losses[0]:.3f} -> {losses[-1]:.3f})")
    trainer.reset()
    total = sum(weights[n] for n in ran)
    return Curve(label, len(train), len(held_out), held_out.chance, zero_shot, tuple(runs),
                 {n: weights[n] / total for n in ran}, skipped, tuple(notes))


def learning_curve(model_name_or_path: str, train_items: Sequence[ProbeItem], eval_items: Sequence[ProbeItem], *,
                   sizes: Sequence[int] = SIZES, seeds: Sequence[int] = (0, 1, 2), epochs: int = 4,
                   steps: int | None = None, lr: float = 5e-5, batch_size: int = 16, weight_decay: float = 0.1,
                   warmup_ratio: float = 0.06, device: str | None = None, dtype: str = "float32",
                   control_train: Sequence[ProbeItem] | None = None, control_eval: Sequence[ProbeItem] | None = None,
                   sources: dict[str, str] | None = None,
                   progress: Callable[[str], None] | None = None) -> CurveResult:
    """The oLMpics learning curve of a masked LM's head on probe items (and on a control's).

    Every item set is tokenized and checked before any training, so a bad candidate fails fast.

    Args:
        model_name_or_path: hub id or local folder of an ``AutoModelForMaskedLM``.
        train_items: items to draw the N training items from.
        eval_items: held-out items to score after each run.
        sizes: the training-set sizes N; those larger than the training set are skipped.
        seeds: one run per seed at each N (the seed picks the N items and the batch order).
        epochs, steps, lr, batch_size, weight_decay, warmup_ratio: see :class:`TrainOptions`.
        device: ``cpu``, ``cuda``...; default: CUDA when available.
        dtype: of the encoder passes (``float32``, ``bfloat16``, ``float16``, ``auto``); the head trains in fp32.
        control_train, control_eval: the control's items (e.g. ``control="no_language"``), both or neither.
        sources: names for messages: ``train``, ``eval``, ``control_train``, ``control_eval`` (file paths).
        progress: called with one line per run.

    Raises:
        BlimpgenError: one line, for bad options, a model without a masked-LM head, or bad items.
    """
    options = TrainOptions(epochs=epochs, steps=steps, lr=lr, batch_size=batch_size, weight_decay=weight_decay,
                           warmup_ratio=warmup_ratio)
    sizes, seeds = [int(n) for n in sizes], [int(s) for s in seeds]
    if not sizes or min(sizes) < 1 or len(set(sizes)) != len(sizes):
        raise OptionError(f"sizes must be distinct positive integers, got {sizes}")
    if not seeds or len(set(seeds)) != len(seeds):
        raise OptionError(f"seeds must be distinct integers, got {seeds}")
    if (control_train is None) != (control_eval is None):
        raise OptionError("a control needs both its training and its held-out items")
    weights_for(sizes)
    where = {"train": "training items", "eval": "held-out items", "control_train": "control training items",
             "control_eval": "control held-out items", **(sources or {})}
    tokenizer, max_length = load_masked_lm_tokenizer(model_name_or_path)

    def prepare(items: Sequence[ProbeItem], key: str) -> PreparedItems:
        return prepare_items(tokenizer, items, where[key], model_name_or_path, max_length)

    prepared = {"language": (prepare(train_items, "train"), prepare(eval_items, "eval"))}
    notes = _overlap_notes("language", train_items, eval_items)
    if control_train is not None and control_eval is not None:
        kinds = sorted({item.control for item in [*control_train, *control_eval]})
        label = kinds[0] if len(kinds) == 1 and kinds[0] != "none" else "control"
        if label != "no_language":
            notes.append(f"the control's items are marked control={', '.join(kinds)}, not no_language")
        prepared[label] = (prepare(control_train, "control_train"), prepare(control_eval, "control_eval"))
        notes += _overlap_notes(label, control_train, control_eval)
    for label, (train, _) in prepared.items():
        if len(train.answers) < min(sizes):
            raise DataError(f"{label}: {len(train.answers)} training items, fewer than the smallest size {min(sizes)}")
    trainer = HeadTrainer(load_masked_lm(model_name_or_path, tokenizer, dtype, device), tokenizer, model_name_or_path)
    sets = {label: (trainer.encode(train), trainer.encode(held)) for label, (train, held) in prepared.items()}
    curves = [run_curve(trainer, label, train, held, sizes, seeds, options, progress)
              for label, (train, held) in sets.items()]
    settings = {"sizes": sorted(sizes), "seeds": seeds, **vars(options), "device": str(trainer.device),
                "dtype": dtype, "head": trainer.head_name, "trained": [n for n, _ in trainer.trainable],
                "encoder": "frozen; eval mode (no dropout); states at the blank cached"}
    return CurveResult(model_name_or_path, settings, curves[0], curves[1] if len(curves) > 1 else None, tuple(notes))


def _overlap_notes(label: str, train: Sequence[ProbeItem], held_out: Sequence[ProbeItem]) -> list[str]:
    shared = {item.item_id for item in train} & {item.item_id for item in held_out}
    return [f"{label}: {len(shared)} item ids are in both the training and the held-out items"] if shared else []


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


def write_curve(result: CurveResult, folder: str | Path) -> list[Path]:
    """Write ``curve.json`` (everything) and ``curve.csv`` (one row per curve and N), atomically."""
    import csv
    import json

    from blimpgen._io import atomic_writer

    folder = Path(folder)
    with atomic_writer(folder / "curve.json") as handle:
        json.dump(result.to_dict(), handle, indent=2)
        handle.write("\n")
    with atomic_writer(folder / "curve.csv") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["curve", "size", "weight", "mean", "std", "max", "accuracies"])
        for curve in result.curves():
            for p in curve.points():
                writer.writerow([curve.label, p["size"], f"{p['weight']:.6f}", f"{p['mean']:.6f}",
                                 f"{p['std']:.6f}", f"{p['max']:.6f}", ";".join(f"{a:.6f}" for a in p["accuracies"])])
    return [folder / "curve.json", folder / "curve.csv"]


def plot_curve(result: CurveResult, path: str | Path) -> Path:
    """Draw the curves (best of seeds, and mean ± std as a band) against N on a log axis, as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from blimpgen._io import atomic_writer

    figure, axis = plt.subplots(figsize=(6.5, 4))
    for curve, style in zip(result.curves(), ["-", "--"]):
        points = curve.points()
        sizes = [p["size"] for p in points]
        means = [p["mean"] for p in points]
        spread = [p["std"] for p in points]
        summary = curve.summary()
        line, = axis.plot(sizes, [p["max"] for p in points], style, marker="o",
                          label=f"{curve.label} (WS {summary['ws']:.2f}, MAX {summary['max']:.2f})")
        axis.fill_between(sizes, [m - s for m, s in zip(means, spread)], [m + s for m, s in zip(means, spread)],
                          color=line.get_color(), alpha=0.15, linewidth=0)
    axis.axhline(result.language.chance, color="grey", linestyle=":", linewidth=1, label="chance")
    axis.set_xscale("log")
    ticks = sorted({p["size"] for curve in result.curves() for p in curve.points()})
    axis.set_xticks(ticks, [str(n) for n in ticks])
    axis.minorticks_off()
    axis.set_ylim(0, 1.02)
    axis.set_xlabel("training items N")
    axis.set_ylabel("held-out accuracy (best of seeds; band: mean ± std)")
    axis.set_title(f"{Path(result.model).name}: head-only learning curve", fontsize=10)
    axis.legend(fontsize=8)
    path = Path(path)
    try:
        with atomic_writer(path, "wb") as handle:
            figure.savefig(handle, dpi=120, bbox_inches="tight", format="png")
    finally:
        plt.close(figure)
    return path


def run_learning_curve(model: str, train: str | Path, eval_path: str | Path | None = None,
                       eval_fraction: float = 0.2, control_train: str | Path | None = None,
                       control_eval: str | Path | None = None, out: str | Path | None = None,
                       plot: str | Path | None = None, **options: Any) -> CurveResult:
    """Read item files, run :func:`learning_curve`, and write ``curve.json``/``curve.csv`` (and a plot).

    Without ``eval_path`` a seeded ``eval_fraction`` of the training file is held out (the
    control's file likewise, without ``control_eval``). Nothing is written unless the run succeeds.

    Raises:
        BlimpgenError: one line, for unreadable files, bad items or options, or an unsuitable model.
    """
    from blimpgen.records.jsonl import read_items

    if out is not None and Path(out).exists() and not Path(out).is_dir():
        raise OptionError(f"{out}: exists and is not a folder")
    if control_eval is not None and control_train is None:
        raise OptionError("--control-eval needs --control-train")
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise MissingDependencyError("--plot needs matplotlib: pip install 'blimpgen[eval]'") from None
    train_items = list(read_items(train))
    if eval_path is not None:
        train_part, eval_items = train_items, list(read_items(eval_path))
    else:
        train_part, eval_items = split_items(train_items, eval_fraction)
    sources = {"train": str(train), "eval": str(eval_path) if eval_path else f"{train} (held-out part)"}
    control_parts: tuple[list, list] | tuple[None, None] = (None, None)
    if control_train is not None:
        items = list(read_items(control_train))
        control_parts = ((items, list(read_items(control_eval))) if control_eval is not None
                         else split_items(items, eval_fraction))
        sources.update(control_train=str(control_train),
                       control_eval=str(control_eval) if control_eval else f"{control_train} (held-out part)")
    result = learning_curve(model, train_part, eval_items, control_train=control_parts[0],
                            control_eval=control_parts[1], sources=sources, **options)
    if out is not None:
        write_curve(result, out)
    if plot is not None:
        plot_curve(result, plot)
    return result
