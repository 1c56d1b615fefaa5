"""Spec files (S) of the reliability report, run through ``check`` and ``gen``.

Every input ran through both commands (CHK); both must end the same way: a clean located error
or a correct result.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.hostile.corpus import Case, Error, Ok, cli
from tests.hostile.prerequisites import GOOD, base, chk


def bomb(levels: int, fan: int = 9) -> str:
    """The billion-laughs prelude: ``zz0`` a list of ``fan`` strings, each next level ``fan`` aliases of it."""
    lines = [f"zz0: &l0 [{', '.join(['lol'] * fan)}]"]
    lines += [f"zz{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * fan) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def spec_case(
    id: str,
    uid: str,
    text: str | bytes,
    expect: Error | Ok,
    what: str,
    finding: str = "",
    files: dict | None = None,
    n: int = 5,
    surface: str = "spec",
    deferred: str = "",
) -> Case:
    check, gen = chk(uid, n)
    return Case(
        id=id,
        surface=surface,
        what=what,
        run=(cli(*check), cli(*gen)),
        expect=expect,
        files={f"P/{uid}.yaml": text, **(files or {})},
        finding=finding,
        deferred=deferred,
    )


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
    spec_case(
        "S01",
        "s_laughs",
        bomb(10) + base("s_laughs") + "notes: *l9\n",
        Error("YAML aliases expand", located=True),
        "billion laughs: 10 levels x 9 aliases, notes: *l9",
        finding="F1",
    ),
    spec_case(
        "S02",
        "s_alias5",
        bomb(5) + base("s_alias5") + "notes: *l4\n",
        Error("YAML aliases expand", located=True),
        "5-level alias expansion (59k leaves)",
    ),
    spec_case(
        "S34",
        "s_recursive",
        base("s_recursive") + "notes: &a [1, *a]\n",
        Error(":16: a YAML alias refers to a value that contains it (a recursive alias)", located=True),
        "a recursive alias",
        finding="F1",
    ),
    spec_case(
        "S35",
        "s_fifo_fragment",
        "include: [frag]\n" + base("s_fifo_fragment"),
        Error("P/_frag.yaml: cannot read file: not a regular file (a FIFO)", located=True, file="P/_frag.yaml"),
        "an include: of a fragment that is a FIFO",
        files={"P/_frag.yaml": fifo},
    ),
    spec_case(
        "S03",
        "s_deep",
        base("s_deep") + "notes:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(800)) + "  " * 801 + "v: 1\n",
        Error(":16: notes: Input should be a valid string", located=True),
        "800-level nested mapping (libyaml parses it; a notes mapping is no string)",
    ),
    spec_case(
        "S03b",
        "s_deeper",
        base("s_deeper") + "notes: " + "[" * 5000 + "]" * 5000 + "\n",
        Error("YAML nesting is too deep", located=True),
        "5,000 nested lists (deeper than libyaml reads)",
    ),
    spec_case(
        "S04",
        "s_big_template",
        base("s_big_template", good="x" * 2_000_000 + GOOD),
        Error("a spec file is at most 1 MB", located=True),
        "good template = 2 MB of literal text",
        finding="F19",
    ),
    spec_case(
        "S05",
        "s_big_description",
        with_line("s_big_description", "description", 'description: "' + "d" * 5_000_000 + '"'),
        Error("a spec file is at most 1 MB", located=True),
        "description of 5 MB",
    ),
    spec_case("S06", "s_bom", "\ufeff" + base("s_bom"), Ok(generated()), "UTF-8 BOM at file start"),
    spec_case(
        "S07",
        "s_u16",
        base("s_u16").encode("utf-16"),
        Error("cannot read file: not UTF-8 text", located=True),
        "spec saved as UTF-16",
        finding="F11",
    ),
    spec_case(
        "S08",
        "s_latin1",
        with_line("s_latin1", "description", 'description: "caf\xe9"').encode("latin-1"),
        Error("cannot read file: not UTF-8 text", located=True),
        "Latin-1 byte in description",
        finding="F11",
    ),
    spec_case(
        "S09",
        "s_feff",
        base("s_feff", good="{{ subj }}\ufeff {{ verb }} {{ dem }} {{ noun }}."),
        Error(":14: good: invisible character U+FEFF (ZERO WIDTH NO-BREAK SPACE) in template", located=True),
        "U+FEFF inside the good template",
        finding="F24",
    ),
    spec_case(
        "S10",
        "s_tab_cr",
        base("s_tab_cr", good="{{ subj }}\\t{{ verb }}\\r{{ dem }} {{ noun }}."),
        Error(":14: good: control character U+000D in template", located=True),
        "TAB and CR in a template",
    ),
    spec_case(
        "S11",
        "s_uid_int",
        with_line("s_uid_int", "uid", "uid: 123"),
        Error(":1: uid: Input should be a valid string", located=True),
        "uid: 123",
    ),
    spec_case(
        "S12",
        "s_kind_list",
        with_line("s_kind_list", "  subj", '  subj: {kind: [word], head: "(N and animate) or PN"}'),
        Error(":9: slots: slot 'subj' must be a mapping with a 'kind'", located=True),
        "kind: [word]",
    ),
    spec_case(
        "S13",
        "s_distinct_str",
        with_line(
            "s_distinct_str",
            "  noun",
            '  noun: {kind: word, where: "N and plural_type=regular and fits(verb.arg2)", distinct: subj}',
        ),
        Error(":12: slots.noun.distinct: ", located=True),
        "distinct: subj (a string)",
    ),
    spec_case(
        "S14",
        "s_contrast_junk",
        with_line("s_contrast_junk", "contrast", "contrast: [null, {a: 1}]"),
        Error(":8: contrast[0]: ", located=True),
        "contrast: [null, {a: 1}]",
    ),
    spec_case(
        "S15",
        "s_two_docs",
        base("s_two_docs") + "---\n" + base("s_two_docs"),
        Error(":16: YAML syntax error: ", located=True),
        "two YAML documents in one file",
    ),
    spec_case(
        "S16",
        "s_case",
        with_line("s_case", "uid", "uid: S_case"),
        Error(":1: uid: uid 'S_case' must match the file name s_case.yaml", located=True),
        "uid differs from the file name only by case",
    ),
    spec_case(
        "S17",
        "npi_present_1",
        base("npi_present_1"),
        Error(":1: uid: duplicate UID 'npi_present_1' (also in grammar/paradigms/", located=True),
        "user spec reuses the shipped UID npi_present_1",
    ),
    spec_case(
        "S18",
        "s_nonascii",
        base("s_nonascii").replace("noun", "nöun"),
        Error("slots: slot name 'nöun' must be", located=True),
        "non-ASCII slot name nöun",
    ),
    spec_case(
        "S19",
        "s_choice_big",
        with_line("s_choice_big", "  dem", "  dem: {kind: choice, values: [" + "9" * 4000 + "]}"),
        Error(":13: slots.dem.values", located=True),
        "choice value with a 4000-digit integer",
    ),
    spec_case(
        "S20",
        "s_self_ref",
        with_line("s_self_ref", "  noun", '  noun: {kind: word, where: "N and number = noun.number"}'),
        Error(":12: slots.noun.where: ", located=True),
        "slot refers to itself",
    ),
    spec_case(
        "S21",
        "s_distinct_self",
        with_line(
            "s_distinct_self",
            "  noun",
            '  noun: {kind: word, where: "N and plural_type=regular and fits(verb.arg2)", distinct: [noun]}',
        ),
        Error(":12: slots.noun.distinct: ", located=True),
        "distinct: [noun] on slot noun",
    ),
    spec_case(
        "S22",
        "s_vg_self",
        with_line("s_vg_self", "  verb", '  verb: {kind: verb_group, verb: "frames=transitive", subject: verb}'),
        Error(":11: slots.verb.subject: ", located=True),
        "verb_group subject: itself",
    ),
    spec_case(
        "S23",
        "s_unsat",
        with_line("s_unsat", "  noun", '  noun: {kind: word, where: "N and not N"}'),
        Error(":12: slots.noun: ", located=True),
        "unsatisfiable 'N and not N', -n 1000",
        n=1000,
    ),
    spec_case(
        "S24",
        "s_tiny",
        edit(
            with_line("s_tiny", "  subj", '  subj: {kind: dp, head: "PN and lemma=Mary"}'),
            "  noun",
            '  noun: {kind: word, where: "N and lemma=cat"}',
        )
        .replace(
            '  verb: {kind: verb_group, verb: "frames=transitive", subject: subj}',
            '  verb: {kind: verb_group, verb: "lemma=see", subject: subj, tense: [pres], aux: [simple]}',
        )
        .replace('"D and demonstrative and number = noun.number"', '"D and lemma=this and number = noun.number"'),
        Error(":9: slots: ", located=True),
        "a space of 2 pairs, -n 1000 (check: too small a space)",
        n=1000,
    ),
    spec_case(
        "S25",
        "s_unsat_ref",
        with_line(
            "s_unsat_ref",
            "  dem",
            '  dem: {kind: word, where: "D and demonstrative and number = noun.number and number != noun.number"}',
        ),
        Error(":13: slots.dem: ", located=True),
        "unsatisfiable only through a reference",
    ),
    spec_case(
        "S26",
        "s_ok",
        base("s_ok"),
        Ok(generated()),
        "sub-folder named x.yaml in the paradigm folder",
        finding="F11",
        files={"P/x.yaml": folder},
    ),
    spec_case(
        "S27",
        "s_ok",
        base("s_ok"),
        Error("P/gone.yaml: cannot read file: a dangling symbolic link"),
        "dangling symlink gone.yaml",
        finding="F11",
        files={"P/gone.yaml": dangling},
    ),
    spec_case("S28", "s_ok", base("s_ok"), Ok(generated()), "symlink loop P/loop -> ..", files={"P/loop": loop}),
    spec_case(
        "S29",
        "s_ok",
        base("s_ok"),
        Error("P/fifo.yaml: cannot read file: not a regular file (a FIFO)"),
        "FIFO named fifo.yaml in the paradigm folder",
        finding="F16",
        files={"P/fifo.yaml": fifo},
    ),
    Case(
        id="S30",
        surface="spec",
        what="the same folder twice (--paradigm-path p --paradigm-path ./p; env + flag)",
        finding="F16",
        files={"p/s_twice.yaml": base("s_twice")},
        expect=Ok(generated(2)),
        run=(
            cli(
                "gen",
                "-p",
                "s_twice",
                "--paradigm-path",
                "p",
                "--paradigm-path",
                "./p",
                "-n",
                "2",
                "-o",
                "out.jsonl",
                "--quiet",
            ),
            cli(
                "gen",
                "-p",
                "s_twice",
                "--paradigm-path",
                "p",
                "-n",
                "2",
                "-o",
                "out.jsonl",
                "--quiet",
                env={"BLIMPGEN_PARADIGM_PATH": "p"},
            ),
        ),
    ),
    spec_case(
        "S31",
        "s_item",
        with_line("s_item", "description", 'description: "first line\n  item: second line"'),
        Ok(generated()),
        "description continues on a line 'item: second line'",
        finding="F16",
    ),
    spec_case(
        "S32",
        "s_null_slot",
        with_line("s_null_slot", "  subj", "  subj:"),
        Error(":10: slots.subj: Input should be a valid dictionary", located=True),
        "null slot body",
    ),
    spec_case(
        "S33",
        "s_anchor",
        base(
            "s_anchor",
            good="{{ subj }} {{ verb }} {{ dem }} {{ noun }} and {{ dem2 }} {{ noun }}.",
            bad="{{ subj }} {{ verb }} {{ dem }} {{ noun | flip('number') }} and {{ dem2 }} {{ noun }}.",
        ).replace(
            '  dem: {kind: word, where: "D and demonstrative and number = noun.number"}',
            '  dem: &d {kind: word, where: "D and demonstrative and number = noun.number"}\n  dem2: *d',
        ),
        Ok(generated()),
        "legitimate anchor/alias reuse of a slot body",
    ),
]
