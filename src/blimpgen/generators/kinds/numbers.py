"""``kind: number`` - an integer from a range (ages, years), for probes whose gold answer is arithmetic."""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field, model_validator

from blimpgen.generators.kinds.base import Bindings, KindParams, SlotKind


class Number(int):
    """An integer slot value; like a literal it has no lexicon features."""

    def get(self, name: str) -> Any:
        return None


class NumberKind(SlotKind):
    """``kind: number`` - a uniformly drawn integer in ``[min, max]`` (both included), on a
    ``step`` grid from ``min``.

    ``distinct: [slot, ...]`` requires a value different from those (number) slots', at least
    ``min_gap`` away from each of them. In probe suites ``min``/``max`` may name a suite option
    (``min: option.min_age``) so users can move the range: ``gen --option min_age=30``.
    """

    MAX_DRAWS = 64

    class Params(KindParams):
        min: int
        max: int
        step: int = Field(default=1, ge=1)
        distinct: tuple[str, ...] = ()
        min_gap: int = Field(default=1, ge=1)

        @model_validator(mode="after")
        def _range(self) -> NumberKind.Params:
            if self.max < self.min:
                raise ValueError(f"max ({self.max}) is below min ({self.min})")
            if (self.max - self.min) // self.step > 10_000_000:
                raise ValueError("the range holds more than 10,000,000 values; use a coarser step")
            return self

    params: Params  # the validated parameters, as this kind declares them

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        for slot in self.params.distinct:
            self.check_slot_ref(slot, "distinct")
        self.size = (self.params.max - self.params.min) // self.params.step + 1

    def _ok(self, value: int, bindings: Bindings) -> bool:
        gap = self.params.min_gap
        return all(
            not isinstance(bindings.get(s), int) or abs(value - bindings[s]) >= gap for s in self.params.distinct
        )

    def sample(self, rng: random.Random, bindings: Bindings) -> Any | None:
        p = self.params
        for _ in range(self.MAX_DRAWS):
            value = p.min + p.step * rng.randrange(self.size)
            if self._ok(value, bindings):
                return Number(value)
        if self.size > 10_000:
            return None
        fits = [v for v in range(p.min, p.max + 1, p.step) if self._ok(v, bindings)]
        return Number(fits[rng.randrange(len(fits))]) if fits else None

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        p = self.params
        problems = []
        if not isinstance(value, int) or not p.min <= value <= p.max or (value - p.min) % p.step:
            problems.append(f"{value!r} is not in [{p.min}, {p.max}] on a step of {p.step}")
        elif not self._ok(value, bindings):
            problems.append(f"{value} is closer than {p.min_gap} to one of {list(p.distinct)}")
        return problems
