"""Show why: after a slip, the tablebase plays the game on from it, both
sides at their best, so the student sees what the move allowed (the
rook that takes the queen and the mate that follows, or the longer way
round) before taking it back, as lichess Practice plays out the
refutation of a wrong move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

import chess

from al0.errors import PositionError
from al0.teach.verdict import Grade

if TYPE_CHECKING:
    from al0.tablebase import Tablebase
    from al0.teach.session import Practice

SHOWN_PLIES = 12
"""The most half-moves played out: enough for a refutation's point (a
capture, a short mate), not a whole endgame."""


def best_line(tablebase: Tablebase, board: chess.Board, plies: int = SHOWN_PLIES) -> list[chess.Move]:
    """Both sides' best moves from ``board`` by the tablebase (the winner's
    fastest mate, the loser's longest resistance, a draw held), up to
    ``plies`` half-moves or the game's end."""
    board = board.copy(stack=False)
    line: list[chess.Move] = []
    while len(line) < plies and not board.is_game_over(claim_draw=False):
        try:
            move = tablebase.best_defence(board)
        except PositionError:  # material no table here answers for
            break
        board.push(move)
        line.append(move)
    return line


def show_lines(game: Practice) -> Iterator[str]:
    """The tablebase's play from the student's last move when it was a
    slip (its reply first: the refutation), else from the position now,
    and what it comes to."""
    board = game.board.copy()
    last = game.turns[-1] if game.turns else None
    slip = last is not None and last.verdict.grade in (Grade.MISTAKE, Grade.BLUNDER)
    if slip and last is not None and last.reply is not None:
        board.pop()
    line = best_line(game.tablebase, board)
    if not line:
        yield "show: the game is over here, nothing to play out"
        return
    start = f"after {last.san}" if slip and last is not None else "from here"
    rest = " …" if len(line) == SHOWN_PLIES else ""
    yield f"show: the tablebase plays on {start}: {board.variation_san(line)}{rest}"
    for move in line:
        board.push(move)
    yield f"  {_comes_to(game, board)}"


def _side(colour: chess.Color) -> str:
    return chess.COLOR_NAMES[colour].title()


def _comes_to(game: Practice, board: chess.Board) -> str:
    """What the line shown comes to, in a coach's words."""
    if board.is_checkmate():
        return f"checkmate: {_side(not board.turn)} wins"
    if board.is_stalemate():
        return "stalemate: a draw"
    if board.is_insufficient_material():
        return "no mating material left: a draw"
    try:
        result = game.tablebase.result(board)
    except PositionError:
        return "and so on"
    if result.winner is None:
        return "and so on: a draw"
    return f"and so on: {_side(result.winner)} mates in {result.moves} more"
