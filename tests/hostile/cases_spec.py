"""Spec files (S) of the reliability report, run through ``check`` and ``gen``.

Every input ran through both commands (CHK); both must end the same way: a clean located error
or a correct result.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.hostile.corpus import Case, Error, Ok, cli, py
from tests.hostile.prerequisites import BAD, GOOD, base, chk, tpl


def bomb(levels: int, fan: int = 9) -> str:
    """The billion-laughs prelude: ``zz0`` a list of ``fan`` strings, each next level ``fan`` aliases of it."""
    lines = [f"zz0: &l0 [{', '.join(['lol'] * fan)}]"]
    lines += [f"zz{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * fan) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def spec_case(id: str, uid: str, text: str | bytes, expect: Error | Ok, what: str, finding: str = "",
              files: dict | None = None, n: int = 5, surface: str = "spec", deferred: str = "") -> Case:
    check, gen = chk(uid, n)
    return Case(id=id, surface=surface, what=what, run=(cli(*check), cli(*gen)), expect=expect,
                files={f"P/{uid}.yaml": text, **(files or {})}, finding=finding, deferred=deferred)


def generated(count: int = 5, file: str = "out.jsonl"):
    """Check: ``out.jsonl`` holds ``count`` pairs whose sentences are plain printable text."""
    def check(ws: Path) -> None:
        lines = (ws / file).read_text(encoding="utf-8").splitlines()
        assert len(lines) == count, len(lines)
        for line in lines:
            record = json.loads(line)
            for key in ("sentence_good", "sentence_bad"):
                text = record[key]
                assert text.isprintable() and "Undefined" not in text and "<" not in text, text
    return check


def nested(depth: int) -> str:
    return "".join("  " * i + f"k{i}:\n" for i in range(depth)) + "  " * depth + "v: 1\n"


def fifo(path: Path) -> None:
    os.mkfifo(path)


def dangling(path: Path) -> None:
    path.symlink_to(path.parent / "nonexistent_target.yaml")


def loop(path: Path) -> None:
    path.symlink_to("..")


def folder(path: Path) -> None:
    path.mkdir()
    (path / "inner.txt").write_text("not a spec\n")


def with_line(uid: str, key: str, value: str) -> str:
    """BASE with one line replaced (``key: ...`` at top level or ``  slot: ...`` in slots)."""
    return edit(base(uid), key, value)


def edit(text: str, key: str, value: str) -> str:
    """``text`` with the line of ``key`` replaced by ``value``."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.split(":")[0] == key:
            lines[i] = value + "\n"
            return "".join(lines)
    raise AssertionError(key)


def no_bom_in_ids(ws: Path) -> None:
    generated()(ws)


SPEC_CASES = [
    spec_case("S01", "s_laughs", bomb(10) + base("s_laughs") + "notes: *l9\n",
              Error("YAML aliases expand", located=True), "billion laughs: 10 levels x 9 aliases, notes: *l9",
              finding="F1"),
    spec_case("S02", "s_alias5", bomb(5) + base("s_alias5") + "notes: *l4\n",
              Error("YAML aliases expand", located=True), "5-level alias expansion (59k leaves)"),
    spec_case("S34", "s_recursive", base("s_recursive") + "notes: &a [1, *a]\n",
              Error(":16: a YAML alias refers to a value that contains it (a recursive alias)", located=True),
              "a recursive alias", finding="F1"),
    spec_case("S03", "s_deep", base("s_deep") + "notes:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(800))
              + "  " * 801 + "v: 1\n", Error("YAML nesting is too deep", located=True), "800-level nested mapping"),
]

