"""What the tablebase says at the position of one ``go``, asked once: who
mates it and in how many plies, and the same after each legal move. Every
use of the tablebase in choosing and reporting a move — the move played
when the search is cut, the rescue of a won game, the score sent — reads
this :class:`Verdict`, never the tablebase again (one ``go`` entered the
tablebase seven times)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from al0.uci.short_search import mate_in_moves

if TYPE_CHECKING:
    from al0.tablebase import Result, Tablebase


@dataclass(frozen=True)
class Verdict:
    """The tablebase's values at one position and after each legal move."""

    turn: chess.Color
    """The side to move at the position."""
    now: Result
    """The position's value."""
    after: dict[chess.Move, Result]
    """Each legal move's value (for the other side, to move then), in UCI order."""

    @classmethod
    def of(cls, tablebase: Tablebase, board: chess.Board) -> Verdict:
        """The tablebase's values at ``board``.

        :raises PositionError: where the tablebase does not cover ``board``
            (or a capture's smaller material).
        """
        now = tablebase.result(board)
        scratch = board.copy(stack=False)
        after = {}
        for move in sorted(scratch.legal_moves, key=chess.Move.uci):
            scratch.push(move)
            after[move] = tablebase.result(scratch)
            scratch.pop()
        return cls(board.turn, now, after)

    @property
    def wins(self) -> bool:
        """Whether the side to move mates with best play."""
        return self.now.winner == self.turn and self.now.plies is not None

    def keeps_the_win(self, move: chess.Move) -> bool:
        """Whether the side to move still mates after ``move``."""
        then = self.after[move]
        return then.winner == self.turn and then.plies is not None

    @property
    def draws(self) -> bool:
        """Whether neither side mates with best play."""
        return self.now.winner is None

    def loses(self, move: chess.Move) -> bool:
        """Whether the side to move is mated with best play after ``move``."""
        return self.after[move].winner not in (None, self.turn)

    def best_moves(self) -> list[chess.Move]:
        """The moves that mate soonest, in UCI order, when the side to move
        wins; empty when it does not (:meth:`Tablebase.best_moves
        <al0.tablebase.Tablebase.best_moves>`)."""
        if not self.wins:
            return []
        wins = {move: then.plies for move, then in self.after.items() if self.keeps_the_win(move)}
        soonest = min(plies for plies in wins.values() if plies is not None)
        return [move for move, plies in wins.items() if plies == soonest]

    def best_defence(self) -> chess.Move:
        """The side to move's best move: a win, sooner first; a draw; a
        loss, later first; ties to the first in UCI order
        (:meth:`Tablebase.best_defence <al0.tablebase.Tablebase.best_defence>`).

        :raises ValueError: when the side to move has no legal move.
        """
        return max(self.after, key=self._worth)

    def _worth(self, move: chess.Move) -> tuple[int, int]:
        """How good ``move`` is for its mover (higher is better); max()
        keeps the first of equals, the first in UCI order."""
        then = self.after[move]
        if then.winner is None or then.plies is None:
            return (1, 0)
        if then.winner == self.turn:
            return (2, -then.plies)
        return (0, then.plies)

    def score(self) -> str:
        """UCI's ``score`` of the position for the side to move."""
        return _score(self.now, 0, self.turn)

    def move_score(self, move: chess.Move) -> str:
        """UCI's ``score`` of playing ``move``: the distance to mate with
        best play after it (worse than :meth:`score` where the move is not
        one of the quickest)."""
        return _score(self.after[move], 1, self.turn)


def _score(result: Result, plies: int, side: chess.Color) -> str:
    """UCI's ``score`` for ``side`` of ``result``, ``plies`` half-moves on."""
    if result.winner is None or result.plies is None:
        return "cp 0"
    return f"mate {mate_in_moves(result.plies + plies, result.winner, side)}"
