"""The ``dp`` slot kind (determiner phrase), and the DP builder complements reuse (:mod:`.clauses`)."""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field

from blimpgen.generators.kinds.base import Bindings, Params, Phrase, SlotKind
from blimpgen.generators.kinds.simple import EMPTY
from blimpgen.vocab import morphology
from blimpgen.vocab.lexeme import Word

DEFAULT_DET = "D and frequent"


class DP(Phrase):
    """A determiner phrase: optional determiner + head noun (or a bare name)."""

    def __init__(self, det: Word | None, head: Word) -> None:
        self.head = head
        self.parts = {"det": det if det is not None else EMPTY, "head": head}
        if det is None:
            self.text = head.text
        elif det.get("article"):
            self.text = f"{morphology.indefinite_article(head.text)} {head.text}"
        else:
            self.text = f"{det.text} {head.text}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"DP({self.text!r})"


class DPBuilder:
    """Pick a head with ``head_formula`` and a determiner that agrees with it.

    Proper names never take a determiner; with ``det="none"`` no head takes one (use it with
    plural or mass heads: bare plurals).
    """

    def __init__(self, kind: SlotKind, head_formula: str, det_formula: str, key: str) -> None:
        self.head = kind.selector(head_formula, key)
        self.bare = det_formula == "none"
        self.det = None if self.bare else kind.selector(
            f"D and ({det_formula}) and agreement = head.agreement", "det", extra_slots=("head",))

    def build(self, rng: random.Random, bindings: Bindings) -> DP | None:
        head = self.head.pick(rng, bindings)
        if head is None:
            return None
        if self.bare or head.category != "N":
            return DP(None, head)
        det = self.det.pick(rng, {**bindings, "head": head})
        return None if det is None else DP(det, head)

    def violations(self, value: DP, bindings: Bindings) -> list[str]:
        problems = []
        if not self.head.holds(value.head, bindings):
            problems.append(f"{value.head.id} does not satisfy {self.head.formula}")
        det = value.parts["det"]
        if isinstance(det, Word) and not self.det.holds(det, {**bindings, "head": value.head}):
            problems.append(f"determiner {det.id} does not agree with {value.head.id}")
        return problems


class DPKind(SlotKind):
    """``kind: dp`` - a determiner phrase whose head satisfies ``head``.

    Parameters: ``head`` (formula for the noun or name), ``det`` (formula for the determiner,
    default ``D and frequent``; ``none`` for bare nouns), ``distinct`` (slots whose lemma the
    head must not repeat).
    """

    class Params(Params):
        head: str = Field(min_length=1)
        det: str = DEFAULT_DET
        distinct: tuple[str, ...] = ()

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.check_formula(self.params.head, "head")
        if self.params.det != "none":
            self.check_formula(self.params.det, "det", ("head",))
        head = f"({self.params.head}){self.distinct_clause(self.params.distinct)}"
        self.builder = DPBuilder(self, head, self.params.det, "head")

    def sample(self, rng: random.Random, bindings: Bindings) -> DP | None:
        return self.builder.build(rng, bindings)

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        return self.builder.violations(value, bindings)
