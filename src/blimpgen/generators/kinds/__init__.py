"""The registry of slot kinds. Built-ins are registered here, in one place, lazily.

Third parties add kinds through the ``blimpgen.kinds`` entry-point group; a kind is a
:class:`~blimpgen.generators.kinds.base.SlotKind` subclass with a nested ``Params`` model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from blimpgen.registry import Registry

if TYPE_CHECKING:  # the kinds themselves load on first use
    from blimpgen.generators.kinds.base import SlotKind

slot_kinds: Registry[type[SlotKind]] = Registry("slot kind", entry_point_group="blimpgen.kinds")
slot_kinds.register("word.v1", "blimpgen.generators.kinds.simple:WordKind")
slot_kinds.register("choice.v1", "blimpgen.generators.kinds.simple:ChoiceKind")
slot_kinds.register("dp.v1", "blimpgen.generators.kinds.phrases:DPKind")
slot_kinds.register("args.v1", "blimpgen.generators.kinds.clauses:ArgsKind")
slot_kinds.register("verb_group.v1", "blimpgen.generators.kinds.verbs:VerbGroupKind")
slot_kinds.register("number.v1", "blimpgen.generators.kinds.numbers:NumberKind")
slot_kinds.register("clause.v1", "blimpgen.generators.kinds.clauses:ClauseKind")
slot_kinds.register("fact.v1", "blimpgen.generators.kinds.facts:FactKind")

__all__ = ["slot_kinds"]
