"""Practice: a person plays the table's (winning) side against the
tablebase's defence, and may ask al0 what its table would play and why.

A :class:`Practice` holds the game and the plan al0 would be following, so
a hint given after a hint followed continues the same forcing tree, as
``al0 play`` would. Nothing here reads or prints; the CLI does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from al0.engine.plan import Plan, Planner
from al0.engine.play import GameEnd, descend, game_ending
from al0.engine.tree import ForcingTree
from al0.errors import PositionError
from al0.lang.model import AdviceTable

if TYPE_CHECKING:
    from al0.tablebase import Tablebase


@dataclass(frozen=True)
class Advice:
    """What al0's table advises at the current position: the plan it
    follows (made at this position when ``new_plan``, else earlier and
    still followed),
    the forcing tree from here, and the move (None: the table has no plan)."""
    plan: Plan
    tree: ForcingTree | None
    new_plan: bool

    @property
    def move(self) -> chess.Move | None:
        return None if self.tree is None else self.tree.branches[0][0]


@dataclass(frozen=True)
class Turn:
    """One move of the person and the defence's reply (None when the
    person's move ended the game), with the tablebase's distance to mate
    for the person's side before and after them (None: no forced mate)."""
    move: chess.Move
    san: str
    reply: chess.Move | None
    reply_san: str | None
    before: int | None
    after: int | None


@dataclass(frozen=True)
class _Undo:
    """What taking back one move of the person restores: the game's length
    before it and the plan and tree al0 followed there (and where that plan
    was made)."""
    plies: int
    plan: Plan | None
    tree: ForcingTree | None
    planned_at: int


class Practice:
    """A practice game from ``board`` (mutated as the game goes): the person
    plays ``table.us``, the tablebase defends by its longest resistance.

    :raises PositionError: when the game is already over, or the table's
        side cannot force mate from ``board`` (there is nothing to practise).
    """

    def __init__(self, table: AdviceTable, planner: Planner, tablebase: Tablebase,
                 board: chess.Board):
        self.table = table
        self.planner = planner
        self.tablebase = tablebase
        self.board = board
        if game_ending(board, planner) is not None:
            raise PositionError(f"{board.fen()!r}: the game is already over")
        optimal = tablebase.dtm(board, table.us)
        if optimal is None:
            raise PositionError(f"{board.fen()!r}: the table's side cannot force mate here, "
                                f"so there is no win to practise")
        self.optimal: int = optimal
        """The tablebase's distance to mate from the start, in our moves."""
        self.opening_reply: str | None = None
        """The defence's first move in SAN when the start was its turn."""
        if board.turn != table.us:
            reply = tablebase.best_defence(board)
            self.opening_reply = board.san(reply)
            board.push(reply)
        self._plan: Plan | None = None
        self._tree: ForcingTree | None = None
        self._planned_at = 0
        """The length of the game when ``_plan`` was made."""
        self._undo: list[_Undo] = []

    @property
    def moves_played(self) -> int:
        """The person's moves in the game as it stands (taken-back ones not counted)."""
        return len(self._undo)

    def ending(self) -> GameEnd | None:
        """How the game has ended (mate, stalemate, material lost, the 50-move
        rule, repetition), or None while it goes on."""
        return game_ending(self.board, self.planner)

    def distance(self) -> int | None:
        """The tablebase's moves to mate for the person's side now; None
        when it has no forced mate (any more)."""
        try:
            return self.tablebase.dtm(self.board, self.table.us)
        except PositionError:  # material lost: the board is not of this table
            return None

    def advice(self) -> Advice:
        """What al0 plays here: the move of the tree it is following, or a
        new plan when it follows none (which it then follows)."""
        if self._tree is None or self._plan is None:
            self._plan = self.planner.plan(self.board)
            self._tree = self._plan.tree
            self._planned_at = len(self.board.move_stack)
        return Advice(self._plan, self._tree,
                      new_plan=self._planned_at == len(self.board.move_stack))

    def best_moves(self) -> list[chess.Move]:
        """The tablebase's fastest mating moves here (empty: no forced mate)."""
        return self.tablebase.best_moves(self.board)

    def play(self, move: chess.Move) -> Turn:
        """Play the person's ``move`` (legal, their turn) and the defence's
        reply, unless the move ends the game. al0 keeps following its tree
        while the moves are the tree's."""
        self._undo.append(_Undo(len(self.board.move_stack), self._plan, self._tree,
                                self._planned_at))
        before = self.distance()
        san = self.board.san(move)
        self._tree = descend(self._tree, move)
        self.board.push(move)
        if self.ending() is not None:
            return Turn(move, san, None, None, before, self.distance())
        reply = self.tablebase.best_defence(self.board)
        reply_san = self.board.san(reply)
        self._tree = descend(self._tree, reply)
        self.board.push(reply)
        return Turn(move, san, reply, reply_san, before, self.distance())

    def undo(self) -> bool:
        """Take back the person's last move and the reply to it; False when
        there is none to take back."""
        if not self._undo:
            return False
        last = self._undo.pop()
        while len(self.board.move_stack) > last.plies:
            self.board.pop()
        self._plan, self._tree, self._planned_at = last.plan, last.tree, last.planned_at
        return True
