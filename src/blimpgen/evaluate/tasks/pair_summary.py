"""Minimal-pair accuracy per paradigm, per phenomenon and overall, as BLiMP reports it.

A phenomenon's accuracy and the overall accuracy are the *mean over paradigms*, each paradigm
weighing the same (the pooled pair accuracy is reported beside the overall one); intervals are
:mod:`blimpgen.evaluate.metrics`'. The summary is written as ``results.json``'s
``overall``/``phenomena``/``paradigms``, as ``results.csv`` (:class:`PairCsvRow`) and as the
table ``eval`` prints.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from blimpgen.evaluate.metrics import mean_interval, wilson_interval
from blimpgen.evaluate.rows import column, to_json
from blimpgen.evaluate.tasks.base import model_label

OVERALL = "overall (mean of paradigms)"


class Judged(Protocol):
    """What the summary needs of a judged pair (read-only, so frozen rows qualify)."""

    @property
    def UID(self) -> str: ...

    @property
    def phenomenon(self) -> str: ...

    @property
    def field(self) -> str: ...

    @property
    def correct(self) -> float: ...


@dataclass(frozen=True)
class ParadigmAccuracy:
    """One paradigm: its pairs' accuracy and Wilson interval."""

    phenomenon: str
    field: str
    n_pairs: int
    correct: float
    accuracy: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class MeanAccuracy:
    """A phenomenon or the overall row: the mean over its paradigms (overall: and the pooled accuracy)."""

    n_paradigms: int
    n_pairs: int
    accuracy: float
    ci_low: float
    ci_high: float
    pair_accuracy: float | None = column(default=None, omit_none=True)


@dataclass(frozen=True)
class PairCsvRow:
    """One line of ``results.csv``: a level's accuracy, stamped with what produced it."""

    level: str
    name: str
    phenomenon: str | None
    field: str | None
    n_paradigms: int | None
    n_pairs: int
    accuracy: float
    ci_low: float
    ci_high: float
    model: str | None
    scorer: str | None
    method: str | None
    reduction: str | None
    tie_policy: str | None
    first_token: str | None


@dataclass(frozen=True)
class PairSummary:
    """Accuracy tables: ``overall``, ``phenomena`` (sorted) and ``paradigms`` (sorted by UID)."""

    overall: MeanAccuracy
    phenomena: dict[str, MeanAccuracy]
    paradigms: dict[str, ParadigmAccuracy]
    csv_row_type: ClassVar[type] = PairCsvRow

    def to_json(self) -> dict[str, Any]:
        """``results.json``'s tables."""
        return {
            "overall": to_json(self.overall),
            "phenomena": to_json(self.phenomena),
            "paradigms": to_json(self.paradigms),
        }

    def csv_rows(self, options: Mapping[str, Any]) -> list[PairCsvRow]:
        """Overall, then each phenomenon, then each paradigm."""
        stamp = {
            "model": model_label(options),
            **{k: options.get(k) for k in ("scorer", "method", "reduction", "tie_policy", "first_token")},
        }
        rows = [
            PairCsvRow(
                "overall",
                "overall",
                None,
                None,
                self.overall.n_paradigms,
                self.overall.n_pairs,
                self.overall.accuracy,
                self.overall.ci_low,
                self.overall.ci_high,
                **stamp,
            )
        ]
        rows += [
            PairCsvRow(
                "phenomenon",
                name,
                name,
                None,
                row.n_paradigms,
                row.n_pairs,
                row.accuracy,
                row.ci_low,
                row.ci_high,
                **stamp,
            )
            for name, row in self.phenomena.items()
        ]
        rows += [
            PairCsvRow(
                "paradigm",
                uid,
                row.phenomenon,
                row.field,
                1,
                row.n_pairs,
                row.accuracy,
                row.ci_low,
                row.ci_high,
                **stamp,
            )
            for uid, row in self.paradigms.items()
        ]
        return rows

    def table(self, options: Mapping[str, Any], detail: bool = False) -> str:
        """Accuracy [95% CI] per phenomenon (and paradigm, for ``detail``), then overall."""
        rows: list[tuple[str, MeanAccuracy | ParadigmAccuracy]] = list(self.phenomena.items())
        if detail:
            rows += [(f"  {uid}", row) for uid, row in self.paradigms.items()]
        width = max([len(name) for name, _ in rows] + [len(OVERALL)])
        lines = [f"{'':{width}}  {'acc':>6}  {'95% CI':>15}  {'pairs':>7}"]
        for name, row in rows + [(OVERALL, self.overall)]:
            lines.append(
                f"{name:{width}}  {100 * row.accuracy:6.1f}  "
                f"[{100 * row.ci_low:5.1f}, {100 * row.ci_high:5.1f}]  {row.n_pairs:7d}"
            )
        lines.append(
            f"model={model_label(options)} scorer={options.get('scorer')} method={options['method']} "
            f"reduction={options['reduction']} tie={options['tie_policy']} "
            f"first_token={options.get('first_token')}"
        )
        if options.get("skipped_paradigms"):
            lines.append(f"skipped (method does not apply): {', '.join(options['skipped_paradigms'])}")
        return "\n".join(lines)


def summarize_pairs(judged: Iterable[Judged]) -> PairSummary:
    """Accuracy per paradigm, the mean per phenomenon and overall, with intervals."""
    by_uid: dict[str, list[Judged]] = defaultdict(list)
    for pair in judged:
        by_uid[pair.UID].append(pair)
    paradigms: dict[str, ParadigmAccuracy] = {}
    for uid in sorted(by_uid):
        rows = by_uid[uid]
        correct, n = sum(r.correct for r in rows), len(rows)
        low, high = wilson_interval(correct, n)
        paradigms[uid] = ParadigmAccuracy(rows[0].phenomenon, rows[0].field, n, correct, correct / n, low, high)
    by_phenomenon: dict[str, list[str]] = defaultdict(list)
    for uid, row in paradigms.items():
        by_phenomenon[row.phenomenon].append(uid)
    phenomena = {name: _mean([paradigms[u] for u in uids]) for name, uids in sorted(by_phenomenon.items())}
    pooled_n = sum(r.n_pairs for r in paradigms.values())
    pooled = sum(r.correct for r in paradigms.values()) / pooled_n if pooled_n else 0.0
    return PairSummary(_mean(list(paradigms.values()), pooled), phenomena, paradigms)


def _mean(rows: list[ParadigmAccuracy], pooled: float | None = None) -> MeanAccuracy:
    groups = [(r.correct, r.n_pairs) for r in rows]
    low, high = mean_interval(groups)
    accuracy = sum(r.accuracy for r in rows) / len(rows) if rows else 0.0
    return MeanAccuracy(len(rows), sum(n for _, n in groups), accuracy, low, high, pooled)
