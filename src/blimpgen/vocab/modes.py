"""Lexicon modes: the same paradigms over real words without their meaning, or over pseudo-words.

* ``default``: the lexicon as written.
* ``colorless`` (Gulordava et al.'s "colorless green" sentences): the words stay, with every
  grammatical feature, but formulas stop asking for meaning. :func:`relax` rewrites a formula
  so that selectional restrictions (``fits(...)``, ``takes(...)``) and tests of the plausibility
  features (:data:`PLAUSIBILITY_FEATURES`) always hold: *The cups have admired this idea.*
* ``nonce``: open-class words become pseudo-words with the same features
  (:mod:`blimpgen.vocab.nonce`).

What colorless keeps is everything with a grammatical reflex in English, even where it is also a
meaning: category, number, person, gender and agreement; mass and count; verb frames and the
hand-decided verb classes (``obligatory_object``, ``never_transitive``, ``inchoative``,
``passive``, ``reflexive``, ``stative``, ``agentive``, ``scene``, ``habitual``, raising and
control); adjective classes; ``animate`` and ``human`` (they choose who/which and he/she/it);
``class`` (a collective noun such as *committee* can take plural agreement, so agreement
paradigms keep leaving groups and institutions out). Only features that say whether an event is
plausible are dropped.

Relaxing is done on the formula's syntax tree, literal by literal: a relaxed literal becomes
whatever makes it hold where it stands (true, or false under a ``not``), and the tree is
simplified. The result accepts every word the original accepted, and more.
"""

from __future__ import annotations

import copy
from typing import Literal

from blimpgen.vocab import query
from blimpgen.vocab.lexicon import Lexicon

LexiconMode = Literal["default", "colorless", "nonce"]
LEXICON_MODES: tuple[str, ...] = ("default", "colorless", "nonce")

# Features that only make events plausible (their docs in features.yaml say so): colorless drops them.
PLAUSIBILITY_FEATURES = frozenset(
    {
        "arg1",
        "arg2",
        "arg3",  # selectional restrictions (reached through fits and takes)
        "domestic",
        "age",
        "occupation",
        "taxon",
        "event_type",
        "concept",
        "stimulus",
        "content",
        "force",
        "size",
        "place",  # how big a thing is, which preposition a place takes
        "isa",
        "ancestors",
        "antonym",
        "synonym",
    }
)

# A formula node that always holds (in both evaluators: "~" with nothing to compare is true).
TRUE: query.Node = ("test", "category", "~", ())
FALSE: query.Node = ("not", TRUE)


def _relaxed_ref(ref: query.Ref) -> bool:
    return ref.path[-1] in PLAUSIBILITY_FEATURES


def _relax(node: query.Node, holds: bool) -> query.Node | bool:
    """``node`` relaxed; True/False when it became a constant. ``holds`` is the value that makes a
    relaxed literal harmless where it stands (False under an odd number of ``not``)."""
    kind: str = node[0]
    if kind in ("and", "or"):
        children = []
        for child in node[1:]:
            relaxed = _relax(child, holds)
            if relaxed is (kind == "or"):  # true in an or, false in an and: decides the whole
                return kind == "or"
            if relaxed is not (kind == "and"):  # true in an and, false in an or: drops out
                children.append(relaxed)
        if not children:
            return kind == "and"
        return children[0] if len(children) == 1 else (kind, *children)
    if kind == "not":
        inner = _relax(node[1], not holds)
        return (not inner) if isinstance(inner, bool) else ("not", inner)
    if kind in ("fits", "takes"):
        return holds
    if kind == "flag":
        return holds if _relaxed_ref(node[1]) else node
    _, name, _, values = node
    if name in PLAUSIBILITY_FEATURES or any(isinstance(v, query.Ref) and _relaxed_ref(v) for v in values):
        return holds
    return node


def relax(node: query.Node) -> query.Node:
    """A formula without its semantic literals (see the module docstring): selectional
    restrictions and plausibility features always hold where they stand."""
    relaxed = _relax(node, True)
    if isinstance(relaxed, bool):
        return TRUE if relaxed else FALSE
    return relaxed


def relaxed_literals(node: query.Node) -> list[str]:
    """The literals :func:`relax` drops from a formula, as text (for reports and tests)."""
    kind = node[0]
    if kind in ("and", "or"):
        return [text for child in node[1:] for text in relaxed_literals(child)]
    if kind == "not":
        return relaxed_literals(node[1])
    if kind == "fits":
        return [f"fits({node[1]})"]
    if kind == "takes":
        return [f"takes({node[1]}, {node[2]})"]
    if kind == "flag":
        return [str(node[1])] if _relaxed_ref(node[1]) else []
    _, name, op, values = node
    if name in PLAUSIBILITY_FEATURES or any(isinstance(v, query.Ref) and _relaxed_ref(v) for v in values):
        return [name if op is None else f"{name}{op}{','.join(map(str, values))}"]
    return []


def colorless_lexicon(lexicon: Lexicon) -> Lexicon:
    """The same words, in colorless mode: formulas evaluated on it are :func:`relax` ed.

    A shallow copy: words, index and caches are shared (relaxed formulas have no ``fits`` to cache).
    """
    view = copy.copy(lexicon)
    view.mode = "colorless"
    return view
