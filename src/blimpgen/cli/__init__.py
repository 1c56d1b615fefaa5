"""The ``blimpgen`` command line: a click group whose subcommands load lazily.

Each subcommand lives in its own module under ``blimpgen.cli`` and only parses options
before calling one library function. Importing this module imports no subcommand, so
``blimpgen --help`` and ``blimpgen gen`` never import torch.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from blimpgen import __version__

FC = TypeVar("FC", bound=Callable[..., Any])

# command name -> "module:attribute"; a module that is not installed is simply not listed.
LAZY_COMMANDS: dict[str, str] = {
    "list": "blimpgen.cli.generate:list_command",
    "gen": "blimpgen.cli.generate:gen_command",
    "show": "blimpgen.cli.generate:show_command",
    "catalogue": "blimpgen.cli.generate:catalogue_command",
    "check": "blimpgen.cli.author:check_command",
    "new": "blimpgen.cli.author:new_command",
    "audit": "blimpgen.cli.author:audit_command",
    "reference": "blimpgen.cli.author:reference_command",
    "eval": "blimpgen.cli.evaluate:eval_command",
    "report": "blimpgen.cli.evaluate:report_command",
    "ngram": "blimpgen.cli.evaluate:ngram_group",
    "validate": "blimpgen.cli.validate:validate_group",
    "export": "blimpgen.cli.export:export_group",
    "probe": "blimpgen.cli.probe:probe_group",
}

HELP = {
    "list": "List paradigms: UID, phenomenon, field, description.",
    "gen": "Generate minimal pairs as BLiMP-schema JSONL.",
    "show": "Preview a paradigm: good / *bad per line.",
    "catalogue": "Write the Markdown catalogue of paradigms.",
    "check": "Check paradigm and probe-suite files: every problem as file:line: key: message.",
    "new": "Write a commented skeleton paradigm.",
    "audit": "Report shallow cues that solve a paradigm without grammar.",
    "reference": "Write the spec-language and feature reference.",
    "eval": "Score generated pairs with a language model.",
    "report": "Combine result folders into tables and figures.",
    "ngram": "Train and inspect n-gram baseline models.",
    "validate": "Human validation on Mechanical Turk: batches and results.",
    "export": "Export to Hugging Face datasets and lm-evaluation-harness.",
    "probe": "Cloze probes (oLMpics): learning curves and other probe tools.",
}


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when it runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name, target in LAZY_COMMANDS.items() if _module_exists(target))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = LAZY_COMMANDS.get(cmd_name)
        if target is None or not _module_exists(target):
            return None
        module_name, _, attr = target.partition(":")
        return getattr(importlib.import_module(module_name), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, HELP.get(name, "")) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def threading_is_main() -> bool:
    """Signal handlers can only be installed from the main thread."""
    import threading

    return threading.current_thread() is threading.main_thread()


def _module_exists(target: str) -> bool:
    module_name = target.partition(":")[0]
    return importlib.util.find_spec(module_name) is not None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="blimpgen")
@click.option("--verbose", is_flag=True, help="Show full tracebacks on errors.")
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """blimpgen: build linguistic minimal-pair test suites for language models."""
    ctx.ensure_object(dict)
    ctx.obj["verbose"] = verbose


class OutputPath(click.Path):
    """A ``click.Path`` for outputs: an empty path is refused (it must never mean stdout or "here")."""

    def convert(
        self, value: str | os.PathLike[str], param: click.Parameter | None, ctx: click.Context | None
    ) -> str | bytes | os.PathLike[str]:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty path", param, ctx)
        return super().convert(value, param, ctx)


class AliasedOption(click.Option):
    """A ``click.Option`` whose ``hidden_aliases`` parse like its other names but stay out of
    ``--help`` and of error messages: old spellings keep working after a rename (``--out``)."""

    def __init__(self, *args: Any, hidden_aliases: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hidden_aliases = tuple(hidden_aliases)

    @contextlib.contextmanager
    def _visible(self) -> Iterator[None]:
        saved = self.opts
        self.opts = [name for name in saved if name not in self.hidden_aliases]
        try:
            yield
        finally:
            self.opts = saved

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        with self._visible():
            return super().get_help_record(ctx)

    def get_error_hint(self, ctx: click.Context | None) -> str:
        with self._visible():
            return super().get_error_hint(ctx)


def output_option(
    help: str, *, dest: str = "output", aliases: tuple[str, ...] = (), **kwargs: Any
) -> Callable[[FC], FC]:
    """The command's output, always ``-o/--output`` (docs/architecture.md, "CLI conventions").

    Args:
        help: what is written there (a file or a folder, and its format).
        dest: the command function's parameter.
        aliases: earlier spellings (``--out``) that still parse, hidden from ``--help``.
        kwargs: passed on to ``click.option`` (``type``, ``required``, ``multiple`` ...).
    """
    return click.option(
        "-o", "--output", *aliases, dest, cls=AliasedOption, hidden_aliases=aliases, help=help, **kwargs
    )


# Signals that end a run like Ctrl-C: a normal exit, so atomic writers remove their temporary files.
STOP_SIGNALS = ("SIGTERM", "SIGHUP")


def _terminate(signum: int, frame: object) -> None:
    import signal

    try:  # the terminal may be gone (SIGHUP)
        sys.stderr.write(f"blimpgen: stopped by {signal.Signals(signum).name}; unfinished outputs were not written\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the CLI, turning BlimpgenError into one-line messages."""
    import signal

    from blimpgen.errors import BlimpgenError

    if threading_is_main():
        for name in STOP_SIGNALS:
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), _terminate)

    verbose = "--verbose" in (argv if argv is not None else sys.argv[1:])
    try:
        cli.main(args=argv, prog_name="blimpgen", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except BlimpgenError as exc:
        if verbose:
            raise
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except BrokenPipeError:
        sys.exit(0)
