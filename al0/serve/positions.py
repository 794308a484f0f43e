"""The API's tables, positions and plans: what a table is, a position's
legal moves, a move played (the page knows no chess rule of its own), the
plan at a position (``al0 plan --json`` with the position at each node of
its tree), and the EPD positions and PGN games named on the command line."""

from __future__ import annotations

from typing import Callable, Sequence

import chess
import chess.svg

from al0.board import check_not_over, check_playable
from al0.report import plan_json
from al0.serve.api import ApiError, Json, board_of, legal_move, optional_text, position_json, text
from al0.serve.tables import Matches, Tables


def with_fens(tree: Json, board: chess.Board) -> Json:
    """``report.render.tree_json``'s tree with the FEN at each node, so the
    page shows a reply's position without knowing chess. ``board`` is left
    as it was."""
    tree["fen"] = board.fen()
    for branch in tree["moves"]:
        board.push(chess.Move.from_uci(branch["uci"]))
        with_fens(branch["tree"], board)
        board.pop()
    return tree


class Positions:
    """The routes of tables, positions and plans. ``positions``: an EPD
    file named on the command line (its name) and its positions, for the
    first table (exercises, or a verify --failures file to step through);
    ``games``: a PGN file's name and its games
    (:func:`al0.serve.review.read_games`), to review."""

    def __init__(
        self,
        tables: Tables,
        matches: Matches,
        positions: tuple[str, Sequence[chess.Board]] | None = None,
        games: tuple[str, list[Json]] | None = None,
    ):
        self.tables = tables
        self.matches = matches
        self.positions = positions
        self.games = games
        self.routes: dict[str, Callable[[Json], Json]] = {
            "tables": self.list_tables,
            "table": self.table,
            "positions": self.list_positions,
            "games": self.list_games,
            "pieces": self.pieces,
            "position": self.position,
            "play": self.play,
            "plan": self.plan,
        }
        self.searching = frozenset({"plan"})
        """The routes that search: the server runs them off the threads
        that answer requests."""

    def list_tables(self, body: Json) -> Json:
        """The tables served, the one named on the command line first."""
        return {"first": self.tables.first, "tables": self.tables.names()}

    def list_positions(self, body: Json) -> Json:
        """The EPD file's positions (none when no file was named)."""
        if self.positions is None:
            return {"name": None, "table": None, "fens": []}
        name, boards = self.positions
        return {"name": name, "table": self.tables.first, "fens": [board.fen() for board in boards]}

    def list_games(self, body: Json) -> Json:
        """The PGN file's games (none when no file was named)."""
        name, games = self.games if self.games is not None else (None, [])
        return {"name": name, "games": games}

    def table(self, body: Json) -> Json:
        """A table's name, material, side and start position (None: it has
        none, or there is no table: a material practised from the tablebase
        alone)."""
        served = self.matches.get(text(body, "table"))
        return {
            "name": served.name,
            "material": served.material.name,
            "us": chess.COLOR_NAMES[served.us],
            "start": served.start,
        }

    def pieces(self, body: Json) -> Json:
        """The pieces' pictures, python-chess's SVGs by FEN letter (so the
        page bundles no piece set of its own)."""
        return {symbol: chess.svg.piece(chess.Piece.from_symbol(symbol)) for symbol in "KQRBNPkqrbnp"}

    def play(self, body: Json) -> Json:
        """The position after a legal ``move`` (UCI) at ``fen``: the page
        explores a line without a chess rule of its own."""
        board = board_of(text(body, "fen"))
        move = legal_move(board, text(body, "move", 10))
        san = board.san(move)
        board.push(move)
        return {**position_json(board), "san": san, "last": move.uci()}

    def position(self, body: Json) -> Json:
        """A FEN checked (and, with a table, checked against its material)."""
        board = board_of(text(body, "fen"))
        table = optional_text(body, "table")
        if table is not None:
            served = self.matches.get(table)
            check_playable(board, served.material, served.us)
        return position_json(board)

    def plan(self, body: Json) -> Json:
        """``al0 plan --json`` at the position, each tree node with its FEN:
        the table's match plans it (its memo serves every request)."""
        served = self.matches.get(text(body, "table"))
        if served.match is None:
            raise ApiError(
                400, f"{served.name} has no table, so no plan: practise it (the tablebase advises)"
            )
        table = served.match.table
        fen = optional_text(body, "fen")
        board = board_of(fen) if fen is not None else None
        if board is None:
            if table.start_fen is None:
                raise ApiError(400, f"{table.name} has no start position: give a fen")
            board = board_of(table.start_fen)
        check_playable(board, table.material, table.us)
        if board.turn != table.us:
            raise ApiError(400, f"{board.fen()!r}: it is not the table's side to move")
        check_not_over(board)  # as al0 plan refuses it: no plan is played from there
        with served.lock:
            result = served.match.planner.plan(board)
        answer = plan_json(result, table)
        if answer["tree"] is not None:
            with_fens(answer["tree"], board.copy())
        answer["position"] = position_json(board)
        return answer
