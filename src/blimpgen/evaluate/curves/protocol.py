"""Learning curves for cloze probes (the oLMpics protocol): sizes, weights, WS/MAX and the curve model.

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

Training is head-only (see :mod:`blimpgen.evaluate.curves.head`): the encoder and the embeddings
stay frozen, their states at the blank are cached, and each (N, seed) run starts from the
pre-trained head, restored in place (the same as loading the model afresh). For each N and
seed the training items are the first N of a shuffle seeded by that seed, so a seed's sets
are nested across N. The no-language control's items go through the same procedure, so the
two curves can be read side by side.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from blimpgen.errors import OptionError
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
        OptionError: for more than seven sizes outside the oLMpics grid.
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
        OptionError: for a fraction outside (0, 1), or when either part would be empty.
    """
    if not 0 < fraction < 1:
        raise OptionError(f"eval fraction must be between 0 and 1, got {fraction}")
    order = list(range(len(items)))
    random.Random(seed).shuffle(order)
    held = round(len(items) * fraction)
    if held == 0 or held == len(items):
        raise OptionError(f"cannot hold out {fraction:.0%} of {len(items)} items and keep both parts non-empty")
    return [items[i] for i in order[:-held]], [items[i] for i in order[-held:]]
