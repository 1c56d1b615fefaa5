"""The training loop of every learning curve (MC-MLM's head, MC-QA's encoder and head).

AdamW (betas 0.9, 0.98, as in oLMpics' configuration) with weight decay on matrices only, a
linear warm-up over ``warmup_ratio`` of the steps then linear decay to 0, gradients clipped to
norm 1, and the items visited in an order drawn from the run's seed, epoch after epoch, until
the step budget is spent. What a trainer adds is the loss of a batch.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from blimpgen.evaluate.options import OptionsModel, option_field


class TrainOptions(OptionsModel):
    """How the head is trained in each run.

    Args:
        epochs: passes over the N items (ignored when ``steps`` is set).
        steps: a fixed number of optimizer steps whatever N (cycling through the items).
        lr: peak learning rate of AdamW (betas 0.9, 0.98, as in oLMpics' configuration).
        batch_size: items per step.
        weight_decay: on matrices only; biases and norm weights get none.
        warmup_ratio: linear warm-up over this share of the steps, then linear decay to 0.

    Raises:
        OptionError: for a value out of range, naming its flag.
    """

    epochs: int = option_field(4, "--epochs", ge=1)
    steps: int | None = option_field(None, "--steps", ge=1)
    lr: float = option_field(5e-5, "--lr", gt=0)
    batch_size: int = option_field(16, "--batch-size", ge=1)
    weight_decay: float = option_field(0.1, "--weight-decay", ge=0)
    warmup_ratio: float = option_field(0.06, "--warmup-ratio", ge=0, lt=1)


def train(
    parameters: Sequence[Any],
    modules: Sequence[Any],
    indices: Sequence[int],
    seed: int,
    options: TrainOptions,
    batch_loss: Callable[[Any], Any],
) -> list[float]:
    """Train ``parameters`` on the items ``indices``; return the mean training loss of each epoch.

    Args:
        parameters: the tensors the optimizer moves.
        modules: put in training mode for the loop (dropout on) and back in evaluation mode after.
        indices: the items to train on.
        seed: draws the order of the items in each epoch.
        options: epochs or steps, learning rate, batch size, weight decay, warm-up.
        batch_loss: ``batch_loss(batch)`` is the mean loss of the items ``batch`` (a CPU tensor of
            item indices).
    """
    import torch

    generator = torch.Generator().manual_seed(seed)
    index = torch.tensor(list(indices), dtype=torch.long)
    per_epoch = math.ceil(len(index) / options.batch_size)
    total = options.steps if options.steps is not None else options.epochs * per_epoch
    warmup = round(total * options.warmup_ratio)
    groups = [
        {"params": [p for p in parameters if p.ndim >= 2], "weight_decay": options.weight_decay},
        {"params": [p for p in parameters if p.ndim < 2], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW([g for g in groups if g["params"]], lr=options.lr, betas=(0.9, 0.98))
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: (s + 1) / warmup if s < warmup else max(0.0, (total - s) / max(1, total - warmup))
    )
    losses: list[float] = []
    step = 0
    for module in modules:
        module.train()
    while step < total:
        order = index[torch.randperm(len(index), generator=generator)]
        summed, seen = 0.0, 0
        for begin in range(0, len(order), options.batch_size):
            if step == total:
                break
            batch = order[begin : begin + options.batch_size]
            loss = batch_loss(batch)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(parameters, 1.0)
            optimizer.step()
            schedule.step()
            summed += loss.item() * len(batch)
            seen += len(batch)
            step += 1
        losses.append(summed / seen)
    for module in modules:
        module.eval()
    return losses


@contextlib.contextmanager
def seeded(device: Any, seed: int) -> Iterator[None]:
    """Torch's global generators (CPU, and ``device``'s when it is a GPU) seeded with ``seed``
    inside the block, and as they were after it: the caller's random state is untouched."""
    import torch

    with torch.random.fork_rng(devices=[device.index or 0] if device.type == "cuda" else []):
        torch.manual_seed(seed)
        yield
