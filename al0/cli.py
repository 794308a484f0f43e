"""The ``al0`` command line: the only module that prints or exits."""

from __future__ import annotations

import click

from al0.commands_games import reversi, solve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="al0")
def cli() -> None:
    """al0 — play chess endgames from advice tables (Advice Language 0).

    An advice table (YAML) lists rules, pieces of advice, goals and move
    constraints; al0 builds forcing trees from it and plays, explains and
    checks the strategy.
    """


cli.add_command(solve)
cli.add_command(reversi)
