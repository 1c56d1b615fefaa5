"""Ingest: from MTurk results files to exclusions, agreement and pass/fail per paradigm.

Every readable row is either *included* or *excluded* with a reason; malformed rows stop the
run with ``file:line`` errors, or with ``skip_malformed`` are listed as excluded too. So
``rows read = included + excluded`` always holds, and ``summary.md`` says so.

Exclusion reasons, in the order that picks the one shown first (all apply are listed):

``duplicate_assignment``  the same AssignmentId again (a results file merged twice)
``rejected``              AssignmentStatus Rejected, or marked in the Reject column
``incomplete``            a question or the native-speaker question left empty
``honeypot``              the hidden field was filled (a bot)
``non_native``            answered "no" to the native-speaker question
``failed_attention``      chose the scrambled sentence of the attention check
``too_fast``              WorkTimeInSeconds below the threshold (default 2 s per item)
``duplicate_worker_on_list``  a later submission by a worker who already did a replica of
                          this list (the first one, by SubmitTime, is the one kept)
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from pathlib import Path

from blimpgen.errors import DataError, SpecError, SpecErrors
from blimpgen.validate.agreement import (
    Judgment,
    Overall,
    PairAgreement,
    ParadigmAgreement,
    overall_agreement,
    pair_agreement,
    paradigm_agreement,
)
from blimpgen.validate.batch import LoadedBatch, load_batch
from blimpgen.validate.results import Malformed, ResultRow, read_results

REASONS = (
    "malformed",
    "duplicate_assignment",
    "rejected",
    "incomplete",
    "honeypot",
    "non_native",
    "failed_attention",
    "too_fast",
    "duplicate_worker_on_list",
)
DEFAULT_SECONDS_PER_ITEM = 2.0


@dataclass(frozen=True)
class IngestOptions:
    """How strict ingest is.

    Args:
        min_seconds: too-fast threshold per assignment; ``None`` means 2 s per item on the HIT.
        pass_fraction: share of a paradigm's pairs that must agree for it to pass.
        skip_malformed: list malformed rows as excluded instead of stopping.
    """

    min_seconds: float | None = None
    pass_fraction: Fraction = Fraction(4, 5)
    skip_malformed: bool = False

    def threshold(self, batch: LoadedBatch) -> float:
        """The too-fast threshold in seconds for ``batch``."""
        return DEFAULT_SECONDS_PER_ITEM * batch.slots if self.min_seconds is None else self.min_seconds


@dataclass(frozen=True)
class Screened:
    """A readable row and every reason (but speed) it might be excluded for, with details."""

    row: ResultRow
    reasons: tuple[str, ...]
    details: tuple[str, ...]

    def reasons_at(self, threshold: float) -> tuple[str, ...]:
        """All exclusion reasons at a too-fast ``threshold``, in :data:`REASONS` order."""
        found = set(self.reasons)
        if self.row.seconds < threshold:
            found.add("too_fast")
        return tuple(reason for reason in REASONS if reason in found)


@dataclass(frozen=True)
class WorkerSummary:
    """One worker across the batch."""

    worker_id: str
    n_assignments: int
    n_included: int
    reasons: dict[str, int]
    n_judgments: int
    n_good: int
    n_included_judgments: int
    n_included_good: int
    checks_passed: int
    checks_total: int
    median_seconds: float


@dataclass(frozen=True)
class SpeedRow:
    """Results at one too-fast threshold."""

    threshold: float
    n_included: int
    n_too_fast: int
    overall: Overall


@dataclass
class Analysis:
    """Everything ingest found; :mod:`blimpgen.validate.summary` writes it out."""

    batch: LoadedBatch
    files: list[str]
    threshold: float
    options: IngestOptions
    screened: list[Screened]
    malformed: list[Malformed]
    pairs: list[PairAgreement]
    paradigms: list[ParadigmAgreement]
    overall: Overall
    workers: list[WorkerSummary]
    speed: list[SpeedRow] = field(default_factory=list)

    @property
    def included(self) -> list[Screened]:
        """Rows kept at the chosen threshold."""
        return [s for s in self.screened if not s.reasons_at(self.threshold)]

    @property
    def n_rows(self) -> int:
        """Every results row read (malformed ones included)."""
        return len(self.screened) + len(self.malformed)


def ingest(
    batch_folder: Path | str, results: Sequence[Path | str], options: IngestOptions = IngestOptions()
) -> Analysis:
    """Read a batch and its results files and compute the analysis.

    Args:
        batch_folder: the folder ``blimpgen validate batch`` wrote.
        results: MTurk results CSVs (merged; the same assignment twice is excluded once).
        options: thresholds and strictness.

    Raises:
        SpecErrors: one ``file:line: message`` per malformed row (unless ``skip_malformed``).
        DataError: a missing or damaged batch, unreadable results files, or no readable rows.
    """
    batch = load_batch(batch_folder)
    rows, malformed = read_results(results, batch)
    if malformed and not options.skip_malformed:
        raise SpecErrors(
            [SpecError(m.message, m.file, m.line) for m in malformed]
            + [
                SpecError(
                    f"{len(malformed)} malformed row(s); fix them or pass --skip-malformed to list them in excluded.csv"
                )
            ]
        )
    if not rows:
        raise DataError("no readable results rows: nothing to analyse")
    return analyse(batch, rows, malformed, options, [str(path) for path in results])


def analyse(
    batch: LoadedBatch,
    rows: Sequence[ResultRow],
    malformed: Sequence[Malformed],
    options: IngestOptions,
    files: Sequence[str] = (),
) -> Analysis:
    """Screen rows, then compute agreement at the chosen threshold and at several others."""
    threshold = options.threshold(batch)
    screened = screen(rows, batch)
    pairs, paradigms, overall = _agreement(batch, screened, threshold, options.pass_fraction)
    analysis = Analysis(
        batch=batch,
        files=list(files),
        threshold=threshold,
        options=options,
        screened=screened,
        malformed=list(malformed),
        pairs=pairs,
        paradigms=paradigms,
        overall=overall,
        workers=_workers(batch, screened, threshold),
    )
    for value in sorted({0.0, threshold / 2, threshold, threshold * 1.5, threshold * 2}):
        kept = [s for s in screened if not s.reasons_at(value)]
        too_fast = sum(1 for s in screened if s.reasons_at(value) == ("too_fast",))
        analysis.speed.append(
            SpeedRow(value, len(kept), too_fast, _agreement(batch, screened, value, options.pass_fraction)[2])
        )
    return analysis


def screen(rows: Sequence[ResultRow], batch: LoadedBatch) -> list[Screened]:
    """Find every exclusion reason except speed for each row."""
    seen: dict[str, ResultRow] = {}
    first_on_list: dict[tuple[str, int], ResultRow] = {}
    unique = []
    for row in rows:
        if row.assignment_id not in seen:
            seen[row.assignment_id] = row
            unique.append(row)
    for row in sorted(unique, key=lambda r: (r.submit_time or datetime.max, r.order)):
        first_on_list.setdefault((row.worker_id, batch.hits[row.hit_code].list_index), row)

    out = []
    for row in rows:
        original = seen[row.assignment_id]
        if original is not row:
            out.append(Screened(row, ("duplicate_assignment",), (f"same AssignmentId as {original.where}",)))
            continue
        reasons: list[str] = []
        details: list[str] = []
        hit = batch.hits[row.hit_code]
        if row.status == "Rejected" or row.marked_reject:
            reasons.append("rejected")
        empty = [slot for slot, answer in row.answers.items() if not answer]
        if empty or not row.native:
            reasons.append("incomplete")
            details.append(f"unanswered: {', '.join(f'q{s}' for s in empty) or 'native'}")
        if row.honeypot.strip():
            reasons.append("honeypot")
        if row.native == "no":
            reasons.append("non_native")
        for item in hit.items:
            answer = row.answers[item.slot]
            if item.kind == "check" and answer and answer != str(item.good_position):
                reasons.append("failed_attention")
                details.append(f"check in slot {item.slot}")
        first = first_on_list[(row.worker_id, hit.list_index)]
        if first is not row:
            reasons.append("duplicate_worker_on_list")
            details.append(f"list {hit.list_index} already done at {first.where}")
        out.append(Screened(row, tuple(reasons), tuple(details)))
    return out


def judgments_of(batch: LoadedBatch, row: ResultRow) -> list[Judgment]:
    """The answered real items of a row as judgments."""
    return [
        Judgment(row.worker_id, item.uid, item.pair_id, row.answers[item.slot] == str(item.good_position))
        for item in batch.hits[row.hit_code].items
        if item.kind == "real" and row.answers[item.slot]
    ]


def _agreement(
    batch: LoadedBatch, screened: Sequence[Screened], threshold: float, pass_fraction: Fraction
) -> tuple[list[PairAgreement], list[ParadigmAgreement], Overall]:
    judgments = [j for s in screened if not s.reasons_at(threshold) for j in judgments_of(batch, s.row)]
    pairs = pair_agreement(batch.hits.values(), judgments)
    paradigms = paradigm_agreement(pairs, pass_fraction)
    return pairs, paradigms, overall_agreement(paradigms)


def _workers(batch: LoadedBatch, screened: Sequence[Screened], threshold: float) -> list[WorkerSummary]:
    by_worker: dict[str, list[Screened]] = {}
    for entry in screened:
        if "duplicate_assignment" not in entry.reasons:
            by_worker.setdefault(entry.row.worker_id, []).append(entry)
    out = []
    for worker in sorted(by_worker):
        entries = by_worker[worker]
        reasons: dict[str, int] = {}
        total = good = kept_total = kept_good = passed = checks = 0
        for entry in entries:
            excluded = entry.reasons_at(threshold)
            for reason in excluded:
                reasons[reason] = reasons.get(reason, 0) + 1
            found = judgments_of(batch, entry.row)
            total += len(found)
            good += sum(j.chose_good for j in found)
            if not excluded:
                kept_total += len(found)
                kept_good += sum(j.chose_good for j in found)
            for item in batch.hits[entry.row.hit_code].items:
                answer = entry.row.answers[item.slot]
                if item.kind == "check" and answer:
                    checks += 1
                    passed += answer == str(item.good_position)
        out.append(
            WorkerSummary(
                worker_id=worker,
                n_assignments=len(entries),
                n_included=sum(1 for e in entries if not e.reasons_at(threshold)),
                reasons=reasons,
                n_judgments=total,
                n_good=good,
                n_included_judgments=kept_total,
                n_included_good=kept_good,
                checks_passed=passed,
                checks_total=checks,
                median_seconds=float(statistics.median(e.row.seconds for e in entries)),
            )
        )
    return out
