"""The ``dp`` slot kind (determiner phrase), and the DP builder complements reuse (:mod:`.clauses`)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import Field

from blimpgen.generators.kinds.base import Bindings, KindParams, Phrase, SlotKind
from blimpgen.generators.kinds.simple import EMPTY
from blimpgen.vocab import morphology
from blimpgen.vocab.lexeme import Word

DEFAULT_DET = "D and frequent"
# Quantifiers a quantified DP may take: neither negative nor downward entailing (no, few license
# NPIs), nor the weak "some" and "much" (already a frequent determiner / mass-only).
QUANTIFIER_DET = "quantifier and lemma=every,each,all,most,many,several"
DEFAULT_QUANTIFIERS = "lemma=every,each,all,most,many,several"
# Under a negated verb an object with "some" reads as a positive polarity clash (didn't eat some cake).
NEGATED_OBJECT_DET = "frequent and not lemma=some"


class DP(Phrase):
    """A determiner phrase: optional determiner + head noun (or a bare name)."""

    head: Word

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
        self.det = (
            None
            if self.bare
            else kind.selector(f"D and ({det_formula}) and agreement = head.agreement", "det", extra_slots=("head",))
        )

    def build(self, rng: random.Random, bindings: Bindings) -> DP | None:
        head = self.head.pick(rng, bindings)
        if head is None:
            return None
        return self.build_with(rng, bindings, head)

    def build_with(self, rng: random.Random, bindings: Bindings, head: Word) -> DP | None:
        """A DP on a head already chosen: its determiner, if it takes one."""
        if self.det is None or head.category != "N":  # no determiner selector: bare
            return DP(None, head)
        det = self.det.pick(rng, {**bindings, "head": head})
        return None if det is None else DP(det, head)

    def violations(self, value: DP, bindings: Bindings) -> list[str]:
        problems = []
        if not self.head.holds(value.head, bindings):
            problems.append(f"{value.head.id} does not satisfy {self.head.formula}")
        det = value.parts["det"]
        if isinstance(det, Word) and self.det is None:
            problems.append(f"determiner {det.id} in a bare DP")
        elif (
            isinstance(det, Word) and self.det is not None and not self.det.holds(det, {**bindings, "head": value.head})
        ):
            problems.append(f"determiner {det.id} does not agree with {value.head.id}")
        return problems


class DPKind(SlotKind):
    """``kind: dp`` - a determiner phrase whose head satisfies ``where``.

    Parameters: ``where`` (formula for the noun or name; ``head`` is its old name, still
    read), ``det`` (formula for the determiner,
    default ``D and frequent``; ``none`` for bare nouns), ``distinct`` (slots whose lemma the
    head must not repeat), ``quantified`` (the share of common-noun heads that take a
    quantifier instead: every, each, all, most, many, several - never the NPI licensors no and
    few; default 0, and paradigms whose contrast involves quantifiers or NPIs keep it at 0),
    ``quantifiers`` (a formula narrowing that list, e.g. ``lemma=most,many,several`` where a
    universal would meet a negation it cannot scope under naturally).
    """

    renamed: ClassVar[dict[str, str]] = {"head": "where"}

    class Params(KindParams):
        where: str = Field(min_length=1)
        det: str = DEFAULT_DET
        distinct: tuple[str, ...] = ()
        quantified: float = Field(default=0.0, ge=0.0, le=1.0)
        quantifiers: str = DEFAULT_QUANTIFIERS

    params: Params  # the validated parameters, as this kind declares them

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.check_formula(self.params.where, "where")
        if self.params.det != "none":
            self.check_formula(self.params.det, "det", ("head",))
        elif self.params.quantified:
            raise self.where("a bare DP (det: none) cannot be quantified", "quantified")
        head = f"({self.params.where}){self.distinct_clause(self.params.distinct)}"
        self.builder = DPBuilder(self, head, self.params.det, "where")
        self.quantifier = None
        if self.params.quantified:
            self.check_formula(self.params.quantifiers, "quantifiers", ("head",))
            self.quantifier = self.selector(
                f"D and ({QUANTIFIER_DET}) and ({self.params.quantifiers}) and agreement = head.agreement",
                "quantifiers",
                extra_slots=("head",),
            )

    def sample(self, rng: random.Random, bindings: Bindings) -> DP | None:
        if self.quantifier is not None and rng.random() < self.params.quantified:
            head = self.builder.head.pick(rng, bindings)
            if head is None:
                return None
            if head.category == "N":
                det = self.quantifier.pick(rng, {**bindings, "head": head})
                if det is not None:
                    return DP(det, head)
            return self.builder.build_with(rng, bindings, head)
        return self.builder.build(rng, bindings)

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        det = value.parts["det"]
        if (
            self.quantifier is not None
            and isinstance(det, Word)
            and self.quantifier.holds(det, {**bindings, "head": value.head})
        ):
            return self.builder.violations(DP(None, value.head), bindings)
        return self.builder.violations(value, bindings)
