"""Sharding over processes under ``accelerate launch`` (or any launcher that sets ``WORLD_SIZE``).

Shared by the pair and probe runners, so neither imports the other.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from typing import Any

from blimpgen import errors
from blimpgen.errors import BlimpgenError, DataError, OptionError


def distributed() -> tuple[int, int, Callable[[list], list]]:
    """(this process's rank, the number of processes, a gather function) of the current launch.

    One process (rank 0 of 1, gather returns its input) unless ``WORLD_SIZE`` says otherwise.

    Raises:
        BlimpgenError: when accelerate formed a group of another size than the launcher announced.
    """
    if int(os.environ.get("WORLD_SIZE", "1")) <= 1:
        return 0, 1, lambda items: items
    import torch
    from accelerate import PartialState
    from accelerate.utils import gather_object

    # without a GPU, accelerate only forms a process group (gloo) when told to use the CPU
    state = PartialState(cpu=not torch.cuda.is_available())
    if state.num_processes != int(os.environ["WORLD_SIZE"]):
        raise OptionError(f"launched as {os.environ['WORLD_SIZE']} processes but accelerate formed a group of "
                          f"{state.num_processes}; check the launcher's settings")
    return state.process_index, state.num_processes, gather_object


def run_shards(work: Callable[[], list[dict[str, Any]]], rank: int, world: int,
               gather: Callable[[list], list]) -> list[dict[str, Any]]:
    """This process's records (``work()`` scores shard ``items[rank::world]``), gathered from every
    process in input order under a distributed launch.

    An error one process meets is raised on every process: had it raised alone, the others
    would wait for its records in the gather forever.

    Raises:
        BlimpgenError: the first error any process met (by rank), as its own class where it can
            be rebuilt from its message.
    """
    if world == 1:
        return work()
    try:
        shard = work()
        for record, index in zip(shard, itertools.count(rank, world)):
            record["_index"] = index
    except BlimpgenError as exc:
        shard = [{"_error": str(exc), "_error_class": type(exc).__name__}]
    gathered = gather(shard)
    failed = [record for record in gathered if "_error" in record]
    if failed:
        raise _rebuild(failed[0]["_error_class"], failed[0]["_error"])
    return sorted(gathered, key=lambda record: record.pop("_index"))


def _rebuild(name: str, message: str) -> BlimpgenError:
    """An error of class ``name`` (one of :mod:`blimpgen.errors`) carrying ``message``."""
    cls = getattr(errors, name, None)
    if isinstance(cls, type) and issubclass(cls, BlimpgenError) and cls is not BlimpgenError:
        try:
            return cls(message)
        except TypeError:  # a class whose constructor needs more than a message
            pass
    return DataError(message)
