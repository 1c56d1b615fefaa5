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

``where`` is the formula for the verb (``verb`` is its old name, still read); ``subject`` names
the subject's slot. The auxiliary (or the finite verb when there is none) agrees in number with ``subject`` (or with
``number``, for subjects that are not slots: a gerund is singular); the
verb must accept the subject (``takes(arg1, subject)``) unless ``select_subject: false``.
With ``agreeing: true`` only patterns whose agreeing word marks number are used, so that
``flip('number')`` always has a form to move to.

Policies that make the group read naturally (each a parameter with a default):

* ``present: natural`` - the simple present (and do/does, and the present passive) only with
  verbs that read naturally in it out of context: ``stative`` verbs (knows, owns, annoys) and
  ``habitual`` ones (teaches, jogs, thinks). Other eventive verbs (forget, learn, chew) get the
  past, progressive, perfect or a modal: *This butler forgets those apprentices* becomes *This
  butler forgot ...*.
  With ``bare: true`` (the template writes no complement after the verb) a habitual verb
  must also be an activity that is a habit on its own (``scene``: *The crow swims*, not *The
  finalist saves*). ``present: stative`` keeps only stative verbs (for uses where a verb's habitual reading is
  unavailable: *There promises to be ...*); ``present: any`` lifts the restriction. Stative
  verbs never get the present perfect either (*have believed that S*, *has resembled*: out of
  context it lacks its *for years*); the past perfect is fine (*had known*).
* ``modals`` / ``stative_modals`` - which modals an eventive and a stative verb may take. The
  defaults leave out *may* (formal, ambiguous) and *must* with eventive verbs (a bare order out
  of context: *This ape must limp*), and *can*/*should* with statives (*can doubt*). Negated
  modals come from the same lists (won't, wouldn't, can't, couldn't, shouldn't).
* ``embedded_under: SLOT`` - sequence of tenses for a complement clause under the verb group
  (or verb) in SLOT: under a past matrix the embedded group is past, past perfect or a past-form
  modal (would, could, might, should); under a non-past matrix it is never past perfect, and
  under a present one never *would* (no past or hypothetical anchor). Under a ``prospective``
  verb (promise, predict) it takes will, would, can or could: *promised that she would call*.
* ``same_time_as: SLOT`` - a relative clause and its main clause (either order) stay in one
  time sphere: no past or past perfect with a present or will/can/must; would, could, might
  and should go with either.
* ``negation: optional`` negates a ``negation_share`` of the groups (contracted forms:
  hasn't, didn't, won't), except under a universally quantified subject (every, each, all
  X didn't V is scope-ambiguous).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal, get_args

from pydantic import Field

from blimpgen.generators.kinds.base import Bindings, KindParams, Phrase, Selector, SlotKind, resolve
from blimpgen.generators.kinds.simple import EMPTY
from blimpgen.grammar.templates import RenderDeadEnd
from blimpgen.vocab.lexeme import Word

Pattern = Literal["simple", "modal", "do", "progressive", "perfect", "passive"]
PATTERNS: tuple[str, ...] = get_args(Pattern)
AUX_OF = {"modal": "modal", "do": "do", "progressive": "be", "perfect": "have", "passive": "be"}
VFORM_OF = {"modal": "bare", "do": "bare", "progressive": "ing", "perfect": "en", "passive": "en"}
Modal = Literal["will", "would", "can", "could", "should", "might", "must", "may"]
MODALS: tuple[str, ...] = get_args(Modal)
DEFAULT_MODALS: tuple[Modal, ...] = ("will", "would", "can", "could", "might", "should")
DEFAULT_STATIVE_MODALS: tuple[Modal, ...] = ("will", "would", "could", "might", "must")

# The time of a verb group, as sequence-of-tense rules see it: its finite word's tense, with
# the past perfect apart (it needs a past anchor) and modals split by form: the past-form
# modals (would, could, might, should) go with a past or a present anchor alike.
PRESENT, PAST, PAST_PERFECT, MODAL, PAST_MODAL = "present", "past", "past_perfect", "modal", "past_modal"
TIMES = (PRESENT, PAST, PAST_PERFECT, MODAL, PAST_MODAL)
PAST_FORM_MODALS = frozenset({"would", "could", "might", "should"})
PAST_SPHERE = frozenset({PAST, PAST_PERFECT})
NON_PAST = frozenset({PRESENT, MODAL})
UNIVERSAL = frozenset({"every", "each", "all"})


def time_of(aux: Word | None, verb: Word) -> str | None:
    """The time class of an auxiliary + verb (``None`` for a non-finite verb alone)."""
    if aux is None:
        return {"pres": PRESENT, "past": PAST}.get(verb.get("vform"))
    if aux.get("aux") == "modal":
        return PAST_MODAL if aux.lemma in PAST_FORM_MODALS else MODAL
    if aux.get("tense") == "past":
        return PAST_PERFECT if aux.get("aux") == "have" else PAST
    return PRESENT


def anchored_times(relation: str, anchor: str, prospective: bool = False) -> tuple[frozenset[str], frozenset[str]]:
    """(allowed time classes, banned modal lemmas) for a group in ``relation`` to a group of
    time ``anchor``: ``complement`` (sequence of tenses) or ``relative`` (one time sphere).
    The complement of a ``prospective`` verb (promise, predict) is about a later time: a modal."""
    everything = frozenset(TIMES)
    if prospective and relation == "complement":
        times = frozenset({PAST_MODAL}) if anchor in PAST_SPHERE else frozenset({MODAL, PAST_MODAL})
        banned = {"should", "might", "must", "may"} | ({"would"} if anchor == PRESENT else set())
        return times, frozenset(banned)  # a promise or forecast, not advice
    if anchor in PAST_SPHERE:
        return frozenset({PAST, PAST_PERFECT, PAST_MODAL}), frozenset()
    if relation == "complement":
        return everything - {PAST_PERFECT}, frozenset({"would"}) if anchor == PRESENT else frozenset()
    if anchor in NON_PAST:
        return frozenset({PRESENT, MODAL, PAST_MODAL}), frozenset()
    return everything - {PAST_PERFECT}, frozenset()


def pattern_time(pattern: str, tense: str) -> str:
    """The time class of a non-modal pattern in a tense."""
    if tense == "past":
        return PAST_PERFECT if pattern == "perfect" else PAST
    return PRESENT


class VerbGroup(Phrase):
    """An auxiliary (possibly empty) and a verb; ``str`` is "aux verb"."""

    head: Word

    def __init__(self, aux: Word | None, verb: Word, pattern: str, agreeing: Word) -> None:
        self.head = verb
        self.pattern = pattern
        self.agreeing = agreeing
        self.time = time_of(aux, verb)
        self.negated = bool(aux is not None and aux.get("negated"))
        self.parts = {"aux": aux if aux is not None else EMPTY, "verb": verb}
        self.text = f"{aux.text} {verb.text}" if aux is not None else verb.text

    def get(self, name: str) -> Any:
        if name == "pattern":
            return self.pattern
        if name == "time":
            return self.time
        if name == "negated":
            return self.negated
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


def group_time(value: Any) -> str | None:
    """The time class of a bound verb group, or of a finite verb bound by a ``word`` slot."""
    if isinstance(value, VerbGroup):
        return value.time
    if isinstance(value, Word) and value.category == "V":
        return time_of(None, value)
    return None


class VerbGroupKind(SlotKind):
    """``kind: verb_group``; see the module docstring."""

    renamed: ClassVar[dict[str, str]] = {"verb": "where"}

    class Params(KindParams):
        where: str = Field(min_length=1)
        subject: str | None = None
        aux: tuple[Pattern, ...] = ("simple", "modal", "progressive", "perfect")
        tense: tuple[Literal["pres", "past"], ...] = ("pres", "past")
        negation: Literal["never", "optional", "always"] = "never"
        negation_share: float = Field(default=0.5, ge=0.0, le=1.0)
        agreeing: bool = False
        select_subject: bool = True
        number: Literal["sg", "pl"] | None = None
        distinct: tuple[str, ...] = ()
        present: Literal["natural", "stative", "any"] = "natural"
        bare: bool = False
        modals: tuple[Modal, ...] = DEFAULT_MODALS
        stative_modals: tuple[Modal, ...] = DEFAULT_STATIVE_MODALS
        embedded_under: str | None = None
        same_time_as: str | None = None

    params: Params  # the validated parameters, as this kind declares them

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        p = self.params
        self.check_slot_ref(p.subject, "subject")
        self.check_slot_ref(p.embedded_under, "embedded_under")
        self.check_slot_ref(p.same_time_as, "same_time_as")
        if p.embedded_under is not None and p.same_time_as is not None:
            raise self.where("give embedded_under or same_time_as, not both", "same_time_as")
        if p.agreeing and p.subject is None and p.number is None:
            raise self.where("agreeing: true needs a subject", "agreeing")
        self.check_formula(p.where, "where")
        takes = f" and takes(arg1, {p.subject})" if p.subject and p.select_subject else ""
        takes += self.distinct_clause(p.distinct)
        self._selectors: dict[tuple[str, bool, str], Selector] = {}
        self._formula = f"V and ({p.where}){takes}"
        self.selector(self._formula, "where")  # validate now, with the spec's line
        self._aux: dict[tuple[Any, bool, Any], list[Word]] = {}  # (aux, negated, tense)
        for word in self.lexicon.category("AUX"):
            key = (word.get("aux"), bool(word.get("negated")), word.get("tense"))
            self._aux.setdefault(key, []).append(word)
        self._modals = {False: frozenset(p.modals), True: frozenset(p.stative_modals)}
        self._aux_cache: dict[tuple[Any, ...], list[Word]] = {}
        self._modal_cache: dict[tuple[Any, ...], list[Word]] = {}

    def _verbs(self, vform: str, agree: bool, present: str = "any") -> Selector:
        key = (vform, agree, present)
        if key not in self._selectors:
            if agree and self.params.number is not None:
                agreement = f" and number={self.params.number}"
            else:
                agreement = f" and number = {self.params.subject}.number" if agree else ""
            # Stative verbs (know, own) are unnatural in the progressive: *is knowing.
            aspect = " and not stative" if vform == "ing" else ""
            # Out of context the simple present reads as a state or a habit: only verbs that have one.
            habit = "habitual and scene=indoor,outdoor" if self.params.bare else "habitual"
            aspect += {
                "natural": f" and (stative or ({habit}))",
                "stative": " and stative",
                "eventive": " and not stative",
            }.get(present, "")
            # A flipped "puts" -> "put" would read as a grammatical past.
            syncretic = " and not syncretic_past" if agree and self.params.agreeing else ""
            self._selectors[key] = self.selector(
                f"{self._formula} and vform={vform}{agreement}{aspect}{syncretic}", "where"
            )
        return self._selectors[key]

    def _subject_number(self, bindings: Bindings) -> Any:
        if self.params.number is not None:  # a clausal or gerund subject: always singular, say
            return self.params.number
        return resolve(bindings, (self.params.subject, "number")) if self.params.subject else None

    def _universal_subject(self, bindings: Bindings) -> bool:
        det = resolve(bindings, (self.params.subject, "det")) if self.params.subject else None
        return isinstance(det, Word) and det.lemma in UNIVERSAL

    def _anchor(self, bindings: Bindings) -> tuple[frozenset[str], frozenset[str]] | None:
        """(allowed times, banned modal lemmas) from the anchoring slot, or None."""
        p = self.params
        slot, relation = (p.embedded_under, "complement") if p.embedded_under else (p.same_time_as, "relative")
        if slot is None:
            return None
        value = bindings.get(slot)
        anchor = group_time(value)  # None for a value that is no verb group (None included)
        if anchor is None or value is None:
            return None
        return anchored_times(relation, anchor, bool(value.get("prospective")))

    def _modal_ok(self, aux: Word, verb: Word, anchor: tuple[frozenset[str], frozenset[str]] | None) -> bool:
        if aux.lemma not in self._modals[bool(verb.get("stative"))]:
            return False
        return anchor is None or (time_of(aux, verb) in anchor[0] and aux.lemma not in anchor[1])

    def _auxes(self, aux_type: str, negated: bool, tense: str | None, number: Any, vform: str) -> list[Word]:
        """The auxiliaries of a type that agree with ``number`` and select ``vform`` (cached: the
        answer depends on these values only)."""
        key = (aux_type, negated, tense, number, vform)
        found = self._aux_cache.get(key)
        if found is None:
            found = self._aux_cache[key] = [
                a
                for a in self._aux.get((aux_type, negated, tense), ())
                if (number is None or a.get("number") in (None, number))
                and vform in (a.get("selects") or ())
                and (not self.params.agreeing or a.get("number") is not None)
            ]
        return found

    def _modals_for(
        self, auxes: list[Word], stative: bool, anchor: tuple[frozenset[str], frozenset[str]] | None
    ) -> list[Word]:
        """The modals of ``auxes`` (a list :meth:`_auxes` keeps, hence keyed by identity) allowed
        with a (non-)stative verb under ``anchor``: :meth:`_modal_ok`, whose answer for a modal
        depends on the verb's stativity only (a modal's time is its own), cached."""
        key = (id(auxes), stative, anchor)
        found = self._modal_cache.get(key)
        if found is None:
            modals = self._modals[stative]
            found = self._modal_cache[key] = [
                a
                for a in auxes
                if a.lemma in modals
                and (
                    anchor is None
                    or (
                        (PAST_MODAL if a.lemma in PAST_FORM_MODALS else MODAL) in anchor[0] and a.lemma not in anchor[1]
                    )
                )
            ]
        return found

    def sample(self, rng: random.Random, bindings: Bindings) -> VerbGroup | None:
        p = self.params
        negated = {"never": False, "always": True}.get(p.negation)
        if negated is None:
            negated = rng.random() < p.negation_share and not self._universal_subject(bindings)
        number = self._subject_number(bindings)
        anchor = self._anchor(bindings)
        patterns = list(p.aux)
        rng.shuffle(patterns)
        for pattern in patterns:
            tenses = list(p.tense)
            if p.agreeing and pattern not in ("progressive", "passive"):
                tenses = [t for t in tenses if t == "pres"]  # past verbs, did and had do not mark number
            if anchor is not None and pattern != "modal":
                tenses = [t for t in tenses if pattern_time(pattern, t) in anchor[0]]
            if not tenses:
                continue
            tense = tenses[rng.randrange(len(tenses))]
            present = "any"
            if tense == "pres" and pattern in ("simple", "do", "passive"):
                present = p.present
            elif tense == "pres" and pattern == "perfect" and p.present != "any":
                present = "eventive"
            if pattern == "simple" and not negated:
                agree = tense == "pres" and (p.subject is not None or p.number is not None)
                verb = self._verbs(tense, agree, present).pick(rng, bindings)
                if verb is not None:
                    return VerbGroup(None, verb, pattern, verb)
                continue
            aux_type = AUX_OF.get(pattern, "do")
            vform = VFORM_OF.get(pattern, "bare")
            auxes = self._auxes(aux_type, negated, None if aux_type == "modal" else tense, number, vform)
            if not auxes:
                continue
            verb = self._verbs(vform, False, present).pick(rng, bindings)
            if verb is None:
                continue
            if aux_type == "modal":
                auxes = self._modals_for(auxes, bool(verb.get("stative")), anchor)
                if not auxes:
                    continue
            aux = auxes[rng.randrange(len(auxes))]
            return VerbGroup(aux, verb, pattern, aux)
        return None

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        problems = []
        p = self.params
        verb, aux = value.head, value.parts["aux"]
        if not self.selector(self._formula, "where").holds(verb, bindings):
            problems.append(f"{verb.id} does not satisfy {self._formula}")
        number = self._subject_number(bindings)
        agreeing_number = value.agreeing.get("number")
        if number is not None and agreeing_number is not None and agreeing_number != number:
            problems.append(f"{value.agreeing.id} does not agree with subject number {number}")
        if isinstance(aux, Word) and verb.get("vform") not in (aux.get("selects") or ()):
            problems.append(f"{aux.id} does not select {verb.id}")
        if not isinstance(aux, Word) and not verb.get("finite"):
            problems.append(f"{verb.id} is not finite and has no auxiliary")
        if p.negation == "optional" and value.negated and self._universal_subject(bindings):
            problems.append("a negated group under a universally quantified subject")
        if p.negation != "optional" and value.negated != (p.negation == "always"):
            problems.append(f"negation is {p.negation} but the group is {'' if value.negated else 'not '}negated")
        if (
            p.present != "any"
            and value.time == PRESENT
            and value.pattern in ("simple", "do", "passive")
            and not (
                verb.get("stative")
                or (p.present == "natural" and verb.get("habitual") and (verb.get("scene") or not p.bare))
            )
        ):
            problems.append(f"{verb.id} is in the simple present, which present: {p.present} does not allow")
        if p.present != "any" and value.time == PRESENT and value.pattern == "perfect" and verb.get("stative"):
            problems.append(f"stative {verb.id} is in the present perfect")
        anchor = self._anchor(bindings)
        if isinstance(aux, Word) and aux.get("aux") == "modal" and not self._modal_ok(aux, verb, anchor):
            problems.append(f"modal {aux.text} is not allowed with {verb.id} here")
        if anchor is not None and value.time not in anchor[0]:
            problems.append(f"time {value.time} does not fit the anchor's ({sorted(anchor[0])})")
        return problems
