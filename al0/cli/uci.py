"""The ``al0 uci`` command: an advice table as an engine for chess GUIs."""

from __future__ import annotations

import sys

import click

from al0.cli.common import BUDGET, TABLE, reports_errors
from al0.lang.loader import load_table
from al0.engine.plan import Planner
from al0.uci import UciEngine, serve


def _send(line: str) -> None:
    """One line to the GUI, at once: it waits for it."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


@click.command()
@TABLE
@BUDGET
@reports_errors
def uci(table: str, budget: int) -> None:
    """Speak the Universal Chess Interface on standard input and output, so a
    chess GUI or match runner can use TABLE as an engine.

    Each move's rule and advice go out as `info string`, with the forcing
    tree's worst-case line as `pv`. Where the table cannot play (other
    material, the other side to move, no plan) the engine says why in `info
    string` and plays the tablebase's best move (when there is a tablebase
    for the table's material and the position is of it) or else the first
    legal move in UCI order.
    """
    loaded = load_table(table)  # a bad table fails here, before the protocol starts
    engine = UciEngine(loaded, Planner(loaded, budget))
    serve(engine, iter(sys.stdin.readline, ""), _send)
