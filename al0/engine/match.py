"""A table ready to play games (:class:`Match`): the entry of ``al0
play``, ``al0 practice``, ``al0 serve`` and ``al0 uci``, as
:class:`~al0.verify.Verification` is the entry of a verify run.

It holds the loaded table, its planner (whose memo serves every game it
plays) and the tablebase of its material, loaded once through a
:class:`~al0.engine.tablebases.Tablebases`, and makes the opponents a
game is played against. A front end only reads a person's input and shows
the events of :meth:`Match.play`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import chess

from al0.board.position import from_board
from al0.engine.defenders import Defender, make_defender
from al0.engine.plan import DEFAULT_BUDGET, Planner
from al0.engine.play import Event, Opponent, play_game
from al0.engine.tablebases import Tablebases
from al0.lang import AdviceTable, DefenderSpec, load_table

if TYPE_CHECKING:
    from al0.tablebase import Tablebase


class Match:
    """``table`` (loaded) ready to play: its planner, with a search's node
    ``budget``, and its material's tablebase from ``tablebases`` (a memo a
    front end may share between matches; a new one otherwise)."""

    def __init__(
        self,
        table: AdviceTable,
        budget: int = DEFAULT_BUDGET,
        tablebases: Tablebases | None = None,
        planner: Planner | None = None,
    ):
        self.table = table
        self.planner = planner if planner is not None else Planner(table, budget)
        """The table's planner (``planner``, when given: a successor's, made
        by the first table's planner)."""
        self.tablebases = tablebases if tablebases is not None else Tablebases()
        self._successors: dict[int, Match] = {}
        """:meth:`playing`'s matches so far, by their planner's id."""

    @classmethod
    def load(
        cls,
        table: str | Path,
        budget: int = DEFAULT_BUDGET,
        tablebases: Tablebases | None = None,
    ) -> Match:
        """The match of the table file (or bundled table) ``table``.

        :raises AL0Error: for a table that cannot be read, naming the place.
        """
        return cls(load_table(table), budget, tablebases)

    def with_budget(self, budget: int) -> Match:
        """The same table and tablebases with another node budget (a new
        planner: its memo was made under the old bounds)."""
        return Match(self.table, budget, self.tablebases)

    def playing(self, board: chess.Board) -> Match | None:
        """The match of the table that plays ``board`` in a game this table
        began: this one, or the table a capture or a promotion hands the
        game to (:meth:`~al0.engine.plan.Planner.playing`); None where none
        plays it, or with castling rights (no table plays them).

        :raises AL0Error: a successor table that cannot be loaded.
        """
        if board.castling_rights:
            return None
        planner = self.planner.playing(from_board(board))
        if planner is None or planner is self.planner:
            return None if planner is None else self
        found = self._successors.get(id(planner))
        if found is None:
            found = self._successors[id(planner)] = Match(
                planner.table, planner.budget, self.tablebases, planner
            )
        return found

    @property
    def tablebase(self) -> Tablebase | None:
        """The tablebase of the table's material (loaded on first use, built
        if not cached), None where there is none."""
        return self.tablebases.get(self.table.material)

    def default_opponent(self) -> DefenderSpec:
        """Who plays them when no one is named: the tablebase's longest
        resistance where the material has a tablebase, else the random mover."""
        return DefenderSpec("tablebase" if self.tablebase is not None else "random")

    def opponent(self, spec: DefenderSpec, seed: int = 0, engine_seconds: float = 0.05) -> Defender:
        """The computer defender ``spec`` names (see
        :func:`~al0.engine.defenders.make_defender`), the tablebase's being
        this match's tablebase. Close it when the game is over.

        :raises DefenderError: for a defender that cannot be made.
        """
        tablebase = self.tablebase if spec.kind == "tablebase" else None
        return make_defender(spec, self.table.material, seed, engine_seconds, tablebase)

    def play(self, board: chess.Board, opponent: Opponent, max_moves: int | None = None) -> Iterator[Event]:
        """The game from ``board`` (played on it) against ``opponent``: the
        events of :func:`~al0.engine.play.play_game`, with this match's
        planner."""
        return play_game(self.planner, board, opponent, max_moves)
