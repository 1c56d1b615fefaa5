"""One CLI convention (issue 16, requirement 6), checked on every command's ``--help``.

* ``--help`` renders for every command and subcommand;
* every visible option has help text;
* a command's output is ``-o/--output`` (a file or a folder); the only other outputs are the ones
  in :data:`SECOND_OUTPUTS`, each with its reason; the earlier spellings (:data:`OLD_SPELLINGS`)
  still parse but are hidden;
* a batch's size is ``--batch-size`` (items) or ``--batch-tokens`` (a token budget), nothing else
  (``--batch`` alone is an MTurk batch folder);
* ``--quiet`` is also ``-q``.
"""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from blimpgen.cli import AliasedOption, OutputPath, cli

# Options that write a second output beside -o/--output, and why they are not -o.
SECOND_OUTPUTS = {
    ("report", "--plots"): "a folder of PNG figures beside the table -o saves",
    ("probe curve", "--plot"): "a PNG beside the curve.json / curve.csv folder -o writes",
}
# Spellings from before the convention: they must keep working, hidden from --help.
OLD_SPELLINGS = {
    ("gen", "--out-dir"),
    ("eval", "--out"),
    ("report", "--out"),
    ("probe curve", "--out"),
    ("validate batch", "--out"),
    ("validate ingest", "--out"),
    ("validate repost", "--out"),
    ("validate simulate", "--out"),
    ("validate fetch", "--out"),
}
NOT_OUTPUT_NAMES = {"--out", "--out-dir", "--output-dir", "--outdir", "--output-file", "--output-path", "--dest"}


def commands() -> list[tuple[str, click.Command]]:
    """Every command and subcommand, by its path (``validate batch``)."""
    found = []

    def walk(prefix: str, group: click.Group) -> None:
        ctx = click.Context(group)
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None, name
            path = f"{prefix} {name}".strip()
            found.append((path, command))
            if isinstance(command, click.Group):
                walk(path, command)

    walk("", cli)
    return found


COMMANDS = commands()


def visible_names(option: click.Option) -> list[str]:
    hidden = getattr(option, "hidden_aliases", ())
    return [name for name in [*option.opts, *option.secondary_opts] if name not in hidden]


def test_conventions_walk_finds_every_command():
    names = [path for path, _ in COMMANDS]
    assert {"gen", "eval", "report", "validate batch", "probe curve", "export hf", "ngram train"} <= set(names)
    assert len(names) >= 25


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[path for path, _ in COMMANDS])
def test_conventions_help_renders_and_every_option_is_explained(path: str, command: click.Command):
    result = CliRunner().invoke(cli, [*path.split(), "--help"], prog_name="blimpgen")
    assert result.exit_code == 0 and result.output.startswith(f"Usage: blimpgen {path}"), result.output
    assert command.help or command.short_help, f"{path}: no help text"
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            assert param.help and param.help.strip(), f"{path} {param.opts}: no help text"
            for name in getattr(param, "hidden_aliases", ()):
                assert name not in result.output.replace("--output", ""), f"{path}: {name} shows in --help"


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[path for path, _ in COMMANDS])
def test_conventions_output_batch_and_quiet(path: str, command: click.Command):
    options = [p for p in command.params if isinstance(p, click.Option)]
    outputs = [o for o in options if isinstance(o.type, OutputPath) and not o.hidden]
    for option in outputs:
        names = visible_names(option)
        if (path, names[-1]) in SECOND_OUTPUTS:
            continue
        assert names == ["-o", "--output"], f"{path}: output option {names} is not -o/--output"
    for option in options:
        if option.hidden:
            continue
        names = visible_names(option)
        assert not set(names) & NOT_OUTPUT_NAMES, f"{path}: {names}: the output is -o/--output"
        if "-o" in names:
            assert isinstance(option.type, OutputPath), f"{path}: -o is not an output"
        for name in names:
            if "batch" in name and name != "--batch":  # --batch alone: an MTurk batch folder
                assert name in ("--batch-size", "--batch-tokens"), f"{path}: {name}: say --batch-size or --batch-tokens"
                if name == "--batch-size":
                    assert isinstance(option.type, click.IntRange) and option.type.min == 1, path
        if "--quiet" in names:
            assert "-q" in names, f"{path}: --quiet without -q"


@pytest.mark.parametrize(("path", "old"), sorted(OLD_SPELLINGS))
def test_conventions_old_spellings_still_parse(path: str, old: str):
    command = dict(COMMANDS)[path]
    owner = [p for p in command.params if isinstance(p, click.Option) and old in p.opts]
    assert owner, f"{path}: {old} no longer parses"
    option = owner[0]
    assert option.hidden or (isinstance(option, AliasedOption) and old in option.hidden_aliases), path
    result = CliRunner().invoke(cli, [*path.split(), "--help"], prog_name="blimpgen")
    assert f"{old} " not in result.output and f"{old}," not in result.output, f"{path}: {old} is shown"


def test_conventions_old_spelling_reaches_the_same_parameter(tmp_path):
    from blimpgen.cli import main

    main(["gen", "-p", "npi_present_1", "-n", "2", "--quiet", "--out-dir", str(tmp_path / "a")])
    main(["gen", "-p", "npi_present_1", "-n", "2", "-q", "-o", f"{tmp_path / 'b'}/"])
    assert (tmp_path / "a" / "npi_present_1.jsonl").read_bytes() == (
        tmp_path / "b" / "npi_present_1.jsonl"
    ).read_bytes()
