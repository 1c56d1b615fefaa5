"""Lexicon overlays (O) of the reliability report: read right or refused with a located line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.hostile.cases_spec import bomb
from tests.hostile.corpus import Case, Error, Ok, cli, py

GEN = ("gen", "--paradigm", "npi_present_1", "-n", "1", "--quiet", "-o", "out.jsonl")
WUG = "wug\tN\tclass=animal; animate\n"


def overlay_case(
    id: str,
    files: dict,
    expect: Error | Ok,
    what: str,
    finding: str = "",
    overlay: str = "w.tsv",
    args: tuple[str, ...] = GEN,
) -> Case:
    return Case(
        id=id,
        surface="overlay",
        what=what,
        finding=finding,
        files=files,
        expect=expect,
        run=(cli(*args, "--lexicon-overlay", overlay),),
    )


def lexicon(*overlays: str):
    from blimpgen.vocab.overlays import load_lexicon_with_overlays

    return load_lexicon_with_overlays(list(overlays))


def has_wug(ws: Path) -> None:
    words = lexicon(str(ws / "w.tsv")).by_id
    assert words["N:wug:sg"].text == "wug" and words["N:wug:pl"].text == "wugs", sorted(words)[-3:]


def lexicon_hash(ws: Path, *overlays: str) -> str:
    return lexicon(*(f"{ws}/{overlay}" for overlay in overlays)).fingerprint


def hashes_identify_content(ws: Path) -> None:
    """O11: the same overlay at another path hashes the same; an empty overlay changes nothing."""
    none, here, dotted, moved = (
        lexicon_hash(ws),
        lexicon_hash(ws, "w.tsv"),
        lexicon_hash(ws, "./w.tsv"),
        lexicon_hash(ws, "sub/w.tsv"),
    )
    assert here == dotted == moved != none, (none, here, dotted, moved)
    assert lexicon_hash(ws, "empty.tsv") == none
    assert lexicon_hash(ws, "w.yaml") == here  # the same entries as a YAML overlay
    assert json.loads((ws / "out.jsonl").read_text().splitlines()[0])["lexicon_hash"] == here


def hashes_cover_declarations(ws: Path) -> None:
    """O15: overlays that differ only in the declared order of enum values hash differently."""
    from blimpgen.grammar.templates import rank

    a, b = lexicon_hash(ws, "A/w.yaml"), lexicon_hash(ws, "B/w.yaml")
    assert a != b, a
    lexicons = [lexicon(str(ws / x / "w.yaml")) for x in "AB"]
    ranks = [rank(lx.by_id["N:gizmo:sg"], "zz_size", lx) for lx in lexicons]
    assert ranks == [1, 0], ranks


def enum_overlay(values: str) -> str:
    return (
        f"features:\n  zz_size: {{type: enum, categories: [N], values: [{values}], doc: d}}\n"
        'entries:\n  - {text: gizmo, category: N, features: "class=artifact; zz_size=big"}\n'
    )


DEMONSTRATIVES = "".join(
    f"thix{i}\tD\tlemma=thix{i}; demonstrative; definite; number=sg; agreement=sg,mass\n" for i in range(400)
)

CASES = [
    overlay_case("O01", {"w.tsv": "\ufeff" + WUG}, Ok(has_wug), "TSV overlay with a UTF-8 BOM", "F17"),
    overlay_case("O02", {"w.tsv": WUG.replace("\n", "\r\n")}, Ok(has_wug), "TSV overlay with CRLF line ends"),
    overlay_case(
        "O03",
        {"w.tsv": "caf\xe9\tN\tclass=food\n".encode("latin-1")},
        Error("w.tsv: cannot read file: not UTF-8 text (byte 0xe9 at position 3)"),
        "TSV overlay in Latin-1",
    ),
    overlay_case(
        "O04",
        {
            "w.yaml": "features: {zz_mark: {type: bool, categories: [N], doc: d}}\nentries:\n"
            '  - {text: "#hashtag", category: N, features: "class=artifact; zz_mark"}\n'
            '  - {text: gizmo, category: N, features: "class=artifact; zz_mark"}\n'
        },
        Error("w.yaml:3: entries[0].text: text '#hashtag' starts with '#'", located=True),
        "YAML overlay entry with text '#hashtag'",
        "F17",
        overlay="w.yaml",
    ),
    overlay_case(
        "O05",
        {"w.yaml": bomb(10) + "entries: []\n"},
        Error("YAML aliases expand", located=True),
        "YAML overlay = billion laughs + entries: []",
        "F1",
        overlay="w.yaml",
    ),
    overlay_case(
        "O06",
        {"w.yaml": "features:\n  zz_mark: {type: bool, categories: PN, doc: d}\nentries: []\n"},
        Error("w.yaml:2: features.zz_mark: categories must be a list (e.g. [PN])", located=True),
        'feature categories: "PN" (a string)',
        "F17",
        overlay="w.yaml",
    ),
    overlay_case(
        "O07",
        {
            "w.yaml": "features:\n  'a b': {type: bool, categories: [N], doc: d}\n"
            "  'x=y': {type: bool, categories: [N], doc: d}\n"
            "  _text: {type: text, categories: [N], doc: d}\n"
            "  not: {type: bool, categories: [N], doc: d}\n"
            "entries:\n"
            '  - {text: gizmo, category: N, features: "class=artifact; _text=EVIL"}\n'
        },
        Error("w.yaml:2: features.a b: feature name 'a b' must be lowercase letters", located=True),
        "features named 'a b', 'x=y', '_text', 'not'; an entry _text=EVIL",
        "F17",
        overlay="w.yaml",
    ),
    overlay_case(
        "O07b",
        {"w.tsv": "gizmo\tN\tclass=artifact; _text=EVIL\n"},
        Error("w.tsv:1: _text: unknown feature", located=True),
        "a TSV row setting _text=EVIL",
        "F17",
    ),
    overlay_case(
        "O08",
        {
            "w.yaml": "categories: {'X:Y': odd, '': empty}\nentries:\n"
            "  - {text: gizmo, category: 'X:Y', features: \"\"}\n"
        },
        Error("w.yaml:1: categories.X:Y: category name 'X:Y' must be letters", located=True),
        "categories 'X:Y' and ''",
        "F17",
        overlay="w.yaml",
    ),
    overlay_case(
        "O09",
        {"w.tsv": DEMONSTRATIVES},
        Ok(),
        "400 singular-only demonstratives, determiner_noun_agreement_1 -n 1000",
        args=("gen", "-p", "determiner_noun_agreement_1", "-n", "1000", "--quiet", "-o", "out.jsonl"),
    ),
    overlay_case(
        "O10",
        {"w.tsv": "wug\u2028x\tN\tclass=animal; animate\nzig\u0085\tN\tclass=animal\n"},
        Error("w.tsv:1: text: invisible character U+2028 (LINE SEPARATOR) in the row", located=True),
        "TSV text containing U+2028 and U+0085 (lines numbered right)",
        "F17",
    ),
    Case(
        id="O11",
        surface="overlay",
        finding="F12",
        what="identical overlay at another path; an empty overlay",
        files={
            "w.tsv": WUG,
            "sub/w.tsv": WUG,
            "empty.tsv": "",
            "w.yaml": 'entries:\n  - {text: wug, category: N, features: "class=animal; animate"}\n',
        },
        run=(cli(*GEN, "--lexicon-overlay", "w.tsv"),),
        expect=Ok(hashes_identify_content),
    ),
    Case(
        id="O12",
        surface="overlay",
        what="$BLIMPGEN_LEXICON_OVERLAY = a missing file, a folder, a missing .yaml",
        files={"folder/x.txt": "x"},
        expect=Error("cannot read file"),
        run=(
            cli(*GEN, env={"BLIMPGEN_LEXICON_OVERLAY": "missing.tsv"}),
            cli(*GEN, env={"BLIMPGEN_LEXICON_OVERLAY": "folder"}),
            cli("list", env={"BLIMPGEN_LEXICON_OVERLAY": "missing.yaml"}),
        ),
    ),
    overlay_case(
        "O13",
        {"w.yaml": "features:\n  zz_size: {type: enum, categories: [N], values: big, doc: d}\nentries: []\n"},
        Error("w.yaml:2: features.zz_size: values must be a list (e.g. [big])", located=True),
        'enum values: "big" (a string)',
        "F17",
        overlay="w.yaml",
    ),
    overlay_case(
        "O14",
        {
            "w.tsv": "glorp\tV\tframes=transitive; arg1=animate; arg2=animate\n"
            "glorp\tV\tframes=intransitive; arg1=animate\n"
        },
        Error("w.tsv:2: duplicate entry V:glorp:bare", located=True),
        "duplicate verb rows, different frames",
    ),
    Case(
        id="O15",
        surface="overlay",
        finding="F12",
        what="two YAML overlays: enum values [small, big] vs [big, small]",
        files={"A/w.yaml": enum_overlay("small, big"), "B/w.yaml": enum_overlay("big, small")},
        run=(py(lambda ws: lexicon_hash(ws, "A/w.yaml"), "load A/w.yaml"),),
        expect=Ok(hashes_cover_declarations),
    ),
    overlay_case(
        "O16",
        {"w.tsv": "wug\t" + "N" * 5000 + "\tclass=animal; animate\n"},
        Error("characters left out] … ", located=True),
        "a 5,000-character category (found by mutation fuzzing): one clipped line, not 5 KB",
        finding="F19",
    ),
    overlay_case(
        "O17",
        {
            "w.yaml": "features:\n  zz_size: {type: enum, categories: [N], values: ["
            + "v" * 5000
            + '], doc: d}\nentries:\n  - {text: gizmo, category: N, features: "class=artifact; '
            'zz_size=big"}\n'
        },
        Error("characters left out] … ", located=True),
        "an enum of one 5,000-character value and an entry using another (found by mutation fuzzing)",
        overlay="w.yaml",
        finding="F19",
    ),
]
