"""An advice table as a UCI engine.

:class:`UciEngine` takes one line of the Universal Chess Interface at a time
and sends its answers through the function it was given; :func:`serve`
feeds it a stream. Nothing here reads standard input or prints (``al0 uci``
does), so the engine is tested by calling it, and by python-chess's own UCI
client through the CLI.

Each ``go`` thinks in a worker thread (:class:`Search`), so the line reader
stays free: ``isready`` is answered at once, and ``stop`` (or the move's
clock) answers at once with the best move known so far, while the worker,
told through a stop flag that both searches look at, winds down.

Which table plays: the one given (``al0 uci TABLE``, ``setoption name Table
value …``), else the bundled table of the side to move's material (``krk``
for KRK). Like the play loop (:mod:`al0.engine.play`), the engine keeps the
forcing tree of its plan between moves of one game. The table plays its material
and what our captures leave of it (KQKR goes on as KQK); in its material but
with the other side to move, or with no plan, the tablebase's move is
played. Any other position gets a short alpha-beta search
(:mod:`al0.games.chess_search`). Every move comes with a ``score``: the
tablebase's distance to mate where the material has one, else the forcing
tree's bound when its leaves are mates, else the material; an ``info
string`` says which.
"""

from al0.uci.engine import AUTO, UciEngine, parse_position, serve

__all__ = ["AUTO", "UciEngine", "parse_position", "serve"]
