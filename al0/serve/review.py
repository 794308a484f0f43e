"""Games to review on the page: a PGN file written by ``al0 play --pgn`` or
``al0 practice --pgn`` (or any PGN), read by python-chess, each ply with its
position, its comment (practice writes the verdict there), its verdict's
mark, its arrows and squares, the distance to mate its ``[%eval #N]`` gives
(or the tablebase, for the plies with none), and the moves played instead
of it (a move taken back, kept as a variation)."""

from __future__ import annotations

import io
import re
from typing import Any, Callable

import chess
import chess.pgn

from al0.board import Material
from al0.engine import Tablebases
from al0.errors import PositionError
from al0.files import read_regular_file

COMMAND = re.compile(r"\s*\[%[^\]]*\]\s*")
"""A PGN comment's command (``[%eval #2]``, ``[%cal Gb1b5]``): data, not words."""
MAX_GAMES = 1000
"""Games read from one file: a review is of a session's games, not a database."""
MAX_BYTES = 4 * 1024 * 1024
"""The largest PGN file read (a thousand annotated games of an ending fit)."""
MAX_MEN = 4
"""The most men a tablebase holds: a position with more is not probed."""


GRADES = ("method", "fastest", "good", "mistake", "blunder")
"""The verdicts practice writes first in a move's comment (``mistake: …``)."""
MARKS = {"mistake": "?", "blunder": "??"}
"""The PGN marks of the two slips."""
NAG_GRADES = {chess.pgn.NAG_MISTAKE: "mistake", chess.pgn.NAG_BLUNDER: "blunder"}
"""The grade a PGN's own marks (``$2``, ``$4``: ``?``, ``??``) give a move with no verdict."""

Probe = Callable[[chess.Board], "int | None"]
"""Moves to mate at a position, from White's side (positive: White mates),
or None where it is not known: a tablebase's answer for plies with no eval."""


def read_games(path: str, probe: Probe | None = None) -> list[dict[str, Any]]:
    """Every game of the PGN file at ``path``: its headers and, per ply of
    the main line, the start first, ``{"san", "uci", "fen", "last",
    "comment", "mate", "grade", "mark", "arrows", "squares", "variations"}``.
    ``mate``: moves to mate from ``[%eval #N]``, positive when White mates,
    negative when Black does, else ``probe``'s answer at the ply (the start
    and the replies practice writes no eval for), else None; ``grade`` the
    verdict the comment begins with (or the PGN's ``?``/``??``), ``mark``
    its ``?`` or ``??``; ``arrows`` and ``squares`` the comment's ``[%cal]``
    and ``[%csl]`` (``{"from", "to", "color"}``, ``{"square", "color"}``);
    ``variations`` the moves played instead of this one (practice keeps a
    move taken back so), each a list of such plies.

    :raises PositionError: ``file: game N: …`` for an unreadable file (a
        FIFO, a device, one over :data:`MAX_BYTES` or not UTF-8), an illegal
        move or a game of neither tags nor moves (text that is not PGN).
    """
    try:
        text = read_regular_file(path, MAX_BYTES).decode("utf-8-sig")
    except OSError as error:
        raise PositionError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise PositionError(f"{path}: not a UTF-8 text file") from None
    games: list[dict[str, Any]] = []
    handle = io.StringIO(text)
    while len(games) < MAX_GAMES:
        game = chess.pgn.read_game(handle, Visitor=_QuietBuilder)
        if game is None:
            break
        if game.errors:
            raise PositionError(f"{path}: game {len(games) + 1}: {game.errors[0]}")
        if not game.variations and dict(game.headers) == dict(chess.pgn.Headers()):
            # python-chess reads any text as games: one with no tag and no
            # move is prose or a stray line, not a game to review.
            raise PositionError(f"{path}: game {len(games) + 1}: no tag and no move: not a PGN game")
        games.append(_game(game, probe))
    if not games:
        raise PositionError(f"{path}: no games in it")
    return games


class _QuietBuilder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder, its errors kept on the game and not
    logged: the log's line ('illegal san: … while parsing <Game at 0x…>')
    came on standard error before al0's own one-line error."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def _game(game: chess.pgn.Game, probe: Probe | None) -> dict[str, Any]:
    board = game.board()
    return {
        "headers": dict(game.headers),
        "plies": [_ply(game, board, None, probe), *_line(game, board, probe)],
    }


def _line(parent: chess.pgn.GameNode, board: chess.Board, probe: Probe | None) -> list[dict[str, Any]]:
    """The plies of the main line below ``parent`` (at ``board``, left as
    it was), each with the other moves played at its place as variations."""
    plies = []
    node = parent
    board = board.copy()
    while node.variations:
        main, *others = node.variations
        ply = _ply(main, board, main.move, probe)
        for other in others:
            after = board.copy(stack=False)
            after.push(other.move)
            ply["variations"].append([_ply(other, board, other.move, probe), *_line(other, after, probe)])
        plies.append(ply)
        board.push(main.move)
        node = main
    return plies


def _ply(
    node: chess.pgn.GameNode, before: chess.Board, move: chess.Move | None, probe: Probe | None
) -> dict[str, Any]:
    """One ply: ``move`` played at ``before`` (None: the start, ``before``
    itself), reaching ``node``, and what its comment says."""
    board = before.copy(stack=False)
    if move is not None:
        board.push(move)
    grade = _grade(node)
    mate = _mate(node)
    if mate is None and probe is not None:
        mate = probe(board)
    return {
        "san": before.san(move) if move is not None else None,
        "uci": move.uci() if move is not None else None,
        "fen": board.fen(),
        "last": move.uci() if move is not None else None,
        "comment": _words(node.comment),
        "mate": mate,
        "grade": grade,
        "mark": MARKS.get(grade or "", ""),
        "arrows": [
            {"from": chess.square_name(a.tail), "to": chess.square_name(a.head), "color": a.color}
            for a in node.arrows()
            if a.tail != a.head
        ],
        "squares": [
            {"square": chess.square_name(a.tail), "color": a.color} for a in node.arrows() if a.tail == a.head
        ],
        "variations": [],
    }


def _grade(node: chess.pgn.GameNode) -> str | None:
    """The verdict of a move: practice's word in its comment, else its PGN mark."""
    word = _words(node.comment).split(":", 1)[0].strip().lower()
    if word in GRADES:
        return word
    return next((NAG_GRADES[nag] for nag in sorted(node.nags) if nag in NAG_GRADES), None)


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


def tablebase_probe(tablebases: Tablebases) -> Probe:
    """Moves to mate at a position from the tablebase of its material, where
    that tablebase is on disk already (a review never waits for a build):
    from White's side, None where there is none or it is a draw."""

    def probe(board: chess.Board) -> int | None:
        if chess.popcount(board.occupied) > MAX_MEN or board.pawns:
            return None
        found = tablebases.cached(Material.of(board, chess.WHITE))
        if found is None:
            return None
        try:
            result = found.result(board)
        except PositionError:
            return None
        if result.winner is None or result.moves is None:
            return None
        return result.moves if result.winner == chess.WHITE else -result.moves

    return probe
