"""``gen`` and ``show`` with ``--lexicon-mode``: refusals, skipped paradigms, provenance."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_author_cli import run


def test_lexicon_mode_cli_gen_records_the_mode(tmp_path: Path) -> None:
    out = tmp_path / "npi.jsonl"
    code, output = run(
        "gen", "-p", "npi_present_2", "-n", "5", "--seed", "2", "--lexicon-mode", "nonce", "-o", str(out)
    )
    assert code == 0, output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["lexicon_mode"] for r in records] == ["nonce"] * 5
    assert list(records[0]).index("lexicon_mode") == list(records[0]).index("lexicon_hash") + 1


def test_lexicon_mode_cli_refusal_is_one_line(tmp_path: Path) -> None:
    code, output = run("gen", "-p", "transitive", "-n", "5", "--lexicon-mode", "nonce")
    assert code == 1
    assert output.strip() == (
        "error: transitive refuses --lexicon-mode nonce: the contrast is a real verb class "
        "(transitive vs never transitive)"
    )


def test_lexicon_mode_cli_all_skips_refusing_paradigms(tmp_path: Path) -> None:
    code, output = run("gen", "--all", "-n", "2", "--lexicon-mode", "colorless", "--out-dir", str(tmp_path), "--quiet")
    assert code == 0, output
    assert len(list(tmp_path.glob("*.jsonl"))) == 65
    code, output = run("gen", "--all", "-n", "1", "--lexicon-mode", "nonce", "--out-dir", str(tmp_path / "n"))
    assert code == 0 and "skipped 51 that refuse --lexicon-mode nonce" in output, output
    assert len(list((tmp_path / "n").glob("*.jsonl"))) == 16


def test_lexicon_mode_cli_show_previews_the_mode() -> None:
    code, default = run("show", "determiner_noun_agreement_1", "-n", "3")
    code2, colorless = run("show", "determiner_noun_agreement_1", "-n", "3", "--lexicon-mode", "colorless")
    assert code == code2 == 0 and default != colorless
    assert colorless.splitlines()[0] == default.splitlines()[0]
