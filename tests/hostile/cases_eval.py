"""Scoring, reports and n-gram models (E)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from tests.hostile.cases_cli import both, fifo, file_size_limit, no_parts, unchanged
from tests.hostile.cases_validate import record
from tests.hostile.corpus import Case, Error, Ok, cli, proc

EVAL = ("eval", "--model", "MODEL", "--device", "cpu")
NEEDS = ("MODEL", "d1.jsonl")
CORPUS = "the cat sleeps\nthe dog sleeps\n"
# No CUDA here ("CUDA is not available"), or fewer than 8 GPUs ("this machine has N CUDA devices").
CUDA7 = "device 'cuda:7': "


def probe_items(line: int = 0, **changes) -> str:
    """The fixture probe items as JSONL, with ``changes`` made to the item on ``line`` (0-based)."""
    from blimpgen.generators.probe_tsv import read_probe_tsv
    from blimpgen.records.jsonl import dumps_record
    from tests.hostile.corpus import REPO

    records = [
        json.loads(dumps_record(item))
        for item in read_probe_tsv(REPO / "tests" / "fixtures" / "probes" / "items.tsv", None, None, "semantics")
    ]
    records[line].update(changes)
    return jsonl(*records)


def jsonl(*records) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def pair(good: str, bad: str, uid: str = "x", index: int = 0) -> dict:
    return record(uid, index, good, bad)


def copy_of(name: str):
    def build(path: Path) -> None:
        shutil.copyfile(_workspace(path) / name, path)

    return build


def _workspace(path: Path) -> Path:
    """The case's workspace (where its prerequisites are) from a file being built in it."""
    while path.name != "ws":
        path = path.parent
    return path


def only(folder: str, *names: str):
    def check(ws: Path) -> None:
        found = sorted(p.name for p in (ws / folder).iterdir())
        assert found == sorted(names), found

    return check


def truncated(path: Path) -> None:
    text = (path.parent / "d1.jsonl").read_text(encoding="utf-8")
    path.write_text(text[: len(text) - 40], encoding="utf-8")


def model_without(*names: str):
    def build(path: Path) -> None:
        shutil.copytree(path.parent / "MODEL", path)
        for name in names:
            (path / name).unlink()

    return build


def corrupt_config(path: Path) -> None:
    shutil.copytree(path.parent / "MODEL", path)
    (path / "config.json").write_text("{not json", encoding="utf-8")


def mixed_folder(path: Path) -> None:
    path.mkdir()
    shutil.copyfile(path.parent / "d1.jsonl", path / "good.jsonl")
    (path / "bin.jsonl").write_bytes(bytes(range(256)) * 4)
    (path / "x.jsonl").mkdir()
    (path / "README").write_text("notes\n")
    (path / "data.jsonl.gz").write_bytes(b"\x1f\x8b\x08\x00" + bytes(40))


def results_folder(content: str):
    def build(path: Path) -> None:
        path.mkdir()
        (path / "results.json").write_text(content, encoding="utf-8")

    return build


def scored(path: Path) -> None:
    from blimpgen.cli import main

    try:
        main(
            [
                "eval",
                "--model",
                str(path.parent / "MODEL"),
                "--device",
                "cpu",
                "--data",
                str(path.parent / "d1.jsonl"),
                "--out",
                str(path),
            ]
        )
    except SystemExit as exc:
        assert not exc.code


def earlier_result(path: Path) -> None:
    """An earlier result of one pair in ``path``, and a copy of it in ``path.before`` to compare with."""
    from blimpgen.cli import main

    ws = _workspace(path)
    lines = (ws / "d1.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (ws / "first.jsonl").write_text(lines[0], encoding="utf-8")
    (ws / "second.jsonl").write_text(lines[1], encoding="utf-8")
    try:
        main(
            [
                "eval",
                "--model",
                str(ws / "MODEL"),
                "--device",
                "cpu",
                "--data",
                str(ws / "second.jsonl"),
                "--out",
                str(path),
            ]
        )
    except SystemExit as exc:
        assert not exc.code
    shutil.copytree(path, path.with_name(path.name + ".before"))


def intact(folder: str):
    def check(ws: Path) -> None:
        before = {p.name: p.read_bytes() for p in (ws / f"{folder}.before").iterdir()}
        after = {p.name: p.read_bytes() for p in (ws / folder).iterdir()}
        assert after == before, sorted(name for name in after if after[name] != before.get(name))

    return check


def no_formulas(name: str, text: str):
    def check(ws: Path) -> None:
        import csv

        with (ws / name).open(encoding="utf-8", newline="") as handle:
            cells = [cell for row in csv.reader(handle) for cell in row]
        assert text in cells and not any(cell.startswith(("=", "+", "@")) for cell in cells), cells[:40]

    return check


def edit_json(path: Path, **changes) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, **changes}, indent=2), encoding="utf-8")


HUMAN = "UID,accuracy\nnpi_present_1,0.9\n"


def human_csv(accuracy: str):
    def build(path: Path) -> None:
        path.write_text(
            "UID,linguistics_term,n_pairs,human_accuracy,individual_accuracy,pass,field,n_majority,"
            f"n_judgments,min_judgments\nnpi_present_1,npi_licensing,5,{accuracy},0.9,True,semantics,5,15,"
            "3\n",
            encoding="utf-8",
        )

    return build


def arpa(path: Path) -> None:
    from blimpgen.cli import main

    try:
        main(["ngram", "train", str(path.parent / "corpus.txt"), "-o", str(path), "--order", "3"])
    except SystemExit as exc:
        assert not exc.code


def absent(name: str):
    def check(ws: Path) -> None:
        assert not (ws / name).exists(), f"{name} was written"

    return check


def clean_arpa(name: str):
    def check(ws: Path) -> None:
        text = (ws / name).read_text(encoding="utf-8")
        assert "\tthe\t" in text and "\tsleeps\t" in text and "\ufeff" not in text and "\r" not in text, text[:300]

    return check


def truncated_arpa(path: Path) -> None:
    """A model cut inside its 11th unigram line, after the log-probability (whatever the words are)."""
    arpa(path.parent / "full.arpa")
    lines = (path.parent / "full.arpa").read_bytes().split(b"\n")
    eleventh = lines.index(b"\\1-grams:") + 11
    path.write_bytes(b"\n".join(lines[:eleventh]) + b"\n" + lines[eleventh].split(b"\t")[0])


UNICODE = [
    pair("The cat 😀 sleeps.", "The cat 😀 sleep.", index=0),
    pair("שלום the cat sleeps.", "שלום the cat sleep.", index=1),
    pair("The cafe\u0301 opens.", "The cafe\u0301 open.", index=2),
    pair("The cat\u2028 sleeps.", "The cat\u2028 sleep.", index=3),
    pair("The cat\x00 sleeps.", "The cat\x00 sleep.", index=4),
]
LONG = "The cat " + "really " * 150


def case(id: str, what: str, run, expect, files=None, needs=NEEDS, finding="", setup=()) -> Case:
    return Case(
        id=id,
        surface="eval",
        what=what,
        run=tuple(run),
        expect=expect,
        files=files or {},
        needs=needs,
        finding=finding,
        setup=setup,
    )


CASES = [
    case(
        "E01",
        "JSONL truncated mid-line",
        [cli(*EVAL, "--data", "d.jsonl")],
        Error("d.jsonl:10: invalid JSON"),
        {"d.jsonl": truncated},
    ),
    case(
        "E02a",
        "a 0-byte .jsonl",
        [cli(*EVAL, "--data", "d.jsonl")],
        Error("d.jsonl: no pairs to evaluate"),
        {"d.jsonl": ""},
    ),
    case(
        "E02b",
        "a folder holding only an empty .jsonl",
        [cli(*EVAL, "--data", "D")],
        Error("D/e.jsonl: no pairs to evaluate"),
        {"D/e.jsonl": ""},
    ),
    case(
        "E03",
        "a line without sentence_bad",
        [cli(*EVAL, "--data", "d.jsonl")],
        Error("d.jsonl:1: missing required field 'sentence_bad'"),
        {"d.jsonl": jsonl({"sentence_good": "A cat sleeps.", "UID": "x"})},
    ),
    case(
        "E04",
        "sentence_good 123, sentence_bad ['a']",
        [cli(*EVAL, "--data", "d.jsonl")],
        Error("d.jsonl:1: field 'sentence_good' must be a string"),
        {"d.jsonl": jsonl({"sentence_good": 123, "sentence_bad": ["a"], "UID": "x"})},
    ),
    case(
        "E04b",
        "linguistics_term 5 (found by mutation fuzzing: a TypeError while sorting the summary)",
        [cli(*EVAL, "--data", "d.jsonl")],
        Error("d.jsonl:2: field 'linguistics_term' must be a string", located=True),
        {
            "d.jsonl": jsonl(
                pair("A cat sleeps.", "A cat sleep."),
                {**pair("A dog sleeps.", "A dog sleep.", index=1), "linguistics_term": 5},
            )
        },
    ),
    case(
        "E04c",
        "simple_LM_method 'maybe', [0]",
        [cli(*EVAL, "--data", "d.jsonl")],
        Error("d.jsonl:1: field 'simple_LM_method' must be true or false, got 'maybe'", located=True),
        {
            "d.jsonl": jsonl(
                {**pair("A cat sleeps.", "A cat sleep."), "simple_LM_method": "maybe"},
                {**pair("A dog sleeps.", "A dog sleep.", index=1), "simple_LM_method": [0]},
            )
        },
    ),
    case(
        "E05",
        "empty and whitespace-only sentences",
        [cli(*EVAL, "--data", "d.jsonl")],
        Error("d.jsonl:1: pair x-00000: sentence_good '' is 0 tokens"),
        {"d.jsonl": jsonl(pair("", " ", index=0), pair("  ", "A cat sleeps.", index=1))},
        finding="F24",
    ),
    case(
        "E06",
        "a sentence of ~300 tokens, a model of 64 positions",
        [cli(*EVAL, "--data", "d.jsonl")],
        Error(("d.jsonl:1: pair x-00000: sentence_good is ", " tokens, more than the 64 that model MODEL can score")),
        {"d.jsonl": jsonl(pair(LONG + "sleeps.", LONG + "sleep."))},
        finding="F14",
    ),
    case(
        "E07",
        "emoji, RTL, combining marks, U+2028, NUL",
        [cli(*EVAL, "--data", "d.jsonl", "--out", "r")],
        Ok(),
        {"d.jsonl": jsonl(*UNICODE)},
    ),
    case(
        "E08",
        "folder: good .jsonl + binary .jsonl + folder x.jsonl + README + .gz",
        [cli(*EVAL, "--data", "D")],
        Error("D/bin.jsonl:1: invalid JSON", located=True, file="D/bin.jsonl"),
        {"D": mixed_folder},
        finding="F11",
    ),
    case(
        "E09",
        'lines [], null, 42, "str"',
        [cli(*EVAL, "--data", "d.jsonl")],
        Error("d.jsonl:1: expected a JSON object, got list"),
        {"d.jsonl": jsonl("[]", "null", "42", '"str"')},
    ),
    case(
        "E09b",
        "probe items: UID null; an answer that is no candidate while contexts are given (found by "
        "mutation fuzzing: a TypeError and a KeyError)",
        [cli(*EVAL, "--data", "i.jsonl")],
        Error("i.jsonl:1: field 'UID' is required; it may not be null", located=True),
        {"i.jsonl": lambda p: p.write_text(probe_items(UID=None), encoding="utf-8")},
        needs=("MODEL",),
    ),
    case(
        "E09c",
        "a probe item whose answer is '' while contexts are given",
        [cli(*EVAL, "--data", "i.jsonl")],
        Error(
            "i.jsonl:2: item 'k-2' of items: answer '' is not one of the candidates ['insect', 'bird']", located=True
        ),
        {"i.jsonl": lambda p: p.write_text(probe_items(line=1, answer=""), encoding="utf-8")},
        needs=("MODEL",),
    ),
    case(
        "E10",
        "a Latin-1 byte inside a sentence",
        [cli(*EVAL, "--data", "d.jsonl")],
        Error("d.jsonl:1: cannot read file: not UTF-8 text"),
        {
            "d.jsonl": jsonl(pair("The caf\xe9 opens.", "The caf\xe9 open."))
            .replace("\\u00e9", "\xe9")
            .encode("latin-1")
        },
        finding="F11",
    ),
    case("E11a", "--scorer nosuch", [cli(*EVAL, "--scorer", "nosuch", "--data", "d1.jsonl")], Error("nosuch")),
    case(
        "E11b",
        "--scorer ngram without its ngram_model option",
        [cli("eval", "--scorer", "ngram", "--data", "d1.jsonl")],
        Error("scorer 'ngram' needs option 'ngram_model' (--scorer-option ngram_model=VALUE)"),
    ),
    case(
        "E11c",
        "--method one-prefix on data without prefix fields",
        [cli(*EVAL, "--method", "one-prefix", "--data", "d.jsonl")],
        Error("--method one-prefix: none of the 1 paradigms in the data supports it"),
        {"d.jsonl": jsonl(pair("A cat sleeps.", "A cat sleep."))},
    ),
    case(
        "E11d",
        "--reduction slor without --slor-corpus",
        [cli(*EVAL, "--reduction", "slor", "--data", "d1.jsonl")],
        Error("reduction 'slor' needs a unigram model: pass --slor-corpus FILE"),
    ),
    case(
        "E11e",
        "--scorer hf-masked on a causal model",
        [cli(*EVAL, "--scorer", "hf-masked", "--data", "d1.jsonl")],
        Error("use --scorer hf-causal"),
    ),
    case(
        "E12a",
        "a model folder without tokenizer files",
        [cli(*EVAL[:1], "--model", "m1", "--device", "cpu", "--data", "d1.jsonl")],
        Error("model folder m1 has no tokenizer files"),
        {"m1": model_without("tokenizer.json", "tokenizer_config.json")},
        finding="F2",
    ),
    case(
        "E12b",
        "a model folder without weights",
        [cli("eval", "--model", "m2", "--device", "cpu", "--data", "d1.jsonl")],
        Error("unknown model 'm2'"),
        {"m2": model_without("model.safetensors")},
    ),
    case(
        "E12c",
        "a corrupt config.json",
        [cli("eval", "--model", "m3", "--device", "cpu", "--data", "d1.jsonl")],
        Error("unknown model 'm3'"),
        {"m3": corrupt_config},
    ),
    case(
        "E12d",
        "a nonexistent model path (offline)",
        [cli("eval", "--model", "no/such/model", "--device", "cpu", "--data", "d1.jsonl", env={"HF_HUB_OFFLINE": "1"})],
        Error("no/such/model"),
    ),
    case(
        "E13",
        "eval --data D --out D, then eval --data D",
        [cli(*EVAL, "--data", "D", "--out", "D")],
        Error("D: the output is also an input: it holds --data D/d1.jsonl", check=only("D", "d1.jsonl")),
        {"D/d1.jsonl": copy_of("d1.jsonl")},
        finding="F7",
    ),
    case(
        "E13b",
        "--data an earlier run's result folder (pairs.jsonl read as pairs)",
        [cli(*EVAL, "--data", "r")],
        Error("r/pairs.jsonl:1: a row of evaluation results", located=True, file="r/pairs.jsonl"),
        {"r": scored},
        finding="F7",
    ),
    case(
        "E13c",
        "--data D/d1.jsonl --out D (results beside the data)",
        [cli(*EVAL, "--data", "D/d1.jsonl", "--out", "D")],
        Error("D: the output is also an input: it holds --data D/d1.jsonl", check=only("D", "d1.jsonl")),
        {"D/d1.jsonl": copy_of("d1.jsonl")},
        finding="F7",
    ),
    case(
        "E14a",
        "--data f.jsonl --data f.jsonl",
        [cli(*EVAL, "--data", "d1.jsonl", "--data", "d1.jsonl")],
        Error("--data d1.jsonl is given twice; its records would count twice"),
        finding="F7",
    ),
    case(
        "E14b",
        "--data D --data D/f.jsonl",
        [cli(*EVAL, "--data", "D", "--data", "D/d1.jsonl")],
        Error("--data D and --data D/d1.jsonl both name D/d1.jsonl; its records would count twice"),
        {"D/d1.jsonl": copy_of("d1.jsonl")},
        finding="F7",
    ),
    case(
        "E14c",
        "--data D holding a file and an identical copy",
        [cli(*EVAL, "--data", "D")],
        Error("D/b.jsonl:1: pair 'npi_present_1-00000' repeats (first in D/a.jsonl:1)", located=True, file="D/b.jsonl"),
        {"D/a.jsonl": copy_of("d1.jsonl"), "D/b.jsonl": copy_of("d1.jsonl")},
        finding="F7",
    ),
    case(
        "E14d",
        "--data f.jsonl --data a hard link to it",
        [cli(*EVAL, "--data", "d1.jsonl", "--data", "h.jsonl")],
        Error("--data d1.jsonl and --data h.jsonl name the same file (d1.jsonl and h.jsonl)"),
        {"h.jsonl": lambda p: os.link(p.parent / "d1.jsonl", p)},
        finding="F7",
    ),
    case(
        "E15",
        "--out an existing file",
        [cli(*EVAL, "--data", "d1.jsonl", "--out", "f")],
        Error("Invalid value for '-o' / '--output': Directory 'f' is a file."),
        {"f": "x"},
    ),
    case(
        "E16",
        "one 50 MB JSONL line",
        [proc(*EVAL, "--data", "d.jsonl", timeout=6)],
        Error("d.jsonl:1: line longer than 1 MB; a record (a pair, a probe item) is at most that", located=True),
        {"d.jsonl": lambda p: p.write_text(jsonl(pair("A cat " + "very " * 10_000_000 + "sleeps.", "A cat sleep.")))},
        finding="F19",
    ),
    case(
        "E17a",
        "--device cuda:7 where torch has no CUDA (or fewer GPUs)",
        [cli("eval", "--model", "MODEL", "--device", "cuda:7", "--data", "d1.jsonl")],
        Error(CUDA7),
        finding="F23",
    ),
    case(
        "E17b",
        "--device banana",
        [cli("eval", "--model", "MODEL", "--device", "banana", "--data", "d1.jsonl")],
        Error("device 'banana': not a torch device; use cpu, cuda, cuda:N (the N-th GPU) or mps"),
        finding="F23",
    ),
    case("E17c", "--batch-tokens 1", [cli(*EVAL, "--batch-tokens", "1", "--data", "d1.jsonl", "--out", "r")], Ok()),
    case(
        "E18",
        "UIDs '../../evil' and 'a/b'",
        [cli(*EVAL, "--data", "d.jsonl", "--out", "r", "--paradigms")],
        Ok(only("r", "pairs.jsonl", "results.csv", "results.json")),
        {
            "d.jsonl": jsonl(
                pair("A cat sleeps.", "A cat sleep.", "../../evil", 0), pair("A dog sleeps.", "A dog sleep.", "a/b", 1)
            )
        },
    ),
    case(
        "E18b",
        "--out an earlier result on a full disk: results.json does not fit (a file size limit)",
        [proc(*EVAL, "--data", "first.jsonl", "--out", "r", prepare=file_size_limit(800), timeout=120)],
        Error("r/results.json: cannot write: File too large", check=both(intact("r"), no_parts)),
        {"r": earlier_result},
        finding="F20",
    ),
    case(
        "E18c",
        "a UID that a spreadsheet runs as a formula",
        [cli(*EVAL, "--data", "d.jsonl", "--out", "r")],
        Ok(no_formulas("r/results.csv", '\'=HYPERLINK("http://evil.example","x")')),
        {"d.jsonl": jsonl(pair("A cat sleeps.", "A cat sleep.", '=HYPERLINK("http://evil.example","x")', 0))},
        finding="F22",
    ),
    case(
        "E19a",
        "report: results.json truncated",
        [cli("report", "ev")],
        Error("ev/results.json:4: not a blimpgen results file: invalid JSON", located=True, file="ev/results.json"),
        {"ev": lambda p: (scored(p), (p / "results.json").write_text((p / "results.json").read_text()[:50]))},
    ),
    case(
        "E19b",
        "report: results.json = []",
        [cli("report", "ev")],
        Error(
            "ev/results.json:1: not a blimpgen results file: expected a JSON object, got a list",
            located=True,
            file="ev/results.json",
        ),
        {"ev": results_folder("[]")},
        finding="F23",
    ),
    case(
        "E19e",
        "report: results.json whose paradigms table is a list",
        [cli("report", "ev")],
        Error(": paradigms: expected a JSON object, got a list", located=True, file="ev/results.json"),
        {"ev": lambda p: (scored(p), edit_json(p / "results.json", paradigms=[]))},
        finding="F23",
    ),
    case(
        "E19f",
        "report: results.json with a paradigm row that is a number",
        [cli("report", "ev")],
        Error(": paradigms.npi_present_1: expected a JSON object, got a number", located=True, file="ev/results.json"),
        {"ev": lambda p: (scored(p), edit_json(p / "results.json", paradigms={"npi_present_1": 3}))},
        finding="F23",
    ),
    case(
        "E19g",
        "report: results.json is a FIFO",
        [cli("report", "ev")],
        Error("ev/results.json: cannot read file: not a regular file (a FIFO)", located=True, file="ev/results.json"),
        {"ev": lambda p: (p.mkdir(), fifo(p / "results.json"))},
        finding="F23",
    ),
    case(
        "E19h",
        "report ev --out ev/results.json (the table over the results it reads)",
        [cli("report", "ev", "--out", "ev/results.json")],
        Error(
            "ev/results.json: the output is also an input (RESULTS ev/results.json)",
            check=lambda ws: json.loads((ws / "ev" / "results.json").read_text())["options"] is not None,
        ),
        {"ev": scored},
        finding="F7",
    ),
    case(
        "E19i",
        "report ev --human h.csv --out h.csv",
        [cli("report", "ev", "--human", "h.csv", "--out", "h.csv")],
        Error("h.csv: the output is also an input (--human h.csv)", check=unchanged("h.csv", HUMAN)),
        {"ev": scored, "h.csv": HUMAN},
        finding="F7",
    ),
    case(
        "E22",
        "probe curve --plot its --train items (checked before the model loads)",
        [cli("probe", "curve", "--model", "no/such/model", "--train", "t.jsonl", "--plot", "t.jsonl")],
        Error("t.jsonl: the output is also an input (--train t.jsonl)", check=unchanged("t.jsonl", "{}\n")),
        {"t.jsonl": "{}\n"},
        needs=(),
        finding="F7",
    ),
    case(
        "E19c",
        "report --human CSV with accuracy 'abc'",
        [cli("report", "ev", "--human", "h.csv")],
        Error(
            "h.csv:2: human_accuracy: cannot read human accuracies: 'abc' is not a number", located=True, file="h.csv"
        ),
        {"ev": scored, "h.csv": human_csv("abc")},
    ),
    case(
        "E19d",
        "report --human CSV with accuracy 'nan'",
        [cli("report", "ev", "--human", "h.csv")],
        Ok(),
        {"ev": scored, "h.csv": human_csv("nan")},
    ),
    case(
        "E20a",
        "ngram train on an empty corpus",
        [cli("ngram", "train", "c.txt", "-o", "c.arpa")],
        Error("c.txt: n-gram training corpus is empty: it has no words"),
        {"c.txt": ""},
        needs=(),
    ),
    case(
        "E20b",
        "ngram train on a binary file",
        [cli("ngram", "train", "b.txt", "-o", "b.arpa")],
        Error("b.txt:2: cannot read file: not UTF-8 text (byte 0x80", located=True, check=absent("b.arpa")),
        {"b.txt": bytes(range(256)) * 4},
        needs=(),
        finding="F11",
    ),
    case(
        "E20c",
        "ngram train c.txt -o c.txt",
        [cli("ngram", "train", "c.txt", "-o", "c.txt", "--order", "2")],
        Error("c.txt: the output is also an input (CORPUS c.txt)", check=unchanged("c.txt", CORPUS)),
        {"c.txt": CORPUS},
        needs=(),
        finding="F7",
    ),
    case(
        "E20d",
        "ngram train -o a file inside the corpus folder",
        [cli("ngram", "train", "C", "-o", "C/b.txt")],
        Error("C/b.txt: the output is also an input (CORPUS C/b.txt)", check=unchanged("C/b.txt", CORPUS)),
        {"C/a.txt": CORPUS, "C/b.txt": CORPUS},
        needs=(),
        finding="F7",
    ),
    case(
        "E20e",
        "ngram train on a FIFO",
        [cli("ngram", "train", "f.txt", "-o", "f.arpa")],
        Error("f.txt: cannot read file: not a regular file (a FIFO)", located=True),
        {"f.txt": fifo},
        needs=(),
        finding="F11",
    ),
    case(
        "E20f",
        "ngram train on a corpus with a byte-order mark and CRLF line ends",
        [cli("ngram", "train", "c.txt", "-o", "c.arpa", "--order", "2")],
        Ok(clean_arpa("c.arpa")),
        {"c.txt": ("\ufeff" + CORPUS.replace("\n", "\r\n")).encode("utf-8")},
        needs=(),
    ),
    case(
        "E21a",
        "an ARPA file that is not ARPA",
        [cli("eval", "--scorer", "ngram", "--ngram-model", "x.arpa", "--data", "d1.jsonl")],
        Error("x.arpa: not an ARPA model"),
        {"x.arpa": "hello\n"},
        needs=("d1.jsonl",),
    ),
    case(
        "E21b",
        "an ARPA file truncated after 10 unigrams",
        [cli("eval", "--scorer", "ngram", "--ngram-model", "t.arpa", "--data", "d1.jsonl")],
        Error("t.arpa:17: the file ends mid-line"),
        {"t.arpa": truncated_arpa},
        needs=("d1.jsonl", "corpus.txt"),
        finding="F8",
    ),
    case(
        "E21c",
        "--ngram-model a FIFO",
        [cli("eval", "--scorer", "ngram", "--scorer-option", "ngram_model=m.arpa", "--data", "d1.jsonl")],
        Error("m.arpa: cannot read ARPA model: not a regular file (a FIFO)"),
        {"m.arpa": fifo},
        needs=("d1.jsonl",),
    ),
]
