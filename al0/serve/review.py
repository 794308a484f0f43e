"""Games to review on the page: a PGN file written by ``al0 play --pgn`` or
``al0 practice --pgn`` (or any PGN), read by python-chess, each ply with its
position, its comment (practice writes the verdict there) and the distance
to mate its ``[%eval #N]`` gives."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import chess.pgn

from al0.errors import PositionError

COMMAND = re.compile(r"\s*\[%[^\]]*\]\s*")
"""A PGN comment's command (``[%eval #2]``, ``[%cal Gb1b5]``): data, not words."""
MAX_GAMES = 1000
"""Games read from one file: a review is of a session's games, not a database."""
MAX_BYTES = 4 * 1024 * 1024
"""The largest PGN file read (a thousand annotated games of an ending fit)."""


def read_games(path: str) -> list[dict[str, Any]]:
    """Every game of the PGN file at ``path``: its headers and, per ply,
    ``{"san", "uci", "fen", "last", "comment", "mate"}`` (``mate``: moves to
    mate from ``[%eval #N]``, positive when White mates, negative when Black
    does; None without an eval), the start first.

    :raises PositionError: ``file: game N: …`` for an unreadable file, an
        illegal move or a file over :data:`MAX_BYTES`.
    """
    file = Path(path)
    try:
        if file.stat().st_size > MAX_BYTES:
            raise PositionError(
                f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MB: too many games to review"
            )
        handle = file.open(encoding="utf-8-sig", errors="replace")
    except OSError as error:
        raise PositionError(f"{path}: {error.strerror or error}") from None
    games: list[dict[str, Any]] = []
    with handle:
        while len(games) < MAX_GAMES:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            if game.errors:
                raise PositionError(f"{path}: game {len(games) + 1}: {game.errors[0]}")
            games.append(_game(game))
    if not games:
        raise PositionError(f"{path}: no games in it")
    return games


def _game(game: chess.pgn.Game) -> dict[str, Any]:
    board = game.board()
    plies: list[dict[str, Any]] = [
        {
            "san": None,
            "uci": None,
            "fen": board.fen(),
            "last": None,
            "comment": _words(game.comment),
            "mate": _mate(game),
        }
    ]
    for node in game.mainline():
        move = node.move
        san = board.san(move)
        board.push(move)
        plies.append(
            {
                "san": san,
                "uci": move.uci(),
                "fen": board.fen(),
                "last": move.uci(),
                "comment": _words(node.comment),
                "mate": _mate(node),
            }
        )
    return {"headers": dict(game.headers), "plies": plies}


def _words(comment: str) -> str:
    """A comment without its commands."""
    return COMMAND.sub(" ", comment).strip()


def _mate(node: chess.pgn.GameNode) -> int | None:
    """Moves to mate at ``node`` from its ``[%eval #N]``, from White's side
    (positive: White mates), as PGN writes it; None without one."""
    score = node.eval()
    if score is None:
        return None
    return score.white().mate()
