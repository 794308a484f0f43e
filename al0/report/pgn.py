"""Games as PGN: the advice behind each of our moves and, when a tablebase
knows it, the distance to mate after every move, as move comments."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

import chess
import chess.pgn

if TYPE_CHECKING:
    from al0.tablebase import Tablebase


@dataclass(frozen=True)
class PgnGame:
    """What a PGN game is made of: the start, the moves each with its
    comment (the advice for ours, '' for theirs) and the headers' facts."""
    start: chess.Board
    moves: tuple[tuple[chess.Move, str], ...]
    result: str
    """``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
    termination: str
    event: str
    white: str
    black: str
    us: chess.Color
    """The side the table plays: the distances to mate are its."""


def today() -> str:
    """Today's date (UTC) as PGN writes it: ``2026.11.22``."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y.%m.%d")


def distance_note(board: chess.Board, table: Tablebase | None, us: chess.Color) -> str:
    """``mate in N`` (or ``no forced mate``) for ``us`` at ``board`` by the
    tablebase; '' when there is none."""
    if table is None:
        return ""
    dtm = table.dtm(board, us)
    if dtm is None:
        return "no forced mate"
    return "mated" if dtm == 0 else f"mate in {dtm}"


def to_pgn(game: PgnGame, table: Tablebase | None, date: str | None = None) -> chess.pgn.Game:
    """``game`` as python-chess's PGN game, each comment followed by the
    tablebase's distance to mate after the move when it is known."""
    pgn = chess.pgn.Game()
    pgn.setup(game.start)
    pgn.headers["Event"] = game.event
    pgn.headers["Date"] = date or today()
    pgn.headers["White"] = game.white
    pgn.headers["Black"] = game.black
    pgn.headers["Result"] = game.result
    pgn.headers["Termination"] = game.termination
    board = game.start.copy()
    node: chess.pgn.GameNode = pgn
    for move, comment in game.moves:
        board.push(move)
        note = distance_note(board, table, game.us)
        node = node.add_variation(move, comment="; ".join(part for part in (comment, note) if part))
    return pgn


def pgn_text(games: Iterable[PgnGame], table: Tablebase | None, date: str | None = None) -> str:
    """Every game as PGN, a blank line between games."""
    return "".join(str(to_pgn(game, table, date)) + "\n\n" for game in games)


def players(us: chess.Color, ours: str, theirs: str) -> tuple[str, str]:
    """(White, Black) for the table's side ``us``."""
    return (ours, theirs) if us == chess.WHITE else (theirs, ours)

