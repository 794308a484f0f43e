"""What every resource of ``al0 serve``'s JSON API shares: the refusal
(:class:`ApiError`, an HTTP status and one line), the reading of a
request's fields and a position's JSON. The resources are
:mod:`~al0.serve.positions` (tables, positions and plans),
:mod:`~al0.serve.practice` (practice games) with
:mod:`~al0.serve.sessions` (the games kept between requests), and
:mod:`~al0.serve.routes` puts them behind one :class:`~al0.serve.routes.Api`.
"""

from __future__ import annotations

from typing import Any

import chess

from al0.board import parse_fen
from al0.errors import AL0Error

Json = dict[str, Any]

MAX_FEN = 200
"""The longest FEN read: a position's is under 100 characters."""


class ApiError(AL0Error):
    """A request refused: its HTTP status and a one-line message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def text(body: Json, key: str, limit: int = MAX_FEN) -> str:
    """The string ``body[key]``; 400 when missing, not a string or too long."""
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"{key!r}: a non-empty string is required")
    if len(value) > limit:
        raise ApiError(400, f"{key!r}: longer than {limit} characters")
    return value.strip()


def optional_text(body: Json, key: str, limit: int = MAX_FEN) -> str | None:
    """The string ``body[key]``, None when the key is absent; 400 as
    :func:`text` when it is there but not a non-empty string (a field of
    the wrong type must not be taken for a field left out)."""
    return text(body, key, limit) if key in body else None


def board_of(fen: str) -> chess.Board:
    """The board of ``fen``; 400 naming the FEN when it is not a legal position."""
    try:
        return parse_fen(fen)
    except AL0Error as error:
        raise ApiError(400, str(error)) from None


def legal_move(board: chess.Board, uci: str) -> chess.Move:
    """The move ``uci`` names at ``board``; 400 when it is not UCI or not legal there."""
    try:
        move = chess.Move.from_uci(uci)
    except ValueError:
        raise ApiError(400, f"{uci!r} is not a move in UCI (e2e4)") from None
    if move not in board.legal_moves:
        raise ApiError(400, f"{uci!r} is not legal in {board.fen()!r}")
    return move


def position_json(board: chess.Board) -> Json:
    """What the page draws and lets be played at ``board``."""
    return {
        "fen": board.fen(),
        "turn": chess.COLOR_NAMES[board.turn],
        "legal": [move.uci() for move in board.legal_moves],
        "sans": [board.san(move) for move in board.legal_moves],
        "ended": board.is_game_over(),
        "check": board.is_check(),
    }
