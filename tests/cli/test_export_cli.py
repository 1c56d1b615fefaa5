"""``blimpgen export hf`` / ``lm-eval``: options reach the library; user errors are one line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from blimpgen.cli import cli, main
from tests.export.conftest import FIXTURES, UIDS


@pytest.mark.parametrize("args", [["export"], ["export", "hf"], ["export", "lm-eval"]])
def test_cli_export_help(args: list[str]) -> None:
    result = CliRunner().invoke(cli, [*args, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


def test_cli_export_hf_then_lm_eval(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        cli,
        [
            "export",
            "hf",
            "--data",
            str(FIXTURES),
            "-o",
            str(tmp_path / "my_blimp"),
            "--pretty-name",
            "Test pairs",
            "--license",
            "mit",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "4 configs, 18 pairs" in result.output
    header = yaml.safe_load((tmp_path / "my_blimp" / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    assert (header["pretty_name"], header["license"]) == ("Test pairs", "mit")

    result = runner.invoke(
        cli, ["export", "lm-eval", "--data", str(tmp_path / "my_blimp"), "-o", str(tmp_path / "tasks")]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "tasks").iterdir()) == [
        "_blimpgen.yaml",
        *(f"blimpgen_{uid}.yaml" for uid in UIDS),
    ]


def test_cli_export_hf_save_to_disk(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["export", "hf", "--data", str(FIXTURES), "-o", str(tmp_path / "d"), "--save-to-disk"]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "d" / "npi_present_1" / "dataset_dict.json").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--data", str(FIXTURES)], "give -o/--output, --push-to-hub"),
        (["--data", str(FIXTURES), "--push-to-hub", "u/x", "--save-to-disk"], "needs the hub layout"),
    ],
)
def test_cli_export_hf_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["export", "hf", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_cli_export_user_error_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("x", encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        main(["export", "hf", "--data", str(FIXTURES), "-o", str(tmp_path / "out")])
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "--overwrite" in err


def test_cli_export_lm_eval_on_jsonl_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["export", "lm-eval", "--data", str(FIXTURES), "-o", str(tmp_path / "tasks")])
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "blimpgen export hf" in err
