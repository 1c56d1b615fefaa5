"""The command line for probe suites: list, gen (options, controls), show, probe import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from blimpgen.cli import cli
from blimpgen.grammar import ProbeSpec, load_shipped_specs
from blimpgen.records.item import CONTROLS

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "probes" / "items.tsv"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def run_process(*args: str) -> tuple[int, str]:
    """The real entry point (one-line errors are made there), as a user runs it."""
    done = subprocess.run(
        [sys.executable, "-c", "from blimpgen.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


def test_list_shows_every_probe_suite_after_the_paradigms() -> None:
    result = run("list")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    start = lines.index("probe suites (items, not pairs):")
    end = lines.index("", start)  # then the factorial designs
    listed = {line.split()[0] for line in lines[start + 1 : end]}
    assert listed == set(load_shipped_specs(ProbeSpec))
    assert any(line.startswith("determiner_noun_agreement_1") for line in lines[:start])


def test_list_filters_probe_suites_by_phenomenon() -> None:
    result = run("list", "--phenomenon", "age_comparison")
    assert result.exit_code == 0
    assert "olmpics_age_comparison_birth_year" in result.output and "olmpics_multihop_age" not in result.output


def test_gen_a_suite_by_name_to_stdout() -> None:
    result = run(
        "gen",
        "--paradigm",
        "olmpics_age_comparison",
        "-n",
        "4",
        "--seed",
        "3",
        "--option",
        "min_age=30",
        "--option",
        "max_age=40",
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == 4 and all(r["item_type"] == "multiple_choice" and r["control"] == "none" for r in rows)
    assert all(30 <= int(a) <= 40 for r in rows for a in r["arguments"])


def test_gen_controls_into_a_folder_one_file_per_control(tmp_path) -> None:
    result = run(
        "gen",
        "-p",
        "olmpics_multihop_age",
        "-p",
        "npi_present_1",
        "-n",
        "5",
        "--control",
        "all",
        "--out-dir",
        str(tmp_path),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.iterdir())
    offered = load_shipped_specs(ProbeSpec)["olmpics_multihop_age"].spec.offered_controls
    assert set(offered) == set(CONTROLS) - {"generic_object", "generic_subject", "generic_both"}  # role items only
    expected = sorted(
        ["npi_present_1.jsonl"] + [f"olmpics_multihop_age{'' if c == 'none' else '.' + c}.jsonl" for c in offered]
    )
    assert names == expected
    base = [json.loads(line) for line in (tmp_path / "olmpics_multihop_age.jsonl").read_text().splitlines()]
    nolang = [
        json.loads(line) for line in (tmp_path / "olmpics_multihop_age.no_language.jsonl").read_text().splitlines()
    ]
    assert [r["item_id"] + ".no_language" for r in base] == [r["item_id"] for r in nolang]


def test_gen_probe_errors_are_one_line() -> None:
    for args, message in [
        (("gen", "-p", "olmpics_age_comparison", "--option", "maxage=3"), "unknown option 'maxage'"),
        (("gen", "-p", "olmpics_age_comparison", "--option", "max_age"), "--option takes NAME=VALUE"),
        (("gen", "-p", "olmpics_age_compariso"), "did you mean 'olmpics_age_comparison'"),
        (("gen", "-p", "npi_present_1", "--control", "shuffled"), "apply to probe suites only"),
    ]:
        code, output = run_process(*args)
        assert code != 0 and message in output, (args, output)
        assert "Traceback" not in output and len(output.strip().splitlines()) <= 4


def test_show_previews_items() -> None:
    result = run("show", "olmpics_age_comparison", "-n", "3")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == 4 and all("[MASK]" in line and "-> " in line for line in lines[1:])


def test_probe_import_converts_tsv(tmp_path) -> None:
    out = tmp_path / "items.jsonl"
    result = run("probe", "import", str(FIXTURE), "-o", str(out), "--suite", "handmade")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["UID"] for r in rows] == ["handmade"] * 4


def test_probe_import_bad_file_writes_nothing(tmp_path) -> None:
    source = tmp_path / "bad.tsv"
    source.write_text("context\tgood\tbad\nNo blank.\ta\tb\n")
    out = tmp_path / "items.jsonl"
    code, output = run_process("probe", "import", str(source), "-o", str(out))
    assert code == 1 and output.strip().endswith("bad.tsv:2: context: must contain [MASK] exactly once")
    assert not out.exists()


def test_check_accepts_a_valid_probe_suite(tmp_path) -> None:
    shipped = Path(__file__).resolve().parents[2] / "src" / "blimpgen" / "grammar" / "probes" / "neg_simp.yaml"
    (tmp_path / "my_neg.yaml").write_text(shipped.read_text().replace("uid: neg_simp", "uid: my_neg"))
    code, output = run_process("check", str(tmp_path), "-n", "100")
    assert code == 0 and output.strip() == "1 probe suites OK", output
    code, output = run_process("show", "my_neg", "-n", "2", "--paradigm-path", str(tmp_path))
    assert code == 0 and output.startswith("my_neg (negation, cloze_contrast)"), output


def test_check_reports_a_probe_suite_problem_at_its_line(tmp_path) -> None:
    shipped = Path(__file__).resolve().parents[2] / "src" / "blimpgen" / "grammar" / "probes" / "neg_simp.yaml"
    text = shipped.read_text().replace("uid: neg_simp", "uid: my_neg").replace("{{ leaf | a_an", "{{ lief | a_an")
    (tmp_path / "my_neg.yaml").write_text(text)
    code, output = run_process("check", str(tmp_path))
    assert code == 1 and f"{tmp_path}/my_neg.yaml:14: context: undeclared template variable 'lief'" in output, output


def test_audit_says_it_does_not_apply_to_probe_suites() -> None:
    code, output = run_process("audit", "neg_simp", "-n", "20")
    assert code == 1 and output.strip() == (
        "error: neg_simp is a probe suite, not a paradigm; audit measures "
        "shallow cues in minimal pairs, not in probe items"
    ), output


def test_probe_import_writes_controls_after_each_item(tmp_path) -> None:
    """Probes audit M5: Ettinger's perturbations could not reach imported items from the command line."""
    source = tmp_path / "cprag.tsv"
    source.write_text(
        "id\tcontext\tgood\tbad\texpected\n"
        "c-1\tHe wanted to cut the loaf into slices. He asked his sister for a [MASK].\tknife\t"
        "spoon|bicycle\tknife\n"
    )
    out = tmp_path / "items.jsonl"
    result = run(
        "probe",
        "import",
        str(source),
        "-o",
        str(out),
        "--control",
        "truncated",
        "--control",
        "shuffled",
        "--shuffles",
        "3",
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["item_id"] for r in rows] == [
        "c-1",
        "c-1.truncated",
        "c-1.shuffled.000",
        "c-1.shuffled.001",
        "c-1.shuffled.002",
    ]
    assert rows[0]["item_type"] == "cloze_foils" and rows[0]["foils"] == ["spoon", "bicycle"]
    assert rows[1]["context"] == "He wanted to cut the loaf into slices. for a [MASK]."  # sentence 1 kept
    assert [r["replicate"] for r in rows[2:]] == [0, 1, 2]
    assert all(r["candidates"] == rows[0]["candidates"] and r["answer"] == "knife" for r in rows)
