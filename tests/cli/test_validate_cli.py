"""``blimpgen validate`` commands: help, the whole loop, one-line errors."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from blimpgen.cli import main
from tests.validate.conftest import DATA, data_dir, make_batch  # noqa: F401  (fixtures)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", [[], ["batch"], ["ingest"], ["simulate"], ["fetch"]])
def test_cli_help(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    code, out, _ = _run(capsys, "validate", *command, "--help")
    assert code == 0 and "Usage: blimpgen validate" in out


def test_cli_batch_simulate_ingest(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hits, report = tmp_path / "hits", tmp_path / "report"
    code, out, err = _run(
        capsys,
        "validate",
        "batch",
        "--data",
        str(DATA),
        "--pairs-per-paradigm",
        "5",
        "--judgments",
        "20",
        "--seed",
        "0",
        "-o",
        str(hits),
        "--questions",
    )
    assert code == 0, err
    assert "6 HITs (2 lists x 3 replicas) of 11 items, 7 assignments each -> 21 judgments per pair" in out
    assert "cost estimate: 42 assignments" in out
    code, out, err = _run(
        capsys,
        "validate",
        "simulate",
        "--batch",
        str(hits),
        "-o",
        str(tmp_path / "r1.csv"),
        "--seed",
        "1",
        "--paradigm-accuracy",
        "wh_vs_that_no_gap=0.2",
    )
    assert code == 0, err
    _run(capsys, "validate", "simulate", "--batch", str(hits), "-o", str(tmp_path / "r2.csv"), "--seed", "2")
    code, out, err = _run(
        capsys,
        "validate",
        "ingest",
        "--batch",
        str(hits),
        "--results",
        str(tmp_path / "r1.csv"),
        str(tmp_path / "r2.csv"),
        "-o",
        str(report),
        "--min-seconds",
        "10",
        "--pass-fraction",
        "0.8",
    )
    assert code == 0, err
    assert "paradigms pass" in out
    with (report / "per_paradigm.csv").open(encoding="utf-8", newline="") as handle:
        rows = {row["UID"]: row for row in csv.DictReader(handle)}
    assert len(rows) == 4
    assert (report / "summary.md").read_text().count("r1.csv") == 1


def test_cli_errors_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(
        capsys, "validate", "batch", "--data", str(DATA), "--pairs-per-paradigm", "50", "-o", str(tmp_path / "hits")
    )
    assert code == 1
    assert err.strip().count("\n") == 0 and err.startswith("error: ") and "fewer than --pairs-per-paradigm 50" in err
    code, _, err = _run(
        capsys, "validate", "batch", "--data", str(DATA), "--max-assignments", "12", "-o", str(tmp_path / "hits")
    )
    assert code == 1 and "extra 20% fee" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pass-fraction", "5/4"], "not a fraction in (0, 1]"),
        (["--pass-fraction", "x"], "not a fraction"),
    ],
)
def test_cli_bad_option_values(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    results = tmp_path / "r.csv"
    results.write_text("x\n")
    code, _, err = _run(
        capsys,
        "validate",
        "ingest",
        "--batch",
        str(tmp_path),
        "--results",
        str(results),
        "-o",
        str(tmp_path / "o"),
        *args,
    )
    assert code == 2 and message in err


def test_cli_paradigm_accuracy_syntax(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(
        capsys,
        "validate",
        "simulate",
        "--batch",
        str(tmp_path),
        "-o",
        str(tmp_path / "r.csv"),
        "--paradigm-accuracy",
        "nouid",
    )
    assert code == 2 and "expected UID=ACCURACY" in err


def test_cli_validate_imports_no_torch_or_siblings() -> None:
    script = (
        "import sys, blimpgen.cli.validate, blimpgen.validate.batch, blimpgen.validate.ingest, "
        "blimpgen.validate.summary, blimpgen.validate.simulate, blimpgen.validate.mturk; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('torch', 'transformers', 'boto3', 'playwright') "
        "or m.startswith(('blimpgen.evaluate', 'blimpgen.export'))]; print(bad); sys.exit(bool(bad))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_cli_batch_page_text_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import json

    consent = tmp_path / "irb.txt"
    consent.write_text("Study 2024-117 approved by the Example University IRB.\n\nYou may stop at any time.\n")
    instructions = tmp_path / "instructions.txt"
    instructions.write_text("Pick the sentence a careful speaker would say.\n")
    hits = tmp_path / "hits"
    args = ["validate", "batch", "--data", str(DATA), "--judgments", "4", "--output", str(hits)]
    code, out, err = _run(
        capsys,
        *args,
        "--contact",
        "Jane Doe <jane@uni.example>",
        "--consent",
        str(consent),
        "--instructions",
        str(instructions),
        "--minutes",
        "4",
        "--hourly-wage",
        "18",
    )
    assert code == 0, err
    assert "x ($1.20 reward + $0.24 MTurk fee)" in out and "no --contact" not in err  # 4 min at $18/h
    page = (hits / "layout.html").read_text()
    for text in (
        "Study 2024-117 approved by the Example University IRB.",
        "You may stop at any time.",
        "Pick the sentence a careful speaker would say.",
        "Jane Doe &lt;jane@uni.example&gt;",
        "about 4 minutes; &#36;1.20 for this HIT (about &#36;18.00 an hour at the estimated time)",
    ):
        assert text in page, text
    assert "sounds <strong>more natural</strong>" not in page  # the instructions were replaced
    preview = next((hits / "preview").glob("*.html")).read_text()
    assert "Example University IRB" in preview
    recorded = json.loads((hits / "hit_properties.json").read_text())["blimpgen"]["page"]
    assert recorded["contact"] == "Jane Doe <jane@uni.example>" and recorded["minutes"] == 4

    code, _, err = _run(capsys, *args, "--force", "--post")
    assert code == 2 and "--post needs --contact" in err
    code, _, err = _run(capsys, *args, "--force")
    assert code == 0 and "note: no --contact" in err
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    code, _, err = _run(capsys, *args, "--force", "--consent", str(empty))
    assert code == 1 and err.strip() == "error: the HIT page's consent text is empty; give some text or leave it out"
