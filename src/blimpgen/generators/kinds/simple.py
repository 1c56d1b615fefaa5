"""Slot kinds that pick one item: ``word`` (a lexicon word) and ``choice`` (a literal)."""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field

from blimpgen.generators.kinds.base import Bindings, KindParams, SlotKind


class Text(str):
    """A literal string value (from ``choice``, or an empty part of a phrase)."""

    def get(self, name: str) -> Any:
        return None


class Paired(Text):
    """A choice of linked strings (``{good: more than, bad: at least}``); prints its first value."""

    values: dict[str, str]

    def __new__(cls, values: dict[str, str]) -> Paired:
        obj = super().__new__(cls, next(iter(values.values())))
        obj.values = dict(values)
        return obj

    def get(self, name: str) -> Any:
        return self.values.get(name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self.values:
            raise AttributeError(name)
        return self.values[name]


EMPTY = Text("")


class WordKind(SlotKind):
    """``kind: word`` - one lexicon word satisfying ``where``.

    ``distinct: [slot, ...]`` additionally requires a lemma different from those slots'.
    """

    class Params(KindParams):
        where: str = Field(min_length=1)
        distinct: tuple[str, ...] = ()

    params: Params  # the validated parameters, as this kind declares them

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.check_formula(self.params.where, "where")
        self.select = self.selector(f"({self.params.where}){self.distinct_clause(self.params.distinct)}", "where")

    def sample(self, rng: random.Random, bindings: Bindings) -> Any | None:
        return self.select.pick(rng, bindings)

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        return [] if self.select.holds(value, bindings) else [f"{value.id} does not satisfy {self.select.formula}"]


class ChoiceKind(SlotKind):
    """``kind: choice`` - one of a list of literal strings (``values: [after, before]``).

    Values may instead be mappings of linked strings, all with the same keys
    (``values: [{good: more than, bad: at least}, {good: fewer than, bad: at most}]``);
    templates then write ``{{ quantity.good }}`` and ``{{ quantity.bad }}``.
    """

    class Params(KindParams):
        values: tuple[str | dict[str, str], ...] = Field(min_length=1)

    params: Params  # the validated parameters, as this kind declares them

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        values = self.params.values
        if any(isinstance(v, dict) for v in values):
            keys = [tuple(v) if isinstance(v, dict) else None for v in values]
            if any(k != keys[0] or not k for k in keys):
                raise self.where("linked values must all be mappings with the same keys", "values")
        self.options = [Paired(v) if isinstance(v, dict) else Text(v) for v in values]

    def sample(self, rng: random.Random, bindings: Bindings) -> Any | None:
        return self.options[rng.randrange(len(self.options))]

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        return [] if value in self.options else [f"{value!r} is not one of {self.params.values}"]
