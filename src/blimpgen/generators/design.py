"""Balanced designs: every cell of a factor paradigm equally often (``gen --design full``).

:func:`balanced` wraps a paradigm with factors (:mod:`blimpgen.grammar.factors`) so that its
cells take turns: pair ``i`` comes from cell ``i mod cells``, in the design's cell order. Every
prefix of the output is as balanced as it can be, the pairs keep one RNG stream and their
``pair_id`` sequence, and each records its ``levels``. A wrapper serves one generation run.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from blimpgen.errors import OptionError
from blimpgen.generators.kinds.base import Bindings
from blimpgen.generators.paradigm import Paradigm
from blimpgen.generators.source import DeadEnd, Trace
from blimpgen.records import MinimalPair


class BalancedDesign:
    """A :class:`~blimpgen.generators.paradigm.Paradigm` whose cells take turns (a Source).

    Args:
        paradigm: a paradigm with factors.

    Raises:
        OptionError: for a paradigm without factors.
    """

    unit: ClassVar[str] = Paradigm.unit
    duplicate_reason: ClassVar[str] = Paradigm.duplicate_reason
    identity: ClassVar[str] = Paradigm.identity

    def __init__(self, paradigm: Paradigm) -> None:
        if getattr(paradigm, "design", None) is None:
            raise OptionError(f"{paradigm.uid} has no factors, so --design does not apply to it")
        self.paradigm = paradigm
        self.cells = len(paradigm.bodies)
        self.turn = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.paradigm, name)

    def sample(self, rng: random.Random, trace: Trace | None = None) -> Bindings | DeadEnd:
        """Draw from the cell whose turn it is."""
        return self.paradigm.sample(rng, trace, branch=self.turn % self.cells)

    def to_records(self, index: int, bindings: Bindings, fields: dict[str, Any],
                   provenance: dict[str, Any]) -> list[MinimalPair]:
        """The pair, then the next cell's turn."""
        self.turn = index + 1
        return self.paradigm.to_records(index, bindings, fields, provenance)

    def outputs(self, controls: tuple[str, ...] = (), split: bool = False) -> list[tuple[str, BalancedDesign]]:
        """One file, named after the UID."""
        return [(self.paradigm.uid, self)]


def balanced(paradigm: Any) -> BalancedDesign:
    """``paradigm`` with its cells taking turns (see the module docstring).

    Raises:
        OptionError: for a source without factors (a paradigm without them, a probe suite).
    """
    if not isinstance(paradigm, Paradigm):
        raise OptionError(f"{paradigm.uid} is a {paradigm.loaded.spec.noun}; --design applies to paradigms with "
                          "factors")
    return BalancedDesign(paradigm)
