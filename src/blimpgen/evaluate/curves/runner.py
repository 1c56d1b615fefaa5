"""Running a learning curve: read item files, train the head per (N, seed), write ``curve.json``/``curve.csv``.

The protocol (sizes, weights, WS/MAX) is :mod:`blimpgen.evaluate.curves.protocol`; the head
trainer is :mod:`blimpgen.evaluate.curves.head`; the table and the figure are drawn by
:mod:`blimpgen.evaluate.reporting`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from blimpgen.errors import DataError, MissingDependencyError, OptionError
from blimpgen.evaluate.curves.head import (
    HeadTrainer,
    PreparedItems,
    TrainOptions,
    prepare_items,
)
from blimpgen.evaluate.curves.protocol import (
    SIZES,
    Curve,
    CurveResult,
    Run,
    shared_arguments,
    split_items,
    weights_for,
)
from blimpgen.evaluate.curves.qa import QATrainer
from blimpgen.evaluate.metrics import majority_baseline
from blimpgen.evaluate.scoring.scorers.hf_masked import (
    load_masked_lm,
    load_masked_lm_tokenizer,
)
from blimpgen.records.item import ProbeItem

PROTOCOLS = ("mc-mlm", "mc-qa")


def run_curve(
    trainer: Any,
    label: str,
    train: Any,
    held_out: Any,
    sizes: Sequence[int],
    seeds: Sequence[int],
    options: TrainOptions,
    progress: Callable[[str], None] | None = None,
    majority: float | None = None,
) -> Curve:
    """One learning curve: for each N that fits and each seed, train on the first N items of a
    seeded shuffle, then score the held-out items. ``trainer`` is a :class:`HeadTrainer` (MC-MLM)
    or a :class:`~blimpgen.evaluate.curves.qa.QATrainer` (MC-QA), ``train`` and ``held_out`` what
    its ``encode`` made; ``majority`` the held-out items' majority-answer baseline, recorded beside chance.

    Raises:
        DataError: when no size fits the training set.
        OptionError: for sizes that cannot be weighted.
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
            steps = (
                options.steps if options.steps is not None else options.epochs * math.ceil(size / options.batch_size)
            )
            runs.append(Run(size, seed, accuracy, losses[0], losses[-1], steps))
            if progress is not None:
                progress(
                    f"{label} N={size} seed={seed}: accuracy {accuracy:.3f} "
                    f"(train loss {losses[0]:.3f} -> {losses[-1]:.3f})"
                )
    trainer.reset()
    total = sum(weights[n] for n in ran)
    return Curve(
        label,
        len(train),
        len(held_out),
        held_out.chance,
        zero_shot,
        tuple(runs),
        {n: weights[n] / total for n in ran},
        skipped,
        tuple(notes),
        majority,
    )


def _majority(items: Sequence[ProbeItem], prepared: PreparedItems | Sequence[ProbeItem]) -> float | None:
    """The majority-answer baseline of the held-out items that are scored (MC-MLM drops some)."""
    kept = set(prepared.kept) if isinstance(prepared, PreparedItems) else None
    return majority_baseline((item.answer, item.candidates) for item in items if kept is None or item.item_id in kept)


def learning_curve(
    model_name_or_path: str,
    train_items: Sequence[ProbeItem],
    eval_items: Sequence[ProbeItem],
    *,
    sizes: Sequence[int] = SIZES,
    seeds: Sequence[int] = (0, 1, 2),
    epochs: int = 4,
    steps: int | None = None,
    lr: float = 5e-5,
    batch_size: int = 16,
    weight_decay: float = 0.1,
    warmup_ratio: float = 0.06,
    device: str | None = None,
    dtype: str = "float32",
    control_train: Sequence[ProbeItem] | None = None,
    control_eval: Sequence[ProbeItem] | None = None,
    controls: dict[str, tuple[Sequence[ProbeItem], Sequence[ProbeItem]]] | None = None,
    linear: bool = False,
    sources: dict[str, str] | None = None,
    protocol: str = "mc-mlm",
    progress: Callable[[str], None] | None = None,
) -> CurveResult:
    """The oLMpics learning curve of a masked LM on probe items, and on each control's.

    ``mc-mlm`` (the default) trains the pre-trained masked-LM head only; every item set is
    tokenized and checked before any training, and items with a candidate that is not one token
    are dropped and counted in the notes. ``mc-qa`` fine-tunes the whole network with a new
    question-answering head (:mod:`blimpgen.evaluate.curves.qa`): answers of any length.

    Args:
        model_name_or_path: hub id or local folder of an ``AutoModelForMaskedLM``.
        train_items: items to draw the N training items from.
        eval_items: held-out items to score after each run.
        sizes: the training-set sizes N; those larger than the training set are skipped.
        seeds: one run per seed at each N (the seed picks the N items and the batch order).
        epochs, steps, lr, batch_size, weight_decay, warmup_ratio: see :class:`TrainOptions`.
        device: ``cpu``, ``cuda``...; default: CUDA when available.
        dtype: of the encoder passes (``float32``, ``bfloat16``, ``float16``, ``auto``); the head trains in fp32.
        control_train, control_eval: one control's items (e.g. ``control="no_language"``), both or neither.
        controls: control name -> (training items, held-out items), for several controls at once
            (``no_language`` and ``perturbed_language`` give oLMpics' LANGSENSE nolang and pert).
        linear: also run the LINEAR setup (only the head's output layer trains) on the language items.
        sources: names for messages: ``train``, ``eval``, ``control_train``, ``control_eval`` (file paths).
        protocol: ``mc-mlm`` (head only) or ``mc-qa`` (whole network, MLP_QA; no LINEAR).
        progress: called with one line per run.

    Raises:
        OptionError: for bad sizes, seeds or training options, or half a control.
        ModelLoadError: for a model that cannot be loaded, has no masked-LM head, or whose
            tokenizer is missing or does not fit.
        DataError: for bad items (naming the item), or too few training items.
    """
    options = TrainOptions(
        epochs=epochs, steps=steps, lr=lr, batch_size=batch_size, weight_decay=weight_decay, warmup_ratio=warmup_ratio
    )
    sizes, seeds = [int(n) for n in sizes], [int(s) for s in seeds]
    if not sizes or min(sizes) < 1 or len(set(sizes)) != len(sizes):
        raise OptionError(f"sizes must be distinct positive integers, got {sizes}")
    if not seeds or len(set(seeds)) != len(seeds):
        raise OptionError(f"seeds must be distinct integers, got {seeds}")
    if (control_train is None) != (control_eval is None):
        raise OptionError("a control needs both its training and its held-out items")
    if protocol not in PROTOCOLS:
        raise OptionError(f"unknown protocol {protocol!r}; expected one of: {', '.join(PROTOCOLS)}")
    if protocol == "mc-qa" and linear:
        raise OptionError(
            "LINEAR (--linear) fixes the first layer of the pre-trained MLM head; MC-QA has no "
            "pre-trained head (oLMpics reports LINEAR for MC-MLM only)"
        )
    weights_for(sizes)
    where = {
        "train": "training items",
        "eval": "held-out items",
        "control_train": "control training items",
        "control_eval": "control held-out items",
        **(sources or {}),
    }
    tokenizer, max_length = load_masked_lm_tokenizer(model_name_or_path)
    notes: list[str] = []

    def prepare(items: Sequence[ProbeItem], label: str) -> PreparedItems | Sequence[ProbeItem]:
        if protocol == "mc-qa":  # answers of any length: nothing to drop
            return items
        prepared = prepare_items(tokenizer, items, label, model_name_or_path, max_length)
        note = prepared.coverage_note(label)
        if note:
            notes.append(note)
        return prepared

    prepared = {"language": (prepare(train_items, where["train"]), prepare(eval_items, where["eval"]))}
    notes += _overlap_notes("language", train_items, eval_items)
    every = dict(controls or {})
    if control_train is not None and control_eval is not None:
        kinds = sorted({item.control for item in [*control_train, *control_eval]})
        label = kinds[0] if len(kinds) == 1 and kinds[0] != "none" else "control"
        if label != "no_language":
            notes.append(f"the control's items are marked control={', '.join(kinds)}, not no_language")
        every[label] = (control_train, control_eval)
    for label, (train, held) in every.items():
        prepared[label] = (
            prepare(train, f"{label} {where['control_train']}"),
            prepare(held, f"{label} {where['control_eval']}"),
        )
        notes += _overlap_notes(label, train, held)
    for label, (prepared_train, _) in prepared.items():
        if len(prepared_train) < min(sizes):
            raise DataError(f"{label}: {len(prepared_train)} training items, fewer than the smallest size {min(sizes)}")
    model = load_masked_lm(model_name_or_path, tokenizer, dtype, device)
    trainer: Any = (
        QATrainer(model, tokenizer, model_name_or_path, max_length)
        if protocol == "mc-qa"
        else HeadTrainer(model, tokenizer, model_name_or_path)
    )
    sets = {label: (trainer.encode(train), trainer.encode(held)) for label, (train, held) in prepared.items()}
    held_items = {"language": eval_items, **{label: held for label, (_, held) in every.items()}}
    majority = {label: _majority(held_items[label], prepared[label][1]) for label in sets}
    curves = {
        label: run_curve(trainer, label, train, held, sizes, seeds, options, progress, majority[label])
        for label, (train, held) in sets.items()
    }
    linear_curve = None
    if linear:
        trainer.use("linear")
        linear_curve = run_curve(
            trainer, "language (LINEAR)", *sets["language"], sizes, seeds, options, progress, majority["language"]
        )
        trainer.use("mlp")
    settings = {
        "protocol": protocol,
        "sizes": sorted(sizes),
        "seeds": seeds,
        **options.model_dump(),
        "device": str(trainer.device),
        "dtype": dtype,
        "head": trainer.head_name,
    }
    if protocol == "mc-qa":
        settings.update(
            trained="the whole network: encoder and a new MLP_QA head (seeded per run)",
            encoder="fine-tuned (dropout on while training); restored to the pre-trained weights before each run",
            dtype="float32",
        )
        notes.append("MC-QA: the zero-shot accuracy is that of an untrained head (not meaningful, as oLMpics notes)")
    else:
        settings.update(
            trained=[n for n, _ in trainer.trainable],
            linear_trained=list(trainer.output_names),
            encoder="frozen; eval mode (no dropout); states at the blank cached; decoder untied from "
            "the input embeddings",
        )
    control_curves = {label: curve for label, curve in curves.items() if label != "language"}
    first = next(iter(control_curves.values()), None)
    return CurveResult(
        model_name_or_path,
        settings,
        curves["language"],
        control_curves.get("no_language", first),
        tuple(notes),
        linear_curve,
        control_curves,
    )


def _overlap_notes(label: str, train: Sequence[ProbeItem], held_out: Sequence[ProbeItem]) -> list[str]:
    notes = []
    # the same item (id and text): two gen runs (a suite's train and dev splits) number their items alike
    shared = {_content(item) for item in train} & {_content(item) for item in held_out}
    if shared:
        notes.append(
            f"{label}: {len(shared)} items (same id, context and candidates) are in both the training "
            "and the held-out items"
        )
    tuples = shared_arguments(train, held_out)
    if tuples:
        notes.append(
            f"{label}: {len(tuples)} argument tuples (e.g. {', '.join(sorted(tuples, key=str)[0])}) are in "
            "both the training and the held-out items"
        )
    return notes


def _content(item: ProbeItem) -> tuple:
    return (item.item_id, item.context, item.candidates, item.answer, item.reversed_context)


def write_curve(result: CurveResult, folder: str | Path) -> list[Path]:
    """Write ``curve.json`` (everything) and ``curve.csv`` (one row per curve and N), both or neither."""
    import json

    from blimpgen._io import csv_text, write_files

    folder = Path(folder)
    rows = [
        [
            curve.label,
            p["size"],
            f"{p['weight']:.6f}",
            f"{p['mean']:.6f}",
            f"{p['std']:.6f}",
            f"{p['max']:.6f}",
            ";".join(f"{a:.6f}" for a in p["accuracies"]),
        ]
        for curve in result.curves()
        for p in curve.points()
    ]
    return write_files(
        [
            (folder / "curve.json", json.dumps(result.to_dict(), indent=2) + "\n"),
            (folder / "curve.csv", csv_text(["curve", "size", "weight", "mean", "std", "max", "accuracies"], rows)),
        ]
    )


def run_learning_curve(
    model: str,
    train: str | Path,
    eval_path: str | Path | None = None,
    eval_fraction: float = 0.2,
    control_train: str | Path | None = None,
    control_eval: str | Path | None = None,
    out: str | Path | None = None,
    plot: str | Path | None = None,
    **options: Any,
) -> CurveResult:
    """Read item files, run :func:`learning_curve`, and write ``curve.json``/``curve.csv`` (and a plot).

    ``train`` (and ``eval_path``) may hold controls beside their items (``gen --control ...``
    writes them one after the other): each control's items make that control's curve. Without
    ``eval_path`` about ``eval_fraction`` of the items is held out, whole argument tuples at a
    time, each control item going with its item (:func:`split_items`); a separate
    ``control_train`` file (the no-language control's, without ``control_eval``) is split the
    same way. Nothing is written unless the run succeeds.

    Raises:
        DataError: for unreadable files or bad items (``file:line``).
        OptionError: for bad options, an ``out`` that is a file, or an output that is an input.
        ModelLoadError: for a model unsuitable for head-only training.
        MissingDependencyError: for ``plot`` without matplotlib.
    """
    from blimpgen._io import refuse_inputs
    from blimpgen.records.jsonl import read_items

    if out is not None and Path(out).exists() and not Path(out).is_dir():
        raise OptionError(f"{out}: exists and is not a folder")
    given = {"--train": train, "--eval": eval_path, "--control-train": control_train, "--control-eval": control_eval}
    inputs = {flag: [path] for flag, path in given.items() if path is not None}
    outputs = [Path(out) / "curve.json", Path(out) / "curve.csv"] if out is not None else []
    for output in outputs + ([plot] if plot is not None else []):
        refuse_inputs(output, inputs)  # before the model loads: an output must never replace the items
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
    language_train, by_control = _by_control(train_part)
    language_eval, held_by_control = _by_control(eval_items)
    if not language_train or not language_eval:
        raise DataError(f"{train}: no items with control none to train and hold out (only controls)")
    controls: dict[str, tuple[Sequence[ProbeItem], Sequence[ProbeItem]]] = {}
    for name in by_control:
        if name not in held_by_control:
            raise DataError(f"{eval_path or train}: the held-out items have no {name} items, the training items do")
        controls[name] = (by_control[name], held_by_control[name])
    control_parts: tuple[list, list] | tuple[None, None] = (None, None)
    if control_train is not None:
        items = list(read_items(control_train))
        control_parts = (
            (items, list(read_items(control_eval))) if control_eval is not None else split_items(items, eval_fraction)
        )
        sources.update(
            control_train=str(control_train),
            control_eval=str(control_eval) if control_eval else f"{control_train} (held-out part)",
        )
    result = learning_curve(
        model,
        language_train,
        language_eval,
        control_train=control_parts[0],
        control_eval=control_parts[1],
        controls=controls,
        sources=sources,
        **options,
    )
    if out is not None:
        write_curve(result, out)
    if plot is not None:
        from blimpgen.evaluate.reporting.figures import plot_curve

        plot_curve(result, plot)
    return result


def _by_control(items: Sequence[ProbeItem]) -> tuple[list[ProbeItem], dict[str, list[ProbeItem]]]:
    """(the items proper, control name -> its items)."""
    proper: list[ProbeItem] = []
    controls: dict[str, list[ProbeItem]] = {}
    for item in items:
        if item.control == "none":
            proper.append(item)
        else:
            controls.setdefault(item.control, []).append(item)
    return proper, controls
