"""Export to Hugging Face datasets and lm-eval (X), and the Python API (A)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.hostile.cases_cli import file_size_limit
from tests.hostile.cases_validate import record
from tests.hostile.corpus import Case, Error, Ok, cli, proc, py
from tests.hostile.prerequisites import base

EXPORT = ("export", "hf", "--data", "DATA")


def one_pair(uid: str = "abc", **fields) -> str:
    return json.dumps({**record(uid, 0, "A cat sleeps 1.", "A cat sleep 1."), **fields}) + "\n"


def earlier_export_kept(ws: Path) -> None:
    """X02: --overwrite replaced the export's own files and kept .git/ and notes.txt."""
    assert (ws / "ex" / ".git" / "HEAD").read_text() == "keep\n" and (ws / "ex" / "notes.txt").read_text() == "mine\n"
    assert (ws / "ex" / "README.md").is_file() and sorted(p.name for p in (ws / "ex" / "data").iterdir()) == [
        "npi_present_1",
        "wh_island",
    ]


def earlier_export(path: Path) -> None:
    from blimpgen.export.hf import export_dataset

    export_dataset(path.parent / "DATA", path)
    (path / ".git").mkdir()
    (path / ".git" / "HEAD").write_text("keep\n")
    (path / "notes.txt").write_text("mine\n")


def escaped(ws: Path) -> None:
    assert (ws.parent / "escaped_export" / "README.md").is_file()


def export_intact(ws: Path) -> None:
    assert (ws / "ex" / "README.md").is_file() and not list(ws.glob(".ex.*"))


# ----------------------------------------------------------------------------- API


def front_matter_safe(ws: Path) -> None:
    """The pretty name is one quoted value of the card's front matter; the license is still ours."""
    import yaml

    text = (ws / "ex" / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n"), text[:100]
    front = yaml.safe_load(text[4 : text.index("\n---\n", 4)])
    assert front["pretty_name"] == "a\n---\nlicense: evil" and front["license"] == "cc-by-4.0", front


def docstring_imports(ws: Path) -> None:
    """A01: every blimpgen name the package docstring points to can be imported."""
    import importlib

    import blimpgen

    names = re.findall(r"`(blimpgen(?:\.\w+)+)`", blimpgen.__doc__ or "")
    assert names
    for name in names:
        module, _, attr = name.rpartition(".")
        target = importlib.import_module(module)
        assert hasattr(target, attr), name


def parse_bytes(ws: Path) -> None:
    """A02: parse_spec accepts UTF-8 bytes as it accepts text."""
    from blimpgen.grammar import parse_spec

    assert parse_spec(base("s_bytes").encode("utf-8"), "s_bytes.yaml").uid == "s_bytes"


def parse_latin1_bytes(ws: Path) -> None:
    from blimpgen.grammar import parse_spec

    parse_spec(base("s_latin").replace('"x"', '"caf\xe9"').encode("latin-1"), "s_latin.yaml")


def cache_not_shared(ws: Path) -> None:
    """A03: a caller changing the dict load_shipped_specs returns changes nothing else."""
    from blimpgen.generators import load_paradigms
    from blimpgen.grammar import load_shipped_specs

    load_shipped_specs().pop("npi_present_1")
    assert "npi_present_1" in load_shipped_specs()
    assert load_paradigms(["npi_present_1"])[0].uid == "npi_present_1"


def generate_fraction(ws: Path) -> None:
    from blimpgen.generators import generate, load_paradigms

    list(generate(load_paradigms(["npi_present_1"])[0], 1.5))


def generate_text_seed(ws: Path) -> None:
    from blimpgen.generators import generate, load_paradigms

    list(generate(load_paradigms(["npi_present_1"])[0], 2, seed="abc"))


def render_failure(ws: Path) -> None:
    """A05: a template failing at render reaches an API caller as a BlimpgenError (a located GenerationError)."""
    from blimpgen.generators import generate, load_paradigms

    (ws / "P").mkdir()
    (ws / "P" / "a_zero.yaml").write_text(
        base("a_zero", good="{{ 1 / (noun.number|length - 2) }}{{ subj }} {{ verb }} {{ dem }} {{ noun }}.")
    )
    list(generate(load_paradigms(["a_zero"], paradigm_paths=(ws / "P",))[0], 3))


CASES = [
    Case(
        id="X01b",
        surface="export",
        what="-o a/b/../../../escaped_export",
        needs=("DATA",),
        run=(cli(*EXPORT, "-o", "a/b/../../../escaped_export"),),
        expect=Ok(escaped),
    ),
    Case(
        id="X02",
        surface="export",
        what="--overwrite an earlier export holding .git/ and notes.txt",
        finding="F18",
        needs=("DATA",),
        files={"ex": earlier_export},
        run=(cli(*EXPORT, "-o", "ex", "--overwrite"),),
        expect=Ok(earlier_export_kept),
    ),
    Case(
        id="X03a",
        surface="export",
        what="UID '../evil'",
        files={"b.jsonl": one_pair("../evil")},
        run=(cli("export", "hf", "--data", "b.jsonl", "-o", "o2"),),
        expect=Error("UID '../evil' cannot name a config"),
    ),
    Case(
        id="X03b",
        surface="export",
        what="UID 'abc<LF>' (a trailing newline)",
        finding="F18",
        files={"b.jsonl": one_pair("abc\n")},
        run=(cli("export", "hf", "--data", "b.jsonl", "-o", "o2"),),
        expect=Error("UID 'abc\\n' cannot name a config", check=lambda ws: not (ws / "o2").exists()),
    ),
    Case(
        id="X03c",
        surface="export",
        what="a duplicate pair_id",
        files={"b.jsonl": one_pair() * 2},
        run=(cli("export", "hf", "--data", "b.jsonl", "-o", "o2"),),
        expect=Error("duplicate pair_id 'abc-00000'"),
    ),
    Case(
        id="X03d",
        surface="export",
        what="seed '7' (a string)",
        files={"b.jsonl": one_pair(seed="7")},
        run=(cli("export", "hf", "--data", "b.jsonl", "-o", "o2"),),
        expect=Error("seed"),
    ),
    Case(
        id="X03e",
        surface="export",
        what="slots = []",
        files={"b.jsonl": one_pair(slots=[])},
        run=(cli("export", "hf", "--data", "b.jsonl", "-o", "o2"),),
        expect=Error("b.jsonl:1: field 'slots' must be an object of strings"),
    ),
    Case(
        id="X04a",
        surface="export",
        what="-o inside the --data folder",
        needs=("DATA",),
        run=(cli(*EXPORT, "-o", "DATA/ex"),),
        expect=Ok(lambda ws: (ws / "DATA" / "ex" / "README.md").is_file()),
    ),
    Case(
        id="X04b",
        surface="export",
        what="--data inside -o",
        needs=("DATA",),
        run=(cli("export", "hf", "--data", "DATA", "-o", "."),),
        expect=Error("the output folder contains the input"),
    ),
    Case(
        id="X05a",
        surface="export",
        what="lm-eval --group '../x'",
        needs=("DATA",),
        setup=(cli(*EXPORT, "-o", "ex"),),
        run=(cli("export", "lm-eval", "--data", "ex", "-o", "tasks", "--group", "../x"),),
        expect=Error("group name '../x' must be"),
    ),
    Case(
        id="X05b",
        surface="export",
        what="lm-eval --group 'g<LF>x'",
        needs=("DATA",),
        setup=(cli(*EXPORT, "-o", "ex"),),
        run=(cli("export", "lm-eval", "--data", "ex", "-o", "tasks", "--group", "g\nx"),),
        expect=Error("group name 'g\\nx' must be"),
    ),
    Case(
        id="X05c",
        surface="export",
        what="lm-eval --group 'g<LF>'",
        needs=("DATA",),
        setup=(cli(*EXPORT, "-o", "ex"),),
        run=(cli("export", "lm-eval", "--data", "ex", "-o", "tasks", "--group", "g\n"),),
        expect=Error("group name 'g\\n' must be"),
    ),
    Case(
        id="X06",
        surface="export",
        what="--data folder with a binary .jsonl",
        finding="F11",
        needs=("DATA",),
        files={"DATA/bin.jsonl": bytes(range(256)) * 4},
        run=(cli(*EXPORT, "-o", "ex"),),
        expect=Error("DATA/bin.jsonl:1: invalid JSON"),
    ),
    Case(
        id="X07",
        surface="export",
        what="--overwrite onto a full disk (a file size limit), earlier export there",
        finding="F20",
        needs=("DATA",),
        setup=(cli(*EXPORT, "-o", "ex"),),
        run=(proc(*EXPORT, "-o", "ex", "--overwrite", prepare=file_size_limit(4 * 1024)),),
        expect=Error("ex: cannot write: ", check=export_intact),
    ),
    Case(
        id="X08",
        surface="export",
        what="--pretty-name with newlines, '---', 'license: evil'",
        needs=("DATA",),
        run=(cli(*EXPORT, "-o", "ex", "--pretty-name", "a\n---\nlicense: evil"),),
        expect=Ok(front_matter_safe),
    ),
    Case(
        id="A01",
        surface="api",
        what="the names the package docstring points to",
        run=(py(docstring_imports),),
        expect=Ok(),
    ),
    Case(id="A02", surface="api", what="parse_spec(bytes, file)", finding="F23", run=(py(parse_bytes),), expect=Ok()),
    Case(
        id="A02b",
        surface="api",
        what="parse_spec(Latin-1 bytes, file)",
        finding="F23",
        run=(py(parse_latin1_bytes),),
        expect=Error("s_latin.yaml: cannot read file: not UTF-8 text"),
    ),
    Case(
        id="A03",
        surface="api",
        what="load_shipped_specs() then .pop() a UID",
        finding="F25",
        run=(py(cache_not_shared),),
        expect=Ok(),
    ),
    Case(
        id="A04",
        surface="api",
        what="generate(p, 1.5); generate(p, 2, seed='abc')",
        finding="F25",
        run=(py(generate_fraction), py(generate_text_seed)),
        expect=Error("must be a whole number"),
    ),
    Case(
        id="A05",
        surface="api",
        what="generate() on a spec whose template fails at render",
        finding="F9",
        run=(py(render_failure),),
        expect=Error("P/a_zero.yaml:14: good: template error: division by zero"),
    ),
]
