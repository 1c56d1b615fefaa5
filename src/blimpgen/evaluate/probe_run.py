"""Run a probe evaluation: read probe-item JSONL, score it, summarise, write results.

Output folder (written only after everything is scored, each file atomically, like pairs):

* ``items.jsonl``: one line per item: candidates' scores and probabilities, the prediction,
  ``correct``; for contrasts also the blank probabilities of good and bad, sensitivity, the
  top tokens and the expected words' ranks.
* ``results.json``: ``"kind": "probes"``, the options, and per suite (and group), per
  phenomenon and overall every metric with its interval (:func:`~blimpgen.evaluate.probes.summarize_probes`).
  A control's row follows its suite's; phenomena and overall leave controls out.
* ``results.csv``: the same, one row per level, name and metric (controls at level ``control``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from blimpgen import __version__
from blimpgen._io import atomic_writer, data_files
from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate.scoring.base import Scorer
from blimpgen.evaluate.distributed import distributed
from blimpgen.evaluate.probes import (
    ProbeOptions,
    check_probe_options,
    evaluate_items,
    model_label,
    probe_method,
    suite_name,
    summarize_probes,
)
from blimpgen.evaluate.checks import check_not_all_ties
from blimpgen.evaluate.distributed import distributed, run_shards
from blimpgen.records.item import ProbeItem
from blimpgen.records.jsonl import read_located


@dataclass
class ProbeResult:
    """What a probe evaluation produced: options, per-item records and the metric tables."""

    options: dict[str, Any]
    items: list[dict[str, Any]]
    summary: dict[str, Any]
    kind: str = "probes"


def load_items(data: str | Path | Sequence[str | Path]) -> list[tuple[ProbeItem, str]]:
    """Every probe item in a JSONL file, a folder of them, or a list of either, with its ``file:line``.

    Raises:
        BlimpgenError: for missing files, bad records (``file:line``) or a repeated ``item_id``.
    """
    paths = [data] if isinstance(data, (str, Path)) else list(data)
    files = [file for path in paths for file in data_files(path)]
    items, seen = [], {}
    for file in files:
        for item, loc in read_located(file, ProbeItem):
            where = str(loc)
            if item.item_id in seen:
                raise DataError(f"{where}: item_id {item.item_id!r} repeats (first in {seen[item.item_id]}); "
                                "item ids must be unique across --data")
            seen[item.item_id] = where
            items.append((item, where))
    if not items:
        raise DataError(f"{', '.join(str(f) for f in files)}: no probe items to evaluate")
    return items


def select_items(items: list[tuple[ProbeItem, str]], limit: int | None) -> list[tuple[ProbeItem, str]]:
    """At most ``limit`` items per suite, the first ones in file order."""
    if limit is None:
        return items
    seen: dict[str, int] = {}
    kept = []
    for item, file in items:
        suite = suite_name(item)
        seen[suite] = seen.get(suite, 0) + 1
        if seen[suite] <= limit:
            kept.append((item, file))
    return kept


def evaluate_probes(scorer: Scorer, data: str | Path | Sequence[str | Path], options: ProbeOptions | None = None,
                    progress: Callable[[int], None] | None = None) -> ProbeResult:
    """Evaluate ``scorer`` on probe items; shard over processes when launched distributed.

    Raises:
        BlimpgenError: for bad data or options (before any scoring).
    """
    options = options or ProbeOptions()
    check_probe_options(options)
    loaded = load_items(data)
    items = select_items(loaded, options.limit)
    rank, world, gather = distributed()
    records = run_shards(lambda: evaluate_items(scorer, items[rank::world], options, progress), rank, world, gather)
    check_not_all_ties(records, "item", scorer)
    settings = {**scorer.options(), **asdict(options), "probe_method": probe_method(scorer, options),
                "top_k": sorted(set(options.top_k)), "tie_policy": options.tie,
                "data": sorted({where.rpartition(":")[0] for _, where in loaded}), "n_items": len(records),
                "processes": world,
                "blimpgen_version": __version__}
    settings.pop("tie")
    return ProbeResult(settings, records, summarize_probes(records, options))


def write_probe_results(result: ProbeResult, out: str | Path) -> list[Path]:
    """Write ``items.jsonl``, ``results.json`` and ``results.csv`` into ``out``; return their paths."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OptionError(f"{out}: --out must be a folder, not a file")
    items_text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in result.items)
    json_text = json.dumps({"kind": "probes", "options": result.options, **result.summary}, indent=2,
                           ensure_ascii=False) + "\n"
    written = []
    for name, text in (("items.jsonl", items_text), ("results.json", json_text), ("results.csv", _csv_text(result))):
        with atomic_writer(out / name) as handle:
            handle.write(text)
        written.append(out / name)
    return written


CSV_COLUMNS = ("level", "name", "suite", "control", "group", "phenomenon", "field", "metric", "n_suites", "n_items",
               "not_applicable", "accuracy", "ci_low", "ci_high", "item_accuracy", "model", "scorer",
               "probe_method", "tie_policy")


def _csv_text(result: ProbeResult) -> str:
    options = result.options
    stamp = {"model": model_label(options), "scorer": options.get("scorer"), "probe_method": options.get("probe_method"),
             "tie_policy": options.get("tie_policy")}
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    metrics = result.summary["metrics"]

    def rows(level: str, name: str, table: dict[str, Any], **where: Any) -> None:
        for metric in metrics:
            if metric in table:
                values = {k: (round(v, 6) if isinstance(v, float) else v) for k, v in table[metric].items()}
                writer.writerow({**values, "level": level, "name": name, "metric": metric, **where, **stamp})

    rows("overall", "overall", result.summary["overall"])
    for name, table in result.summary["phenomena"].items():
        rows("phenomenon", name, table, phenomenon=name)
    for name, suite in result.summary["suites"].items():
        control = suite.get("control", "none")
        where = {"suite": suite.get("UID", name), "control": control, "phenomenon": suite["phenomenon"],
                 "field": suite["field"]}
        rows("suite" if control == "none" else "control", name, suite, n_suites=1, **where)
        for group, table in suite.get("groups", {}).items():
            rows("group", f"{name}/{group}", table, group=group, **where)
    return buffer.getvalue()


def _cell(row: dict[str, Any] | None) -> str:
    if row is None or row.get("accuracy") is None:
        return "-"
    return f"{100 * row['accuracy']:.1f}"


def format_probe_table(result: ProbeResult, suites: bool = False) -> str:
    """A plain-text table: every metric per phenomenon (and suite, group and control), then overall.

    Controls are rows of their own under their suite (``--paradigms``), never in the
    phenomenon or overall rows; without ``suites`` a note says which were left out.
    """
    summary = result.summary
    metrics = [m for m in summary["metrics"] if m != "mc_accuracy"]
    rows = [(name, row) for name, row in summary["phenomena"].items()]
    controls = {name: suite for name, suite in summary["suites"].items() if suite.get("control", "none") != "none"}
    if suites:
        for name, suite in summary["suites"].items():
            if name in controls and suite["UID"] in summary["suites"]:
                rows.append((f"    [{suite['control']}]", suite))  # right after its suite and groups
                continue
            rows.append((f"  {name}", suite))
            rows += [(f"    {group}", row) for group, row in suite.get("groups", {}).items()]
    overall = "overall (mean of suites)"
    width = max([len(name) for name, _ in rows] + [len(overall)])
    widths = [max(5, len(m)) for m in metrics]
    lines = [f"{'':{width}}  {'mc acc':>6}  {'95% CI':>15}  " + "  ".join(f"{m:>{w}}" for m, w in zip(metrics, widths))
             + f"  {'items':>6}"]
    for name, row in rows + [(overall, summary["overall"])]:
        mc = row.get("mc_accuracy")
        interval = f"[{100 * mc['ci_low']:5.1f}, {100 * mc['ci_high']:5.1f}]" if mc else "-"
        lines.append(f"{name:{width}}  {_cell(mc):>6}  {interval:>15}  "
                     + "  ".join(f"{_cell(row.get(m)):>{w}}" for m, w in zip(metrics, widths))
                     + f"  {row['n_items']:6d}")
    options = result.options
    lines.append(f"model={model_label(options)} scorer={options.get('scorer')} "
                 f"probe_method={options['probe_method']} tie={options['tie_policy']}")
    missing = {m: summary["overall"][m]["not_applicable"] for m in metrics
               if m in summary["overall"] and summary["overall"][m]["not_applicable"]}
    if missing:
        lines.append("not applicable (no expected word is one token, or the scorer gives no top tokens): "
                     + ", ".join(f"{m} {n} items" for m, n in missing.items()))
    if controls:
        kinds = sorted({suite["control"] for suite in controls.values()})
        lines.append(f"controls ({', '.join(kinds)}; {len(controls)} in all) are not in the phenomenon or overall "
                     + ("rows; each is shown under its suite" if suites else "rows; --paradigms shows each under "
                        "its suite"))
    return "\n".join(lines)

