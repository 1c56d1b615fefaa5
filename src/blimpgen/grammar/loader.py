"""Loading paradigm specs from YAML with precise ``file:line: key: message`` errors.

Steps: ``_yaml.load_yaml`` (safe, duplicate keys rejected, key-path -> line table) ->
``ParadigmSpec.model_validate`` (structure; every pydantic error mapped to its line) ->
template checks (syntax with the YAML line, undeclared variables, contrast names).
All errors of a file are collected before raising.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from blimpgen._yaml import LineTable, key_path_str, load_yaml_text
from blimpgen.errors import SpecError, SpecErrors, did_you_mean
from blimpgen.grammar import templates
from blimpgen.grammar.spec import TEMPLATE_KEYS, ParadigmSpec

SHIPPED = "blimpgen.grammar"


@dataclass(frozen=True)
class LoadedSpec:
    """A validated spec with where it came from.

    Attributes:
        spec: the validated model.
        file: display path of the YAML file.
        lines: key path -> line table, for errors raised by later layers.
        sha: short hash of the file's bytes (provenance).
        lexically_identical: computed from the templates (same lexemes up to inflection/order).
    """

    spec: ParadigmSpec
    file: str
    lines: LineTable = field(repr=False)
    sha: str
    lexically_identical: bool

    def error(self, path: tuple, message: str) -> SpecError:
        """A :class:`SpecError` pointing at ``path`` in this spec's file."""
        return self.lines.error(path, message)


def parse_spec(text: str, file: str) -> LoadedSpec:
    """Validate one spec document.

    Raises:
        SpecErrors: every problem found, each ``file:line: key: message``.
    """
    raw, table = load_yaml_text(text, file)
    if not isinstance(raw, dict):
        raise SpecErrors([SpecError("a paradigm spec must be a YAML mapping (uid: ..., slots: ...)", file, 1)])
    try:
        spec = ParadigmSpec.model_validate(raw)
    except ValidationError as exc:
        raise SpecErrors(pydantic_errors(exc, table, _paradigm_keys) + _raw_template_problems(raw, table)) from None
    errors = [table.error(path, message) for path, message in spec.method_problems()]
    if errors:
        raise SpecErrors(errors)
    identical = True
    for variant in spec.variants():
        errors += _variant_problems(variant, table)
        if not errors:
            # Linked choices keep alternative words under attribute names (q.good / q.bad).
            split = frozenset(n for n, body in variant.slots.items() if str(body["kind"]).split(".v")[0] == "choice")
            good = templates.lexical_items(variant.good, split)
            bad = templates.lexical_items(variant.bad, split)
            identical = identical and good == bad
            literal = set(good[1]) | set(bad[1])
            own = bool(variant.path) and spec.branches[variant.name].contrast is not None
            contrast_path = (variant.path if own else ()) + ("contrast",)
            for index, item in enumerate(variant.contrast):
                if item not in variant.slots and item.lower() not in literal:
                    errors.append(table.error(contrast_path + (index,), f"{item!r} is neither a slot nor a word of "
                                              f"the good or bad template{did_you_mean(item, set(variant.slots) | literal)}"))
    if errors:
        raise SpecErrors(errors)
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    return LoadedSpec(spec, file, table, sha, identical)


def _variant_problems(variant: Any, table: LineTable) -> list[SpecError]:
    """Template syntax, undeclared variables and unused slots of one variant."""
    errors: list[SpecError] = []
    slot_names = set(variant.slots)
    used: set[str] = set()
    for out_field, source in variant.templates().items():
        key = variant.path + TEMPLATE_KEYS[out_field]
        base_line = table.line_of(key)
        problems = templates.template_problems(source, slot_names)
        for template_line, message in problems:
            errors.append(SpecError(message, table.file, base_line + template_line - 1, key_path_str(key)))
        if not problems:
            used |= templates.used_variables(source)
    for name in sorted(slot_names - used):
        mentioned = any(_mentions(body, name) for other, body in variant.slots.items() if other != name)
        if not errors and not mentioned:
            errors.append(table.error(variant.slot_path(name), f"slot {name!r} is used by no template and no other slot"))
    return errors


def _raw_template_problems(raw: dict[str, Any], table: LineTable) -> list[SpecError]:
    """Template problems of a spec whose structure failed validation, so that one ``check``
    run reports them too (only where the templates are strings and the slots a mapping)."""
    slots = raw.get("slots")
    if not isinstance(slots, dict):
        return []
    names = {str(name) for name in slots}
    errors = []
    for out_field, key in TEMPLATE_KEYS.items():
        node: Any = raw
        for part in key:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, str):
            base_line = table.line_of(key)
            for template_line, message in templates.template_problems(node, names):
                errors.append(SpecError(message, table.file, base_line + template_line - 1, key_path_str(key)))
    return errors


def _mentions(value: Any, name: str) -> bool:
    """Whether a slot's parameters mention ``name`` as a word (a reference or slot argument)."""
    if isinstance(value, str):
        return re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", value) is not None
    if isinstance(value, dict):
        return any(_mentions(v, name) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_mentions(v, name) for v in value)
    return False


def _paradigm_keys(loc: tuple) -> list[str]:
    from blimpgen.grammar.spec import OnePrefix, TwoPrefix

    if len(loc) > 1 and loc[0] in ("one_prefix", "two_prefix"):
        return list((OnePrefix if loc[0] == "one_prefix" else TwoPrefix).model_fields)
    return list(ParadigmSpec.model_fields)


def pydantic_errors(exc: ValidationError, table: LineTable, known_keys: Any,
                    literal_messages: dict[tuple, str] | None = None) -> list[SpecError]:
    """Every pydantic error of a spec document as ``file:line: key: message``.

    ``known_keys(loc)`` lists the keys allowed where an unknown key was found (for did-you-mean);
    ``literal_messages`` replaces pydantic's wording for a value outside a Literal at a key path.
    """
    out = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        message = err["msg"]
        if err["type"] == "extra_forbidden":
            message = f"unknown key {loc[-1]!r}{did_you_mean(str(loc[-1]), known_keys(loc))}"
        elif err["type"] == "missing":
            message = f"missing required key {loc[-1]!r}"
        elif err["type"] == "literal_error" and loc in (literal_messages or {}):
            message = (literal_messages or {})[loc]
        elif message.startswith("Value error, "):
            message = message[len("Value error, "):]
        if isinstance(err.get("input"), bool) and "string" in message:
            message += " (YAML reads yes/no/on/off/true/false as booleans: quote the word)"
        out.append(table.error(loc, message))
    return out


def load_spec_file(path: Path | str, display: str | None = None) -> LoadedSpec:
    """Read and validate one spec file."""
    path = Path(path)
    name = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecErrors([SpecError(f"cannot read file: {exc}", name)]) from None
    return parse_spec(text, name)


def shipped_spec_files() -> list[tuple[str, Any]]:
    """(display name, traversable) of every shipped spec, sorted by path."""
    root = resources.files(SHIPPED) / "paradigms"
    found = []
    stack = [(root, "grammar/paradigms")]
    while stack:
        folder, display = stack.pop()
        for entry in folder.iterdir():
            if entry.is_dir():
                stack.append((entry, f"{display}/{entry.name}"))
            elif entry.name.endswith(".yaml") and not entry.name.startswith("_"):
                found.append((f"{display}/{entry.name}", entry))
    return sorted(found, key=lambda item: item[0])


def user_spec_files(folder: Path | str) -> list[tuple[str, Path]]:
    """Spec files under a user folder (recursively), sorted."""
    folder = Path(folder)
    if not folder.is_dir():
        raise SpecErrors([SpecError("paradigm path is not a folder", str(folder))])
    return [(str(p), p) for p in sorted(folder.rglob("*.yaml")) if not p.name.startswith("_")]


def load_specs(paths: tuple[Path | str, ...] = ()) -> dict[str, LoadedSpec]:
    """Load shipped specs plus specs from user folders, keyed by UID.

    Raises:
        SpecErrors: every problem in every file, including duplicate UIDs.
    """
    files = list(shipped_spec_files())
    for folder in paths:
        # probe suites (``item:`` at the top level) share user folders; blimpgen.grammar.probe_spec loads them
        files.extend((display, path) for display, path in user_spec_files(folder) if not is_probe_file(path))
    specs: dict[str, LoadedSpec] = {}
    errors: list[SpecError] = []
    for display, entry in files:
        try:
            loaded = parse_spec(entry.read_text(encoding="utf-8"), display)
        except SpecErrors as exc:
            errors.extend(exc.errors)
            continue
        uid = loaded.spec.uid
        if uid in specs:
            errors.append(loaded.error(("uid",), f"duplicate UID {uid!r} (also in {specs[uid].file})"))
            continue
        expected = display.rsplit("/", 1)[-1].removesuffix(".yaml")
        if expected != uid:
            errors.append(loaded.error(("uid",), f"uid {uid!r} must match the file name {expected}.yaml"))
            continue
        specs[uid] = loaded
    if errors:
        raise SpecErrors(errors)
    return specs


def is_probe_file(path: Path) -> bool:
    """Whether a YAML file is a probe suite (a top-level ``item:`` key) rather than a paradigm."""
    try:
        return any(line.startswith("item:") for line in path.read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return False


ENTRY_POINT_GROUP = "blimpgen.paradigms"


def entry_point_paradigm_paths() -> tuple[str, ...]:
    """Paradigm folders provided by installed packages.

    A package declares ``[project.entry-points."blimpgen.paradigms"] mypack = "mypack:paradigm_dir"``
    where the target is a folder path (``str`` or ``Path``), a list of them, or a function
    returning either (e.g. ``lambda: importlib.resources.files("mypack") / "paradigms"``).

    Raises:
        SpecErrors: when an entry point cannot be loaded or gives something that is not a path.
    """
    from importlib import metadata

    found: list[str] = []
    errors: list[SpecError] = []
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        where = f"entry point {ep.name} = {ep.value}"
        try:
            value = ep.load()
            if callable(value):
                value = value()
        except Exception as exc:  # a third-party package's import error must not crash the tool
            errors.append(SpecError(f"cannot load ({exc.__class__.__name__}: {exc})", where))
            continue
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if not isinstance(item, (str, Path)) and not hasattr(item, "is_dir"):
                errors.append(SpecError(f"must give a folder path, got {type(item).__name__}", where))
                continue
            found.append(str(item))
    if errors:
        raise SpecErrors(errors)
    return tuple(found)


@cache
def load_shipped_specs() -> dict[str, LoadedSpec]:
    """The shipped paradigm specs (cached)."""
    return load_specs(())
