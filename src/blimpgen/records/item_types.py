"""What each type of probe item is made of, and how it is judged: one class per ``item_type``.

A :class:`~blimpgen.records.item.ProbeItem` says its type in ``item_type``; this module gives
each type its shape, and :func:`blimpgen.records.types.item_shape` is the one place that turns
the name into the class. Specs (which keys a suite writes), sources (how the rendered fields
become candidates), the record (what a consistent item is) and the evaluation (what is compared
for sensitivity) all ask the shape, never the name:

=====================  =====================================  =====================================
``item_type``          fields                                 judged by
=====================  =====================================  =====================================
``multiple_choice``    ``candidates`` (K), ``answer``          the answer among the K candidates
                                                              at the blank (oLMpics MC-MLM)
``cloze_contrast``     ``good``, ``bad``, ``expected``         top-k of ``expected``; P(good) > P(bad)
                                                              (Ettinger: NEG-136)
``cloze_foils``        ``good``, ``foils``, ``expected``       top-k of ``expected``; P(good) beats
                                                              every foil (Ettinger: CPRAG-102)
``role_contrast``      ``good`` (the target),                  top-k of ``expected`` in ``context``;
                       ``reversed_context``, ``expected``      P(target | context) > P(target |
                                                              reversed_context) (Ettinger: ROLE-88)
``question``           ``context`` is a question (no blank),   the answer among the K candidates,
                       ``candidates`` (K, any length),         by a question-answering head
                       ``answer``                              (oLMpics MC-QA) or whole sentences
=====================  =====================================  =====================================

A *cell* is one word in one context: what a masked LM scores at the blank. Sensitivity compares
cells: :meth:`ItemShape.comparisons` lists (better cell, worse cell) pairs, and an item is
sensitive when every better cell beats its worse one (and, for the margin version, by more than
the margin in probability), as Ettinger (2020) defines it for each of her diagnostics.
"""

from __future__ import annotations

from typing import ClassVar, Literal, Protocol, overload

BLANK = "[MASK]"
# The item_type names, for spec models and mypy: each shape's ``name`` must be one of them (a
# new type adds its name here and its class below; tests check the two agree).
ItemType = Literal["multiple_choice", "cloze_contrast", "cloze_foils", "role_contrast", "question"]
Cell = tuple[str, str]  # (context with one blank, the word in the blank)

# Controls every type with a blank offers, and those only role items do (Ettinger's -Obj, -Sub, -Both).
TEXT_CONTROLS = ("no_language", "perturbed_language", "shuffled", "truncated", "shuffled_truncated")
ROLE_CONTROLS = ("generic_object", "generic_subject", "generic_both")


class ItemFields(Protocol):
    """What a shape reads of an item: :class:`~blimpgen.records.item.ProbeItem` (which imports
    this module, so the shapes name the fields rather than the class)."""

    @property
    def context(self) -> str: ...
    @property
    def candidates(self) -> tuple[str, ...]: ...
    @property
    def answer(self) -> str: ...
    @property
    def control(self) -> str: ...
    @property
    def contexts(self) -> dict[str, str] | None: ...
    @property
    def good(self) -> str | None: ...
    @property
    def bad(self) -> str | None: ...
    @property
    def foils(self) -> tuple[str, ...]: ...
    @property
    def reversed_context(self) -> str | None: ...

    def context_for(self, option: str) -> str:
        """The context ``option`` is placed in."""
        ...


class ItemShape:
    """One item type. Subclasses set the class attributes and the methods that differ."""

    name: ClassVar[ItemType]
    # spec keys the type requires, and those it may also have (every other answer key is refused)
    required: ClassVar[tuple[str, ...]]
    optional: ClassVar[tuple[str, ...]] = ()
    blank: ClassVar[bool] = True  # the context holds one blank (a question holds none)
    multiple_choice: ClassVar[bool] = True  # the answer competes with the other candidates
    contrast: ClassVar[bool] = False  # sensitivity: comparisons of cells
    controls: ClassVar[tuple[str, ...]] = ("none", *TEXT_CONTROLS)
    # each option may have its own context (a/an before the blank): ``contexts``
    option_contexts: ClassVar[bool] = True
    # the fields of the JSON form beyond the common ones, in order
    json_fields: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def options(
        cls, candidates: tuple[str, ...], good: str | None, bad: str | None, foils: tuple[str, ...]
    ) -> tuple[tuple[str, ...], str | None]:
        """(candidates, answer) of an item of this type from its rendered fields; answer None:
        the item's own ``answer`` field."""
        return candidates, None

    @classmethod
    def cells(cls, item: ItemFields) -> list[Cell]:
        """Every (context, word) a masked LM scores at the blank, answer first."""
        return [(item.context_for(option), option) for option in item.candidates]

    @classmethod
    def comparisons(cls, item: ItemFields) -> list[tuple[Cell, Cell]]:
        """(better, worse) cells whose order sensitivity tests; empty: no sensitivity."""
        return []

    @classmethod
    def problems(cls, item: ItemFields) -> list[str]:
        """What is inconsistent in an item of this type (beyond the checks every item gets)."""
        return []


class MultipleChoice(ItemShape):
    """oLMpics MC-MLM: the answer among K single-word candidates at the blank."""

    name = "multiple_choice"
    required = ("candidates", "answer")


class ClozeContrast(ItemShape):
    """Ettinger's good/bad completion pair (NEG-136): ``candidates`` is ``[good, bad]``."""

    name = "cloze_contrast"
    required = ("good", "bad")
    optional = ("expected",)
    contrast = True
    json_fields = ("expected", "good", "bad")

    @classmethod
    def options(
        cls, candidates: tuple[str, ...], good: str | None, bad: str | None, foils: tuple[str, ...]
    ) -> tuple[tuple[str, ...], str | None]:
        return (good or "", bad or ""), good

    @classmethod
    def comparisons(cls, item: ItemFields) -> list[tuple[Cell, Cell]]:
        good, bad = _given(item.good, "good"), _given(item.bad, "bad")
        return [((item.context_for(good), good), (item.context_for(bad), bad))]

    @classmethod
    def problems(cls, item: ItemFields) -> list[str]:
        if item.good is None or item.bad is None:
            return ["a cloze_contrast item needs good and bad"]
        if (item.good, item.bad) != tuple(item.candidates) or item.answer != item.good:
            return ["a cloze_contrast item's candidates must be [good, bad] and its answer good"]
        return []


class ClozeFoils(ItemShape):
    """Ettinger's CPRAG: the expected word against several foils (within and between category);
    ``candidates`` is ``[good, *foils]``, and sensitivity means beating every foil."""

    name = "cloze_foils"
    required = ("good", "foils")
    optional = ("expected",)
    contrast = True
    json_fields = ("expected", "good", "foils")

    @classmethod
    def options(
        cls, candidates: tuple[str, ...], good: str | None, bad: str | None, foils: tuple[str, ...]
    ) -> tuple[tuple[str, ...], str | None]:
        return (good or "", *foils), good

    @classmethod
    def comparisons(cls, item: ItemFields) -> list[tuple[Cell, Cell]]:
        good = _given(item.good, "good")
        best = (item.context_for(good), good)
        return [(best, (item.context_for(foil), foil)) for foil in item.foils]

    @classmethod
    def problems(cls, item: ItemFields) -> list[str]:
        if item.good is None or not item.foils:
            return ["a cloze_foils item needs good and at least one foil"]
        if (item.good, *item.foils) != tuple(item.candidates) or item.answer != item.good:
            return ["a cloze_foils item's candidates must be [good, *foils] and its answer good"]
        return []


class RoleContrast(ItemShape):
    """Ettinger's ROLE: one target word in two contexts, the plausible role order (``context``)
    and its reversal (``reversed_context``); ``candidates`` is ``[target]``."""

    name = "role_contrast"
    required = ("good", "reversed_context")
    optional = ("expected",)
    multiple_choice = False
    contrast = True
    controls = ("none", "shuffled", "truncated", "shuffled_truncated", *ROLE_CONTROLS)
    option_contexts = False
    json_fields = ("expected", "good", "reversed_context")

    @classmethod
    def options(
        cls, candidates: tuple[str, ...], good: str | None, bad: str | None, foils: tuple[str, ...]
    ) -> tuple[tuple[str, ...], str | None]:
        return (good or "",), good

    @classmethod
    def cells(cls, item: ItemFields) -> list[Cell]:
        target = _given(item.good, "good")
        return [(item.context, target), (_given(item.reversed_context, "reversed_context"), target)]

    @classmethod
    def comparisons(cls, item: ItemFields) -> list[tuple[Cell, Cell]]:
        plausible, reversed_ = cls.cells(item)
        return [(plausible, reversed_)]

    @classmethod
    def problems(cls, item: ItemFields) -> list[str]:
        problems = []
        if item.good is None or item.reversed_context is None:
            return ["a role_contrast item needs good (the target) and reversed_context"]
        if tuple(item.candidates) != (item.good,) or item.answer != item.good:
            problems.append("a role_contrast item's candidates must be [good] (the target) and its answer good")
        if item.reversed_context.count(BLANK) != 1:
            problems.append(f"reversed_context must contain exactly one {BLANK}")
        if item.reversed_context == item.context and item.control == "none":  # -Both makes them equal
            problems.append("reversed_context equals context")
        if item.contexts is not None:
            problems.append("a role_contrast item has no per-option contexts")
        return problems


class Question(ItemShape):
    """oLMpics MC-QA: a question without a blank and K answers of any length."""

    name = "question"
    required = ("candidates", "answer")
    blank = False
    controls = ("none", "no_language", "perturbed_language", "shuffled")
    option_contexts = False

    @classmethod
    def cells(cls, item: ItemFields) -> list[Cell]:
        return []

    @classmethod
    def problems(cls, item: ItemFields) -> list[str]:
        if BLANK in item.context:
            return [f"a question has no blank {BLANK}"]
        if item.contexts is not None:
            return ["a question has no per-option contexts"]
        return []


def _given(value: str | None, key: str) -> str:
    """A field the item's type requires (its :meth:`ItemShape.problems` refuse an item without it)."""
    if value is None:
        raise ValueError(f"the item has no {key}")
    return value


SHAPES: tuple[type[ItemShape], ...] = (MultipleChoice, ClozeContrast, ClozeFoils, RoleContrast, Question)
ITEM_TYPES: tuple[str, ...] = tuple(shape.name for shape in SHAPES)
CONTROLS: tuple[str, ...] = ("none", *TEXT_CONTROLS, *ROLE_CONTROLS)
_BY_NAME: dict[str, type[ItemShape]] = {shape.name: shape for shape in SHAPES}


@overload
def item_shape(name: ItemType) -> type[ItemShape]: ...
@overload
def item_shape(name: str) -> type[ItemShape] | None: ...
def item_shape(name: str) -> type[ItemShape] | None:
    """The shape of the item type ``name`` (None for an unknown name): the one place a probe
    item's ``item_type`` string becomes a class (re-exported by :mod:`blimpgen.records.types`)."""
    return _BY_NAME.get(name)
