"""The generation commands, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from blimpgen.cli import LAZY_COMMANDS, cli, main

UID = "determiner_noun_agreement_1"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from blimpgen.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_list_shows_uid_phenomenon_field() -> None:
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 0
    line = next(line for line in result.output.splitlines() if line.startswith(UID))
    assert "determiner_noun_agreement" in line and "morphology" in line


def test_cli_list_filters_by_phenomenon() -> None:
    result = CliRunner().invoke(cli, ["list", "--phenomenon", "island_effects"])
    assert result.exit_code == 0 and "adjunct_island" in result.output and UID not in result.output


def test_cli_gen_stdout_is_jsonl() -> None:
    result = CliRunner().invoke(cli, ["gen", "--paradigm", UID, "-n", "5", "--seed", "0"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert len(rows) == 5 and all(r["UID"] == UID for r in rows)


def test_cli_gen_file_matches_stdout(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    CliRunner().invoke(cli, ["gen", "-p", UID, "-n", "20", "-o", str(out), "--quiet"], catch_exceptions=False)
    stdout = CliRunner().invoke(cli, ["gen", "-p", UID, "-n", "20"]).output
    assert out.read_text() == stdout


def test_cli_gen_all_writes_one_file_per_paradigm(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["gen", "--all", "-n", "3", "--out-dir", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    from blimpgen.grammar import load_shipped_specs

    assert sorted(p.stem for p in tmp_path.glob("*.jsonl")) == sorted(load_shipped_specs())


def test_cli_list_shows_designs_in_their_own_section() -> None:
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 0, result.output
    paradigms, designs = result.output.split("factorial designs (gen -p UID --design full; not in --all")
    assert "filler_gap_depth" not in paradigms and "wh_island" not in designs
    line = next(line for line in designs.splitlines() if line.startswith("subject_verb_agreement_attractor_distance"))
    assert "subject_verb_agreement" in line and "attractor(3) x distance(2)" in line
    assert len([line for line in designs.splitlines()[1:] if line.strip()]) == 5


def test_cli_gen_all_designs_with_a_chosen_subset(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["gen", "--all-designs", "--design", "attractor=none,pp", "-n", "2", "--out-dir", str(tmp_path), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    from blimpgen.grammar import load_shipped_designs

    assert sorted(p.stem for p in tmp_path.glob("*.jsonl")) == sorted(load_shipped_designs())

    def rows_of(uid: str) -> list[dict]:
        return [json.loads(line) for line in (tmp_path / f"{uid}.jsonl").read_text().splitlines()]

    rows = rows_of("subject_verb_agreement_plausibility")
    assert [tuple(row["levels"].values()) for row in rows] == [
        (a, m) for a in ("none", "pp") for m in ("plausible", "colorless")
    ] * 2
    assert [row.get("lexicon_mode") for row in rows[:2]] == [None, "colorless"]
    rows = rows_of("filler_gap_depth")  # no attractor factor: every cell
    assert [row["levels"]["depth"] for row in rows] == ["zero", "one", "two"] * 2


def test_cli_show_previews_good_and_starred_bad() -> None:
    result = CliRunner().invoke(cli, ["show", UID, "-n", "3"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith(UID) and lines[2].startswith(" *") and len(lines) == 7


@pytest.mark.parametrize(
    "args,message",
    [
        (
            ["gen", "-p", "determiner_noun_agreemnt_1", "-n", "2"],
            "unknown paradigm or probe suite 'determiner_noun_agreemnt_1'; did you mean 'determiner_noun_agreement_1'",
        ),
        (["gen", "-n", "2"], "give --paradigm UID (one or more), --all, --all-probes or --all-designs"),
        (
            ["gen", "-p", "filler_gap_depth", "--design", "depth=three", "-n", "2"],
            "filler_gap_depth: factor 'depth' has no level 'three'; expected one of: one, two, zero",
        ),
        (["gen", "-p", UID, "--design", "full", "-n", "2"], f"{UID} has no factors, so --design does not apply to it"),
        (["gen", "-p", UID, "-n", "-3"], "Invalid value for '-n'"),
    ],
)
def test_cli_errors_are_one_line(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode != 0
    assert message in result.stderr and "Traceback" not in result.stderr


def test_cli_bad_paradigm_folder_reports_file_line(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("uid: broken\nfield: nope\n")
    result = run("list", "--paradigm-path", str(tmp_path))
    assert result.returncode == 1 and f"{tmp_path}/broken.yaml:2: field:" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", sorted(LAZY_COMMANDS))
def test_cli_help_runs_for_every_available_command(name: str) -> None:
    if cli.get_command(None, name) is None:  # pragma: no cover - optional part not installed
        pytest.skip(f"{name} is not available")
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0 and "Usage" in result.output


def test_cli_main_turns_blimpgen_errors_into_exit_1(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["show", "no_such_paradigm"])
    assert info.value.code == 1
    assert capsys.readouterr().err.startswith("error: unknown paradigm 'no_such_paradigm'")


def test_cli_catalogue_in_docs_is_current() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "paradigms.md"
    result = CliRunner().invoke(cli, ["catalogue"])
    assert result.exit_code == 0, result.output
    assert docs.read_text() == result.output, "run: blimpgen catalogue -o docs/paradigms.md"
    assert result.output.count("| `") == 2 * 67  # a catalogue row and a lexicon-mode row per paradigm
