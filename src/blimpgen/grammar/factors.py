"""Factors: a paradigm as a factorial design, declared in YAML (see ``docs/factors.md``).

A paradigm may declare named factors, each with named levels; a level adds slots (or replaces a
shared slot of the same name, in place) and gives the text that stands where a template writes
the factor's name::

    slots:
      head: {kind: word, where: "N and plural_type=regular"}
      verb: {kind: verb_group, verb: "frames=intransitive", subject: head, agreeing: true}
    factors:
      attractor:
        none: {}
        pp:
          slots: {att: {kind: dp, head: "N and number != head.number", distinct: [head]}}
          text: "near {{ att }}"
    good: "The {{ head }} {{ attractor }} {{ verb }}."
    bad: "The {{ head }} {{ attractor }} {{ verb | flip('number') }}."

:func:`expand_factors` rewrites such a document, before validation, into the ``branches:`` form
every later layer already knows: one branch per cell of the design (every combination of
levels, named ``attractor=pp,adjective=present``), holding every slot in order (shared slots
first, level slots after them, in factor order; a replacing slot keeps its shared place) and the
templates with ``{{ factor }}`` replaced by the cell's level text. Errors in a cell point at the
line where the slot or template was written. The :class:`Design` it returns says which levels
each cell has; pairs record them (``levels``) and ``gen --design full`` makes every cell equally
often.

A level may also choose the lexicon its cell is built over (``lexicon: colorless``; one factor
per paradigm may): the same paradigm with plausible and with colorless fillers, so that a report
shows how much a model's accuracy depends on meaning (the plausibility factor).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from blimpgen._yaml import KeyPath, LineTable
from blimpgen.errors import SpecError

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
TEMPLATE_BLOCKS = ("good", "bad", "one_prefix", "two_prefix")
LEVEL_KEYS = ("slots", "text", "lexicon")
# What a level's ``lexicon:`` may choose. Nonce words depend on the generation seed, which a spec
# does not know; ``gen --lexicon-mode nonce`` applies to a whole paradigm instead.
LEVEL_LEXICONS = ("default", "colorless")


@dataclass(frozen=True)
class Design:
    """The factors of a paradigm and the levels of each cell.

    Attributes:
        factors: (factor, its levels in order), in declaration order.
        cells: branch name -> {factor: level}, every combination, in the order levels vary
            (the last factor fastest).
        lexicons: branch name -> the lexicon mode its cell is built over (``default`` or
            ``colorless``), for every cell when a factor's levels choose one (``lexicon:``;
            empty otherwise: every cell is built over the paradigm's own lexicon).
        lexicon_factor: the factor whose levels choose the lexicon mode, if any.
    """

    factors: tuple[tuple[str, tuple[str, ...]], ...]
    cells: dict[str, dict[str, str]]
    lexicons: dict[str, str] = field(default_factory=dict)
    lexicon_factor: str | None = None

    def matching(self, chosen: dict[str, list[str]]) -> list[str]:
        """The cells (branch names, in design order) whose level of each factor in ``chosen`` is
        one of the levels listed for it; factors not named may have any level."""
        return [
            name
            for name, levels in self.cells.items()
            if all(levels[factor] in wanted for factor, wanted in chosen.items())
        ]


def cell_name(levels: dict[str, str]) -> str:
    """The branch name of a cell: ``attractor=pp,adjective=present``."""
    return ",".join(f"{factor}={level}" for factor, level in levels.items())


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A ``re.sub`` replacement that inserts ``text`` as it is (no backslash escapes)."""
    return lambda _: text


def _substitute(value: Any, texts: dict[str, str]) -> Any:
    """A template (or a block of templates) with each ``{{ factor }}`` replaced by its level text."""
    if isinstance(value, dict):
        return {key: _substitute(item, texts) for key, item in value.items()}
    if not isinstance(value, str):
        return value
    for factor, text in texts.items():
        value = re.sub(r"\{\{\s*" + re.escape(factor) + r"\s*\}\}", _literal(text), value)
    return value


def _check(raw: dict[str, Any], table: LineTable) -> list[SpecError]:
    factors = raw["factors"]
    if not isinstance(factors, dict) or not factors:
        return [table.error(("factors",), "factors: a mapping of factor -> its levels (at least one factor)")]
    errors = []
    if "branches" in raw:
        errors.append(table.error(("branches",), "give factors or branches, not both (factors make the branches)"))
    top_slots = raw.get("slots")
    shared: dict[str, Any] = top_slots if isinstance(top_slots, dict) else {}
    added: dict[str, tuple[str]] = {}
    chooser = None  # the one factor whose levels may choose the lexicon
    for factor, levels in factors.items():
        where: KeyPath = ("factors", factor)
        if not isinstance(factor, str) or not NAME.match(factor) or factor in shared:
            errors.append(table.error(where, f"factor name {factor!r} must be an identifier that is not a slot"))
        if not isinstance(levels, dict) or len(levels) < 2:
            errors.append(table.error(where, "a factor needs at least two levels (level: {slots: ..., text: ...})"))
            continue
        for level, body in levels.items():
            at = where + (level,)
            if not isinstance(level, str) or not NAME.match(level):
                errors.append(table.error(at, f"level name {level!r} must be an identifier"))
            if body is None:
                continue
            if not isinstance(body, dict) or set(body) - set(LEVEL_KEYS):
                unknown = sorted(set(body) - set(LEVEL_KEYS)) if isinstance(body, dict) else []
                not_keys = f", not {unknown}" if unknown else ""
                errors.append(table.error(at, f"a level has slots, text and lexicon only{not_keys}"))
                continue
            if "lexicon" in body:
                if body["lexicon"] not in LEVEL_LEXICONS:
                    errors.append(
                        table.error(
                            at + ("lexicon",),
                            f"lexicon: one of {', '.join(LEVEL_LEXICONS)}, "
                            f"not {body['lexicon']!r} (nonce words depend on the seed: use "
                            "gen --lexicon-mode nonce)",
                        )
                    )
                chooser = chooser or factor
                if chooser != factor:
                    errors.append(
                        table.error(
                            at + ("lexicon",),
                            f"factor {chooser!r} already chooses the "
                            "lexicon; one factor may (a cell is built over one lexicon)",
                        )
                    )
            if not isinstance(body.get("text", ""), str):
                errors.append(table.error(at + ("text",), "text is a template string ('' for nothing)"))
            slots = body.get("slots", {})
            if not isinstance(slots, dict):
                errors.append(table.error(at + ("slots",), "slots: a mapping of slot name -> slot"))
                continue
            for name in slots:
                owner = added.setdefault(name, (factor,))
                if name not in shared and owner != (factor,):
                    errors.append(
                        table.error(
                            at + ("slots", name),
                            f"slot {name!r} is added by factor {owner[0]!r} too; give factors' slots different names",
                        )
                    )
    return errors


def expand_factors(raw: dict[str, Any], table: LineTable) -> tuple[Design | None, list[SpecError]]:
    """Rewrite a document with ``factors:`` into ``branches:`` (in place; see the module docstring).

    Returns:
        the design (None when the document has no factors), and every problem found.
    """
    if "factors" not in raw:
        return None, []
    errors = _check(raw, table)
    if errors:
        return None, errors
    factors = [(factor, list(levels.items())) for factor, levels in raw.pop("factors").items()]
    chooser = next((factor for factor, levels in factors if any("lexicon" in (body or {}) for _, body in levels)), None)
    shared = dict(raw.pop("slots", None) or {})
    blocks = {key: raw.pop(key) for key in TEMPLATE_BLOCKS if key in raw}
    cells: dict[str, dict[str, str]] = {}
    lexicons: dict[str, str] = {}
    branches: dict[str, Any] = {}
    for combination in itertools.product(*(levels for _, levels in factors)):
        levels = {factor: level for (factor, _), (level, _) in zip(factors, combination)}
        name = cell_name(levels)
        slots = dict(shared)
        origin: dict[str, KeyPath] = {slot: ("slots", slot) for slot in shared}
        texts: dict[str, str] = {}
        for (factor, _), (level, body) in zip(factors, combination):
            body = body or {}
            texts[factor] = body.get("text", "")
            if factor == chooser:
                lexicons[name] = body.get("lexicon", "default")
            for slot, value in (body.get("slots") or {}).items():
                slots[slot] = value  # a shared slot replaced keeps its place
                origin[slot] = ("factors", factor, level, "slots", slot)
        branch = {"slots": slots, **_substitute(blocks, texts)}
        branches[name] = branch
        cells[name] = levels
        for slot, path in origin.items():
            _relocate(table, path, ("branches", name, "slots", slot))
        for key in blocks:
            _relocate(table, (key,), ("branches", name, key))
    raw["branches"] = branches
    return Design(
        tuple((factor, tuple(level for level, _ in levels)) for factor, levels in factors), cells, lexicons, chooser
    ), []


def _relocate(table: LineTable, source: KeyPath, target: KeyPath) -> None:
    """Errors at ``target`` (and below it) point at the line of ``source`` (and below it)."""
    for path, line in list(table.lines.items()):
        if path[: len(source)] == source:
            table.lines[target + path[len(source) :]] = line
    table.lines.setdefault(target, table.line_of(source))
