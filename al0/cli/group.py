"""The ``al0`` group: one line for every error, signals and broken pipes
handled for every subcommand, commands imported when run, ``--version``."""

from __future__ import annotations

import importlib
import os
import shlex
import warnings
from typing import Any

import click

from al0.cli.messages import CommandError, one_line_usage, warning_line
from al0.cli.process import (
    broken_pipe_exits,
    exit_interrupted,
    full_output_exits,
    open_closed_streams,
    terminating_as_interrupt,
    unsayable_error_exits,
)
from al0.collection import fewer_collections
from al0.errors import AL0Error


class Al0Group(click.Group):
    """The ``al0`` group: every usage error is one line, every warning is
    one line, and SIGTERM and SIGHUP stop a command as Ctrl-C does, with
    exit code 128 + the signal's number, for every subcommand; a broken
    pipe ends it with 141 and nothing more written (its help too); an
    output with no room left (a full disk) with one line and exit code 2;
    a closed standard stream is the null device.

    A command named in :attr:`lazy` is imported when it is run (or listed
    by ``--help``), not when ``al0`` starts: ``al0 uci`` answers a GUI's
    ``uci`` without first importing verify, the tablebases and numpy for
    the other commands (half a second quiet, seconds on a loaded machine).
    """

    lazy: dict[str, str] = {}
    """Command name → ``module:attribute`` of its click command."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        open_closed_streams()
        with unsayable_error_exits(), fewer_collections():  # for the whole command: loading and reports too
            return super().main(*args, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in self.lazy:
            return super().get_command(ctx, cmd_name)
        module, attribute = self.lazy[cmd_name].split(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command), self.lazy[cmd_name]
        return command

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        with broken_pipe_exits(), full_output_exits(), one_line_usage():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with (
            broken_pipe_exits(),
            full_output_exits(),
            one_line_usage(),
            warnings.catch_warnings(),
            terminating_as_interrupt(),
        ):
            # catch_warnings restores the usual display when the command ends.
            warnings.showwarning = warning_line
            try:
                return super().invoke(ctx)
            except KeyboardInterrupt as interrupt:
                raise exit_interrupted(interrupt) from None


def command_line(context: click.Context) -> str:
    """The command that ``context`` runs, every parameter spelled out, so a
    report can say how to reproduce it."""
    words = context.command_path.split()
    for param in context.command.params:
        value = context.params.get(param.name or "")
        if isinstance(param, click.Argument):
            words.append(str(value))
        elif isinstance(param, click.Option) and value not in (None, False, ()):
            option = max(param.opts, key=len)
            words += [option] if param.is_flag else [option, str(value)]
    return shlex.join(words)


def _choose_core(context: click.Context, param: click.Parameter, value: str | None) -> None:
    """``--core``: the search core of this command and of every process it
    starts (its verify workers too), given to them as ``AL0_CORE``."""
    from al0.core import ENV

    if value is not None and not context.resilient_parsing:
        os.environ[ENV] = value


def _print_version(context: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``: al0's version and which search core runs (and why)."""
    if not value or context.resilient_parsing:
        return
    from importlib.metadata import version

    from al0.core import status

    click.echo(f"al0, version {version('al0')}")
    try:
        click.echo(f"core: {status()}")
    except AL0Error as error:  # AL0_CORE names no core
        raise CommandError(str(error)) from None
    context.exit()


@click.group(cls=Al0Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--core",
    type=click.Choice(["native", "python"]),
    expose_value=False,
    is_eager=True,
    callback=_choose_core,
    help="The search core: native (the default, where it was built) or python "
    "(the reference twin: the same results, slower); sets $AL0_CORE for what it starts.",
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and the search core, and exit.",
)
def cli() -> None:
    """al0 — play chess endgames from advice tables (Advice Language 0).

    An advice table (YAML) lists rules, pieces of advice, goals and move
    constraints; al0 builds forcing trees from it and plays, explains and
    checks the strategy. TABLE is a bundled table's name (al0 tables lists
    them) or a YAML file. Start with:

    \b
      al0 play krk              watch the KRK table mate the tablebase's defence
      al0 practice krk          play it yourself, with the table's hints
      al0 check kqk             what a table says, rule by rule

    \b
    Exit codes (every command):
      0  done: the command ran and every expectation held
      1  an expectation failed (verify: the table's expect: block)
      2  bad input or an error: a one-line message on stderr; verify
         stopped early (Ctrl-C, SIGTERM, SIGHUP) after writing its report
      128+N  stopped by signal N: 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP,
         141 the reader of its output went away (al0 ... | head)
    """
