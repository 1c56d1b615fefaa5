"""Sharding over processes under ``accelerate launch`` (or any launcher that sets ``WORLD_SIZE``).

The runner scores shard ``records[rank::world]`` on each process and gathers the rows here, in
input order, whatever their type. An error on one process is raised on every process.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from blimpgen import errors
from blimpgen.errors import BlimpgenError, DataError, OptionError

T = TypeVar("T")


def launched_processes() -> int:
    """How many processes the launcher started (``WORLD_SIZE``; 1 without a launcher)."""
    return int(os.environ.get("WORLD_SIZE", "1"))


def local_rank() -> int:
    """This process's index on its machine (``LOCAL_RANK``): the GPU it should use."""
    return int(os.environ.get("LOCAL_RANK", "0"))


def is_main_process() -> bool:
    """False on every process but the first of a distributed launch."""
    return int(os.environ.get("RANK", "0")) == 0


def distributed() -> tuple[int, int, Callable[[list], list]]:
    """(this process's rank, the number of processes, a gather function) of the current launch.

    One process (rank 0 of 1, gather returns its input) unless ``WORLD_SIZE`` says otherwise.

    Raises:
        OptionError: when accelerate formed a group of another size than the launcher announced.
    """
    if launched_processes() <= 1:
        return 0, 1, lambda items: items
    import torch
    from accelerate import PartialState
    from accelerate.utils import gather_object

    # without a GPU, accelerate only forms a process group (gloo) when told to use the CPU
    state = PartialState(cpu=not torch.cuda.is_available())
    if state.num_processes != launched_processes():
        raise OptionError(
            f"launched as {os.environ['WORLD_SIZE']} processes but accelerate formed a group of "
            f"{state.num_processes}; check the launcher's settings"
        )
    return state.process_index, state.num_processes, gather_object


@dataclass(frozen=True)
class _Indexed:
    """A row and its position in the input."""

    index: int
    row: Any


@dataclass(frozen=True)
class _Failed:
    """A process's error, sent in place of its rows."""

    error_class: str
    message: str


def run_shards(work: Callable[[], list[T]], rank: int, world: int, gather: Callable[[list], list]) -> list[T]:
    """This process's rows (``work()`` scores shard ``records[rank::world]``), gathered from every
    process in input order under a distributed launch.

    An error one process meets is raised on every process: had it raised alone, the others
    would wait for its rows in the gather forever.

    Raises:
        DataError, OptionError, ModelLoadError, ResultError: the first error any process met
            (by rank), rebuilt as its own class where its constructor takes a message (else
            a DataError).
    """
    if world == 1:
        return work()
    shard: list[Any]
    try:
        shard = [_Indexed(index, row) for row, index in zip(work(), itertools.count(rank, world))]
    except BlimpgenError as exc:
        shard = [_Failed(type(exc).__name__, str(exc))]
    gathered = gather(shard)
    failed = [entry for entry in gathered if isinstance(entry, _Failed)]
    if failed:
        raise _rebuild(failed[0].error_class, failed[0].message)
    return [entry.row for entry in sorted(gathered, key=lambda entry: entry.index)]


def _rebuild(name: str, message: str) -> BlimpgenError:
    """An error of class ``name`` (one of :mod:`blimpgen.errors`) carrying ``message``."""
    cls = getattr(errors, name, None)
    if isinstance(cls, type) and issubclass(cls, BlimpgenError) and cls is not BlimpgenError:
        try:
            return cls(message)
        except TypeError:  # a class whose constructor needs more than a message
            pass
    return DataError(message)
