"""Probe items for the learning-curve tests: a learnable task (where the blank is) and its control.

The learnable task is the position of the blank (``[MASK] a b .`` -> yes, ``a b [MASK] .`` -> no):
a frozen random encoder carries its own position embedding straight to the state at the blank
through the residual stream, whereas what it carries of the other words depends on its random
attention. The control's answers alternate whatever the context, with the blank always in the
same place, so nothing can be learnt.
"""

from __future__ import annotations

import random
from pathlib import Path

from blimpgen.records.item import ProbeItem
from blimpgen.records.jsonl import dumps_record

FILLERS = [f"w{i}" for i in range(20)]
VOCABULARY = " ".join([*FILLERS, "yes", "no", "."])
FAST = {"epochs": 10, "lr": 1e-2, "batch_size": 8}
HEAD = {
    "cls.predictions.bias",
    "cls.predictions.decoder.bias",
    "cls.predictions.transform.dense.weight",
    "cls.predictions.transform.dense.bias",
    "cls.predictions.transform.LayerNorm.weight",
    "cls.predictions.transform.LayerNorm.bias",
}


def position_items(n: int, seed: int, control: bool = False) -> list[ProbeItem]:
    """Learnable: the answer says whether the blank comes first. Control: answers alternate, blank fixed."""
    rng = random.Random(seed)
    items = []
    for i in range(n):
        a, b = rng.sample(FILLERS, 2)
        first = rng.random() < 0.5
        if control:
            context, answer = f"{a} [MASK] {b} .", ("yes", "no")[i % 2]
        else:
            context, answer = (f"[MASK] {a} {b} .", "yes") if first else (f"{a} {b} [MASK] .", "no")
        items.append(
            ProbeItem(
                item_id=f"POS-{seed}-{i:05d}" + (".no_language" if control else ""),
                UID="POS",
                item_type="multiple_choice",
                context=context,
                candidates=("yes", "no"),
                answer=answer,
                control="no_language" if control else "none",
            )
        )
    return items


def write_items(path: Path, items: list[ProbeItem]) -> str:
    path.write_text("".join(dumps_record(item) + "\n" for item in items), encoding="utf-8")
    return str(path)
