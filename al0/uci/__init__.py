"""An advice table as a UCI engine.

:class:`UciEngine` takes one line of the Universal Chess Interface at a time
and sends its answers through the function it was given; :func:`serve`
feeds it a stream, and `serve_handshake_first` (:mod:`al0.uci.handshake`) answers ``uci``
before the engine is made (and its imports are paid). Nothing here reads
standard input or prints (``al0 uci`` does), so the engine is tested by
calling it, and by python-chess's own UCI client through the CLI.

Each ``go`` thinks in a worker thread (:class:`Search`), so the line reader
stays free: ``isready`` is answered at once, and ``stop`` (or the move's
clock) answers with the best move known so far — the plan's, or until the
plan is made the tablebase's — while the worker, told through a stop flag
that both searches look at, winds down.

Which table plays: the one given (``al0 uci TABLE``, ``setoption name Table
value …``), else the bundled table of the side to move's material (``krk``
for KRK), where it plays the side to move. Like the play loop
(:mod:`al0.engine.play`), the engine keeps the forcing tree of its plan
between moves of one game. The table plays its material and what our
captures leave of it (KQKR goes on as KQK); in its material but with the
other side to move, or with no plan in time, the tablebase's move is
played, and also where the table's move would repeat a position of the
game, throw the win away or lose a draw (:mod:`al0.uci.rescue`; option
``TablebaseRescue``). Any other position gets the tablebase's move where
one of its material is loaded or cached, else a short alpha-beta search
(:mod:`al0.uci.short_search`). :mod:`al0.uci.choice` chooses the move,
asking the tablebase once (:mod:`al0.uci.verdict`); :mod:`al0.uci.protocol`
is the state machine around it. Every move comes with a ``score`` of the
line al0 plays (:mod:`al0.uci.scores`); an ``info string`` says where it
comes from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face
from al0.uci.handshake import AUTO, serve_handshake_first

if TYPE_CHECKING:
    from al0.uci.protocol import UciEngine, parse_position, serve

_HOMES = {"UciEngine": "protocol", "parse_position": "protocol", "serve": "protocol"}
"""The engine's names, each imported from its module when first asked
for: the handshake (``uci`` → ``uciok``) needs none of them."""

__all__ = ["AUTO", "UciEngine", "parse_position", "serve", "serve_handshake_first"]

__getattr__ = lazy_face(__name__, _HOMES)
