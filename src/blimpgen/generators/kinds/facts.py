"""``kind: fact`` - one row of a fact table (:mod:`blimpgen.vocab.facts`), for probes about the world.

``where`` is a formula of the constraint language over the table's columns, which may refer to
earlier slots (``continent = home.continent and country != home.country``; a word column compares
by lemma, a ``texts`` column like a set); ``distinct: [slot, ...]`` requires a row other than
those slots'. A pick is uniform over the rows that fit. Templates read a row's columns
(``{{ c.capital }}``; a word column gives the lexicon word: ``{{ f.noun | a_an }}``).
"""

from __future__ import annotations

import random
from typing import Any

from blimpgen.errors import SpecError, SpecErrors
from blimpgen.generators.kinds.base import Bindings, KindParams, SlotKind, resolve
from blimpgen.vocab import query
from blimpgen.vocab.facts import FactRow, load_facts

ROW_CATEGORIES = frozenset({"ROW"})


class FactKind(SlotKind):
    """``kind: fact`` - a row of ``table`` that satisfies ``where``."""

    class Params(KindParams):
        table: str
        where: str = ""
        distinct: tuple[str, ...] = ()

    params: Params  # the validated parameters, as this kind declares them

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        try:
            facts = load_facts(self.lexicon)
            rows = facts.table(self.params.table)
        except SpecErrors:
            raise
        except SpecError as exc:
            raise self.where(exc.message, "table") from None
        spec = facts.specs[self.params.table]
        for slot in self.params.distinct:
            self.check_slot_ref(slot, "distinct")
        self.node = None
        if self.params.where.strip():
            try:
                self.node = query.parse(self.params.where)
            except SpecError as exc:
                raise self.where(exc.message, "where") from None
            problems = query.check(self.node, spec.inventory(), self.earlier)
            if problems:
                raise self.where(problems[0], "where")
        self.predicate = query.compile_formula(self.node, ROW_CATEGORIES) if self.node is not None else None
        static, dynamic = query.split_static(self.node) if self.node is not None else ([], [])
        self.base = [row for row in rows if all(query.compile_formula(c, ROW_CATEGORIES)(row, None) for c in static)]
        self.dynamic = [(query.compile_formula(c, ROW_CATEGORIES), query.refs(c)) for c in dynamic]
        self._cache: dict[tuple[Any, ...], list[FactRow]] = {}  # the referenced values -> rows that fit

    def candidates(self, bindings: Bindings) -> list[FactRow]:
        """The rows that fit under ``bindings``, in table order."""
        values = tuple(_key(resolve(bindings, ref.path)) for _, refs in self.dynamic for ref in refs)
        if values not in self._cache:
            if len(self._cache) > 50_000:
                self._cache.clear()
            self._cache[values] = [
                row
                for row in self.base
                if all(test(row, lambda ref: resolve(bindings, ref.path)) for test, _ in self.dynamic)
            ]
        taken = {bindings.get(slot) for slot in self.params.distinct}
        return [row for row in self._cache[values] if row not in taken]

    def sample(self, rng: random.Random, bindings: Bindings) -> Any | None:
        rows = self.candidates(bindings)
        return rows[rng.randrange(len(rows))] if rows else None

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        problems = []
        if not isinstance(value, FactRow) or value.table != self.params.table:
            return [f"{value!r} is not a row of {self.params.table}"]
        if self.predicate is not None and not self.predicate(value, lambda ref: resolve(bindings, ref.path)):
            problems.append(f"{value.fact_id} does not satisfy {self.params.where}")
        if any(bindings.get(slot) == value for slot in self.params.distinct):
            problems.append(f"{value.fact_id} repeats one of {list(self.params.distinct)}")
        return problems


def _key(value: Any) -> Any:
    """A hashable stand-in for a referenced value (rows and words by identity of their content)."""
    if isinstance(value, (FactRow, str, int, frozenset)) or value is None:
        return value
    return getattr(value, "id", repr(value))
