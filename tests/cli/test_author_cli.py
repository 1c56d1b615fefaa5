"""The authoring kit as a user runs it: new, check, audit, reference, overlays, entry points."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from blimpgen.cli import main

SKELETON_UID = "my_paradigm"


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue()


@pytest.fixture()
def skeleton(tmp_path: Path) -> Path:
    folder = tmp_path / "my_paradigms"
    code, output = run("new", SKELETON_UID, "--phenomenon", "npi_licensing", "-o", str(folder))
    assert code == 0, output
    return folder


def variant(folder: Path, uid: str, *replacements: tuple[str, str]) -> Path:
    text = (folder / f"{SKELETON_UID}.yaml").read_text().replace(f"uid: {SKELETON_UID}", f"uid: {uid}")
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    path = folder / f"{uid}.yaml"
    path.write_text(text)
    return path


def test_author_new_skeleton_passes_check(skeleton: Path) -> None:
    text = (skeleton / f"{SKELETON_UID}.yaml").read_text()
    assert "linguistics_term: npi_licensing" in text and "field: semantics" in text and text.count("#") > 10
    code, output = run("check", str(skeleton))
    assert code == 0 and "1 paradigms OK" in output, output


def test_author_new_never_overwrites(skeleton: Path) -> None:
    code, output = run("new", SKELETON_UID, "--phenomenon", "npi_licensing", "-o", str(skeleton))
    assert code == 1 and "file exists" in output


def test_author_check_reports_every_problem_of_every_file(skeleton: Path) -> None:
    (skeleton / "broken.yaml").write_text("uid: broken\nfield: nope\n")
    variant(skeleton, "dry", ("demonstrative and number", "demonstrative and mass and number"))
    variant(skeleton, "leaky", ('bad: "{{ subj }}', 'bad: "{{ subj }} really'))
    variant(skeleton, "determiner_noun_agreement_1")
    variant(skeleton, "typo", ("{{ noun | flip('number') }}", "{{ nuon | flip('number') }}"))
    code, output = run("check", str(skeleton))
    assert code == 1
    lines = output.splitlines()
    expected = [
        f"{skeleton}/broken.yaml:2: field: Input should be",
        f"{skeleton}/dry.yaml:24: slots.dem: no lexicon entry satisfies this slot's constraints",
        f"{skeleton}/leaky.yaml:15: contrast: good and bad differ in 'really'",
        f"{skeleton}/determiner_noun_agreement_1.yaml:5: uid: duplicate UID",
        f"{skeleton}/typo.yaml:28: bad: undeclared template variable 'nuon'; did you mean 'noun'?",
    ]
    for prefix in expected:
        assert any(line.startswith(prefix) for line in lines), (prefix, output)
    assert "OK" not in output and "problem(s)" in output


def test_author_check_estimates_capacity(tmp_path: Path) -> None:
    (tmp_path / "tiny_space.yaml").write_text(
        "uid: tiny_space\nfield: syntax\nlinguistics_term: npi_licensing\ndescription: tiny.\ncontrast: [w, ever]\n"
        "slots:\n  w: {kind: choice, values: [ever, often]}\n  x: {kind: choice, values: [a, b, c]}\n"
        "good: 'Mary {{ x }} {{ w }} sleeps.'\nbad: 'Mary {{ x }} ever {{ w }} sleeps.'\n"
    )
    code, output = run("check", str(tmp_path), "-n", "100")
    assert code == 1 and "tiny_space.yaml:6: slots: too small a space for 100 pairs: about 6" in output, output
    code, output = run("check", str(tmp_path / "tiny_space.yaml"), "-n", "5")
    assert code == 0, output


def test_author_check_shipped_paradigms_pass() -> None:
    code, output = run("check", "--attempts", "50")
    assert code == 0 and output.strip().endswith("paradigms OK"), output


def test_author_audit_reports_cues(skeleton: Path) -> None:
    code, output = run("audit", SKELETON_UID, "--paradigm-path", str(skeleton), "-n", "200")
    assert code == 0 and f"{SKELETON_UID}: ok (200 pairs)" in output and "bag of words" in output, output
    code, output = run("audit", "npi_present_1", "-n", "200", "--fail-on-flag")
    assert code == 1 and "npi_present_1: FLAGGED" in output and "'ever' occurs only in bad" in output, output


def test_author_audit_markdown_table(tmp_path: Path) -> None:
    out = tmp_path / "audit.md"
    code, output = run(
        "audit", "npi_present_1", "determiner_noun_agreement_1", "-n", "100", "--markdown", "-o", str(out)
    )
    assert code == 0, output
    text = out.read_text()
    assert "| `npi_present_1` | 100 |" in text and "2 paradigms, 1 flagged." in text


def test_author_reference_writes_markdown(tmp_path: Path) -> None:
    code, _ = run("reference", "-o", str(tmp_path / "ref.md"))
    text = (tmp_path / "ref.md").read_text()
    assert code == 0 and "### `verb_group.v1`" in text and "| `animate` | bool |" in text


OVERLAY_YAML = """\
features:
  invented: {type: bool, categories: [N], doc: "A made-up word."}
entries:
  - {text: wug, category: N, features: "class=animal; animate; invented"}
  - {text: dax, category: N, features: "class=animal; animate; invented; plural=daxen"}
"""

WUG_SPEC = """\
uid: wug_agreement
field: morphology
linguistics_term: subject_verb_agreement
description: A verb agrees with an invented noun.
contrast: [verb]
slots:
  noun: {kind: word, where: "N and invented"}
  verb: {kind: verb_group, verb: "frames=intransitive", subject: noun, agreeing: true}
good: "The {{ noun }} {{ verb }}."
bad: "The {{ noun }} {{ verb | flip('number') }}."
"""


@pytest.mark.parametrize(
    "suffix,content",
    [
        (".yaml", OVERLAY_YAML),
        (".tsv", "wug\tN\tclass=animal; animate\ndax\tN\tclass=animal; animate; plural=daxen\n"),
    ],
)
def test_author_lexicon_overlay_adds_words(tmp_path: Path, suffix: str, content: str) -> None:
    overlay = tmp_path / f"words{suffix}"
    overlay.write_text(content)
    folder = tmp_path / "p"
    folder.mkdir()
    spec = WUG_SPEC if suffix == ".yaml" else WUG_SPEC.replace("N and invented", "N and lemma=wug,dax")
    (folder / "wug_agreement.yaml").write_text(spec)
    code, output = run("check", str(folder))
    assert code == 1 and ("unknown category or feature 'invented'" in output or "no lexicon entry" in output), output
    code, output = run("check", str(folder), "--lexicon-overlay", str(overlay), "-n", "10")
    assert code == 0, output
    out = tmp_path / "wug.jsonl"
    code, output = run(
        "gen",
        "-p",
        "wug_agreement",
        "--paradigm-path",
        str(folder),
        "--lexicon-overlay",
        str(overlay),
        "-n",
        "10",
        "-o",
        str(out),
        "--quiet",
    )
    assert code == 0, output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 10 and all(
        r["sentence_good"].split()[1].lower() in {"wug", "wugs", "dax", "daxen"} for r in rows
    )


def test_author_lexicon_overlay_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    overlay = tmp_path / "words.yaml"
    overlay.write_text(OVERLAY_YAML.replace('invented"}\n  - {text: dax', 'invnted"}\n  - {text: dax'))
    monkeypatch.setenv("BLIMPGEN_LEXICON_OVERLAY", str(overlay))
    code, output = run("show", "npi_present_1", "-n", "1")
    assert code == 1 and f"{overlay}:4: invnted: unknown feature; did you mean 'invented'" in output, output


def test_author_paradigms_from_entry_points(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    (tmp_path / "wug_agreement.yaml").write_text(WUG_SPEC.replace("N and invented", "N and class=animal"))

    class EntryPoint:
        name, value = "my_pack", "my_pack:folder"

        def load(self) -> object:
            return lambda: tmp_path

    real = metadata.entry_points
    monkeypatch.setattr(
        metadata, "entry_points", lambda **kw: [EntryPoint()] if kw.get("group") == "blimpgen.paradigms" else real(**kw)
    )
    code, output = run("list", "--phenomenon", "subject_verb_agreement")
    assert code == 0 and "wug_agreement" in output, output
    code, output = run("show", "wug_agreement", "-n", "2")
    assert code == 0 and output.count(" *The ") == 2, output


def test_author_broken_entry_point_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata

    class EntryPoint:
        name, value = "bad_pack", "bad_pack:folder"

        def load(self) -> object:
            raise ImportError("No module named 'bad_pack'")

    real = metadata.entry_points
    monkeypatch.setattr(
        metadata, "entry_points", lambda **kw: [EntryPoint()] if kw.get("group") == "blimpgen.paradigms" else real(**kw)
    )
    code, output = run("list")
    assert code == 1 and "entry point bad_pack = bad_pack:folder: cannot load (ImportError" in output, output
