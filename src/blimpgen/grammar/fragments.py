"""Shared fragments (``include:``) and named formulas (``@name``): saying things once.

A slot parameter may name a formula instead of spelling it out::

    include: [subjects]                 # _subjects.yaml, a fragment
    formulas:                           # this spec's own
      small_thing: "N and size=small and not animate"
    slots:
      subj: {kind: dp, head: "@person_or_pet"}
      obj:  {kind: word, where: "@small_thing and fits(verb.arg2)"}

A **fragment** is a partial spec in a file named ``_NAME.yaml`` (the underscore keeps it out of
spec discovery): any keys but ``uid``, including its own ``include:``. ``include: [NAME, ...]``
looks for it in the spec's folder, then at the top of the folder the spec was found under, then
in blimpgen's shipped ``grammar/`` folder. The spec's own keys win over a fragment's (as
lm-evaluation-harness's ``include`` does); ``formulas:`` are merged by name, the spec's own
winning, and so are ``slots:``, the fragments' slots coming first (so the spec's slots may
refer to them: a fragment's ``scene`` slot, then the spec's ``verb: ... fits(scene.doing)``); a
key, formula or slot set by two fragments is an error, and so is a fragment that includes
itself. Keys taken from a fragment keep its file and lines in errors.

``@name`` anywhere in a string parameter of a slot (top level or in a branch) becomes
``(formula)`` before the spec is validated, so errors in the expanded query still point at the
slot's line, and a formula may use other formulas. Fragment bytes are part of the spec's hash:
changing a fragment changes the provenance of every record made with it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from blimpgen._yaml import KeyPath, LineTable, load_yaml_text
from blimpgen.errors import SpecError, did_you_mean
from blimpgen.grammar.discovery import read_spec_text

FORMULA_REF = re.compile(r"@([A-Za-z_][A-Za-z0-9_]*)")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
SHIPPED_ROOT = "blimpgen.grammar"


@dataclass(frozen=True)
class Fragment:
    """One ``_NAME.yaml`` file as read: its display name, keys, line table and text (for the hash)."""

    name: str
    file: str
    raw: dict[str, Any]
    table: LineTable
    text: str


def fragment_folders(entry: Any = None, root: Any = None) -> list[Any]:
    """Where ``include:`` looks, in order: the spec file's folder, the source's top folder, the
    shipped ``grammar/`` folder (each a ``Path`` or importlib ``Traversable``; duplicates dropped)."""
    folders: list[Any] = []
    for folder in (getattr(entry, "parent", None), root, resources.files(SHIPPED_ROOT)):
        if folder is not None and str(folder) not in {str(f) for f in folders}:
            folders.append(folder)
    return folders


def read_fragment(name: str, folders: list[Any], where: SpecError) -> tuple[Fragment | None, list[SpecError]]:
    """Find and parse ``_NAME.yaml`` in ``folders``; ``where`` locates a missing fragment's error."""
    for folder in folders:
        entry = folder / f"_{name}.yaml"
        if not _present(entry):
            continue
        display = _display(entry)
        try:
            text = read_spec_text(entry, display)  # as a spec is read (no FIFO, at most 1 MB, UTF-8)
            raw, table = load_yaml_text(text, display)
        except SpecError as exc:
            return None, [exc]
        if not isinstance(raw, dict):
            return None, [SpecError("a fragment must be a YAML mapping of spec keys", display, 1)]
        if "uid" in raw:
            return None, [table.error(("uid",), "a fragment cannot set uid (each spec names itself)")]
        return Fragment(name, display, raw, table, text), []
    looked = ", ".join(_display(folder) for folder in folders)
    return None, [SpecError(f"no fragment _{name}.yaml (looked in {looked})", where.file, where.line, where.key)]


def _present(entry: Any) -> bool:
    """Whether a fragment file is there: a user path that is anything but a folder (reading a
    FIFO or a dangling link then says what is wrong), a shipped one that is a file."""
    if isinstance(entry, Path):
        return os.path.lexists(entry) and not entry.is_dir()
    return bool(entry.is_file())


def _display(entry: Any) -> str:
    """A shipped file as ``grammar/...`` (as shipped specs are named), a user file as its path."""
    text = str(entry)
    shipped = str(resources.files(SHIPPED_ROOT))
    return "grammar" + text[len(shipped) :] if text.startswith(shipped) else text


def _formula_problems(formulas: dict[Any, Any], table: LineTable, path: KeyPath) -> list[SpecError]:
    errors = []
    for key, value in formulas.items():
        if not isinstance(key, str) or not NAME.match(key):
            errors.append(table.error(path + (key,), f"formula name {key!r} must be a name (letters, digits, _)"))
        elif not isinstance(value, str) or not value.strip():
            errors.append(table.error(path + (key,), "a formula must be a non-empty query string"))
    return errors


def merge_includes(
    raw: dict[str, Any], table: LineTable, folders: list[Any], chain: tuple[str, ...] = ()
) -> tuple[list[Fragment], list[SpecError]]:
    """Merge the fragments ``raw`` includes into it (in place; its own keys win) and record in
    ``table`` which keys came from which file; the fragments read (nested ones too), every problem."""
    include = raw.get("include", [])
    if isinstance(include, str):
        include = raw["include"] = [include]
    if not isinstance(include, list) or not all(isinstance(n, str) and NAME.match(n) for n in include):
        return [], [
            table.error(
                ("include",), "include must be a fragment name or a list of them ([subjects] reads _subjects.yaml)"
            )
        ]
    formulas = raw.get("formulas", {})
    if not isinstance(formulas, dict):
        return [], [table.error(("formulas",), "formulas must be a mapping of name: query")]
    own_slots = raw.get("slots", {})
    merge_slots = isinstance(own_slots, dict)
    slots: dict[Any, Any] = {}  # the fragments' slots, in order; the spec's own follow
    errors = _formula_problems(formulas, table, ("formulas",))
    fragments: list[Fragment] = []
    taken: dict[tuple[str, ...], str] = {}  # ("key",) or ("formulas", name) -> fragment file
    own = set(raw)
    for index, name in enumerate(include):
        if name in chain:
            errors.append(
                table.error(
                    ("include", index),
                    "fragments include each other (" + " -> ".join(f"_{n}.yaml" for n in chain + (name,)) + ")",
                )
            )
            continue
        fragment, problems = read_fragment(name, folders, table.error(("include", index), ""))
        errors += problems
        if fragment is None:
            continue
        nested, problems = merge_includes(fragment.raw, fragment.table, folders, chain + (name,))
        fragments += nested + [fragment]
        errors += problems
        for key, value in fragment.raw.items():
            if key == "include":
                continue
            if key == "formulas" and isinstance(value, dict):
                errors += _formula_problems(value, fragment.table, ("formulas",))
                for formula, query in value.items():
                    if ("formulas", formula) in taken:
                        errors.append(
                            table.error(
                                ("include", index),
                                f"formula {formula!r} is set by both {taken['formulas', formula]} and {fragment.file}",
                            )
                        )
                    taken["formulas", formula] = fragment.file
                    if formula not in formulas:
                        formulas[formula] = query
                        table.adopt(("formulas", formula), fragment.table.owner(("formulas", formula)))
                continue
            if key == "slots" and isinstance(value, dict) and merge_slots:
                for slot, body in value.items():
                    if ("slots", slot) in taken:
                        errors.append(
                            table.error(
                                ("include", index),
                                f"slot {slot!r} is set by both {taken['slots', slot]} and {fragment.file}",
                            )
                        )
                    taken["slots", slot] = fragment.file
                    if slot not in own_slots and slot not in slots:
                        slots[slot] = body
                        table.adopt(("slots", slot), fragment.table.owner(("slots", slot)))
                continue
            if (key,) in taken:
                errors.append(
                    table.error(("include", index), f"key {key!r} is set by both {taken[key,]} and {fragment.file}")
                )
            taken[key,] = fragment.file
            if key not in own:
                raw[key] = value
                table.adopt((key,), fragment.table.owner((key,)))
    if formulas:
        raw["formulas"] = formulas
    if slots:
        raw["slots"] = {**slots, **own_slots}
    return fragments, errors


def resolve_formulas(
    raw: dict[str, Any], table: LineTable, folders: list[Any]
) -> tuple[list[Fragment], list[SpecError]]:
    """Merge ``raw``'s fragments into it, then expand every ``@name`` in its slots (in place);
    the fragments read and every problem found."""
    fragments, errors = merge_includes(raw, table, folders)
    if errors:
        return fragments, errors
    formulas = raw.get("formulas", {})
    for path, body in _slot_bodies(raw):
        errors += _expand(body, formulas, table, path)
    return fragments, errors


def _slot_bodies(raw: dict[str, Any]) -> list[tuple[KeyPath, Any]]:
    """(key path, slots mapping) of the top level, of every branch and of every factor level."""
    out: list[tuple[KeyPath, Any]] = [(("slots",), raw.get("slots"))]
    branches = raw.get("branches")
    if isinstance(branches, dict):
        out += [
            (("branches", name, "slots"), body.get("slots"))
            for name, body in branches.items()
            if isinstance(body, dict)
        ]
    factors = raw.get("factors")
    if isinstance(factors, dict):
        out += [
            (("factors", factor, level, "slots"), body.get("slots"))
            for factor, levels in factors.items()
            if isinstance(levels, dict)
            for level, body in levels.items()
            if isinstance(body, dict)
        ]
    return [(path, body) for path, body in out if isinstance(body, dict)]


def _expand(node: Any, formulas: dict[str, str], table: LineTable, path: KeyPath) -> list[SpecError]:
    """Replace ``@name`` in every string under ``node`` (a dict or list, changed in place)."""
    errors: list[SpecError] = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in list(items):
        if isinstance(value, str) and "@" in value:
            expanded, problem = expand_text(value, formulas)
            if problem:
                errors.append(table.error(path + (key,), problem))
            else:
                node[key] = expanded
        elif isinstance(value, (dict, list)):
            errors += _expand(value, formulas, table, path + (key,))
    return errors


def expand_text(text: str, formulas: dict[str, str], seen: tuple[str, ...] = ()) -> tuple[str, str | None]:
    """``text`` with every ``@name`` replaced by ``(formula)``, recursively; or a problem."""
    problem: list[str] = []

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in seen:
            problem.append(f"formula @{name} uses itself (" + " -> ".join(f"@{n}" for n in seen + (name,)) + ")")
            return match.group(0)
        if name not in formulas:
            problem.append(
                f"unknown formula @{name}{did_you_mean(name, formulas)}"
                + ("" if formulas else " (define it under formulas: or include a fragment)")
            )
            return match.group(0)
        inner, inner_problem = expand_text(formulas[name], formulas, seen + (name,))
        if inner_problem:
            problem.append(inner_problem)
        return f"({inner})"

    out = FORMULA_REF.sub(replace, text)
    return out, (problem[0] if problem else None)
