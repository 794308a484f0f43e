"""Games of a table that holds against the most testing attacker: the
second, slower measure of such a table, after the exact check of every
position (:mod:`al0.verify.hold`).

The exact check proves more (no defence of the other side matters to it);
the games show the table at work against the attacker a coach would
choose (:class:`~al0.engine.defenders.MostTestingAttacker`: the move after
which the fewest of the holder's replies keep the draw), how often it
faced a position with a single move that holds, and whether it found it.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from al0.board.fen import FIFTY_MOVE_PLIES
from al0.board.moves import apply, legal_moves
from al0.board.position import Position, to_board
from al0.board.position import fen as position_fen
from al0.engine.defenders import MostTestingAttacker
from al0.engine.plan import Planner
from al0.engine.play import resets_count
from al0.errors import AL0Error
from al0.verify.game import limit_reached


class AttackEnd(enum.Enum):
    """How a game against the attacker ended."""

    HELD = "held"
    """The holder's moves all kept the draw until the 50-move rule ended
    the game, or stalemate, or a man taken (too little left to mate)."""
    LOST = "lost"
    """A move of the table let the attacker force mate."""
    NO_PLAN = "no plan"
    """The table had no move (no advice gave one, or a search limit)."""


@dataclass(frozen=True)
class AttackGame:
    """One game: its start, how it ended, after how many of the holder's
    moves, and how many of its positions had a single move that holds."""

    start: str
    end: AttackEnd
    moves: int
    only_moves: int
    last: str = ""
    """The position where it was lost or had no plan ('' when held)."""


@dataclass
class AttackGames:
    """Games of a table that holds against the most testing attacker."""

    games: list[AttackGame] = field(default_factory=list)

    @property
    def ends(self) -> Counter[AttackEnd]:
        return Counter(game.end for game in self.games)

    def line(self) -> str:
        """The report's line for a person."""
        ends = self.ends
        only = sum(game.only_moves for game in self.games)
        moves = sum(game.moves for game in self.games)
        counts = ", ".join(f"{end.value} {ends[end]}" for end in AttackEnd if ends[end])
        return (
            f"games against the most testing attacker ({len(self.games)}, to the 50-move rule): "
            f"{counts}; a single move held in {only} of the table's {moves} positions"
        )

    def to_json(self) -> dict[str, Any]:
        ends = self.ends
        return {
            "games": len(self.games),
            "ends": {end.value: ends[end] for end in AttackEnd},
            "moves": sum(game.moves for game in self.games),
            "only_moves": sum(game.only_moves for game in self.games),
            "not_held": [
                {"start": game.start, "end": game.end.value, "moves": game.moves, "at": game.last}
                for game in self.games
                if game.end is not AttackEnd.HELD
            ],
        }


def play_game(planner: Planner, attacker: MostTestingAttacker, start: Position) -> AttackGame:
    """The game from ``start`` (a drawn position, the holder to move): the
    table's move (a fresh plan each move), the attacker's reply, until the
    table loses the draw, has no move, or the 50-move rule ends the game,
    counted as the laws count it: from 0 at the start, again after each
    capture or pawn move (:func:`~al0.engine.play.resets_count`).

    :raises AL0Error: a broken library (a search limit is the table's
        failure: it ends the game with no plan).
    """
    table = attacker.table
    position, only, played, clock = start, 0, 0, 0
    while clock < FIFTY_MOVE_PLIES:
        if not legal_moves(position):
            return AttackGame(position_fen(start), AttackEnd.HELD, played, only)
        only += attacker.holding_replies(position) == 1
        try:
            plan = planner.plan_position(position)
        except AL0Error as error:
            if limit_reached(error) is None:
                raise
            plan = None
        if plan is None or plan.tree is None or plan.tree.is_leaf:
            return AttackGame(position_fen(start), AttackEnd.NO_PLAN, played, only, position_fen(position))
        after = apply(position, plan.tree.branches[0][0])
        if table.result_at(after).winner is not None:
            return AttackGame(position_fen(start), AttackEnd.LOST, played + 1, only, position_fen(position))
        if not legal_moves(after) or to_board(after).is_insufficient_material():
            return AttackGame(position_fen(start), AttackEnd.HELD, played + 1, only)
        played += 1
        clock = 0 if resets_count(position, after) else clock + 1
        if clock >= FIFTY_MOVE_PLIES:
            break
        position = apply(after, attacker.move_at(after))
        clock = 0 if resets_count(after, position) else clock + 1
    return AttackGame(position_fen(start), AttackEnd.HELD, played, only)


def play_games(
    planner: Planner,
    attacker: MostTestingAttacker,
    starts: Sequence[Position],
    progress: Callable[[], None] = lambda: None,
) -> AttackGames:
    """A game from each of ``starts``, in order (see :func:`play_game`)."""
    games = AttackGames()
    for start in starts:
        games.games.append(play_game(planner, attacker, start))
        progress()
    return games
