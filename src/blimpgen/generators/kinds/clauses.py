"""``kind: args`` (a verb's complements) and ``kind: clause`` (a complete simple clause).

A clause composes the ``dp``, ``verb_group`` and ``args`` kinds, so every constraint they
enforce (agreement, selection, frames) holds inside the clause too. With ``that_clause`` among
the frames, a complement can itself be a clause, down to ``depth`` levels: the "any clause"
nonterminal paradigms such as expletive_it_object_raising need. The two kinds are defined
together because they are mutually recursive (a clause inside a VP inside a clause).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar, Literal, get_args

from pydantic import Field

from blimpgen.errors import SpecError
from blimpgen.generators.kinds.base import Bindings, KindParams, Phrase, SlotKind
from blimpgen.generators.kinds.phrases import DEFAULT_DET, DP, NEGATED_OBJECT_DET, DPBuilder, DPKind
from blimpgen.generators.kinds.verbs import Pattern, VerbGroupKind

SUBJECT, VERB = "__subject", "__verb"
NOT_THAT = f"({DEFAULT_DET}) and text != that"


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

    def __str__(self) -> str:
        return self.text


Frame = Literal["intransitive", "transitive", "ditransitive", "dative", "that_clause"]
FRAMES: tuple[str, ...] = get_args(Frame)


def bare_present_needs_object(verb: Any) -> bool:
    """Whether a verb group in the simple present would read oddly without a complement: its
    habit needs an object (*The finalist saves*, *The gunman hopes*) unless the verb is
    stative or an activity that is a habit on its own (``scene``: *The crow swims*)."""
    return (
        verb.get("time") == "present"
        and verb.get("pattern") in ("simple", "do")
        and not verb.head.get("stative")
        and not verb.head.get("scene")
    )


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

    class Params(KindParams):
        verb: str
        frames: tuple[Frame, ...] = ("intransitive", "transitive")
        object: str = "N or PN"
        distinct: tuple[str, ...] = ()
        depth: int = 1
        under_negation: bool = False
        negated_by: str | None = None

    params: Params  # the validated parameters, as this kind declares them

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
        self.negated = (
            DPBuilder(self, f"({obj}) and fits({verb}.arg2){extra}", NEGATED_OBJECT_DET, "object"),
            DPBuilder(self, f"({obj}) and fits({verb}.arg3){extra}", NEGATED_OBJECT_DET, "object"),
        )
        self.clause = None
        if "that_clause" in self.params.frames and self.params.depth > 0:
            self.clause = ClauseKind(
                f"{self.name}.clause",
                ClauseKind.Params(
                    depth=self.params.depth - 1, frames=self.params.frames, embedded_under=self.params.verb
                ),
                self.lexicon,
                self.earlier,
                self.where,
            )

    def sample(self, rng: random.Random, bindings: Bindings) -> Args | None:
        verb = bindings[self.params.verb]
        frames = [
            f
            for f in self.params.frames
            if f in (verb.get("frames") or ())
            and (f != "that_clause" or self.clause is not None)
            and (f != "intransitive" or not verb.get("inchoative"))
            and (f != "intransitive" or not bare_present_needs_object(verb))
            and (f != "that_clause" or not verb.get("expletive_clause"))
        ]
        if not frames:
            return None
        frame = frames[rng.randrange(len(frames))]
        if frame == "intransitive":
            return Args(frame, {}, "")
        if frame == "that_clause":
            clause = self._clause().sample(rng, bindings)
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
            problems += self._clause().violations(value.parts["clause"], bindings)
        theme_builder, recipient_builder = self._builders(verb, bindings)
        if "object" in value.parts:
            problems += theme_builder.violations(value.parts["object"], bindings)
        if "recipient" in value.parts:
            problems += recipient_builder.violations(value.parts["recipient"], bindings)
        return problems

    def _clause(self) -> ClauseKind:
        """The kind of a that_clause complement (there is one only when the frames and depth allow it)."""
        if self.clause is None:
            raise self.where("a that_clause complement needs that_clause among the frames and depth >= 1", "frames")
        return self.clause

    def _builders(self, verb: Any, bindings: Bindings) -> tuple[DPBuilder, DPBuilder]:
        """Theme and recipient builders: without "some" when the verb is negated."""
        negator = verb if self.params.negated_by is None else bindings.get(self.params.negated_by)
        if self.params.under_negation or (negator is not None and negator.get("negated")):
            return self.negated
        return self.theme, self.recipient


class Clause(Phrase):
    """Subject + verb group + complements."""

    def __init__(self, subject: Phrase, verb: Phrase, args: Phrase) -> None:
        self.head = verb.head
        self.parts = {"subject": subject, "verb": verb, "args": args}
        self.text = " ".join(t for t in (str(subject), str(verb), str(args)) if t)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Clause({self.text!r})"


class ClauseKind(SlotKind):
    """``kind: clause``: ``subject_where`` (formula for the subject's head), ``verb_where``
    (formula for the verb; ``subject`` and ``verb`` are their old names, still read), ``aux``,
    ``negation``, ``negation_share``, ``embedded_under`` and ``frames`` as for
    verb_group and args, ``quantified`` as for dp (the subject), ``depth`` (how many clauses
    may nest through that_clause complements; a nested clause follows the sequence of tenses
    under the verb that embeds it)."""

    renamed: ClassVar[dict[str, str]] = {"subject": "subject_where", "verb": "verb_where"}

    class Params(KindParams):
        subject_where: str = "(N and animate) or PN"
        verb_where: str = "frames=transitive,intransitive"
        aux: tuple[Pattern, ...] = ("simple", "modal", "progressive", "perfect")
        negation: Literal["never", "optional", "always"] = "never"
        negation_share: float = Field(default=0.5, ge=0.0, le=1.0)
        embedded_under: str | None = None
        quantified: float = Field(default=0.0, ge=0.0, le=1.0)
        frames: tuple[Frame, ...] = ("intransitive", "transitive")
        depth: int = 1

    params: Params  # the validated parameters, as this kind declares them

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        p = self.params
        if not 0 <= p.depth <= 3:
            raise self.where("depth must be between 0 and 3", "depth")
        frames = tuple(f for f in p.frames if f != "that_clause" or p.depth > 0)

        # errors of the inner subject and verb point at this slot's subject_where / verb_where
        def located(own: str) -> Callable[..., SpecError]:
            return lambda message, key: self.where(message, own if key == "where" else key)

        # A clause always follows the complementizer "that", so its subject never takes the
        # demonstrative "that" ("... that that child had left").
        self.subject = DPKind(
            f"{self.name}.subject",
            DPKind.Params(where=p.subject_where, det=NOT_THAT, quantified=p.quantified),
            self.lexicon,
            self.earlier,
            located("subject_where"),
        )
        self.verb = VerbGroupKind(
            f"{self.name}.verb",
            VerbGroupKind.Params(
                where=f"({p.verb_where}) and frames={','.join(frames)}",
                subject=SUBJECT,
                aux=p.aux,
                negation=p.negation,
                negation_share=p.negation_share,
                embedded_under=p.embedded_under,
            ),
            self.lexicon,
            list(self.earlier) + [SUBJECT],
            located("verb_where"),
        )
        self.args = ArgsKind(
            f"{self.name}.args",
            ArgsKind.Params(verb=VERB, frames=frames, distinct=(SUBJECT,), depth=max(p.depth - 1, 0)),
            self.lexicon,
            list(self.earlier) + [SUBJECT, VERB],
            self.where,
        )

    def sample(self, rng: random.Random, bindings: Bindings) -> Clause | None:
        subject = self.subject.sample(rng, bindings)
        if subject is None:
            return None
        inner = {**bindings, SUBJECT: subject}
        verb = self.verb.sample(rng, inner)
        if verb is None:
            return None
        args = self.args.sample(rng, {**inner, VERB: verb})
        return None if args is None else Clause(subject, verb, args)

    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        subject, verb, args = value.parts["subject"], value.parts["verb"], value.parts["args"]
        inner = {**bindings, SUBJECT: subject, VERB: verb}
        return (
            self.subject.violations(subject, bindings)
            + self.verb.violations(verb, inner)
            + self.args.violations(args, inner)
        )
