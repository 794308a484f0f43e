"""The position a command works on, for a table: read from a FEN, the
table's start, or made plannable."""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess
import click

from al0.board import check_not_over, check_playable, parse_fen
from al0.errors import PositionError
from al0.lang import AdviceTable

if TYPE_CHECKING:
    from al0.tablebase import Tablebase


def position_for(table: AdviceTable, fen: str) -> chess.Board:
    """The board of ``fen``, checked against the table's material (and to
    have no castling rights, which the search does not play)."""
    board = parse_fen(fen)
    check_playable(board, table.material, table.us)
    return board


def start_board(table: AdviceTable, name: str, fen: str | None) -> chess.Board:
    """Where a game of ``table`` (given as ``name``) starts: ``fen`` when
    given, else the table's ``start:``, checked as :func:`position_for` does.

    :raises click.UsageError: when neither is there.
    """
    if fen is None:
        if table.start_fen is None:
            raise click.UsageError(
                f"{name} has no start position: give one with --fen, "
                "or add a start: line (a FEN) to the table"
            )
        fen = table.start_fen
    return position_for(table, fen)


def not_playable_why(table: AdviceTable, board: chess.Board) -> str | None:
    """Why a game of ``table`` from ``board`` cannot be won, whatever is
    played, when it cannot: the game is over, or its half-move clock ends
    it by the 50-move rule before any mate is possible
    (:func:`~al0.board.fen.check_not_over`, which verify refuses a start
    for); None for a table that holds, whose draw that is."""
    if table.holds:
        return None
    try:
        check_not_over(board)
    except PositionError as error:
        return str(error)
    return None


def unfit_start_verdict(table: AdviceTable, board: chess.Board, tablebase: Tablebase) -> str | None:
    """What ``tablebase`` says of ``board`` when it is not what ``table`` is
    for ("a draw", "a win for Black"): a position its side does not win, or,
    for a table that holds, one already lost; None when it is."""
    winner = tablebase.result(board).winner
    if winner == table.us or (table.holds and winner is None):
        return None
    return "a draw" if winner is None else f"a win for {chess.COLOR_NAMES[winner].capitalize()}"


def plannable(table: AdviceTable, board: chess.Board) -> chess.Board:
    """``board``, checked to be one the table can plan at.

    Every position is checked before any is planned, so a bad one late in an
    EPD file fails at once rather than after the others' output.

    :raises PositionError: when it is not the table's side to move or the
        game is over (:func:`~al0.board.fen.check_not_over`).
    """
    if board.turn != table.us:
        raise PositionError(f"{board.fen()!r}: it is not the table's side to move")
    check_not_over(board)
    return board
