"""``kind: verb_group`` - a verb with its auxiliary, agreeing with a subject.

Patterns (``aux``):

==============  ==========================  =========================
pattern         auxiliary                   verb form
==============  ==========================  =========================
``simple``      none (do when negated)      pres (agreeing) or past
``modal``       will, can, might, ...       bare
``do``          do, does, did               bare
``progressive`` is, are, was, were          ing
``perfect``     has, have, had              en
``passive``     is, are, was, were          en
==============  ==========================  =========================

The auxiliary (or the finite verb when there is none) agrees in number with ``subject`` (or with
``number``, for subjects that are not slots: a gerund is singular); the
verb must accept the subject (``takes(arg1, subject)``) unless ``select_subject: false``.
With ``agreeing: true`` only patterns whose agreeing word marks number are used, so that
``flip('number')`` always has a form to move to.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import Field

from blimpgen.generators.kinds.base import Bindings, Params, Phrase, Selector, SlotKind, resolve
from blimpgen.generators.kinds.simple import EMPTY
from blimpgen.grammar.templates import RenderDeadEnd
from blimpgen.vocab.lexeme import Word

PATTERNS = ("simple", "modal", "do", "progressive", "perfect", "passive")
AUX_OF = {"modal": "modal", "do": "do", "progressive": "be", "perfect": "have", "passive": "be"}
VFORM_OF = {"modal": "bare", "do": "bare", "progressive": "ing", "perfect": "en", "passive": "en"}


class VerbGroup(Phrase):
    """An auxiliary (possibly empty) and a verb; ``str`` is "aux verb"."""

    def __init__(self, aux: Word | None, verb: Word, pattern: str, agreeing: Word) -> None:
        self.head = verb
        self.pattern = pattern
        self.agreeing = agreeing
        self.parts = {"aux": aux if aux is not None else EMPTY, "verb": verb}
        self.text = f"{aux.text} {verb.text}" if aux is not None else verb.text

    def get(self, name: str) -> Any:
        if name == "pattern":
            return self.pattern
        return super().get(name)

    def flip(self, feature: str, lexicon: Any) -> VerbGroup:
        """The same group with ``feature`` flipped on the agreeing word (the aux, else the verb)."""
        other = lexicon.other_form(self.agreeing, **{feature: "*other*"})
        if other is None:
            raise RenderDeadEnd(f"{self.agreeing.id} has no form with another {feature}")
        aux = self.parts["aux"]
        if isinstance(aux, Word):
            return VerbGroup(other if aux is self.agreeing else aux, self.head, self.pattern, other)
        return VerbGroup(None, other, self.pattern, other)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"VerbGroup({self.text!r})"


class VerbGroupKind(SlotKind):
    """``kind: verb_group``; see the module docstring."""

    class Params(Params):
        verb: str = Field(min_length=1)
        subject: str | None = None
        aux: tuple[Literal[PATTERNS], ...] = ("simple", "modal", "progressive", "perfect")  # type: ignore[valid-type]
        tense: tuple[Literal["pres", "past"], ...] = ("pres", "past")
        negation: Literal["never", "optional", "always"] = "never"
        agreeing: bool = False
        select_subject: bool = True
        number: Literal["sg", "pl"] | None = None
        distinct: tuple[str, ...] = ()

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        p = self.params
        self.check_slot_ref(p.subject, "subject")
        if p.agreeing and p.subject is None and p.number is None:
            raise self.where("agreeing: true needs a subject", "agreeing")
        self.check_formula(p.verb, "verb")
        takes = f" and takes(arg1, {p.subject})" if p.subject and p.select_subject else ""
        takes += self.distinct_clause(p.distinct)
        self._selectors: dict[tuple[str, bool], Selector] = {}
        self._formula = f"V and ({p.verb}){takes}"
        self.selector(self._formula, "verb")  # validate now, with the spec's line
        self._aux: dict[tuple, list[Word]] = {}
        for word in self.lexicon.category("AUX"):
            key = (word.get("aux"), bool(word.get("negated")), word.get("tense"))
            self._aux.setdefault(key, []).append(word)

    def _verbs(self, vform: str, agree: bool) -> Selector:
        key = (vform, agree)
        if key not in self._selectors:
            if agree and self.params.number is not None:
                agreement = f" and number={self.params.number}"
            else:
                agreement = f" and number = {self.params.subject}.number" if agree else ""
            # Stative verbs (know, own) are unnatural in the progressive: *is knowing.
            aspect = " and not stative" if vform == "ing" else ""
            # A flipped "puts" -> "put" would read as a grammatical past.
            syncretic = " and not syncretic_past" if agree and self.params.agreeing else ""
            self._selectors[key] = self.selector(
                f"{self._formula} and vform={vform}{agreement}{aspect}{syncretic}", "verb")
        return self._selectors[key]

    def _subject_number(self, bindings: Bindings) -> Any:
        if self.params.number is not None:  # a clausal or gerund subject: always singular, say
            return self.params.number
        return resolve(bindings, (self.params.subject, "number")) if self.params.subject else None

    def sample(self, rng: random.Random, bindings: Bindings) -> VerbGroup | None:
        p = self.params
        negated = {"never": False, "always": True}.get(p.negation)
        if negated is None:
            negated = rng.random() < 0.5
        number = self._subject_number(bindings)
        patterns = list(p.aux)
        rng.shuffle(patterns)
        for pattern in patterns:
            tense = p.tense[rng.randrange(len(p.tense))]
            if pattern == "simple" and not negated:
                if p.agreeing and tense != "pres":
                    tense = "pres" if "pres" in p.tense else None
                if tense is None:
                    continue
                agree = tense == "pres" and (p.subject is not None or p.number is not None)
                verb = self._verbs(tense, agree).pick(rng, bindings)
                if verb is not None:
                    return VerbGroup(None, verb, pattern, verb)
                continue
            aux_type = AUX_OF.get(pattern, "do")
            vform = VFORM_OF.get(pattern, "bare")
            auxes = [a for a in self._aux.get((aux_type, negated, None if aux_type == "modal" else tense), ())
                     if (number is None or a.get("number") in (None, number))
                     and vform in (a.get("selects") or ())
                     and (not p.agreeing or a.get("number") is not None)]
            if not auxes:
                continue
            verb = self._verbs(vform, False).pick(rng, bindings)
            if verb is not None:
                aux = auxes[rng.randrange(len(auxes))]
                return VerbGroup(aux, verb, pattern, aux)
        return None

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        problems = []
        verb, aux = value.head, value.parts["aux"]
        if not self.selector(self._formula, "verb").holds(verb, bindings):
            problems.append(f"{verb.id} does not satisfy {self._formula}")
        number = self._subject_number(bindings)
        agreeing_number = value.agreeing.get("number")
        if number is not None and agreeing_number is not None and agreeing_number != number:
            problems.append(f"{value.agreeing.id} does not agree with subject number {number}")
        if isinstance(aux, Word) and verb.get("vform") not in (aux.get("selects") or ()):
            problems.append(f"{aux.id} does not select {verb.id}")
        if not isinstance(aux, Word) and not verb.get("finite"):
            problems.append(f"{verb.id} is not finite and has no auxiliary")
        return problems
