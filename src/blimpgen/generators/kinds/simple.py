"""Slot kinds that pick one item: ``word`` (a lexicon word) and ``choice`` (a literal)."""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field

from blimpgen.generators.kinds.base import Bindings, Params, SlotKind


class Text(str):
    """A literal string value (from ``choice``, or an empty part of a phrase)."""

    signature = ()

    def get(self, name: str) -> Any:
        return None


EMPTY = Text("")


def distinct_clause(slots: tuple[str, ...]) -> str:
    """Formula text requiring a lemma different from each named slot's head."""
    return "".join(f" and lemma != {slot}.lemma" for slot in slots)


class WordKind(SlotKind):
    """``kind: word`` - one lexicon word satisfying ``where``.

    ``distinct: [slot, ...]`` additionally requires a lemma different from those slots'.
    """

    class Params(Params):
        where: str = Field(min_length=1)
        distinct: tuple[str, ...] = ()

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        for slot in self.params.distinct:
            self.check_slot_ref(slot, "distinct")
        self.check_formula(self.params.where, "where")
        self.select = self.selector(f"({self.params.where}){distinct_clause(self.params.distinct)}", "where")

    def sample(self, rng: random.Random, bindings: Bindings) -> Any | None:
        return self.select.pick(rng, bindings)

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        return [] if self.select.holds(value, bindings) else [f"{value.id} does not satisfy {self.select.formula}"]


class ChoiceKind(SlotKind):
    """``kind: choice`` - one of a list of literal strings (``values: [after, before]``)."""

    class Params(Params):
        values: tuple[str, ...] = Field(min_length=1)

    def sample(self, rng: random.Random, bindings: Bindings) -> Any | None:
        return Text(self.params.values[rng.randrange(len(self.params.values))])

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        return [] if value in self.params.values else [f"{value!r} is not one of {self.params.values}"]
