"""The corpus of malformed inputs (tests/fixtures/bad/): each fails with its one-line message.

Kinds, by file name: ``spec_*.yaml`` (a paradigm spec, loaded and built against the test
lexicon), ``lexicon_*.tsv`` (lexicon rows, checked against the shipped inventory),
``overlay_*.overlay.yaml`` (a YAML lexicon overlay) and ``cli_*.args`` (command-line arguments,
one per line; ``{tmp}`` is a temporary folder). ``expected.tsv`` maps each file to the message
its first error line must contain; file-based errors must start with the file's path.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from blimpgen.errors import BlimpgenError

BAD = Path(__file__).resolve().parent / "fixtures" / "bad"


def expected_messages() -> dict[str, str]:
    rows = (line.split("\t", 1) for line in (BAD / "expected.tsv").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#"))
    return {name: message for name, message in rows}


def observe(path: Path, lexicon, tmp: Path) -> str:
    """The error output for one malformed input (all lines), never a traceback."""
    from blimpgen.generators import build_paradigm
    from blimpgen.grammar.loader import load_spec_file
    from blimpgen.vocab.features import load_inventory
    from blimpgen.vocab.lexicon import build_lexicon
    from blimpgen.vocab.overlays import parse_yaml_overlay

    name = path.name
    try:
        if name.startswith("spec_"):
            build_paradigm(load_spec_file(path), lexicon)
        elif name.startswith("lexicon_"):
            build_lexicon([(str(path), path.read_text(encoding="utf-8"))], load_inventory())
        elif name.startswith("overlay_"):
            inventory, text = parse_yaml_overlay(path.read_text(encoding="utf-8"), str(path), load_inventory())
            build_lexicon([(str(path), text)], inventory)
        elif name.startswith("cli_"):
            return run_cli([a.replace("{tmp}", str(tmp)).replace("{here}", str(BAD))
                            for a in path.read_text(encoding="utf-8").splitlines()])
        else:
            raise AssertionError(f"unknown fixture kind: {name}")
    except BlimpgenError as exc:
        return str(exc)
    return ""


def run_cli(args: list[str]) -> str:
    from blimpgen.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        with pytest.raises(SystemExit) as info:
            main(args)
    assert info.value.code not in (0, None), args
    return err.getvalue().strip()


def test_bad_inputs_corpus_is_complete() -> None:
    files = {p.name for p in BAD.iterdir() if p.name not in ("expected.tsv", "README.txt")}
    assert files == set(expected_messages())
    assert len(files) >= 50


@pytest.mark.parametrize("name", sorted(expected_messages()))
def test_bad_inputs_message(name: str, mini_lexicon, tmp_path: Path) -> None:
    path = BAD / name
    output = observe(path, mini_lexicon, tmp_path)
    expected = expected_messages()[name]
    assert output, f"{name} was accepted"
    assert "Traceback" not in output
    if name.startswith("cli_"):  # click prints a usage line before its "Error:" line
        assert expected in output, (expected, output)
        return
    first = output.splitlines()[0]
    assert expected in first, (expected, first)
    assert all(line.startswith(str(path)) for line in output.splitlines()), output
