"""Probe metrics per suite (and group), per phenomenon and overall, with controls beside their suite.

Every level maps each metric name (``mc_accuracy``, ``top1``..., ``sensitivity``,
``sensitivity@0.01``) to a row with ``accuracy`` (the share of judged items that pass; None
when none was judged), its interval, ``n_items`` judged and ``not_applicable``; a metric no
item has is left out. A suite also says how many of its items were ``dropped`` (a word the
model cannot score in the blank) and its ``coverage`` (the share scored). A control whose
items have replicates (Ettinger's shuffles) reports each metric as the mean over replicates,
with their number and standard deviation (``replicates``, ``sd``). Suites are ordered by UID,
each followed by its controls (``UID[control]``), and a suite lists its controls under
``controls``. Phenomena and overall are means over the suites proper
(:mod:`blimpgen.evaluate.metrics`): controls are baselines for their suite and are never
averaged in.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from blimpgen.errors import DataError
from blimpgen.evaluate.metrics import mean_interval, wilson_interval
from blimpgen.evaluate.rows import column, to_json
from blimpgen.evaluate.tasks.base import model_label

NOT_APPLICABLE = ("multi_token", "no_top_k")  # top-k statuses counted as not applicable
OVERALL = "overall (mean of suites)"


@dataclass(frozen=True)
class Proportion:
    """A metric of one suite or group: the share of judged items that pass."""

    n_items: int
    not_applicable: int
    correct: float
    accuracy: float | None
    ci_low: float | None
    ci_high: float | None
    replicates: int | None = column(default=None, omit_none=True)
    sd: float | None = column(default=None, omit_none=True)


@dataclass(frozen=True)
class MeanProportion:
    """A metric of a phenomenon or overall: the mean over suites, and the pooled item accuracy."""

    n_suites: int
    n_items: int
    not_applicable: int
    correct: float
    accuracy: float | None
    ci_low: float | None
    ci_high: float | None
    item_accuracy: float | None


@dataclass(frozen=True)
class GroupRow:
    """A group within a suite (a sub-condition such as affirmative / negated)."""

    n_items: int
    metrics: dict[str, Proportion] = column(flatten=True)


@dataclass(frozen=True)
class SuiteRow:
    """A suite, or a control of one (``control`` set)."""

    UID: str
    control: str
    phenomenon: str
    field: str
    n_items: int
    dropped: int
    coverage: float
    metrics: dict[str, Proportion] = column(flatten=True)
    groups: dict[str, GroupRow] | None = column(default=None, omit_none=True)
    controls: list[str] | None = column(default=None, omit_none=True)


@dataclass(frozen=True)
class AggregateRow:
    """A phenomenon or the overall row: means over the suites proper."""

    n_suites: int
    n_items: int
    metrics: dict[str, MeanProportion] = column(flatten=True)


@dataclass(frozen=True)
class ProbeCsvRow:
    """One line of ``results.csv``: one metric at one level (controls at level ``control``)."""

    level: str
    name: str
    suite: str | None
    control: str | None
    group: str | None
    phenomenon: str | None
    field: str | None
    metric: str
    n_suites: int | None
    n_items: int
    not_applicable: int
    accuracy: float | None
    ci_low: float | None
    ci_high: float | None
    item_accuracy: float | None
    replicates: int | None
    sd: float | None
    dropped: int | None
    coverage: float | None
    model: str | None
    scorer: str | None
    probe_method: str | None
    tie_policy: str | None


def _cell(row: Proportion | MeanProportion | None) -> str:
    if row is None or row.accuracy is None:
        return "-"
    if isinstance(row, Proportion) and row.sd is not None:  # replicated shuffles: mean ± SD
        return f"{100 * row.accuracy:.1f}±{100 * row.sd:.1f}"
    return f"{100 * row.accuracy:.1f}"


@dataclass(frozen=True)
class ProbeSummary:
    """The metric tables of a probe run."""

    metrics: list[str]
    overall: AggregateRow
    phenomena: dict[str, AggregateRow]
    suites: dict[str, SuiteRow]
    csv_row_type: ClassVar[type] = ProbeCsvRow

    def to_json(self) -> dict[str, Any]:
        """``results.json``'s tables."""
        return {
            "metrics": list(self.metrics),
            "overall": to_json(self.overall),
            "phenomena": to_json(self.phenomena),
            "suites": to_json(self.suites),
        }

    def csv_rows(self, options: Mapping[str, Any]) -> list[ProbeCsvRow]:
        """Overall, phenomena, then each suite (or control) followed by its groups; one row per metric."""
        stamp = {
            "model": model_label(options),
            "scorer": options.get("scorer"),
            "probe_method": options.get("probe_method"),
            "tie_policy": options.get("tie_policy"),
        }
        out: list[ProbeCsvRow] = []

        def rows(
            level: str,
            name: str,
            table: Mapping[str, Any],
            n_suites: int | None = None,
            coverage: tuple[int | None, float | None] = (None, None),
            **where: Any,
        ) -> None:
            for metric in self.metrics:
                if metric in table:
                    row = table[metric]
                    place = {"suite": None, "control": None, "group": None, "phenomenon": None, "field": None, **where}
                    out.append(
                        ProbeCsvRow(
                            level,
                            name,
                            metric=metric,
                            n_suites=getattr(row, "n_suites", n_suites),
                            n_items=row.n_items,
                            not_applicable=row.not_applicable,
                            accuracy=row.accuracy,
                            ci_low=row.ci_low,
                            ci_high=row.ci_high,
                            item_accuracy=getattr(row, "item_accuracy", None),
                            replicates=getattr(row, "replicates", None),
                            sd=getattr(row, "sd", None),
                            dropped=coverage[0],
                            coverage=coverage[1],
                            **place,
                            **stamp,
                        )
                    )

        rows("overall", "overall", self.overall.metrics)
        for name, table in self.phenomena.items():
            rows("phenomenon", name, table.metrics, phenomenon=name)
        for name, suite in self.suites.items():
            where: dict[str, Any] = {
                "suite": suite.UID,
                "control": suite.control,
                "phenomenon": suite.phenomenon,
                "field": suite.field,
            }
            rows(
                "suite" if suite.control == "none" else "control",
                name,
                suite.metrics,
                n_suites=1,
                coverage=(suite.dropped, suite.coverage),
                **where,
            )
            for group, group_row in (suite.groups or {}).items():
                rows("group", f"{name}/{group}", group_row.metrics, group=group, **where)
        return out

    def table(self, options: Mapping[str, Any], detail: bool = False) -> str:
        """Every metric per phenomenon (and, for ``detail``, per suite, group and control), then overall.

        Controls are rows of their own under their suite, never in the phenomenon or overall
        rows; without ``detail`` a note says which were left out.
        """
        metrics = [m for m in self.metrics if m != "mc_accuracy"]
        rows: list[tuple[str, Any]] = list(self.phenomena.items())
        controls = {name: suite for name, suite in self.suites.items() if suite.control != "none"}
        if detail:
            for name, suite in self.suites.items():
                if name in controls and suite.UID in self.suites:
                    rows.append((f"    [{suite.control}]", suite))  # right after its suite and groups
                    continue
                rows.append((f"  {name}", suite))
                rows += [(f"    {group}", row) for group, row in (suite.groups or {}).items()]
        width = max([len(name) for name, _ in rows] + [len(OVERALL)])
        widths = [max(5, len(m)) for m in metrics]
        lines = [
            f"{'':{width}}  {'mc acc':>6}  {'95% CI':>15}  "
            + "  ".join(f"{m:>{w}}" for m, w in zip(metrics, widths))
            + f"  {'items':>6}"
        ]
        for name, row in rows + [(OVERALL, self.overall)]:
            mc = row.metrics.get("mc_accuracy")
            interval = f"[{100 * mc.ci_low:5.1f}, {100 * mc.ci_high:5.1f}]" if mc else "-"
            lines.append(
                f"{name:{width}}  {_cell(mc):>6}  {interval:>15}  "
                + "  ".join(f"{_cell(row.metrics.get(m)):>{w}}" for m, w in zip(metrics, widths))
                + f"  {row.n_items:6d}"
            )
        lines.append(
            f"model={model_label(options)} scorer={options.get('scorer')} "
            f"probe_method={options['probe_method']} tie={options['tie_policy']}"
        )
        missing = {
            m: self.overall.metrics[m].not_applicable
            for m in metrics
            if m in self.overall.metrics and self.overall.metrics[m].not_applicable
        }
        if missing:
            lines.append(
                "not applicable (no expected word is one token, or the scorer gives no top tokens): "
                + ", ".join(f"{m} {n} items" for m, n in missing.items())
            )
        dropped = {name: suite for name, suite in self.suites.items() if suite.dropped}
        if dropped:
            lines.append(
                "dropped (a word the model cannot score in the blank, e.g. not one token): "
                + ", ".join(
                    f"{name} {suite.dropped} of {suite.n_items} (coverage {100 * suite.coverage:.1f}%)"
                    for name, suite in dropped.items()
                )
            )
        if controls:
            kinds = sorted({suite.control for suite in controls.values()})
            lines.append(
                f"controls ({', '.join(kinds)}; {len(controls)} in all) are not in the phenomenon or overall "
                + ("rows; each is shown under its suite" if detail else "rows; --paradigms shows each under its suite")
            )
        return "\n".join(lines)


def summarize_probes(rows: Sequence[Any], metrics: Mapping[str, Callable[[Any], float | None]]) -> ProbeSummary:
    """Tables per suite (with groups and controls), per phenomenon and overall.

    Args:
        rows: scored items (:class:`~blimpgen.evaluate.tasks.probes.ItemScore`: ``UID``, ``suite``,
            ``control``, ``group``, ``phenomenon``, ``field``, ``top_k_status``).
        metrics: metric name -> the item's 1.0 / 0.0 / None (not judged) outcome for it.
    """
    if rows and all(row.dropped is not None for row in rows):
        raise DataError(
            f"no item could be scored: every one of the {len(rows)} items was dropped "
            f"(e.g. {rows[0].item_id}: {rows[0].dropped})"
        )
    by_suite: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        by_suite[row.suite].append(row)
    order = sorted(by_suite, key=lambda n: (by_suite[n][0].UID, by_suite[n][0].control != "none", n))
    controls: dict[str, list[str]] = defaultdict(list)
    for name in order:
        first = by_suite[name][0]
        if first.control != "none" and first.UID in by_suite and order.index(first.UID) < order.index(name):
            controls[first.UID].append(name)
    suites: dict[str, SuiteRow] = {}
    for name in order:
        members = by_suite[name]
        first = members[0]
        groups: dict[str, list[Any]] = defaultdict(list)
        for row in members:
            groups[row.group].append(row)
        group_rows = None
        if set(groups) != {""}:
            group_rows = {
                group: GroupRow(len(rows_), _metric_rows(rows_, metrics)) for group, rows_ in sorted(groups.items())
            }
        dropped = sum(1 for row in members if row.dropped is not None)
        suites[name] = SuiteRow(
            first.UID,
            first.control,
            first.phenomenon,
            first.field,
            len(members),
            dropped,
            (len(members) - dropped) / len(members),
            _metric_rows(members, metrics),
            group_rows,
            controls.get(name),
        )
    proper = [name for name, suite in suites.items() if suite.control == "none"]
    by_phenomenon: dict[str, list[str]] = defaultdict(list)
    for name in proper:
        by_phenomenon[suites[name].phenomenon].append(name)

    def aggregate(names: list[str]) -> AggregateRow:
        table = {}
        for metric in metrics:
            metric_rows = [suites[n].metrics[metric] for n in names if metric in suites[n].metrics]
            if metric_rows:
                table[metric] = _mean(metric_rows)
        return AggregateRow(len(names), sum(suites[n].n_items for n in names), table)

    phenomena = {name: aggregate(names) for name, names in sorted(by_phenomenon.items())}
    return ProbeSummary(list(metrics), aggregate(proper), phenomena, suites)


def _metric_rows(rows: Sequence[Any], metrics: Mapping[str, Callable[[Any], float | None]]) -> dict[str, Proportion]:
    out = {}
    replicated = any(getattr(r, "replicate", None) is not None for r in rows)
    for metric, outcome in metrics.items():
        values = [value for value in map(outcome, rows) if value is not None]
        missing = sum(1 for r in rows if metric.startswith("top") and r.top_k_status in NOT_APPLICABLE)
        if values or missing:
            out[metric] = _replicated(rows, outcome, missing) if replicated and values else _proportion(values, missing)
    return out


def _replicated(rows: Sequence[Any], outcome: Callable[[Any], float | None], missing: int) -> Proportion:
    """A metric over replicates (several shuffles of each item): the mean of the replicates'
    accuracies, their number and standard deviation (Ettinger's mean +- SD over 100 shuffles).

    The replicates of one item are not independent observations, so the interval and
    ``n_items`` count items, not rows: each item contributes the mean of its replicates'
    outcomes, and the Wilson interval is taken over the items (wider than one over all rows,
    which would shrink with every added shuffle although no new item is seen).
    """
    by_replicate: dict[Any, list[float]] = defaultdict(list)
    by_item: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        value = outcome(row)
        if value is not None:
            by_replicate[row.replicate].append(value)
            by_item[_unreplicated(row.item_id, row.replicate)].append(value)
    accuracies = [sum(v) / len(v) for _, v in sorted(by_replicate.items(), key=lambda kv: (kv[0] is None, kv[0]))]
    per_item = _proportion([statistics.fmean(values) for values in by_item.values()], missing)
    sd = statistics.stdev(accuracies) if len(accuracies) > 1 else 0.0
    return Proportion(
        per_item.n_items,
        missing,
        per_item.correct,
        statistics.fmean(accuracies),
        per_item.ci_low,
        per_item.ci_high,
        len(accuracies),
        sd,
    )


def _unreplicated(item_id: str, replicate: int | None) -> str:
    """The id shared by an item's replicates: ``X.shuffled.003`` -> ``X.shuffled``."""
    suffix = f".{replicate:03d}" if replicate is not None else ""
    return item_id[: -len(suffix)] if suffix and item_id.endswith(suffix) else item_id


def _proportion(values: list[float], not_applicable: int) -> Proportion:
    n, correct = len(values), float(sum(values))
    low, high = wilson_interval(correct, n)
    return Proportion(n, not_applicable, correct, correct / n if n else None, low if n else None, high if n else None)


def _mean(rows: list[Proportion]) -> MeanProportion:
    judged = [r for r in rows if r.n_items]
    n = sum(r.n_items for r in judged)
    if not judged:
        return MeanProportion(0, n, sum(r.not_applicable for r in rows), 0, None, None, None, None)
    low, high = mean_interval([(r.correct, r.n_items) for r in judged])
    return MeanProportion(
        len(judged),
        n,
        sum(r.not_applicable for r in rows),
        sum(r.correct for r in judged),
        sum(r.correct / r.n_items for r in judged) / len(judged),
        low,
        high,  # = mean accuracy
        sum(r.correct for r in judged) / n,
    )
