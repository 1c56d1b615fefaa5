"""Balanced designs: every cell of a factor paradigm equally often (``gen --design full``).

:func:`balanced` wraps a paradigm with factors (:mod:`blimpgen.grammar.factors`) so that its
cells take turns: pair ``i`` comes from cell ``i mod cells``, in the design's cell order. Every
prefix of the output is as balanced as it can be, the pairs keep one RNG stream and their
``pair_id`` sequence, and each records its ``levels``. A wrapper serves one generation run.
A chosen subset (``gen --design attractor=none,pp``: :func:`parse_design`) keeps the cells
whose levels are listed, in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from blimpgen.errors import OptionError, did_you_mean
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

    def __init__(self, paradigm: Paradigm, chosen: dict[str, list[str]] | None = None) -> None:
        design = paradigm.design
        if design is None:
            raise OptionError(f"{paradigm.uid} has no factors, so --design does not apply to it")
        levels = dict(design.factors)
        for factor, wanted in (chosen or {}).items():
            if factor not in levels:
                raise OptionError(f"{paradigm.uid} has no factor {factor!r}{did_you_mean(factor, levels)}")
            for level in wanted:
                if level not in levels[factor]:
                    raise OptionError(
                        f"{paradigm.uid}: factor {factor!r} has no level {level!r}{did_you_mean(level, levels[factor])}"
                    )
        names = design.matching(chosen or {})
        index = {body.variant.name: i for i, body in enumerate(paradigm.bodies)}
        self.paradigm = paradigm
        self.branches = [index[name] for name in names]  # the chosen cells' bodies, in design order
        self.cells = len(self.branches)
        self.turn = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.paradigm, name)

    def sample(self, rng: random.Random, trace: Trace | None = None) -> Bindings | DeadEnd:
        """Draw from the cell whose turn it is."""
        return self.paradigm.sample(rng, trace, branch=self.branches[self.turn % self.cells])

    def to_records(
        self, index: int, bindings: Bindings, fields: dict[str, Any], provenance: dict[str, Any]
    ) -> list[MinimalPair]:
        """The pair, then the next cell's turn."""
        self.turn = index + 1
        return self.paradigm.to_records(index, bindings, fields, provenance)

    def outputs(self, controls: tuple[str, ...] = (), split: bool = False) -> list[tuple[str, BalancedDesign]]:
        """One file, named after the UID."""
        return [(self.paradigm.uid, self)]


def balanced(paradigm: Any, chosen: dict[str, list[str]] | None = None) -> BalancedDesign:
    """``paradigm`` with its cells (those ``chosen``, when given) taking turns (see the module docstring).

    Args:
        paradigm: a paradigm with factors.
        chosen: factor -> the levels to keep (factors not named keep every level).

    Raises:
        OptionError: for a source without factors (a paradigm without them, a probe suite), an
            unknown factor or level.
    """
    if not isinstance(paradigm, Paradigm):
        raise OptionError(
            f"{paradigm.uid} is a {paradigm.loaded.spec.noun}; --design applies to paradigms with factors"
        )
    return BalancedDesign(paradigm, chosen)


def balanced_all(sources: Sequence[Any], chosen: dict[str, list[str]]) -> list[BalancedDesign]:
    """Each of ``sources`` balanced (``gen --design`` with several paradigms): a chosen factor
    applies to the paradigms that have it, and the others keep every cell.

    Raises:
        OptionError: for a factor none of them has, a level the factor lacks, a source without factors.
    """
    if len(sources) == 1:  # an unknown factor: an error with this paradigm's own did-you-mean
        return [balanced(sources[0], chosen)]
    owned = [
        {factor for factor, _ in source.design.factors} if isinstance(source, Paradigm) and source.design else set()
        for source in sources
    ]
    every = set().union(*owned)
    for factor in chosen:
        if factor not in every:
            raise OptionError(f"no paradigm given has a factor {factor!r}{did_you_mean(factor, every)}")
    return [
        balanced(source, {factor: levels for factor, levels in chosen.items() if factor in own})
        for source, own in zip(sources, owned)
    ]


def parse_design(values: Sequence[str]) -> dict[str, list[str]]:
    """``--design`` values as factor -> chosen levels: ``full`` (every cell) or ``FACTOR=LEVEL,LEVEL``
    (repeatable, one factor each; a factor given twice keeps the levels of both).

    Raises:
        OptionError: for a value of neither form.
    """
    chosen: dict[str, list[str]] = {}
    for value in values:
        if value.strip() == "full":
            continue
        factor, sep, levels = value.partition("=")
        wanted = [level.strip() for level in levels.split(",") if level.strip()]
        if not sep or not factor.strip() or not wanted:
            raise OptionError(f"--design takes full or FACTOR=LEVEL,LEVEL (e.g. attractor=none,pp), got {value!r}")
        chosen.setdefault(factor.strip(), [])
        chosen[factor.strip()] += [level for level in wanted if level not in chosen[factor.strip()]]
    return chosen
