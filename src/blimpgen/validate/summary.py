"""Writing an ingest :class:`~blimpgen.validate.ingest.Analysis` to a report folder.

``per_paradigm.csv`` is the contract ``blimpgen report`` reads (human row of the model
correlation figure). Its columns, in order::

    UID, linguistics_term, n_pairs, human_accuracy, individual_accuracy, pass,
    field, n_majority, n_judgments, min_judgments

Accuracies are proportions in [0, 1] with 4 decimals (``individual_accuracy`` is empty when a
paradigm has no judgments); ``pass`` is ``True``/``False``. ``summary.json`` holds the
batch-wide numbers for programs, ``summary.md`` the same for people.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from blimpgen._io import atomic_writer, csv_text
from blimpgen.validate.agreement import Overall
from blimpgen.validate.ingest import REASONS, Analysis

PARADIGM_COLUMNS = (
    "UID",
    "linguistics_term",
    "n_pairs",
    "human_accuracy",
    "individual_accuracy",
    "pass",
    "field",
    "n_majority",
    "n_judgments",
    "min_judgments",
)
PAIR_COLUMNS = (
    "UID",
    "pair_id",
    "linguistics_term",
    "sentence_good",
    "sentence_bad",
    "n_judgments",
    "n_good",
    "proportion_good",
    "majority_good",
)
WORKER_COLUMNS = (
    "WorkerId",
    "n_assignments",
    "n_included",
    "n_excluded",
    "exclusion_reasons",
    "n_judgments",
    "accuracy",
    "accuracy_included",
    "checks_passed",
    "checks_total",
    "median_seconds",
)
EXCLUDED_COLUMNS = ("file", "line", "AssignmentId", "WorkerId", "HITId", "hit_code", "reason", "all_reasons", "detail")
SPEED_COLUMNS = (
    "min_seconds",
    "n_included",
    "n_too_fast",
    "aggregate_accuracy",
    "individual_accuracy",
    "paradigms_passed",
)
BLIMP_AGGREGATE = 0.964
REPORT_FILES = (
    "per_paradigm.csv",
    "per_pair.csv",
    "per_worker.csv",
    "excluded.csv",
    "speed_thresholds.csv",
    "summary.json",
    "summary.md",
)


def write_report(analysis: Analysis, out: Path | str) -> list[Path]:
    """Write every report file into ``out``; return their paths."""
    out = Path(out)
    files = {
        "per_paradigm.csv": _table(PARADIGM_COLUMNS, _paradigm_rows(analysis)),
        "per_pair.csv": _table(PAIR_COLUMNS, _pair_rows(analysis)),
        "per_worker.csv": _table(WORKER_COLUMNS, _worker_rows(analysis)),
        "excluded.csv": _table(EXCLUDED_COLUMNS, _excluded_rows(analysis)),
        "speed_thresholds.csv": _table(SPEED_COLUMNS, _speed_rows(analysis)),
        "summary.json": json.dumps(summary_numbers(analysis), indent=2) + "\n",
        "summary.md": summary_markdown(analysis),
    }
    written = []
    for name in REPORT_FILES:
        text = files[name]
        with atomic_writer(out / name, "wb") as handle:
            handle.write(text.encode("utf-8"))
        written.append(out / name)
    return written


def summary_numbers(analysis: Analysis) -> dict[str, Any]:
    """Batch-wide counts and agreement as a JSON-ready dict."""
    overall = analysis.overall
    counts = _reason_counts(analysis)
    return {
        "batch": analysis.batch.tag,
        "results_files": analysis.files,
        "rows": analysis.n_rows,
        "included": len(analysis.included),
        "excluded": analysis.n_rows - len(analysis.included),
        "excluded_by_reason": counts,
        "min_seconds": analysis.threshold,
        "pass_fraction": str(analysis.options.pass_fraction),
        "pairs": overall.n_pairs,
        "judgments": overall.n_judgments,
        "aggregate_accuracy": _round(overall.aggregate),
        "individual_accuracy": _round(overall.individual),
        "paradigms": overall.n_paradigms,
        "paradigms_passed": overall.n_passed,
        "judgments_requested_per_pair": analysis.batch.judgments_requested,
    }


def summary_markdown(analysis: Analysis) -> str:
    """The human-readable report."""
    overall = analysis.overall
    numbers = summary_numbers(analysis)
    short = [p for p in analysis.pairs if p.n_judgments < analysis.batch.judgments_requested]
    lines = [
        f"# Human validation: batch {analysis.batch.tag}",
        "",
        f"Results files: {', '.join(f'`{name}`' for name in analysis.files) or '(none)'}",
        "",
        "## Rows",
        "",
        f"{numbers['rows']} rows read = {numbers['included']} included + {numbers['excluded']} excluded "
        "(every excluded row is in `excluded.csv` with its reason).",
        "",
        "| reason | rows |",
        "|---|---:|",
        *(f"| {reason} | {count} |" for reason, count in numbers["excluded_by_reason"].items()),
        "",
        f"Too-fast threshold: {analysis.threshold:g} s per assignment.",
        "",
        "## Agreement",
        "",
        f"- Aggregate agreement (strict majority picks the acceptable sentence): **{_percent(overall.aggregate)}** "
        f"of {overall.n_pairs} pairs (BLiMP: {_percent(BLIMP_AGGREGATE)}).",
        f"- Individual agreement: **{_percent(overall.individual)}** of {overall.n_judgments} judgments.",
        f"- Paradigms passing (≥ {analysis.options.pass_fraction} of pairs agree): "
        f"**{overall.n_passed} of {overall.n_paradigms}**.",
        "",
    ]
    if short:
        lines += [
            f"{len(short)} pair(s) have fewer than the {analysis.batch.judgments_requested} judgments asked "
            f"for after exclusions (fewest: {min(p.n_judgments for p in short)}); "
            "repost them with `blimpgen validate repost`.",
            "",
        ]
    lines += [
        "## Paradigms",
        "",
        "| UID | pairs | agree | aggregate | individual | judgments | pass |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    lines += [
        f"| {p.uid} | {p.n_pairs} | {p.n_majority} | {_percent(p.human_accuracy)} | "
        f"{_percent(p.individual_accuracy)} | {p.n_judgments} | {'pass' if p.passed else '**exclude**'} |"
        for p in analysis.paradigms
    ]
    lines += [
        "",
        "## How results change with the too-fast threshold",
        "",
        "| min seconds | included | too fast | aggregate | individual | paradigms passing |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {row.threshold:g}{' (used)' if row.threshold == analysis.threshold else ''} | {row.n_included} | "
        f"{row.n_too_fast} | {_percent(row.overall.aggregate)} | {_percent(row.overall.individual)} | "
        f"{row.overall.n_passed} of {row.overall.n_paradigms} |"
        for row in analysis.speed
    ]
    checks = [w for w in analysis.workers if w.checks_total]
    if checks:
        passed = sum(w.checks_passed for w in checks)
        total = sum(w.checks_total for w in checks)
        lines += [
            "",
            f"Attention checks answered correctly: {passed} of {total} ({_percent(passed / total)}), "
            f"{len(analysis.workers)} workers.",
        ]
    return "\n".join(lines) + "\n"


def _reason_counts(analysis: Analysis) -> dict[str, int]:
    counts = dict.fromkeys(REASONS, 0)
    counts["malformed"] = len(analysis.malformed)
    for entry in analysis.screened:
        reasons = entry.reasons_at(analysis.threshold)
        if reasons:
            counts[reasons[0]] += 1
    return counts


def _paradigm_rows(analysis: Analysis) -> Iterable[list[Any]]:
    for p in analysis.paradigms:
        yield [
            p.uid,
            p.linguistics_term,
            p.n_pairs,
            _round(p.human_accuracy),
            _round(p.individual_accuracy),
            p.passed,
            p.field,
            p.n_majority,
            p.n_judgments,
            p.min_judgments,
        ]


def _pair_rows(analysis: Analysis) -> Iterable[list[Any]]:
    for p in analysis.pairs:
        yield [
            p.uid,
            p.pair_id,
            p.linguistics_term,
            p.sentence_good,
            p.sentence_bad,
            p.n_judgments,
            p.n_good,
            _round(p.proportion_good),
            p.majority_good,
        ]


def _worker_rows(analysis: Analysis) -> Iterable[list[Any]]:
    for w in analysis.workers:
        reasons = ";".join(f"{reason}:{count}" for reason, count in w.reasons.items())
        yield [
            w.worker_id,
            w.n_assignments,
            w.n_included,
            w.n_assignments - w.n_included,
            reasons,
            w.n_judgments,
            _round(w.n_good / w.n_judgments if w.n_judgments else None),
            _round(w.n_included_good / w.n_included_judgments if w.n_included_judgments else None),
            w.checks_passed,
            w.checks_total,
            f"{w.median_seconds:g}",
        ]


def _excluded_rows(analysis: Analysis) -> Iterable[list[Any]]:
    for m in analysis.malformed:
        yield [m.file, m.line, m.assignment_id, m.worker_id, m.hit_id, "", "malformed", "malformed", m.message]
    for entry in analysis.screened:
        reasons = entry.reasons_at(analysis.threshold)
        if not reasons:
            continue
        row = entry.row
        details = list(entry.details)
        if "too_fast" in reasons:
            details.append(f"{row.seconds} s < {analysis.threshold:g} s")
        yield [
            row.file,
            row.line,
            row.assignment_id,
            row.worker_id,
            row.hit_id,
            row.hit_code,
            reasons[0],
            ";".join(reasons),
            "; ".join(details),
        ]


def _speed_rows(analysis: Analysis) -> Iterable[list[Any]]:
    for row in analysis.speed:
        overall: Overall = row.overall
        yield [
            f"{row.threshold:g}",
            row.n_included,
            row.n_too_fast,
            _round(overall.aggregate),
            _round(overall.individual),
            overall.n_passed,
        ]


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A CSV table; cells that a spreadsheet would run as formulas are neutralised (``'=...``)."""
    return csv_text(header, rows)


def _round(value: float | None) -> float | str:
    return "" if value is None else round(value, 4)


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f} %"
