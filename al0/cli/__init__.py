"""The ``al0`` command line: the only package that prints or exits.

:mod:`al0.cli.common` holds the group, the shared options and parameter
types and the error handling; each other module is one command.
"""

from al0.cli import bench, check, games, plan, play, tablebase, tables, uci, verify
from al0.cli.common import cli

__all__ = ["cli"]

cli.add_command(check.check)
cli.add_command(plan.plan)
cli.add_command(play.play)
cli.add_command(bench.bench)
cli.add_command(tablebase.tablebase)
cli.add_command(tables.tables)
cli.add_command(verify.verify)
cli.add_command(games.solve)
cli.add_command(games.reversi)
cli.add_command(uci.uci)
