"""The ``al0`` command line: the only package that prints or exits.

:mod:`al0.cli.common` holds the group, the shared options and parameter
types and the error handling; each other module is one command.
"""

import sys

try:
    from al0.cli import (bench, check, games, plan, play, practice, progress, tablebase, tables,
                         uci, verify)
    from al0.cli.common import cli
except KeyboardInterrupt:
    # Ctrl-C while the commands load (half a second; seconds on a busy
    # machine): the line and exit code a command gives (130: 128 + SIGINT),
    # no traceback.
    sys.stderr.write("\nAborted!\n")
    raise SystemExit(130) from None

__all__ = ["cli"]

cli.add_command(check.check)
cli.add_command(plan.plan)
cli.add_command(play.play)
cli.add_command(practice.practice)
cli.add_command(bench.bench)
cli.add_command(progress.progress)
cli.add_command(tablebase.tablebase)
cli.add_command(tables.tables)
cli.add_command(verify.verify)
cli.add_command(games.solve)
cli.add_command(games.reversi)
cli.add_command(uci.uci)
