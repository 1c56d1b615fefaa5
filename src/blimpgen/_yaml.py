"""Safe YAML loading that remembers where every key was written.

``load_yaml(path)`` returns the data and a ``{key_path: line}`` table, so that a later
validation error on ``slots.noun.where`` can name the line it came from. Duplicate keys
are errors (PyYAML silently keeps the last one). Only the safe loader is used: libyaml's
(``yaml.CSafeLoader``, about 8 times faster) when PyYAML has it, and the pure-Python
``yaml.SafeLoader`` for any text that libyaml refuses or that has characters the Python reader
refuses, so every error reads as the pure-Python parser words it, at the same line.
Every way PyYAML (or Python) can refuse a text becomes a located :class:`SpecError`: syntax
errors, control characters (the reader refuses them before parsing starts), integers of more
than 4300 digits, nesting too deep. Aliases are walked once each (PyYAML shares aliased
values), and a document whose aliases would expand it by more than :data:`MAX_ALIAS_EXPANSION`
values (a "billion laughs" file of a few lines) is refused, so no later walk over the data can
blow up. Specs, the feature inventory and lexicon overlays all load through :func:`load_yaml_text`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from blimpgen._io import read_text
from blimpgen.errors import SpecError

KeyPath = tuple[str | int, ...]
_FAST_LOADER = getattr(yaml, "CSafeLoader", None)

# Values that aliases may add to a document when expanded (a spec reuses a slot body or two).
MAX_ALIAS_EXPANSION = 100_000


def key_path_str(path: KeyPath) -> str:
    """Render ``("slots", "noun", 0)`` as ``slots.noun[0]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


class LineTable:
    """The line of every key path in one YAML document (keys adopted from an included file keep
    that file's table: see :meth:`adopt`)."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.lines: dict[KeyPath, int] = {}
        self.adopted: dict[KeyPath, LineTable] = {}

    def adopt(self, prefix: KeyPath, other: LineTable) -> None:
        """Key paths under ``prefix`` came from ``other``'s file (an ``include:``d fragment)."""
        self.adopted[tuple(prefix)] = other

    def owner(self, path: KeyPath) -> LineTable:
        """The table whose file ``path`` was written in."""
        path = tuple(path)
        for end in range(len(path), 0, -1):
            if path[:end] in self.adopted:
                return self.adopted[path[:end]].owner(path)
        return self

    def line_of(self, path: KeyPath) -> int:
        """Line of ``path`` or of its nearest recorded ancestor (1 when none), in its own file."""
        owner = self.owner(path)
        if owner is not self:
            return owner.line_of(path)
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)

    def error(self, path: KeyPath, message: str) -> SpecError:
        """Build a :class:`SpecError` located at ``path`` (in the file that wrote it)."""
        return SpecError(message, self.owner(path).file, self.line_of(path), key_path_str(path))


def load_yaml_text(text: str, file: str) -> tuple[Any, LineTable]:
    """Parse one YAML document from ``text`` (``file`` names it in errors).

    Raises:
        SpecError: for syntax errors, control characters, duplicate keys, non-string keys,
            numbers too long to convert or several documents, each with its line.
    """
    if _FAST_LOADER is not None and not yaml.reader.Reader.NON_PRINTABLE.search(text):
        try:
            return _load(_FAST_LOADER(text), text, file)
        except SpecError:
            pass  # parsed again below, so the message is the pure-Python parser's
    try:
        loader = yaml.SafeLoader(text)
    except yaml.YAMLError as exc:  # the reader checks every character before any parsing
        position = getattr(exc, "position", 0) or 0
        problem = str(exc).split("\n")[0]
        raise SpecError(f"YAML error: {problem}", file, text.count("\n", 0, position) + 1) from None
    return _load(loader, text, file)


def _load(loader: Any, text: str, file: str) -> tuple[Any, LineTable]:
    table = LineTable(file)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, table
        _walk(node, (), table, set())
        _check_aliases(node, table.file)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        problem = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        raise SpecError(f"YAML syntax error: {problem}", file, line) from None
    except yaml.YAMLError as exc:
        raise SpecError(f"YAML error: {exc}", file, 0) from None
    except RecursionError:
        raise SpecError("YAML nesting is too deep", file, 0) from None
    except ValueError as exc:  # e.g. Python refuses to convert integers of more than 4300 digits
        found = re.search(r"\d{4300,}", text)
        if found is None:
            raise SpecError(f"YAML error: {exc}", file, 0) from None
        line = text.count("\n", 0, found.start()) + 1
        raise SpecError(f"YAML error: number too long ({str(exc).split(':')[0]})", file, line) from None
    finally:
        loader.dispose()
    return data, table


def load_yaml(path: Path | str, display: str | None = None) -> tuple[Any, LineTable]:
    """Read and parse a YAML file; see :func:`load_yaml_text`.

    Raises:
        SpecError: when the file cannot be read or parsed.
    """
    name = display or str(path)
    return load_yaml_text(read_text(path, name, error=SpecError), name)


def _walk(node: yaml.Node, path: KeyPath, table: LineTable, seen_nodes: set[int]) -> None:
    """Record the line of every key path; a node reached again through an alias is not walked again."""
    table.lines.setdefault(path, node.start_mark.line + 1)
    if id(node) in seen_nodes:
        return
    seen_nodes.add(id(node))
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise SpecError(
                    "mapping keys must be plain strings", table.file, key_node.start_mark.line + 1, key_path_str(path)
                )
            key = key_node.value
            line = key_node.start_mark.line + 1
            if key == "<<":
                raise SpecError("YAML merge keys ('<<') are not supported", table.file, line, key_path_str(path))
            if key in seen:
                raise SpecError(
                    f"duplicate key {key!r} (first written on line {seen[key]})",
                    table.file,
                    line,
                    key_path_str(path + (key,)),
                )
            seen[key] = line
            table.lines[path + (key,)] = line
            _walk(value_node, path + (key,), table, seen_nodes)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, path + (index,), table, seen_nodes)


def _check_aliases(root: yaml.Node, file: str) -> None:
    """Refuse a document whose aliases expand it by more than ``MAX_ALIAS_EXPANSION`` values.

    The expanded size of every node is computed once (post-order, shared nodes memoised), so
    this is linear in the written document however large the expansion would be.
    """
    sizes: dict[int, int] = {}
    visiting: set[int] = set()
    written = 0
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        children = (
            [n for pair in node.value for n in pair]
            if isinstance(node, yaml.MappingNode)
            else list(node.value)
            if isinstance(node, yaml.SequenceNode)
            else []
        )
        if not children_done:
            if id(node) in visiting:
                raise SpecError(
                    "a YAML alias refers to a value that contains it (a recursive alias)",
                    file,
                    node.start_mark.line + 1,
                )
            visiting.add(id(node))
            written += 1
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        size = 1 + sum(sizes[id(child)] for child in children)
        sizes[id(node)] = size
        if size - written > MAX_ALIAS_EXPANSION:
            raise SpecError(
                f"YAML aliases expand this document by more than {MAX_ALIAS_EXPANSION:,} values "
                "(an alias bomb?); write the values out instead of repeating aliases",
                file,
                node.start_mark.line + 1,
            )
