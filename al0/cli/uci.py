"""The ``al0 uci`` command: an advice table as an engine for chess GUIs."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Callable, Iterator, TextIO

import click

from al0.cli.messages import reports_errors
from al0.cli.params import BUDGET, TableName
from al0.uci import AUTO, serve_handshake_first

if TYPE_CHECKING:
    from al0.uci import UciEngine


LONGEST_COMMAND = 1_000_000
"""Most characters of a line read from the GUI (a game's whole move list is
a few thousand): a stream with no line end was read whole into memory."""


def command_lines(stream: TextIO, send: Callable[[str], None]) -> Iterator[str]:
    """The lines of ``stream``, each read to :data:`LONGEST_COMMAND`
    characters at most: a longer one is read past in pieces, unkept, and
    an ``info string`` said instead."""
    while True:
        line = stream.readline(LONGEST_COMMAND + 1)
        if not line:
            return
        if len(line) <= LONGEST_COMMAND or line.endswith("\n"):
            yield line
            continue
        while line and not line.endswith("\n"):
            line = stream.readline(LONGEST_COMMAND)
        send(f"info string ignored a line of more than {LONGEST_COMMAND:,} characters")


def _send(line: str) -> None:
    """One line to the GUI, at once: it waits for it."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


@click.command()
@click.argument("table", required=False, type=TableName())
@BUDGET
@reports_errors
def uci(table: str | None, budget: int) -> None:
    """Speak the Universal Chess Interface on standard input and output, so a
    chess GUI or match runner can use TABLE as an engine.

    Without TABLE (as a GUI starts an engine: one program, no arguments) each
    position is played by the bundled table of the side to move's material,
    if there is one (`krk` for KRK, `kpk_hold` for the lone king against
    KPK); the option `Table` names one
    (`setoption name Table value krk`, or `auto`).

    Each move comes with `info ... score` of the line al0 plays (the plan's
    forcing tree to mate, else the tablebase's distance after the move
    played; an `info string` says which, and the tablebase's best where it
    differs), its rule and advice as `info string` and the tree's
    worst-case line as `pv`. Where the table cannot play its material (the
    other side to move, no plan in time) the tablebase's move is played,
    and where the table's move would repeat a position, throw a won game
    away or lose a drawn one (option `TablebaseRescue`); any other position gets a short
    alpha-beta search, with cached tablebases at its leaves. `uciok` comes
    before the engine's imports; `isready` and `stop` are answered at once
    while it thinks; `go` honours movetime, wtime/btime, winc/binc,
    movestogo, nodes, depth, mate and infinite.
    """
    loaded = None
    if table is not None:  # a bad table (an empty path too) fails here, before the protocol
        from al0.lang import load_table

        loaded = load_table(table)

    def make() -> UciEngine:
        # Imported here, once the GUI has its uciok: the engine brings in
        # the tablebases, the short search and numpy.
        from al0.uci import UciEngine

        return UciEngine(_send, loaded, budget, table or AUTO)

    serve_handshake_first(command_lines(sys.stdin, _send), _send, make, budget, table or AUTO)
