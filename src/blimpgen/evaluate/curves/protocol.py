"""Learning curves for cloze probes (the oLMpics protocol): sizes, weights, WS/MAX, LANGSENSE, splits.

oLMpics (Talmor et al. 2020, TACL, section 3) asks whether a probe is solved by what
pre-training put into the representations or by what fine-tuning teaches. Besides zero-shot
scoring, it fine-tunes on N in {62, 125, 250, 500, 1K, 2K, 4K} training items with several
seeds, evaluates on held-out items, "and report[s] average accuracy across seeds". A curve is
summarised by two numbers:

* **MAX**: the highest accuracy on the curve.
* **WS**: a weighted average of the accuracies on the curve, with higher weights for small N
  (0.23, 0.20, 0.17, 0.14, 0.11, 0.08, 0.07 for the seven sizes; they sum to 1). WS rewards a
  model that learns the task from few items, as a pre-trained ability should allow.

The headline WS and MAX are those of the **mean-over-seeds** curve, as the paper reports them;
the best-of-seeds values (``ws_best``, ``max_best``) are reported beside them. When some sizes
do not run (too few training items) or other sizes are asked for, WS is renormalised over the
sizes that ran: ``sum(w_i * acc_i) / sum(w_i)``. Sizes outside the oLMpics grid take the
weights by rank (smallest size, largest weight).

Two setups of the head (:mod:`blimpgen.evaluate.curves.head`): **MLP** (oLMpics' MLP_MLM: the
whole pre-trained head trains) and **LINEAR** (its first layer frozen, only the output layer
trains). **LANGSENSE** against a control (no language, perturbed language) is "identical to WS,
except that instead of averaging accuracies, we average the difference in accuracies between
the standard model and [the control] (rounding negative numbers to zero)": the weighted mean of
``max(0, acc(N) - acc_control(N))`` over the mean-of-seeds curves (:func:`langsense`).

Held-out items share no argument tuple with the training items: :func:`split_items` holds out
whole groups of items with the same arguments (in any order), and a control's items follow the
item they were derived from. The paper's disjoint ranges, domains and trees are suite splits
(``gen --option split=train`` / ``split=dev``).

Training is head-only: the encoder and the embeddings stay frozen, their states at the blank are
cached, and each (N, seed) run starts from the pre-trained head, restored in place (the same as
loading the model afresh). For each N and seed the training items are the first N of a shuffle
seeded by that seed, so a seed's sets are nested across N. The controls' items go through the
same procedure, so the curves can be read side by side.
"""

from __future__ import annotations

import random
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
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
    majority: float | None = None  # the held-out items' majority-answer baseline (a constant guess)

    def points(self) -> list[dict[str, Any]]:
        """Per size: the seeds' accuracies, their mean, standard deviation and maximum."""
        out = []
        for size in sorted(self.weights):
            accuracies = [run.accuracy for run in self.runs if run.size == size]
            out.append(
                {
                    "size": size,
                    "weight": self.weights[size],
                    "accuracies": accuracies,
                    "mean": statistics.fmean(accuracies),
                    "std": statistics.stdev(accuracies) if len(accuracies) > 1 else 0.0,
                    "max": max(accuracies),
                }
            )
        return out

    def means(self) -> dict[int, float]:
        """Per size, the mean accuracy over seeds (the curve oLMpics reports)."""
        return {p["size"]: p["mean"] for p in self.points()}

    def summary(self) -> dict[str, float]:
        """WS and MAX of the mean-over-seeds curve (oLMpics' headline), and of the best-of-seeds curve."""
        points = self.points()
        ws, top = summarise({p["size"]: p["mean"] for p in points}, self.weights)
        ws_best, top_best = summarise({p["size"]: p["max"] for p in points}, self.weights)
        return {"ws": ws, "max": top, "ws_best": ws_best, "max_best": top_best}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "label": self.label,
            "train_items": self.train_items,
            "eval_items": self.eval_items,
            "chance": self.chance,
            "majority": self.majority,
            "zero_shot": self.zero_shot,
            **self.summary(),
            "weights": {str(n): w for n, w in self.weights.items()},
            "skipped": list(self.skipped),
            "points": self.points(),
            "runs": [vars(run) for run in self.runs],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class CurveResult:
    """The curves of one run: the language items (MLP_MLM), LINEAR when asked, each control's,
    LANGSENSE against each control, and the options they ran with."""

    model: str
    options: dict[str, Any]
    language: Curve
    control: Curve | None = None  # the no-language control's curve (or the one control given)
    notes: tuple[str, ...] = ()
    linear: Curve | None = None
    controls: dict[str, Curve] = field(default_factory=dict)  # every control's curve, by control name

    def curves(self) -> list[Curve]:
        """The language curve, LINEAR, then the controls'."""
        controls = list(self.controls.values()) or ([self.control] if self.control is not None else [])
        return [self.language] + ([self.linear] if self.linear is not None else []) + controls

    def langsense(self) -> dict[str, float]:
        """LANGSENSE against each control (``no_language`` is oLMpics' nolang, ``perturbed_language`` its pert)."""
        controls = self.controls or ({self.control.label: self.control} if self.control is not None else {})
        return {name: langsense(self.language, curve) for name, curve in controls.items()}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "model": self.model,
            "options": self.options,
            "protocol": (
                "oLMpics learning curve, MC-QA (whole network fine-tuned with MLP_QA)"
                if self.options.get("protocol") == "mc-qa"
                else "oLMpics learning curve, MC-MLM (head only)"
            )
            + "; WS and MAX of the mean-over-seeds curve (ws_best, max_best: "
            "best of seeds)",
            "language": self.language.to_dict(),
            "linear": self.linear.to_dict() if self.linear is not None else None,
            "control": self.control.to_dict() if self.control is not None else None,
            "controls": {name: curve.to_dict() for name, curve in self.controls.items()},
            "langsense": self.langsense(),
            "notes": list(self.notes),
        }


def langsense(language: Curve, control: Curve) -> float:
    """oLMpics' language sensitivity: WS of ``max(0, acc(N) - acc_control(N))`` over the sizes both
    curves ran, on the mean-over-seeds curves, with the WS weights renormalised over those sizes.

    Raises:
        OptionError: when the two curves share no size.
    """
    mine, theirs = language.means(), control.means()
    shared = sorted(set(mine) & set(theirs))
    if not shared:
        raise OptionError(f"{language.label} and {control.label} share no training size")
    weights = {n: language.weights[n] for n in shared}
    total = sum(weights.values())
    return sum(weights[n] * max(0.0, mine[n] - theirs[n]) for n in shared) / total


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
        raise OptionError(
            f"at most {len(WEIGHTS)} sizes outside the oLMpics grid {list(SIZES)} can be "
            f"weighted for WS; got {len(ordered)}"
        )
    return {n: WEIGHTS[i] for i, n in enumerate(ordered)}


def summarise(points: dict[int, float], weights: dict[int, float]) -> tuple[float, float]:
    """(WS, MAX) of a curve ``{N: accuracy}``: WS renormalised over the sizes in ``points``."""
    total = sum(weights[n] for n in points)
    ws = sum(weights[n] * accuracy for n, accuracy in points.items()) / total
    return ws, max(points.values())


def argument_key(item: ProbeItem) -> tuple[str, ...]:
    """What two items must not share across a split: their arguments in any order (an item with
    none is its own group)."""
    return tuple(sorted(item.arguments)) if item.arguments else ("item", item.item_id)


def original_id(item: ProbeItem) -> str:
    """The id of the item a control item was derived from (its own id for an original)."""
    return item.item_id.split(f".{item.control}", 1)[0] if item.control != "none" else item.item_id


def split_items(items: Sequence[ProbeItem], fraction: float, seed: int = 0) -> tuple[list[ProbeItem], list[ProbeItem]]:
    """(train, held-out): whole groups of items with the same arguments (:func:`argument_key`) are
    held out, about ``fraction`` of the original items, chosen by a seeded shuffle of the groups.
    Control items go where the item they were derived from goes (so a file of items and their
    controls, or a control's file on its own, splits the same way).

    Raises:
        OptionError: for a fraction outside (0, 1), or when either part would be empty.
    """
    if not 0 < fraction < 1:
        raise OptionError(f"eval fraction must be between 0 and 1, got {fraction}")
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)  # argument key -> original item ids
    key_of: dict[str, tuple[str, ...]] = {}  # original item id -> its argument key
    for item in items:
        key = original_id(item)
        if key not in key_of:
            key_of[key] = argument_key(item)
            groups[key_of[key]].append(key)
    order = list(groups)
    random.Random(seed).shuffle(order)
    target, held = round(len(key_of) * fraction), 0
    held_keys: set[tuple[str, ...]] = set()
    for group in reversed(order):
        if held >= target:
            break
        held_keys.add(group)
        held += len(groups[group])
    if not held_keys or len(held_keys) == len(order):
        raise OptionError(
            f"cannot hold out {fraction:.0%} of {len(key_of)} items with distinct argument tuples "
            f"and keep both parts non-empty ({len(order)} distinct tuples)"
        )
    train = [item for item in items if key_of[original_id(item)] not in held_keys]
    held_out = [item for item in items if key_of[original_id(item)] in held_keys]
    return train, held_out


def shared_arguments(train: Sequence[ProbeItem], held_out: Sequence[ProbeItem]) -> set[tuple[str, ...]]:
    """The argument tuples (in any order) that occur on both sides of a split."""
    return {argument_key(i) for i in train if i.arguments} & {argument_key(i) for i in held_out if i.arguments}
