"""The evaluation task: everything one record type needs from the one runner.

The runner (:mod:`blimpgen.evaluate.runner`) reads the data, picks the task of its record type
(:data:`blimpgen.evaluate.tasks.TASKS`) and drives it::

    task = PairTask(options)                      # or ProbeTask: one class per record type
    selection = task.select(records)              # what is scored; before any model loads
    task.prepare(scorer)                          # once per run and process
    plans = [task.plan(scorer, chunk) for chunk in chunks(selection.kept)]   # bad records fail here
    rows = [row for plan in plans for row in task.score(scorer, plan)]       # typed rows, input order
    summary = task.summarize(rows)                # to_json(), csv_rows(options), table(options, detail)

A task also reads its results back for ``blimpgen report`` (:class:`ModelResult`,
:meth:`EvalTask.report_table`, :meth:`EvalTask.report_figures`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from blimpgen.errors import OptionError, SourceLoc
from blimpgen.evaluate.metrics import Tie
from blimpgen.evaluate.options import OptionsModel, option_field
from blimpgen.evaluate.scoring.base import Scorer
from blimpgen.records.types import Record

Located = tuple[Any, SourceLoc]  # a record and the file:line it was read from


class TaskOptions(OptionsModel):
    """Options every task takes; each task's options subclass this (every field is recorded in results).

    Args:
        tie: how an exact tie counts: ``wrong`` (BLiMP: good must score higher), ``half``, ``right``.
        limit: score at most this many records per paradigm (suite), the first ones in file order.
    """

    tie: Tie = option_field("wrong", "--tie", label="tie policy")
    limit: int | None = option_field(None, "--limit", ge=1)


@dataclass(frozen=True)
class Selection:
    """What a task scores: the kept records (with ``file:line``) and the groups it skipped."""

    kept: list[Located]
    skipped: tuple[str, ...] = ()


class Plan(Protocol):
    """A chunk's queries, as a task planned them; its length is the number of records."""

    def __len__(self) -> int: ...


class Summary(Protocol):
    """A task's accuracy tables: written as JSON and CSV, printed as a table."""

    csv_row_type: ClassVar[type]

    def to_json(self) -> dict[str, Any]:
        """The body of ``results.json`` after its ``options``."""
        ...

    def csv_rows(self, options: Mapping[str, Any]) -> list[Any]:
        """The rows of ``results.csv`` (``csv_row_type``), stamped from the result's options."""
        ...

    def table(self, options: Mapping[str, Any], detail: bool = False) -> str:
        """The plain-text table ``eval`` prints (``detail``: per paradigm or suite too)."""
        ...


PlanT = TypeVar("PlanT", bound=Plan)


class EvalTask(ABC, Generic[PlanT]):
    """How one record type is evaluated. Subclasses set the class attributes and the methods;
    ``PlanT`` is the type of their chunk plans (what :meth:`plan` makes and :meth:`score` takes).

    Args:
        options: this task's options (an instance of ``options_type``).
    """

    record_type: ClassVar[type[Record]]  # the record class (MinimalPair, ProbeItem)
    options_type: ClassVar[type[TaskOptions]]
    noun: ClassVar[str]  # one record, for progress and messages: "pair", "item"
    result_noun: ClassVar[str]  # "pair results" / "probe results" in report messages
    records_file: ClassVar[str]  # per-record output: "pairs.jsonl", "items.jsonl"
    groups_key: ClassVar[str]  # results.json's per-paradigm (per-suite) table
    chunk: ClassVar[int]  # records handed to the scorer at once
    tie_sides: ClassVar[str]  # what ties, for the all-tie refusal: "good and bad"
    tie_note: ClassVar[str] = ""  # appended to that refusal

    def __init__(self, options: TaskOptions | None = None) -> None:
        self.options = options if options is not None else self.options_type()
        if not isinstance(self.options, self.options_type):
            raise OptionError(
                f"{type(self.options).__name__} are not options of {self.record_type.noun}s "
                f"(those are {self.options_type.__name__})"
            )

    @abstractmethod
    def select(self, records: Sequence[Located]) -> Selection:
        """The records to score (at most ``limit`` per paradigm or suite).

        Raises:
            OptionError: when the options leave nothing to score.
            DataError: for records that cannot be evaluated together (e.g. a repeated id).
        """

    def prepare(self, scorer: Scorer) -> None:
        """Per-run state that needs the scorer, made once before planning (default: none).

        Raises:
            OptionError: when the options do not fit the scorer.
        """

    @abstractmethod
    def plan(self, scorer: Scorer, chunk: Sequence[Located]) -> PlanT:
        """The queries of one chunk of records; every chunk is planned before any is scored.

        Raises:
            DataError: naming the record (``file:line``) when it cannot be scored.
        """

    @abstractmethod
    def score(self, scorer: Scorer, plan: PlanT) -> list[Any]:
        """Score a planned chunk: one typed row per record, in input order.

        Raises:
            DataError: naming the record when the scorer refuses one of its texts.
        """

    @abstractmethod
    def summarize(self, rows: Sequence[Any]) -> Summary:
        """The accuracy tables of every scored row."""

    @abstractmethod
    def settings(self) -> dict[str, Any]:
        """This task's options as ``results.json`` records them (after :meth:`prepare`)."""

    def group_of(self, record: Any) -> str:
        """The paradigm (suite) a record belongs to: the rows of ``groups_key`` (default: its ``UID``)."""
        return str(getattr(record, "UID", ""))

    def selection_settings(self, selection: Selection) -> dict[str, Any]:
        """What ``results.json`` records about the selection, after the record count (default: none)."""
        return {}

    # -- results read back (blimpgen report) ----------------------------------------------------
    @classmethod
    @abstractmethod
    def report_table(
        cls, results: Sequence[ModelResult], metric: str | None
    ) -> tuple[list[ModelResult], list[str], list[list[Any]], str]:
        """(the results as tabulated, header, rows, a note under the table) for ``blimpgen report``.

        Raises:
            OptionError: for a metric these results do not have.
        """

    @classmethod
    @abstractmethod
    def report_figures(
        cls, results: Sequence[ModelResult], folder: str | Path, human: dict[str, float] | None, metric: str | None
    ) -> list[Path]:
        """Draw this result type's figures into ``folder``; return the paths written."""


def model_label(options: Mapping[str, Any]) -> Any:
    """What a result calls its model: the model, else the n-gram file, else the unigram corpus."""
    return options.get("model") or options.get("ngram_model") or options.get("corpus")


@dataclass(frozen=True)
class ModelResult:
    """One model's evaluation, as read back from its result folder.

    Attributes:
        label: the folder's name (made unique by ``blimpgen report``).
        task: the task class of the record type the results are about.
        groups: the per-paradigm (probes: per-suite) table.
        metrics: the metric names of a result that has several (probes), else empty.
    """

    label: str
    folder: Path
    task: type[EvalTask]
    options: dict[str, Any]
    overall: dict[str, Any]
    phenomena: dict[str, dict[str, Any]]
    groups: dict[str, dict[str, Any]]
    metrics: tuple[str, ...] = ()

    def relabel(self, label: str) -> ModelResult:
        """The same result under another label."""
        return ModelResult(
            label, self.folder, self.task, self.options, self.overall, self.phenomena, self.groups, self.metrics
        )

    def for_metric(self, metric: str) -> ModelResult:
        """A result seen through one of its metrics: every row is that metric's row, and groups
        or phenomena where nothing was judged are left out (so tables and figures read
        ``accuracy`` as they do for a one-metric result).

        Raises:
            OptionError: when the result has no such metric.
        """
        if metric not in self.metrics:
            raise OptionError(
                f"{self.folder}: no metric {metric!r} in these {self.task.result_noun}; "
                f"they have: {', '.join(self.metrics)}"
            )

        def pick(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
            return {
                name: {**row[metric], **({"control": row["control"]} if "control" in row else {})}
                for name, row in rows.items()
                if metric in row and row[metric]["accuracy"] is not None
            }

        return ModelResult(
            self.label,
            self.folder,
            self.task,
            self.options,
            self.overall.get(metric, {"accuracy": None}),
            pick(self.phenomena),
            pick(self.groups),
            self.metrics,
        )

    def records(self) -> list[dict[str, Any]]:
        """The per-record results (read on demand: they can be large).

        Raises:
            DataError: when the records file cannot be read (``file:line`` for a bad line).
        """
        from blimpgen.records.jsonl import read_json_lines

        return [data for _, data in read_json_lines(self.folder / self.task.records_file)]
