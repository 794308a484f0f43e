"""The JSON API of ``al0 serve`` as one object (:class:`Api`): every route
of its resources — :mod:`~al0.serve.positions` (tables, positions, plans)
and :mod:`~al0.serve.practice` (practice games) — behind one
:meth:`Api.call`, plain dicts in and out, so the tests call it without a
server.

Every answer comes from the library entries the CLI uses: each table's
:class:`~al0.engine.Match` (its planner, with ``report.render.plan_json``
for plans), :class:`~al0.teach.Practice` and :mod:`al0.teach` for
verdicts, explanations and hints. Only the tables the server was given
are read (:class:`~al0.serve.tables.Tables`); a request naming another
file is refused.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable, Sequence

import chess

from al0.engine import DEFAULT_BUDGET
from al0.errors import AL0Error, SearchBudgetExceeded, one_line
from al0.serve.api import ApiError, Json
from al0.serve.positions import Positions
from al0.serve.practice import Coach
from al0.serve.sessions import Sessions
from al0.serve.tables import Matches, Tables


class Api:
    """The endpoints, holding the server's state: its tables ready to play,
    their tablebases and the practice sessions (never module globals).
    ``budget``: the node budget of every search, ``al0 plan``'s;
    ``positions`` and ``games``: an EPD and a PGN file named on the command
    line (see :class:`~al0.serve.positions.Positions`); ``record``: the
    progress record exercises count in (``al0 practice``'s; None: none kept)."""

    def __init__(
        self,
        tables: Tables,
        budget: int = DEFAULT_BUDGET,
        positions: tuple[str, Sequence[chess.Board]] | None = None,
        games: tuple[str, list[Json]] | None = None,
        record: Path | None = None,
    ):
        self.stop = threading.Event()
        """Set when the server stops: every search running ends at its next
        look at the clock, so Ctrl-C does not wait for one to finish."""
        self.matches = Matches(tables, budget, self.stop)
        self.sessions = Sessions(record)
        resources = (Positions(tables, self.matches, positions, games), Coach(self.matches, self.sessions))
        self.routes: dict[str, Callable[[Json], Json]] = {
            route: answer for resource in resources for route, answer in resource.routes.items()
        }
        self.searching = frozenset(route for resource in resources for route in resource.searching)
        """The routes that search or read a tablebase: the server runs them
        off the threads that answer requests."""

    def call(self, route: str, body: Json) -> Json:
        """The answer of ``route`` to ``body``; 404 for an unknown route, 400
        for input al0 refuses (a bad FEN, a position of another material),
        503 for a search that reached its bounds."""
        handler = self.routes.get(route)
        if handler is None:
            raise ApiError(404, f"no such endpoint: /api/{route}")
        try:
            return handler(body)
        except ApiError:
            raise
        except SearchBudgetExceeded as error:
            # A bound of al0 plan's reached (or the server stopping): not the request's fault.
            raise ApiError(503, one_line(error)) from None
        except AL0Error as error:
            raise ApiError(400, one_line(error)) from None

    def close(self) -> None:
        """The server stops: every exercise still open is counted.

        :raises AL0Error: one the progress record could not take.
        """
        self.sessions.close()
