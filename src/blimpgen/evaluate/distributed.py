"""Sharding over processes under ``accelerate launch`` (or any launcher that sets ``WORLD_SIZE``).

Shared by the pair and probe runners, so neither imports the other.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from blimpgen.errors import OptionError


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
