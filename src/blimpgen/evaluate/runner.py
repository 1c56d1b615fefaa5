"""The one evaluation runner: read the data once, score it with its record type's task, write results.

Output folder (the files are written only after everything is scored, all of them or none,
so a failed run leaves no partial result and never new files beside old ones; every file names
the options that produced it):

* the task's records file (``pairs.jsonl``, ``items.jsonl``): one scored row per record;
* ``results.json``: the options (the scorer's and the task's), the run's provenance (library
  versions, model revision or weights hash, device, dtype, date, command line, the data's
  seed and hashes per paradigm: :mod:`blimpgen.evaluate.provenance`) and the task's summary;
* ``results.csv``: the same summary, one row per level (and metric).

Under ``accelerate launch`` (or any launcher that sets ``WORLD_SIZE``) every process scores its
own shard (:mod:`blimpgen.evaluate.distributed`); rows are gathered and the main process writes.

One run evaluates one record type: ``--data`` whose files hold different types is an error,
since each type has its own result tables and one ``results.json`` holds one of them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from blimpgen import __version__
from blimpgen._io import data_files, same_file, write_files
from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate.checks import check_not_all_ties
from blimpgen.evaluate.distributed import distributed, is_main_process, launched_processes, local_rank, run_shards
from blimpgen.evaluate.progress import Progress
from blimpgen.evaluate.provenance import data_provenance, run_provenance
from blimpgen.evaluate.rows import csv_text, to_json
from blimpgen.evaluate.scoring.base import Scorer
from blimpgen.evaluate.scoring.registrations import make_scorer, scorer_id, scorers
from blimpgen.evaluate.tasks import make_task
from blimpgen.evaluate.tasks.base import EvalTask, Located, Selection, Summary, TaskOptions
from blimpgen.records.jsonl import read_json_lines
from blimpgen.records.types import RECORD_TYPES, Record, mismatch, record_type, result_header


@dataclass(frozen=True)
class Data:
    """Records read from ``--data``: all of one type, each with the ``file:line`` it was read from."""

    record_type: type
    records: list[Located]
    files: list[Path]

    @property
    def sources(self) -> list[str]:
        """The files that held records, sorted (what ``results.json`` records as ``data``)."""
        return sorted({where.file for _, where in self.records})


def read_data(data: str | Path | Sequence[str | Path]) -> Data:
    """Every record in a JSONL file, a folder of them, or a list of either, read once.

    A file's records all have the type of its first record (:func:`~blimpgen.records.types.record_type`).

    Raises:
        DataError: for missing files, bad JSON or records (``file:line``), a line of another type
            than its file's first, or no records at all.
        OptionError: for files of different record types.
    """
    paths = [data] if isinstance(data, (str, Path)) else list(data)
    files = _distinct_files(paths)
    first_file: dict[type[Record], Path] = {}
    records: list[Located] = []
    for file in files:
        expected = None
        for where, raw in read_json_lines(file):
            if isinstance(raw, Mapping) and SCORED_ROW_KEYS <= raw.keys():
                raise DataError(
                    "a row of evaluation results (a pairs.jsonl or items.jsonl that `blimpgen eval` "
                    "wrote), not a pair or probe item to evaluate; pass the data that was scored",
                    where.file,
                    where.line,
                )
            found = record_type(raw)
            if expected is None:
                expected = found
                first_file.setdefault(found, file)
            elif found is not expected:
                raise DataError(mismatch(found, expected), where.file, where.line)
            records.append((found.from_dict(raw, where=where), where))
    if len(first_file) > 1:
        a, b = sorted(first_file, key=RECORD_TYPES.index)[:2]
        raise OptionError(
            f"--data mixes {a.noun}s ({first_file[a]}) and {b.noun}s ({first_file[b]}); "
            "evaluate them in separate runs, each with its own -o/--output folder"
        )
    kind = next(iter(first_file), None) or record_type({})  # no records: the default type names the error
    if not records:
        raise DataError(f"{', '.join(str(f) for f in files)}: no {make_task(kind).noun}s to evaluate")
    return Data(kind, records, files)


# Every scored row (PairScore, ItemScore) has these fields, and no record that is evaluated has them.
SCORED_ROW_KEYS = frozenset({"scorer", "tie_policy", "correct"})


def _distinct_files(paths: Sequence[str | Path]) -> list[Path]:
    """The files of every ``--data`` path; a file reached twice is an error (it would count twice).

    Raises:
        OptionError: naming the file and the two ``--data`` paths that reach it.
        DataError: for a path that holds no data files.
    """
    files: list[Path] = []
    seen: dict[tuple[int, int] | Path, tuple[Path, str]] = {}
    for path in paths:
        for file in data_files(path):
            try:
                info = os.stat(file)
                key: tuple[int, int] | Path = (info.st_dev, info.st_ino)
            except OSError:  # unreadable: the reader says why
                key = file.resolve()
            if key in seen:
                first, given = seen[key]
                how = (
                    f"--data {path} is given twice"
                    if str(path) == given
                    else f"--data {given} and --data {path} both name {first}"
                    if first == file
                    else f"--data {given} and --data {path} name the same file ({first} and {file})"
                )
                raise OptionError(f"{how}; its records would count twice: name each file once")
            seen[key] = (file, str(path))
            files.append(file)
    return files


def refuse_output_over_data(out: str | Path, files: Sequence[str | Path], records_file: str = "pairs.jsonl") -> None:
    """Refuse an output folder that holds a data file: the results written there would be read
    back as data by the next run over the folder (or replace the data, were it named like them).

    Raises:
        OptionError: naming the folder and the data file in it.
    """
    for file in files:
        if same_file(Path(file).parent, out):
            raise OptionError(
                f"{out}: the output is also an input: it holds --data {file}, and the results "
                f"written there ({records_file}) would be read as data by the next run over it; "
                "choose another -o/--output"
            )


@dataclass
class EvalResult:
    """What an evaluation produced: the task, the options, per-record rows and the summary."""

    task: EvalTask
    options: dict[str, Any]
    rows: list[Any]
    summary: Summary
    skipped: list[str] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)


def evaluate(
    scorer: Scorer,
    data: Data | str | Path | Sequence[str | Path],
    options: TaskOptions | Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> EvalResult:
    """Evaluate ``scorer`` on the records of ``data``; shard over processes when launched distributed.

    Args:
        scorer: the scorer.
        data: records read by :func:`read_data`, or the paths to read.
        options: the task's options (``PairOptions``, ``ProbeOptions``), or a mapping of option
            names to values; default: the task's defaults.
        progress: called with the number of records scored after each chunk.

    Raises:
        DataError: for bad data, or a record that cannot be scored (``file:line``).
        OptionError: for options of another record type, or bad values.
        ResultError: when every one of 10 or more records ties.
    """
    data = data if isinstance(data, Data) else read_data(data)
    task = make_task(data.record_type, options)
    return run_task(task, scorer, data, task.select(data.records), progress)


def run_task(
    task: EvalTask,
    scorer: Scorer,
    data: Data,
    selection: Selection,
    progress: Callable[[int], None] | None = None,
    reporter: Progress | None = None,
) -> EvalResult:
    """Score ``selection`` with ``task``: prepare, plan every chunk, score each, check, summarize.

    Args:
        progress: called with the number of records scored after each chunk.
        reporter: shown records done after every batch the scorer runs (estimated within a chunk).

    Raises:
        DataError: naming a record that cannot be scored, on every process of a distributed run.
        ResultError: when every one of 10 or more records ties.
    """
    rank, world, gather = distributed()
    task.prepare(scorer)

    def shard() -> list[Any]:
        records = selection.kept[rank::world]
        plans = [task.plan(scorer, records[begin : begin + task.chunk]) for begin in range(0, len(records), task.chunk)]
        rows: list[Any] = []
        for plan in plans:
            if reporter is not None:  # this process's share, scaled to all processes' records
                scorer.batch_hook = _batch_hook(reporter, len(rows), len(plan), world)
            rows += task.score(scorer, plan)
            if progress is not None:
                progress(len(plan))
            if reporter is not None:
                reporter.update_to(len(rows) * world)
        return rows

    try:
        rows = run_shards(shard, rank, world, gather)
    finally:
        scorer.batch_hook = None
        if reporter is not None:
            reporter.close()
    check_not_all_ties(rows, task, scorer)
    options = {
        **scorer.options(),
        "scorer": scorer_id(scorer),
        **task.settings(),
        "data": data.sources,
        f"n_{task.noun}s": len(rows),
        **task.selection_settings(selection),
        "processes": world,
        "blimpgen_version": __version__,
    }
    provenance = run_provenance(
        scorer.provenance(), data_provenance((record for record, _ in selection.kept), task.group_of)
    )
    return EvalResult(task, options, rows, task.summarize(rows), list(selection.skipped), provenance)


def _batch_hook(reporter: Progress, base: int, size: int, world: int) -> Callable[[int, int], None]:
    """Show ``base`` records plus the share of a chunk of ``size`` that its batches done say."""

    def hook(done: int, total: int) -> None:
        reporter.update_to((base + size * done / max(1, total)) * world)

    return hook


def write_results(result: EvalResult, out: str | Path) -> list[Path]:
    """Write the records file, ``results.json`` and ``results.csv`` into ``out``; return their paths.

    Raises:
        OptionError: when ``out`` is a file.
    """
    out = _out_folder(out)
    task, summary = result.task, result.summary
    refuse_output_over_data(out, result.options.get("data", ()), task.records_file)
    records = "".join(json.dumps(to_json(row), ensure_ascii=False) + "\n" for row in result.rows)
    body = {
        **result_header(task.record_type),
        "options": result.options,
        "provenance": result.provenance,
        **summary.to_json(),
    }
    texts = (
        (task.records_file, records),
        ("results.json", json.dumps(body, indent=2, ensure_ascii=False) + "\n"),
        ("results.csv", csv_text(summary.csv_row_type, summary.csv_rows(result.options))),
    )
    return write_files([(out / name, text) for name, text in texts])  # all three, or none replaced


def _out_folder(out: str | Path) -> Path:
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OptionError(f"{out}: -o/--output must be a folder, not a file")
    return out


def format_table(result: EvalResult, detail: bool = False) -> str:
    """The plain-text table of a result (``detail``: per paradigm or suite too, as ``--paradigms``)."""
    return result.summary.table(result.options, detail)


def run_eval(
    scorer_name: str,
    scorer_options: Mapping[str, Any],
    data: Sequence[str | Path],
    out: str | Path | None,
    options: TaskOptions | Mapping[str, Any] | None = None,
    show_progress: bool = False,
) -> EvalResult:
    """Read the data, build the scorer, evaluate, write the results (main process only); the ``eval`` command.

    Args:
        scorer_name: a registered scorer (``hf-causal``, ``hf-causal.v1``...).
        scorer_options: its constructor's options.
        data: JSONL files or folders.
        out: the results folder (None: write nothing).
        options: the task's options, or the evaluation options given (name -> value).
        show_progress: progress on stderr: a bar on a terminal, else a line after the first batch
            and then every 10 seconds (:mod:`blimpgen.evaluate.progress`).

    Raises:
        DataError: for bad data or a record that cannot be scored.
        OptionError: for bad options; UnknownNameError for an unknown scorer.
        ModelLoadError: when the model or its tokenizer cannot be loaded or do not fit.
        ResultError: when every one of 10 or more records ties.
    """
    if out is not None:
        _out_folder(out)
    loaded = read_data(data)
    task = make_task(loaded.record_type, options)
    if out is not None:
        refuse_output_over_data(out, loaded.files, task.records_file)
    selection = task.select(loaded.records)  # bad data fails here, before the model loads
    if launched_processes() > 1:
        scorer_options = scorers.get(scorer_name).place(dict(scorer_options), local_rank())
    scorer = make_scorer(scorer_name, **scorer_options)
    reporter = Progress(len(selection.kept), task.noun) if show_progress and is_main_process() else None
    result = run_task(task, scorer, loaded, selection, reporter=reporter)
    if out is not None and is_main_process():
        write_results(result, out)
    return result


__all__ = ["Data", "EvalResult", "evaluate", "format_table", "read_data", "run_eval", "run_task", "write_results"]
