"""Phrase-building slot kinds: ``dp`` (determiner phrase) and ``args`` (a verb's complements)."""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import Field

from blimpgen.generators.kinds.base import Bindings, Params, Phrase, SlotKind
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
        return self.build_with(rng, bindings, head)

    def build_with(self, rng: random.Random, bindings: Bindings, head: Word) -> DP | None:
        """A DP on a head already chosen: its determiner, if it takes one."""
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
    head must not repeat), ``quantified`` (the share of common-noun heads that take a
    quantifier instead: every, each, all, most, many, several - never the NPI licensors no and
    few; default 0, and paradigms whose contrast involves quantifiers or NPIs keep it at 0),
    ``quantifiers`` (a formula narrowing that list, e.g. ``lemma=most,many,several`` where a
    universal would meet a negation it cannot scope under naturally).
    """

    class Params(Params):
        head: str = Field(min_length=1)
        det: str = DEFAULT_DET
        distinct: tuple[str, ...] = ()
        quantified: float = Field(default=0.0, ge=0.0, le=1.0)
        quantifiers: str = DEFAULT_QUANTIFIERS

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.check_formula(self.params.head, "head")
        if self.params.det != "none":
            self.check_formula(self.params.det, "det", ("head",))
        elif self.params.quantified:
            raise self.where("a bare DP (det: none) cannot be quantified", "quantified")
        head = f"({self.params.head}){self.distinct_clause(self.params.distinct)}"
        self.builder = DPBuilder(self, head, self.params.det, "head")
        self.quantifier = None
        if self.params.quantified:
            self.check_formula(self.params.quantifiers, "quantifiers", ("head",))
            self.quantifier = self.selector(f"D and ({QUANTIFIER_DET}) and ({self.params.quantifiers}) and "
                                            f"agreement = head.agreement", "quantifiers", extra_slots=("head",))

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
        if self.quantifier is not None and isinstance(det, Word) and self.quantifier.holds(
                det, {**bindings, "head": value.head}):
            return self.builder.violations(DP(None, value.head), bindings)
        return self.builder.violations(value, bindings)


class Args(Phrase):
    """A verb's complements in one frame (possibly empty)."""

    def __init__(self, frame: str, parts: dict[str, Any], text: str) -> None:
        self.frame = frame
        self.parts = parts
        self.text = text
        self.head = next((p.head for p in parts.values() if isinstance(p, DP)), None)

    def get(self, name: str) -> Any:
        if name == "frame":
            return self.frame
        if name in self.parts:
            return self.parts[name]
        return self.head.get(name) if self.head is not None else None

    @property
    def signature(self) -> tuple:
        return self.head.signature if self.head is not None else ()

    def __str__(self) -> str:
        return self.text


FRAMES = ("intransitive", "transitive", "ditransitive", "dative", "that_clause")


def bare_present_needs_object(verb: Any) -> bool:
    """Whether a verb group in the simple present would read oddly without a complement: its
    habit needs an object (*The finalist saves*, *The gunman hopes*) unless the verb is
    stative or an activity that is a habit on its own (``scene``: *The crow swims*)."""
    return (verb.get("time") == "present" and verb.get("pattern") in ("simple", "do")
            and not verb.head.get("stative") and not verb.head.get("scene"))


class ArgsKind(SlotKind):
    """``kind: args`` - complements for the verb in slot ``verb``, in one of its frames.

    ``frames`` lists the frames allowed here (the verb's own frames are intersected with it);
    objects are DPs satisfying the verb's ``arg2``/``arg3`` (and ``object``, if given), with
    lemmas distinct from the slots in ``distinct``. An inchoative verb (break, melt) never gets
    the intransitive frame here: used intransitively its subject is the theme (arg2), which the
    subject slot, chosen by arg1, is not. A verb whose that-clause needs expletive
    "it" (``expletive_clause``: seem, appear) never gets the that_clause frame (*Mary seems that ...).
    Objects of a negated verb group never take "some" (*didn't eat some cake*: a positive
    polarity clash), nor do objects of a verb negated elsewhere: ``negated_by: SLOT`` (a
    negated copula or verb group in SLOT) or ``under_negation: true`` (a literal "not" in the
    template); a clause complement follows the sequence of tenses under
    the verb. A verb group in the simple present gets the intransitive frame only if its verb is
    stative or an activity that is a habit on its own (``scene``): *The crow swims*, not *The
    gunman hopes*.
    """

    class Params(Params):
        verb: str
        frames: tuple[Literal[FRAMES], ...] = ("intransitive", "transitive")  # type: ignore[valid-type]
        object: str = "N or PN"
        distinct: tuple[str, ...] = ()
        depth: int = 1
        under_negation: bool = False
        negated_by: str | None = None

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.check_slot_ref(self.params.verb, "verb")
        self.check_slot_ref(self.params.negated_by, "negated_by")
        self.check_formula(self.params.object, "object")
        verb, extra = self.params.verb, self.distinct_clause(self.params.distinct)
        obj = f"({self.params.object}) and not relational"
        self.theme = DPBuilder(self, f"({obj}) and fits({verb}.arg2){extra}", DEFAULT_DET, "object")
        self.recipient = DPBuilder(self, f"({obj}) and fits({verb}.arg3){extra}", DEFAULT_DET, "object")
        # The same objects for a negated verb, without "some" (positive polarity).
        self.negated = (DPBuilder(self, f"({obj}) and fits({verb}.arg2){extra}", NEGATED_OBJECT_DET, "object"),
                        DPBuilder(self, f"({obj}) and fits({verb}.arg3){extra}", NEGATED_OBJECT_DET, "object"))
        self.clause = None
        if "that_clause" in self.params.frames and self.params.depth > 0:
            from blimpgen.generators.kinds.clauses import ClauseKind  # clauses build on args

            self.clause = ClauseKind(f"{self.name}.clause", ClauseKind.Params(
                depth=self.params.depth - 1, frames=self.params.frames, embedded_under=self.params.verb),
                self.lexicon, self.earlier, self.where)

    def sample(self, rng: random.Random, bindings: Bindings) -> Args | None:
        verb = bindings[self.params.verb]
        frames = [f for f in self.params.frames if f in (verb.get("frames") or ())
                  and (f != "that_clause" or self.clause is not None)
                  and (f != "intransitive" or not verb.get("inchoative"))
                  and (f != "intransitive" or not bare_present_needs_object(verb))
                  and (f != "that_clause" or not verb.get("expletive_clause"))]
        if not frames:
            return None
        frame = frames[rng.randrange(len(frames))]
        if frame == "intransitive":
            return Args(frame, {}, "")
        if frame == "that_clause":
            clause = self.clause.sample(rng, bindings)
            return None if clause is None else Args(frame, {"clause": clause}, f"that {clause}")
        theme_builder, recipient_builder = self._builders(verb, bindings)
        theme = theme_builder.build(rng, bindings)
        if theme is None:
            return None
        if frame == "transitive":
            return Args(frame, {"object": theme}, theme.text)
        recipient = recipient_builder.build(rng, bindings)
        if recipient is None or recipient.head.lemma == theme.head.lemma:
            return None
        if frame == "ditransitive":
            return Args(frame, {"recipient": recipient, "object": theme}, f"{recipient.text} {theme.text}")
        return Args(frame, {"object": theme, "recipient": recipient}, f"{theme.text} to {recipient.text}")

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        verb = bindings[self.params.verb]
        problems = [] if value.frame in (verb.get("frames") or ()) else [f"verb lacks frame {value.frame}"]
        if "clause" in value.parts:
            problems += self.clause.violations(value.parts["clause"], bindings)
        theme_builder, recipient_builder = self._builders(verb, bindings)
        if "object" in value.parts:
            problems += theme_builder.violations(value.parts["object"], bindings)
        if "recipient" in value.parts:
            problems += recipient_builder.violations(value.parts["recipient"], bindings)
        return problems

    def _builders(self, verb: Any, bindings: Bindings) -> tuple[DPBuilder, DPBuilder]:
        """Theme and recipient builders: without "some" when the verb is negated."""
        negator = verb if self.params.negated_by is None else bindings.get(self.params.negated_by)
        if self.params.under_negation or (negator is not None and negator.get("negated")):
            return self.negated
        return self.theme, self.recipient
