"""Simulated MTurk results, to rehearse the whole loop before spending money.

``simulate`` plays a pool of workers through a batch and writes a results CSV in MTurk's own
format (bookkeeping columns, ``Input.*`` from ``batch.csv``, ``Answer.*`` from the form,
``Approve``/``Reject``), which ``ingest`` reads like a real download. Worker kinds:

* attentive: pick the acceptable sentence with their accuracy (the mean ``accuracy`` plus a
  per-worker offset; ``paradigm_accuracy`` overrides the mean for chosen paradigms), answer
  attention checks right with ``check_accuracy``, take ``seconds_per_item`` per item. A share
  ``non_native`` of them answer "no" to the native-speaker question.
* bots: random answers, fill the hidden honeypot field, answer fast.
* inattentive: mostly click the first option of every question, 1 s per item.

The marketplace is played as the posting script runs it: replicas of a list one after another,
each list guarded by its exclusion qualification (see :func:`_run_market`), so no worker takes
two replicas of a list and no paid assignment is discarded as ``duplicate_worker_on_list``.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import heapq
import io
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from blimpgen._io import atomic_writer, csv_text, read_text, refuse_inputs
from blimpgen.errors import DataError, OptionError
from blimpgen.validate.batch import BATCH_FILE, LoadedBatch, batch_files, load_batch
from blimpgen.validate.page import ELAPSED_FIELD, HIT_FIELD, HONEYPOT_FIELD, NATIVE_FIELD, QUESTION_PREFIX

BOOKKEEPING_COLUMNS = (
    "HITId",
    "HITTypeId",
    "Title",
    "Description",
    "Keywords",
    "Reward",
    "CreationTime",
    "MaxAssignments",
    "RequesterAnnotation",
    "AssignmentDurationInSeconds",
    "AutoApprovalDelayInSeconds",
    "Expiration",
    "NumberOfSimilarHITs",
    "LifetimeInSeconds",
    "AssignmentId",
    "WorkerId",
    "AssignmentStatus",
    "AcceptTime",
    "SubmitTime",
    "AutoApprovalTime",
    "ApprovalTime",
    "RejectionTime",
    "RequesterFeedback",
    "WorkTimeInSeconds",
    "LifetimeApprovalRate",
    "Last30DaysApprovalRate",
    "Last7DaysApprovalRate",
)
TIME_FORMAT = "%a %b %d %H:%M:%S UTC %Y"
START = datetime(2024, 3, 4, 9, 0, 0)


@dataclass(frozen=True)
class Submission:
    """One assignment as MTurk records it: the form fields a worker sent, and when."""

    hit_code: str
    worker_id: str
    answers: Mapping[str, str]
    seconds: int
    accept_time: datetime = START
    status: str = "Submitted"
    assignment_id: str = ""


@dataclass(frozen=True)
class SimulationOptions:
    """The simulated worker pool (fractions are shares of workers, or of assignments for ``rejected``)."""

    workers: int = 40
    accuracy: float = 0.9
    accuracy_spread: float = 0.05
    paradigm_accuracy: Mapping[str, float] = field(default_factory=dict)
    check_accuracy: float = 0.98
    bots: float = 0.05
    inattentive: float = 0.1
    non_native: float = 0.05
    rejected: float = 0.0
    seconds_per_item: float = 6.0
    seed: int = 0

    def __post_init__(self) -> None:
        shares = {
            "accuracy": self.accuracy,
            "accuracy-spread": self.accuracy_spread,
            "bots": self.bots,
            "inattentive": self.inattentive,
            "non-native": self.non_native,
            "rejected": self.rejected,
            "check-accuracy": self.check_accuracy,
            **{f"paradigm-accuracy {uid}": value for uid, value in self.paradigm_accuracy.items()},
        }
        for name, value in shares.items():
            if not 0 <= value <= 1:
                raise OptionError(f"{name} must be between 0 and 1, got {value}")
        if self.bots + self.inattentive > 1:
            raise OptionError("bots + inattentive must not exceed 1")
        if self.seconds_per_item <= 0:
            raise OptionError(f"seconds-per-item must be positive, got {self.seconds_per_item}")


@dataclass(frozen=True)
class SimulatedWorker:
    """A worker of the pool with their kind and base accuracy."""

    worker_id: str
    kind: str
    accuracy: float
    native: bool


@dataclass(frozen=True)
class SimulationResult:
    """What was written and what ingest should recover."""

    path: Path
    n_rows: int
    workers: tuple[SimulatedWorker, ...]
    expected_individual: dict[str, float]
    unfilled: int = 0

    def kinds(self) -> dict[str, int]:
        """Workers per kind."""
        counts: dict[str, int] = {}
        for worker in self.workers:
            counts[worker.kind] = counts.get(worker.kind, 0) + 1
        return counts


def mturk_id(text: str, length: int = 30) -> str:
    """A deterministic MTurk-looking id (upper-case letters and digits) for ``text``."""
    return base64.b32encode(hashlib.sha256(text.encode()).digest()).decode()[:length]


def simulate(
    batch_folder: Path | str, out: Path | str, options: SimulationOptions = SimulationOptions()
) -> SimulationResult:
    """Write an MTurk-format results CSV for ``batch_folder`` from simulated workers.

    Raises:
        OptionError: bad options, too few workers, or a paradigm name that is not in the batch.
        DataError: a missing or damaged batch.
    """
    refuse_inputs(out, {"--batch": batch_files(batch_folder)})
    batch = load_batch(batch_folder)
    uids = {item.uid for hit in batch.hits.values() for item in hit.items if item.kind == "real"}
    unknown = sorted(set(options.paradigm_accuracy) - uids)
    if unknown:
        raise OptionError(
            f"paradigm-accuracy: {', '.join(unknown)} not in this batch; it has {', '.join(sorted(uids))}"
        )
    per_list = max(sum(batch.assignments(code) for code in plan.hits) for plan in batch.posting_lists())
    if options.workers < per_list:
        raise OptionError(
            f"workers {options.workers} is below the {per_list} assignments of a list (each needs a worker of its own)"
        )
    pool = _pool(options, random.Random(f"{options.seed}:simulate"))
    submissions, unfilled = _run_market(batch, pool, options, random.Random(f"{options.seed}:{batch.tag}:market"))
    path = write_results(out, batch, submissions)
    attentive = [w for w in pool if w.kind == "attentive"]
    expected = (
        {uid: sum(_accuracy(w, uid, options) for w in attentive) / len(attentive) for uid in sorted(uids)}
        if attentive
        else {}
    )
    return SimulationResult(
        path=path, n_rows=len(submissions), workers=tuple(pool), expected_individual=expected, unfilled=unfilled
    )


def _run_market(
    batch: LoadedBatch, pool: Sequence[SimulatedWorker], options: SimulationOptions, rng: random.Random
) -> tuple[list[Submission], int]:
    """Play the marketplace as the posting script runs it (:class:`~blimpgen.validate.batch.PostingList`).

    Workers arrive one at a time and take a random open HIT they qualify for: one they have not
    taken, on a list whose exclusion qualification they do not hold. A submission grants the
    qualification; a HIT is complete when all its assignments are submitted, and only then does the
    list's next replica open. A worker works on one HIT at a time.

    Returns:
        The submissions in acceptance order, and the assignments no eligible worker was left for.
    """
    plans = batch.posting_lists()
    excluded = {plan.list_index: set(plan.exclude_workers) for plan in plans}
    queue = {plan.list_index: list(plan.hits) for plan in plans}
    open_hits: dict[str, int] = {}  # HIT code -> assignments still available
    pending: dict[str, int] = {}  # HIT code -> assignments accepted, not yet submitted
    takers: dict[str, set[str]] = {}
    for codes in queue.values():
        if codes:
            code = codes.pop(0)
            open_hits[code], pending[code], takers[code] = batch.assignments(code), 0, set()
    submits: list[tuple[float, int, str, str]] = []  # (time, order, HIT code, worker)
    arrivals = [(rng.uniform(0, 600), number) for number in range(len(pool))]
    heapq.heapify(arrivals)
    submissions: list[Submission] = []
    order = 0

    def settle(until: float) -> None:
        while submits and submits[0][0] <= until:
            _, _, code, worker = heapq.heappop(submits)
            excluded[batch.hits[code].list_index].add(worker)
            pending[code] -= 1
            if open_hits[code] == 0 and pending[code] == 0:
                del open_hits[code]
                following = queue[batch.hits[code].list_index]
                if following:
                    new = following.pop(0)
                    open_hits[new], pending[new], takers[new] = batch.assignments(new), 0, set()

    while arrivals:
        now, number = heapq.heappop(arrivals)
        settle(now)
        worker = pool[number]
        eligible = [
            code
            for code, left in open_hits.items()
            if left
            and worker.worker_id not in takers[code]
            and worker.worker_id not in excluded[batch.hits[code].list_index]
        ]
        if not eligible:
            if submits:  # a submission may open a replica this worker can take
                heapq.heappush(arrivals, (submits[0][0] + rng.uniform(1, 60), number))
            continue
        code = rng.choice(sorted(eligible))
        open_hits[code] -= 1
        pending[code] += 1
        takers[code].add(worker.worker_id)
        accept = START + timedelta(seconds=round(now))
        answered = _answer(batch, code, worker, options, rng, accept)
        submissions.append(answered)
        done = now + answered.seconds
        order += 1
        heapq.heappush(submits, (done, order, code, worker.worker_id))
        heapq.heappush(arrivals, (done + rng.uniform(5, 300), number))
    settle(float("inf"))
    unfilled = sum(open_hits.values()) + sum(batch.assignments(code) for codes in queue.values() for code in codes)
    return submissions, unfilled


def results_columns(batch: LoadedBatch, inputs: Sequence[str]) -> list[str]:
    """The header of an MTurk results file for ``batch`` whose ``batch.csv`` had ``inputs``."""
    answers = [
        HIT_FIELD,
        *(f"{QUESTION_PREFIX}{slot}" for slot in range(1, batch.slots + 1)),
        NATIVE_FIELD,
        HONEYPOT_FIELD,
        ELAPSED_FIELD,
        "comments",
    ]
    return [
        *BOOKKEEPING_COLUMNS,
        *(f"Input.{name}" for name in inputs),
        *(f"Answer.{name}" for name in answers),
        "Approve",
        "Reject",
    ]


def write_results(out: Path | str, batch: LoadedBatch, submissions: Iterable[Submission]) -> Path:
    """Write submissions as an MTurk results CSV (every field quoted, as MTurk does)."""
    inputs = _batch_inputs(batch)
    header = results_columns(batch, list(next(iter(inputs.values()))))
    properties = batch.properties
    rows = []
    for sub in submissions:
        submit = sub.accept_time + timedelta(seconds=sub.seconds)
        row = {name: "" for name in header}
        row.update(
            {
                "HITId": mturk_id(f"hit:{sub.hit_code}"),
                "HITTypeId": mturk_id(f"type:{batch.tag}"),
                "Title": properties.get("Title", ""),
                "Description": properties.get("Description", ""),
                "Keywords": properties.get("Keywords", ""),
                "Reward": f"${properties.get('Reward', '')}",
                "CreationTime": START.strftime(TIME_FORMAT),
                "MaxAssignments": str(batch.assignments_per_hit),
                "AssignmentDurationInSeconds": str(properties.get("AssignmentDurationInSeconds", "")),
                "AutoApprovalDelayInSeconds": str(properties.get("AutoApprovalDelayInSeconds", "")),
                "LifetimeInSeconds": str(properties.get("LifetimeInSeconds", "")),
                "AssignmentId": sub.assignment_id or mturk_id(f"assignment:{sub.hit_code}:{sub.worker_id}"),
                "WorkerId": sub.worker_id,
                "AssignmentStatus": sub.status,
                "AcceptTime": sub.accept_time.strftime(TIME_FORMAT),
                "SubmitTime": submit.strftime(TIME_FORMAT),
                "WorkTimeInSeconds": str(sub.seconds),
                "LifetimeApprovalRate": "100% (0/0)",
                "Last30DaysApprovalRate": "100% (0/0)",
                "Last7DaysApprovalRate": "100% (0/0)",
            }
        )
        if sub.status == "Rejected":
            row["RejectionTime"] = submit.strftime(TIME_FORMAT)
        row.update({f"Input.{name}": value for name, value in inputs[sub.hit_code].items()})
        for name, value in sub.answers.items():
            if f"Answer.{name}" in row:
                row[f"Answer.{name}"] = value
        rows.append([row[name] for name in header])
    text = csv_text(header, rows, quoting=csv.QUOTE_ALL)
    with atomic_writer(out, "wb") as handle:
        handle.write(text.encode("utf-8"))
    return Path(out)


def _batch_inputs(batch: LoadedBatch) -> dict[str, dict[str, str]]:
    """``batch.csv`` rows by HIT code: what MTurk copies into ``Input.*``."""
    path = batch.folder / BATCH_FILE
    if not path.is_file():
        raise DataError(f"{batch.folder}: no {BATCH_FILE}")
    text = read_text(path, error=DataError, encoding="utf-8-sig")
    try:
        return {row[HIT_FIELD]: row for row in csv.DictReader(io.StringIO(text, newline=""))}
    except (csv.Error, KeyError) as exc:
        raise DataError(f"damaged ({exc}); rewrite the batch", str(path)) from None


def _pool(options: SimulationOptions, rng: random.Random) -> list[SimulatedWorker]:
    n_bots = round(options.bots * options.workers)
    n_inattentive = round(options.inattentive * options.workers)
    n_attentive = options.workers - n_bots - n_inattentive
    n_non_native = round(options.non_native * n_attentive)
    kinds = ["bot"] * n_bots + ["inattentive"] * n_inattentive + ["attentive"] * n_attentive
    rng.shuffle(kinds)
    pool, attentive_seen = [], 0
    for number, kind in enumerate(kinds):
        native = True
        if kind == "attentive":
            native = attentive_seen >= n_non_native
            attentive_seen += 1
        offset = rng.uniform(-options.accuracy_spread, options.accuracy_spread)
        pool.append(SimulatedWorker("A" + mturk_id(f"worker:{options.seed}:{number}", 13), kind, offset, native))
    return pool


def _accuracy(worker: SimulatedWorker, uid: str, options: SimulationOptions) -> float:
    base = options.paradigm_accuracy.get(uid, options.accuracy)
    return min(1.0, max(0.0, base + worker.accuracy))


def _answer(
    batch: LoadedBatch,
    code: str,
    worker: SimulatedWorker,
    options: SimulationOptions,
    rng: random.Random,
    accept: datetime,
) -> Submission:
    hit = batch.hits[code]
    answers = {HIT_FIELD: code, HONEYPOT_FIELD: "", "comments": ""}
    for item in hit.items:
        if worker.kind == "bot":
            good = rng.random() < 0.5
        elif worker.kind == "inattentive":
            good = item.good_position == 1 if rng.random() < 0.8 else rng.random() < 0.5
        elif item.kind == "check":
            good = rng.random() < options.check_accuracy
        else:
            good = rng.random() < _accuracy(worker, item.uid if item.kind == "real" else "", options)
        answers[f"{QUESTION_PREFIX}{item.slot}"] = str(item.good_position if good else 3 - item.good_position)
    slots = len(hit.items)
    if worker.kind == "bot":
        seconds = rng.randint(slots, 2 * slots)
        answers[HONEYPOT_FIELD] = "http://cheap-pills.example"
        answers[NATIVE_FIELD] = rng.choice(("yes", "no"))
    elif worker.kind == "inattentive":
        seconds = max(1, round(slots * rng.uniform(0.6, 1.2)))
        answers[NATIVE_FIELD] = "yes"
    else:
        seconds = max(1, round(slots * options.seconds_per_item * rng.lognormvariate(0, 0.25)))
        answers[NATIVE_FIELD] = "yes" if worker.native else "no"
    answers[ELAPSED_FIELD] = f"{max(0.5, seconds - rng.uniform(0.5, 3)):.1f}"
    status = "Rejected" if rng.random() < options.rejected else "Submitted"
    return Submission(
        hit_code=code, worker_id=worker.worker_id, answers=answers, seconds=seconds, accept_time=accept, status=status
    )
