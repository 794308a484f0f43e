"""When the table's move gives way to the tablebase's: a won game is never
drawn by the engine, nor a drawn one lost (a table that holds: its move
that would lose the draw is replaced by a drawing one). The table's move
at a position the tablebase calls won is replaced where it would repeat a position of the game or let their
reply bring one the third time (a cycle that the GUI ends as a threefold
repetition: cut plans and new plans can mix into one), throw the win away
(a stalemate, a lost piece), or leave the mate past the fifty-move rule.
The UCI option ``TablebaseRescue`` switches this off, to see a table's own
strength: at KBNK against Stockfish at 0.1 s a move, 1 game of 10 mated
without it (8 threefold repetitions, a piece lost), 10 of 10 with it."""

from __future__ import annotations

import chess

from al0.board import FIFTY_MOVE_PLIES
from al0.uci.verdict import Verdict


def repeats(board: chess.Board, move: chess.Move) -> str | None:
    """How ``move`` repeats positions of the game (the board's moves are
    the game's, as ``position … moves …`` gave them), or None: it leads to
    a position the game has had, or lets a reply make one the third time
    (their move too can close a cycle: the positions after our moves all
    differ, and one after theirs still comes back, from another side)."""
    board.push(move)
    try:
        if board.is_repetition(2):
            return "would repeat a position of the game"
        for reply in board.legal_moves:
            board.push(reply)
            third = board.is_repetition(3)
            board.pop()
            if third:
                return f"would let {reply.uci()} repeat a position a third time"
        return None
    finally:
        board.pop()


def past_fifty(board: chess.Board, move: chess.Move, now: int, then: int) -> bool:
    """Whether ``move`` at ``board`` (``now`` plies to mate by the
    tablebase, ``then`` after the move, their turn) leaves the mate past
    the fifty-move rule where the quickest play would still make it (a mate
    on the hundredth ply still counts). A capture or a pawn's move starts
    the count again (``is_zeroing``), en passant and promotions too."""
    after = 0 if board.is_zeroing(move) else board.halfmove_clock + 1
    return after + then > FIFTY_MOVE_PLIES and board.halfmove_clock + now <= FIFTY_MOVE_PLIES


def why_not(verdict: Verdict, board: chess.Board, move: chess.Move) -> str | None:
    """Why the table's ``move`` must give way to the tablebase's at
    ``board`` (whose ``verdict`` is given), or None where it may be played
    (also wherever the side to move loses: there is nothing to keep)."""
    if verdict.draws and verdict.loses(move):
        return "would throw the draw away"
    if not verdict.wins:
        return None
    repeated = repeats(board, move)
    if repeated is not None:
        return repeated
    if not verdict.keeps_the_win(move):
        return "would throw the win away"
    now, then = verdict.now.plies, verdict.after[move].plies
    assert now is not None and then is not None  # wins, and keeps the win
    if past_fifty(board, move, now, then):
        return "would leave the mate past the fifty-move rule"
    return None


def rescue_move(verdict: Verdict, board: chess.Board) -> chess.Move:
    """The tablebase's move at ``board`` (whose ``verdict`` is given): one
    that mates soonest (the first in UCI order that repeats no position of
    the game, see :func:`repeats`); where every such move repeats, the
    soonest other win that repeats nothing and still mates within the
    fifty-move rule (a move lost now is better than a threefold
    repetition). Failing that, a win that keeps the fifty-move rule before
    one that repeats, and never one that repeats a position the third time
    at once. For the side that does not win, the longest resistance (or a
    draw)."""
    best = verdict.best_moves()
    if not best:
        return verdict.best_defence()
    fresh = next((move for move in best if repeats(board, move) is None), None)
    if fresh is not None:
        return fresh
    now = verdict.now.plies
    assert now is not None  # the side to move wins: best_moves said so
    ranked: list[tuple[bool, bool, bool, int, str, chess.Move]] = []
    for move, then in verdict.after.items():
        if verdict.keeps_the_win(move) and then.plies is not None:
            board.push(move)
            third = board.is_repetition(3)
            board.pop()
            ranked.append(
                (
                    third,
                    past_fifty(board, move, now, then.plies),
                    repeats(board, move) is not None,
                    then.plies,
                    move.uci(),
                    move,
                )
            )
    return min(ranked)[-1]
