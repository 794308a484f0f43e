"""A coach's verdict on a student's move: method, fastest, good, mistake or
blunder, with a one-line reason.

The verdict reads the tablebase (is the win kept, how far is the mate) and
the table's plan (is the move the method's, or one its current advice
accepts); a blunder's reason (stalemate, a piece left hanging, a draw) is
computed from the position, a mistake's from the goal it breaks
(:mod:`al0.teach.explain`). A move the hint gives is never a mistake: the
method's move is judged first, and with no table the hint is the
tablebase's fastest move.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from al0.board import Material
from al0.board.fen import FIFTY_MOVE_PLIES
from al0.board.position import from_board
from al0.engine.plan import Plan, Planner
from al0.engine.search import ForcingTreeSearch
from al0.engine.tree import ForcingTree, principal_line
from al0.errors import PositionError, SearchBudgetExceeded
from al0.lang.node import node_at
from al0.teach.explain import Explainer, Explanation, measured

if TYPE_CHECKING:
    from al0.tablebase import Tablebase


class Grade(enum.Enum):
    """The five verdicts, best first."""

    METHOD = "method"
    """The table's move, or one its current advice accepts."""
    FASTEST = "fastest"
    """Optimal by the tablebase."""
    GOOD = "good"
    """The win kept, the mate no further than after the method's move."""
    MISTAKE = "mistake"
    """The win kept, the mate further than after the method's move."""
    BLUNDER = "blunder"
    """The win gone."""


@dataclass(frozen=True)
class Verdict:
    """The verdict on one move, what it is measured against and why."""

    grade: Grade
    reason: str
    """One line for the student, in words (no identifiers)."""
    before: int | None
    """Moves to mate before the move (tablebase)."""
    after: int | None
    """Moves to mate after it (None: the win is gone)."""
    best: tuple[chess.Move, ...]
    """The tablebase's fastest moves at the position."""
    method: chess.Move | None
    """The table's move there (None: no table, or no plan)."""
    explanation: Explanation | None = None
    """What the move did to the goal of the advice being followed."""
    lost: int | None = None
    """When the move loses (the other side now forces mate: a blunder that
    lets a rook skewer the queen), the other side's moves to mate after its
    reply, as :attr:`after` counts ours; else None."""
    winner: chess.Color | None = None
    """The side that forces mate after a move that loses; else None."""

    def after_words(self) -> str:
        """The mate after the move in words: ``mate in 7``, ``mated``,
        ``Black mates in 2`` (the move loses), ``no forced mate`` (a draw)."""
        if self.lost is not None and self.winner is not None:
            side = chess.COLOR_NAMES[self.winner].title()
            return f"{side} mates in {self.lost}" if self.lost else f"{side} mates"
        if self.after is None:
            return "no forced mate"
        return "mated" if self.after == 0 else f"mate in {self.after}"


def moves_text(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _distance_after(tablebase: Tablebase, board: chess.Board, us: chess.Color) -> int | None:
    """Our moves to mate at ``board`` (None: no forced mate, the 50-move
    rule has ended the game, or material the tablebase does not know: a
    piece lost to nothing it covers)."""
    if ended_by_fifty_moves(board):
        return None
    try:
        return tablebase.dtm(board, us)
    except PositionError:
        return None


def ended_by_fifty_moves(board: chess.Board) -> bool:
    """Whether the 50-move rule has ended the game at ``board``, as the
    game loop ends it (a mate on the 100th half-move still counts). A
    tablebase counts no clock: its distance there is no win."""
    return board.halfmove_clock >= FIFTY_MOVE_PLIES and not board.is_checkmate()


def fastest_moves(tablebase: Tablebase, board: chess.Board) -> list[chess.Move]:
    """The tablebase's fastest mating moves at ``board``, less those after
    which the 50-move rule ends the game (at clock 99 in KPK its Kb1 was
    called the fastest, and drew); all of them when every one does.

    :raises PositionError: as :meth:`Tablebase.best_moves`.
    """
    best = tablebase.best_moves(board)
    kept = []
    for move in best:
        board.push(move)
        if not ended_by_fifty_moves(board):
            kept.append(move)
        board.pop()
    return kept or best


def _lost_in(tablebase: Tablebase, board: chess.Board, us: chess.Color) -> int | None:
    """The other side's moves to mate after its best reply at ``board``
    (its turn), when it wins there (our move lost); else None."""
    try:
        result = tablebase.result(board)
    except PositionError:
        return None
    return result.moves - 1 if result.winner == (not us) and result.moves else None


def blunder_reason(tablebase: Tablebase, after: chess.Board, us: chess.Color) -> str:
    """Why the win is gone after our move, from the position it left:
    stalemate (the king with no square), a piece they take, else a draw."""
    if after.is_stalemate():
        king = after.king(not us)
        where = f" on {chess.square_name(king)}" if king is not None else ""
        return f"stalemate: their king{where} has no square and no other move"
    if after.is_insufficient_material():
        return "a draw: not enough material left to mate"
    if ended_by_fifty_moves(after):
        return "the 50-move rule ends the game: 50 moves without a capture or a pawn move, a draw"
    try:
        reply = tablebase.best_defence(after)
    except PositionError:
        reply = None
    if reply is not None and after.is_capture(reply):
        piece = after.piece_at(reply.to_square)
        name = chess.piece_name(piece.piece_type) if piece is not None else "piece"
        square = chess.square_name(reply.to_square)
        guarded = after.is_attacked_by(us, reply.to_square)
        why = "and the win goes with it" if guarded else "was undefended"
        return f"{after.san(reply)}: the {name} on {square} {why}"
    return "the win is gone: with best defence it is a draw"


def holding_moves(tablebase: Tablebase, board: chess.Board) -> list[chess.Move]:
    """The moves at ``board`` after which the side to move is not mated by
    force (the draw kept, or better), in python-chess's order; at clock 99
    every move the 50-move rule ends the game after (a tablebase counts no
    clock: its loss there was called a blunder, and the game was held)."""
    side, kept = board.turn, []
    for move in board.legal_moves:
        board.push(move)
        try:
            if ended_by_fifty_moves(board) or tablebase.result(board).winner in (None, side):
                kept.append(move)
        except PositionError:  # too little left to mate: a material no table covers
            kept.append(move)
        finally:
            board.pop()
    return kept


def _loss_reason(tablebase: Tablebase, after: chess.Board) -> str:
    """Why a defence's move loses, from the position it left: a man the
    other side takes, else mate by force."""
    try:
        reply = tablebase.best_moves(after)[0]
    except (PositionError, IndexError):
        return "mate by force"
    san = after.san(reply)
    if san.endswith("#"):
        return f"{san} mates"
    if after.is_capture(reply):
        piece = after.piece_at(reply.to_square)
        name = chess.piece_name(piece.piece_type) if piece is not None else "piece"
        return f"{san} takes the {name} on {chess.square_name(reply.to_square)}"
    return f"{san} and mate follows by force"


class Judge:
    """Gives verdicts for one ending: the tablebase's distances, and the
    table's plans when there is a table (``planner``)."""

    def __init__(self, tablebase: Tablebase, us: chess.Color, planner: Planner | None = None):
        self.tablebase = tablebase
        self.us = us
        self.planner = planner
        self.explainer = Explainer(planner.table) if planner is not None else None

    def accepted(self, plan: Plan, board: chess.Board, move: chess.Move) -> ForcingTree | None:
        """The forcing tree of the advice of ``plan`` (made at ``board``)
        from the position after our ``move``, when the advice accepts the
        move: allowed there by its us-moves, the holding-goal kept, a tree
        from there; else None."""
        if self.planner is None or plan.advice is None or plan.tree is None:
            return None
        if plan.tree.branches[0][0] == move:
            return plan.tree.branches[0][1]
        advice = self.planner.advice[plan.advice]
        root = node_at(from_board(board), 0, self.us)
        if not advice.holding(root, root):
            return None
        if not any(move in moves for moves, _ in advice.us_moves(root)):
            return None
        try:
            return ForcingTreeSearch(advice, root, self.planner.limits).after(move)
        except SearchBudgetExceeded:
            # Undecided within the planner's budget: the move is judged by
            # the tablebase alone, as one the advice does not accept.
            return None

    def judge(
        self,
        board: chess.Board,
        move: chess.Move,
        advice: str | None = None,
        tree: ForcingTree | None = None,
        plan: Plan | None = None,
    ) -> Verdict:
        """The verdict on our legal ``move`` at ``board`` (our turn), where
        the table follows ``advice`` with the forcing ``tree`` from here
        (None: no table, or no plan; its first move is the method's);
        ``plan``, when the plan was made at ``board``, lets any move its
        advice accepts count as the method's."""
        us, tablebase = self.us, self.tablebase
        method = tree.branches[0][0] if tree is not None and tree.branches else None
        if self.planner is not None and self.planner.table.holds:
            return self._judge_hold(board, move, advice, tree, plan, method)
        before = _distance_after(tablebase, board, us)
        best = tuple(fastest_moves(tablebase, board))
        after_board = board.copy()
        after_board.push(move)
        after = _distance_after(tablebase, after_board, us)
        rest = None  # the plan's tree after the move, when the plan takes it
        if tree is not None and move == method:
            rest = tree.branches[0][1]
        elif plan is not None and method is not None and after:
            rest = self.accepted(plan, board, move)
        explanation = None
        if self.explainer is not None and advice is not None:
            line = [move] + principal_line(rest) if rest is not None else [move]
            explanation = self.explainer.explain(advice, board, move, line)
        elif self.explainer is None and after is not None:
            # No table: what the move does to the measures of every mating drive.
            explanation = measured(Material.of(board, us), us, board, move)
        if after is None:
            lost = _lost_in(tablebase, after_board, us)
            reason = blunder_reason(tablebase, after_board, us)
            winner = None if lost is None else not us
            if winner is not None:
                reason += f"; {chess.COLOR_NAMES[winner].title()} wins"
            return Verdict(Grade.BLUNDER, reason, before, None, best, method, explanation, lost, winner)
        if after == 0:
            return Verdict(
                Grade.METHOD if move == method else Grade.FASTEST,
                "checkmate",
                before,
                after,
                best,
                method,
                explanation,
            )
        if rest is not None:
            words = self.planner.table.describe_advice(advice) if self.planner else ""
            because = explanation.because() if explanation is not None else ""
            reason = f"{words}" + (f" — {because}" if because else "")
            return Verdict(Grade.METHOD, reason, before, after, best, method, explanation)
        if move in best:
            because = explanation.because() if explanation is not None and method is None else ""
            return Verdict(
                Grade.FASTEST,
                f"the fastest way: mate in {after} after it" + (f" — {because}" if because else ""),
                before,
                after,
                best,
                method,
                explanation,
            )
        reference = self._reference(board, method, best)
        if after <= reference:
            than = "the method's move" if method is not None else "the fastest"
            how = f"as fast as {than}" if after == reference else f"faster than {than} (mate in {reference})"
            return Verdict(
                Grade.GOOD, f"the win kept: mate in {after}, {how}", before, after, best, method, explanation
            )
        reason = f"mate in {after} after it instead of {reference}: {moves_text(after - reference)} slower"
        broken = ""
        if explanation is not None and self._one_move(advice):
            broken = "; ".join(part.words for part in explanation.broken if part.words)
        if broken:
            reason += f"; it breaks the plan: {broken}"
        elif explanation is not None and explanation.goal:
            reason += f"; the plan was: {explanation.goal}"
        # (With no table the measures do not tell a slow move: a box may
        # shrink while the move lets a check in, so none are given.)
        return Verdict(Grade.MISTAKE, reason, before, after, best, method, explanation)

    def _judge_hold(
        self,
        board: chess.Board,
        move: chess.Move,
        advice: str | None,
        tree: ForcingTree | None,
        plan: Plan | None,
        method: chess.Move | None,
    ) -> Verdict:
        """The verdict on a move of a defence (a table that holds): a
        blunder when it lets the other side mate by force, else the method's
        (the table's move, or one its advice accepts) or good (the draw
        kept). The tablebase decides first: the table's own move may lose."""
        holding = tuple(holding_moves(self.tablebase, board))
        after_board = board.copy()
        after_board.push(move)
        if move not in holding:
            lost = _lost_in(self.tablebase, after_board, self.us)
            winner = not self.us
            side = chess.COLOR_NAMES[winner].title()
            reason = f"the draw is gone: {_loss_reason(self.tablebase, after_board)}; {side} wins"
            return Verdict(Grade.BLUNDER, reason, None, None, holding, method, None, lost, winner)
        rest = None
        if tree is not None and move == method:
            rest = tree.branches[0][1]
        elif plan is not None and method is not None:
            rest = self.accepted(plan, board, move)
        explanation = None
        if self.explainer is not None and advice is not None:
            line = [move] + principal_line(rest) if rest is not None else [move]
            explanation = self.explainer.explain(advice, board, move, line)
        if rest is not None and self.planner is not None and advice is not None:
            reason = f"{self.planner.table.describe_advice(advice)} — the draw kept"
            return Verdict(Grade.METHOD, reason, None, None, holding, method, explanation)
        only = " (the only move that does)" if len(holding) == 1 else f" ({len(holding)} moves do)"
        return Verdict(Grade.GOOD, f"the draw kept{only}", None, None, holding, method, explanation)

    def _one_move(self, advice: str | None) -> bool:
        """Whether ``advice`` reaches its goal with our move alone, so a
        goal not met after the move is a goal broken."""
        return self.planner is not None and advice is not None and self.planner.advice[advice].horizon == 1

    def _reference(self, board: chess.Board, method: chess.Move | None, best: tuple[chess.Move, ...]) -> int:
        """The mate after the method's move (after the fastest with no
        method): what a move no further from mate than is good."""
        move = method if method is not None else best[0]
        after = board.copy(stack=False)
        after.push(move)
        distance = _distance_after(self.tablebase, after, self.us)
        return distance if distance is not None else 0
