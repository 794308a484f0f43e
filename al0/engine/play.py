"""The play loop (AL0 section 7): follow the forcing tree, descend on the
reply, rebuild the plan when the tree is left or exhausted.

:func:`play_game` yields events and never prints, so the CLI, tests and
``verify`` all drive the very same loop.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable, Iterator, Union

import chess

from al0.board.fen import FIFTY_MOVE_PLIES, canonical_material, material_of
from al0.board.moves import has_legal_move
from al0.board.position import Position, from_board, is_check, piece_counts, to_board
from al0.engine.plan import Plan, Planner
from al0.engine.successors import side_name
from al0.engine.tree import ForcingTree
from al0.lang import AdviceTable
from al0.lang.specs import DefenderError

Opponent = Callable[[chess.Board], Union[chess.Move, None]]
"""Chooses their move at a board (their turn); None means they quit."""


class Ending(enum.Enum):
    """Every way a game of al0 ends."""

    MATE = "mate"
    STALEMATE = "stalemate"
    MATERIAL_LOST = "material lost"
    NO_PLAN = "no plan"
    SEARCH_LIMIT = "search limit"
    """A plan's search reached its node budget or memory limit before it
    could decide: verify ends that one game so (:mod:`al0.verify.game`);
    :func:`play_game` raises :class:`~al0.errors.SearchBudgetExceeded`."""
    INSUFFICIENT = "insufficient material"
    """A capture left men with which neither side can mate (KK, KBK, KNK):
    a draw by the laws."""
    NO_TABLE = "no table"
    """A capture or a promotion left a material no table of the game plays
    (:mod:`al0.engine.successors`)."""
    FIFTY_MOVES = "50-move rule"
    REPETITION = "threefold repetition"
    MOVE_LIMIT = "move limit"
    QUIT = "opponent quit"
    INTERRUPTED = "interrupted"
    """Stopped from outside (Ctrl-C, SIGTERM): the game so far is kept."""

    # Each ending is one object, equal only to itself: hashed by identity,
    # in C, not by Enum's hash of its name (a Python call per record when a
    # report counts 313,000 endings).
    __hash__ = object.__hash__

    @property
    def is_draw(self) -> bool:
        """Whether the rules of chess call the game drawn by this ending alone."""
        return self in (Ending.STALEMATE, Ending.INSUFFICIENT, Ending.FIFTY_MOVES, Ending.REPETITION)


@dataclass(frozen=True)
class OurMove:
    """We played ``move`` from ``plan``; ``new_plan`` tells whether the plan
    was chosen at this position or carried over from an earlier tree."""

    move: chess.Move
    san: str | None
    """The move in SAN; None when the game is played without notation."""
    plan: Plan
    new_plan: bool
    tree: ForcingTree
    """The tree (at this position) the move was taken from."""
    table: AdviceTable
    """The table whose plan it is: the game's first, or the one a capture or
    a promotion handed the game to (:mod:`al0.engine.successors`)."""


@dataclass(frozen=True)
class TheirMove:
    """They played ``move``; ``in_tree`` tells whether our tree foresaw it
    and is still followed."""

    move: chess.Move
    san: str | None
    in_tree: bool


@dataclass(frozen=True)
class GameEnd:
    """How a game ended: the facts (as python-chess's ``Outcome``), from
    which its PGN :attr:`result` is derived."""

    ending: Ending
    detail: str
    """The ending in words, for a person."""
    winner: chess.Color | None = None
    """The side that mated (``MATE`` only)."""
    dead: bool = False
    """Neither side has the men left to mate (a lost piece can leave that):
    a draw whatever the ending."""
    plan: Plan | None = None
    """The failed plan when the ending is NO_PLAN."""
    table: AdviceTable | None = None
    """The table of the failed plan (the game's first, or one a capture or
    a promotion handed it to)."""

    @property
    def result(self) -> str:
        """PGN result: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (not decided:
        the game was stopped or a plan failed)."""
        if self.winner is not None:
            return "1-0" if self.winner == chess.WHITE else "0-1"
        return "1/2-1/2" if self.dead or self.ending.is_draw else "*"


Event = Union[OurMove, TheirMove, GameEnd]


def ending_at(position: Position, planner: Planner, men_changed: bool = True) -> Ending | None:
    """The ending that the position alone decides in a game ``planner``'s
    table began (mate — of either side —, stalemate, our losing men,
    men that cannot mate, a material no table of the game plays), or None.

    ``men_changed`` False says that the half-move to ``position`` took no
    man and moved no pawn (:func:`resets_count`), from a position that had
    no ending: the men are those that had none (what
    :func:`material_ending` says depends on them alone), so only mate or
    stalemate can end the game, and counting the men is left out (counted
    after every half-move of every game, they took 8 % of a profile of verify).
    """
    if not has_legal_move(position):
        return Ending.MATE if is_check(position) else Ending.STALEMATE
    return material_ending(position, planner) if men_changed else None


def material_ending(position: Position, planner: Planner) -> Ending | None:
    """The ending the men on the board decide in a game ``planner``'s table
    began, at a position with a legal move: none while they are the
    table's or another table of the game plays them
    (:meth:`~al0.engine.plan.Planner.playing`); else our men lost, men that
    cannot mate, or no table."""
    us = planner.table.us
    ours = piece_counts(position, us)
    if ours == planner.needed_material and piece_counts(position, not us) == planner.their_material:
        return None
    if sum(ours) < sum(planner.needed_material):
        return Ending.MATERIAL_LOST
    if to_board(position).is_insufficient_material():
        return Ending.INSUFFICIENT
    return Ending.NO_TABLE if planner.playing(position) is None else None


def position_ending(board: chess.Board, planner: Planner) -> GameEnd | None:
    """The game's end that the position alone decides: mate, stalemate, or
    our losing material the table needs."""
    ending = ending_at(from_board(board), planner)
    if ending is None:
        return None
    us = planner.table.us
    if ending is Ending.STALEMATE:
        return GameEnd(Ending.STALEMATE, "stalemate: a draw")
    if ending is Ending.MATE:
        mated = "they are" if board.turn != us else "we are"
        return GameEnd(Ending.MATE, f"checkmate: {mated} mated", winner=not board.turn)
    if ending is Ending.INSUFFICIENT:
        return GameEnd(Ending.INSUFFICIENT, f"insufficient material: {material_of(board, us)}, a draw")
    if ending is Ending.NO_TABLE:
        return GameEnd(
            Ending.NO_TABLE,
            f"no table: none of this game plays {material_of(board, us)} for {side_name(us)}",
        )
    needed = canonical_material(planner.table.material)
    ours = material_of(board, us)
    return GameEnd(
        Ending.MATERIAL_LOST,
        f"material lost: {ours} instead of {needed}",
        dead=board.is_insufficient_material(),
    )


def game_ending(board: chess.Board, planner: Planner) -> GameEnd | None:
    """The game's end at ``board``: by the position, or by its history (the
    50-move rule, threefold repetition)."""
    end = position_ending(board, planner)
    if end is not None:
        return end
    if board.halfmove_clock >= FIFTY_MOVE_PLIES:
        return GameEnd(Ending.FIFTY_MOVES, "50 moves without capture or pawn move: a draw")
    if board.is_repetition(3):
        return GameEnd(Ending.REPETITION, "the position came three times: a draw")
    return None


def resets_count(before: Position, after: Position) -> bool:
    """Whether the half-move from ``before`` to ``after`` took a man or
    moved a pawn (a promotion and a capture en passant too): the laws'
    50-move count starts again, and no earlier position counts for a
    repetition (python-chess's ``halfmove_clock`` and ``is_repetition``,
    which the play loop reads, say the same of a board)."""
    return (
        after.pawns != before.pawns
        or (after.white | after.black).bit_count() < (before.white | before.black).bit_count()
    )


def descend(tree: ForcingTree | None, move: chess.Move, table: AdviceTable) -> ForcingTree | None:
    """The tree of ``table`` to follow after ``move``: its subtree, or None
    — replan at our next turn — when the tree is gone, does not cover the
    move, the subtree is a leaf (the advice's better-goal is reached), or
    the table plans at each move (:attr:`~al0.lang.model.AdviceTable.follows_trees`)."""
    subtree = tree.child(move) if tree is not None and table.follows_trees else None
    return None if subtree is None or subtree.is_leaf else subtree


def play_game(
    planner: Planner,
    board: chess.Board,
    opponent: Opponent,
    max_moves: int | None = None,
    notation: bool = True,
) -> Iterator[Event]:
    """Play from ``board`` (mutated as the game goes) until it ends.

    ``planner``'s table begins the game; where a capture or a promotion
    changes the material, the table that plays the new one goes on
    (:meth:`~al0.engine.plan.Planner.playing`), planning afresh.
    ``max_moves`` bounds the number of our moves. Without ``notation`` the
    events carry no SAN (it costs more than a plan that comes from the
    cache, and verify plays thousands of games). The last event is always
    a :class:`GameEnd`.

    :raises SearchBudgetExceeded: when a plan's search spends its budget.
    :raises DefenderError: when ``opponent`` answers with a move that is not
        legal (a null move, a move of our men, a king left in check).
    """
    us = planner.table.us
    playing = planner
    tree: ForcingTree | None = None
    plan: Plan | None = None
    moves_played = 0
    while True:
        end = game_ending(board, planner)
        if end is not None:
            yield end
            return
        if board.turn == us:
            if max_moves is not None and moves_played >= max_moves:
                yield GameEnd(Ending.MOVE_LIMIT, f"stopped after {max_moves} moves")
                return
            now = planner.playing(from_board(board))
            assert now is not None  # else game_ending ended the game
            if now is not playing:
                playing, tree = now, None
            new_plan = tree is None
            if tree is None:
                plan = playing.plan(board)
                if plan.tree is None:
                    yield GameEnd(
                        Ending.NO_PLAN, f"no plan: {plan.describe_failure()}", plan=plan, table=playing.table
                    )
                    return
                tree = plan.tree
            assert plan is not None
            move = tree.branches[0][0]
            event = OurMove(move, board.san(move) if notation else None, plan, new_plan, tree, playing.table)
            board.push(move)
            moves_played += 1
            yield event
            tree = descend(tree, move, playing.table)
        else:
            reply = opponent(board)
            if reply is None:
                yield GameEnd(Ending.QUIT, "the opponent quit")
                return
            if not isinstance(reply, chess.Move) or not board.is_legal(reply):
                # Pushed, it made a position no game has (a pass, a move of
                # our men, a king left in check), which the game then played on.
                shown = reply.uci() if isinstance(reply, chess.Move) else repr(reply)
                raise DefenderError(f"the opponent's move {shown} is not a legal move at {board.fen()}")
            san = board.san(reply) if notation else None
            in_tree = tree is not None and tree.child(reply) is not None
            tree = descend(tree, reply, playing.table)
            board.push(reply)
            yield TheirMove(reply, san, in_tree)
