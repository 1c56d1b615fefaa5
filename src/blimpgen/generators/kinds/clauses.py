"""``kind: clause`` - a complete simple clause: subject DP, verb group, and the verb's complements.

It composes the ``dp``, ``verb_group`` and ``args`` kinds, so every constraint they enforce
(agreement, selection, frames) holds inside the clause too. With ``that_clause`` among the
frames, a complement can itself be a clause, down to ``depth`` levels: the "any clause"
nonterminal paradigms such as expletive_it_object_raising need.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from blimpgen.generators.kinds.base import Bindings, Params, Phrase, SlotKind
from blimpgen.generators.kinds.phrases import DEFAULT_DET, FRAMES, ArgsKind, DPKind
from blimpgen.generators.kinds.verbs import PATTERNS, VerbGroupKind

SUBJECT, VERB = "__subject", "__verb"
NOT_THAT = f"({DEFAULT_DET}) and text != that"


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
    """``kind: clause``: ``subject`` (formula for the subject's head), ``verb`` (formula for the
    verb), ``aux``, ``negation`` and ``frames`` as for verb_group and args, ``depth`` (how many
    clauses may nest through that_clause complements)."""

    class Params(Params):
        subject: str = "(N and animate) or PN"
        verb: str = "frames=transitive,intransitive"
        aux: tuple[Literal[PATTERNS], ...] = ("simple", "modal", "progressive", "perfect")  # type: ignore[valid-type]
        negation: Literal["never", "optional", "always"] = "never"
        frames: tuple[Literal[FRAMES], ...] = ("intransitive", "transitive")  # type: ignore[valid-type]
        depth: int = 1

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        p = self.params
        if not 0 <= p.depth <= 3:
            raise self.where("depth must be between 0 and 3", "depth")
        frames = tuple(f for f in p.frames if f != "that_clause" or p.depth > 0)
        inner = (self.name, self.params, self.lexicon, self.earlier, self.where)
        # A clause always follows the complementizer "that", so its subject never takes the
        # demonstrative "that" ("... that that child had left").
        self.subject = DPKind(f"{self.name}.subject", DPKind.Params(head=p.subject, det=NOT_THAT), *inner[2:])
        self.verb = VerbGroupKind(
            f"{self.name}.verb",
            VerbGroupKind.Params(verb=f"({p.verb}) and frames={','.join(frames)}", subject=SUBJECT,
                                 aux=p.aux, negation=p.negation),
            self.lexicon, list(self.earlier) + [SUBJECT], self.where)
        self.args = ArgsKind(f"{self.name}.args", ArgsKind.Params(verb=VERB, frames=frames, distinct=(SUBJECT,),
                                                                   depth=max(p.depth - 1, 0)),
                             self.lexicon, list(self.earlier) + [SUBJECT, VERB], self.where)

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
        return (self.subject.violations(subject, bindings) + self.verb.violations(verb, inner)
                + self.args.violations(args, inner))
