"""Evaluation tasks, one per record type (:class:`~.base.EvalTask`), and the table that picks one.

:data:`TASKS` maps a record class (:mod:`blimpgen.records.types` says which one a JSONL line
or a ``results.json`` holds) to the task that evaluates it; nothing in ``evaluate`` tests a
string to tell record types apart. A new record type adds its task here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from blimpgen.errors import OptionError
from blimpgen.evaluate.tasks.base import EvalTask, TaskOptions
from blimpgen.evaluate.tasks.pairs import PairOptions, PairTask
from blimpgen.evaluate.tasks.probes import ProbeOptions, ProbeTask
from blimpgen.records.item import ProbeItem
from blimpgen.records.pair import MinimalPair

TASKS: dict[type, type[EvalTask]] = {MinimalPair: PairTask, ProbeItem: ProbeTask}

__all__ = [
    "TASKS",
    "EvalTask",
    "PairOptions",
    "PairTask",
    "ProbeOptions",
    "ProbeTask",
    "TaskOptions",
    "make_task",
    "task_for",
]


def task_for(record_type: type) -> type[EvalTask]:
    """The task class that evaluates ``record_type``.

    Raises:
        OptionError: for a record type no task evaluates.
    """
    try:
        return TASKS[record_type]
    except KeyError:
        raise OptionError(f"no evaluation task for {getattr(record_type, 'noun', record_type.__name__)}s") from None


def make_task(record_type: type, options: TaskOptions | Mapping[str, Any] | None = None) -> EvalTask:
    """The task for ``record_type`` with its options: typed, or the options given on the command line.

    Args:
        record_type: the data's record class.
        options: the task's options; or a mapping of the options given (field name -> value), of
            which an option of another record type's task is an error naming its flag.

    Raises:
        OptionError: for options of another record type, or a bad option value.
    """
    task_type = task_for(record_type)
    if options is None or isinstance(options, TaskOptions):
        return task_type(options)
    fields = task_type.options_type.model_fields
    for key in options:
        owner = next((t for t in TASKS.values() if key not in fields and key in t.options_type.model_fields), None)
        if owner is not None:
            noun = task_type.record_type.noun
            own = [task_type.options_type.flag(k) for k in fields if k not in TaskOptions.model_fields]
            raise OptionError(
                f"{owner.options_type.flag(key)} applies to {owner.record_type.noun}s, but --data "
                f"holds {noun}s; {noun}s take {', '.join(own[:-1])} and {own[-1]}"
            )
    return task_type(task_type.options_type(**options))
