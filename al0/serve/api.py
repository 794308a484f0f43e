"""The JSON API of ``al0 serve``: positions, legal moves, plans and practice
sessions, as plain dicts in and out, so the tests call it without a server.

Every answer comes from the library entries the CLI uses: the planner and
``report.render.plan_json`` for plans, :class:`~al0.teach.Practice` and
:mod:`al0.teach` for verdicts, explanations and hints. Only the tables the
server was given are read (:class:`Tables`); a request naming another file
is refused.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import chess
import chess.svg

from al0.board import Material, check_playable, parse_fen
from al0.bundled import bundled_tables
from al0.engine import DEFAULT_BUDGET, Planner, Tablebases
from al0.errors import AL0Error, SearchBudgetExceeded
from al0.lang import Node, load_table
from al0.lang.vocabulary import area_squares, material_pieces, split_call
from al0.report import plan_json
from al0.teach import Practice, Turn, add_attempt, level_starts, parse_level, read_record, record_lines

if TYPE_CHECKING:
    from al0.lang.model import AdviceTable
    from al0.tablebase import Tablebase
    from al0.teach import Verdict

Json = dict[str, Any]

MAX_SESSIONS = 64
"""Practice sessions kept; the oldest is dropped beyond (a page left open
for days does not keep every game it ever started)."""
MAX_FEN = 200
"""The longest FEN read: a position's is under 100 characters."""
BOX_FAMILIES = frozenset(
    {"area", "least_area", "area_corner_dist", "corner_triangle", "diagonal_area", "area_dist"}
)
"""The vocabulary's features measured on their king's box: a goal that
reads one gets the box drawn."""


class ApiError(AL0Error):
    """A request refused: its HTTP status and a one-line message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _text(body: Json, key: str, limit: int = MAX_FEN) -> str:
    """The string ``body[key]``; 400 when missing, not a string or too long."""
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"{key!r}: a non-empty string is required")
    if len(value) > limit:
        raise ApiError(400, f"{key!r}: longer than {limit} characters")
    return value.strip()


def board_of(fen: str) -> chess.Board:
    """The board of ``fen``; 400 naming the FEN when it is not a legal position."""
    try:
        return parse_fen(fen)
    except AL0Error as error:
        raise ApiError(400, str(error)) from None


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


class Tables:
    """The tables the server may read: the bundled ones by name, and the one
    named on the command line (its path, or its name when bundled). Each is
    loaded once, when first asked for."""

    def __init__(self, named: str | None = None):
        self.paths: dict[str, str] = {path.stem: path.stem for path in bundled_tables()}
        self.first: str | None = None
        if named is not None:
            key = Path(named).stem if ("/" in named or named.endswith((".yaml", ".yml"))) else named
            self.paths[key] = named
            self.first = key
        self._loaded: dict[str, AdviceTable] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        return sorted(self.paths)

    def get(self, name: str) -> AdviceTable:
        """The table called ``name``; 403 for any other name or path."""
        if name not in self.paths:
            raise ApiError(
                403, f"{name!r} is not a table this server serves (it serves {', '.join(self.names())})"
            )
        with self._lock:
            if name not in self._loaded:
                self._loaded[name] = load_table(self.paths[name])
            return self._loaded[name]


@dataclass
class Session:
    """One practice game of the page, with the lock its requests take in turn."""

    game: Practice
    table: AdviceTable
    lock: threading.Lock = field(default_factory=threading.Lock)
    left: bool = False
    """Counted in the progress record already (the page left it)."""


def _replay(start: chess.Board, moves: list[chess.Move]) -> tuple[list[str], list[Json]]:
    """The moves from ``start`` in SAN, and each position on the way (the
    start's first) with the move that led there: the page's move list."""
    board = start.copy(stack=False)
    sans: list[str] = []
    positions: list[Json] = [{"fen": board.fen(), "last": None}]
    for move in moves:
        sans.append(board.san(move))
        board.push(move)
        positions.append({"fen": board.fen(), "last": move.uci()})
    return sans, positions


class Api:
    """The endpoints, as methods of one object holding the server's state:
    its tables, their tablebases and the practice sessions (never module
    globals). ``budget``: the node budget of every search, ``al0 plan``'s."""

    def __init__(
        self,
        tables: Tables,
        budget: int = DEFAULT_BUDGET,
        positions: tuple[str, Sequence[chess.Board]] | None = None,
        games: tuple[str, list[Json]] | None = None,
        record: Path | None = None,
    ):
        self.tables = tables
        self.budget = budget
        self.positions = positions
        """An EPD file named on the command line (its name) and its
        positions, for the first table: exercises, or a verify --failures
        file to step through."""
        self.games = games
        self.record = record
        """The progress record an exercise left counts in (``al0 practice``'s;
        None: none kept)."""
        self._record_lock = threading.Lock()
        """A PGN file named on the command line (its name) and its games
        (:func:`al0.serve.review.read_games`), to review."""
        self.stop = threading.Event()
        """Set when the server stops: every search running ends at its next
        look at the clock, so Ctrl-C does not wait for one to finish."""
        self.tablebases = Tablebases()
        """Every tablebase practice needs, read (or built) once for the
        server's life: every session of the ending probes the same one."""
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self.routes: dict[str, Callable[[Json], Json]] = {
            "tables": self.list_tables,
            "table": self.table,
            "positions": self.list_positions,
            "games": self.list_games,
            "pieces": self.pieces,
            "position": self.position,
            "play": self.play,
            "plan": self.plan,
            "practice/start": self.start,
            "practice/move": self.move,
            "practice/hint": self.hint,
            "practice/undo": self.undo,
            "practice/retry": self.undo,
            "practice/state": self.state,
            "practice/leave": self.leave,
            "progress": self.progress,
        }
        self.searching = frozenset(
            {"plan", "practice/start", "practice/move", "practice/hint", "practice/undo", "practice/retry"}
        )
        """The routes that search or read a tablebase: the server runs them
        off the threads that answer requests."""

    def call(self, route: str, body: Json) -> Json:
        """The answer of ``route`` to ``body``; 404 for an unknown route, 400
        for input al0 refuses (a bad FEN, a position of another material),
        503 for a search that reached its bounds."""
        handler = self.routes.get(route)
        if handler is None:
            raise ApiError(404, f"no such endpoint: /api/{route}")
        try:
            return handler(body)
        except ApiError:
            raise
        except SearchBudgetExceeded as error:
            # A bound of al0 plan's reached (or the server stopping): not the request's fault.
            raise ApiError(503, " ".join(str(error).split())) from None
        except AL0Error as error:
            raise ApiError(400, " ".join(str(error).split())) from None

    # ------------------------------------------------------------ positions

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
        """A table's name, material, side and start position (None: it has none)."""
        table = self.tables.get(_text(body, "table"))
        return {
            "name": table.name,
            "material": table.material.name,
            "us": chess.COLOR_NAMES[table.us],
            "start": table.start_fen,
        }

    def pieces(self, body: Json) -> Json:
        """The pieces' pictures, python-chess's SVGs by FEN letter (so the
        page bundles no piece set of its own)."""
        return {symbol: chess.svg.piece(chess.Piece.from_symbol(symbol)) for symbol in "KQRBNPkqrbnp"}

    def play(self, body: Json) -> Json:
        """The position after a legal ``move`` (UCI) at ``fen``: the page
        explores a line without a chess rule of its own."""
        board = board_of(_text(body, "fen"))
        text = _text(body, "move", 10)
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            raise ApiError(400, f"{text!r} is not a move in UCI (e2e4)") from None
        if move not in board.legal_moves:
            raise ApiError(400, f"{text!r} is not legal in {board.fen()!r}")
        san = board.san(move)
        board.push(move)
        return {**position_json(board), "san": san, "last": move.uci()}

    def position(self, body: Json) -> Json:
        """A FEN checked (and, with a table, checked against its material)."""
        board = board_of(_text(body, "fen"))
        if isinstance(body.get("table"), str):
            table = self.tables.get(body["table"])
            check_playable(board, table.material, table.us)
        return position_json(board)

    def plan(self, body: Json) -> Json:
        """``al0 plan --json`` at the position, each tree node with its FEN."""
        table = self.tables.get(_text(body, "table"))
        board = board_of(_text(body, "fen")) if "fen" in body else None
        if board is None:
            if table.start_fen is None:
                raise ApiError(400, f"{table.name} has no start position: give a fen")
            board = board_of(table.start_fen)
        check_playable(board, table.material, table.us)
        if board.turn != table.us:
            raise ApiError(400, f"{board.fen()!r}: it is not the table's side to move")
        result = self.planner(table).plan(board)
        answer = plan_json(result, table)
        if answer["tree"] is not None:
            with_fens(answer["tree"], board.copy())
        answer["position"] = position_json(board)
        return answer

    def planner(self, table: AdviceTable) -> Planner:
        """A planner of ``table`` with ``al0 plan``'s bounds and the server's stop flag."""
        planner = Planner(table, self.budget)
        planner.limits = replace(planner.limits, stop=self.stop)
        return planner

    # ------------------------------------------------------------- practice

    def tablebase(self, material: Material) -> Tablebase:
        """The tablebase of ``material`` (:attr:`tablebases`' one)."""
        found = self.tablebases.get(material)
        if found is None:
            raise ApiError(400, f"practice needs a tablebase, and there is none for {material}")
        return found

    def _session(self, body: Json) -> Session:
        key = _text(body, "session", 64)
        with self._lock:
            session = self._sessions.get(key)
        if session is None:
            raise ApiError(404, "no such practice session (it may have been dropped): start a new one")
        return session

    def start(self, body: Json) -> Json:
        """A practice game: at ``fen``, at a position of ``level`` (``A..B``
        moves to mate, ``seed``), or at the table's start."""
        table = self.tables.get(_text(body, "table"))
        tablebase = self.tablebase(table.material)
        if isinstance(body.get("level"), str):
            seed = body.get("seed", 0)
            if not isinstance(seed, int):
                raise ApiError(400, "'seed': a whole number is required")
            board = level_starts(tablebase, parse_level(body["level"][:20]), 1, seed, table.us)[0]
        else:
            fen = _text(body, "fen") if "fen" in body else table.start_fen
            if fen is None:
                raise ApiError(400, f"{table.name} has no start position: give a fen")
            board = board_of(fen)
        check_playable(board, table.material, table.us)
        game = Practice(tablebase, board, self.planner(table))
        key = secrets.token_urlsafe(12)
        with self._lock:
            self._sessions[key] = Session(game, table)
            while len(self._sessions) > MAX_SESSIONS:
                self._sessions.popitem(last=False)
        answer = self._state(key, self._sessions[key])
        answer["opening_reply"] = game.opening_reply
        return answer

    def state(self, body: Json) -> Json:
        key = _text(body, "session", 64)
        session = self._session(body)
        with session.lock:
            return self._state(key, session)

    def _state(self, key: str, session: Session) -> Json:
        game = session.game
        board = game.board
        moves = list(board.move_stack)
        start_moves = len(game.start.move_stack)
        end = game.ending()
        last = moves[-1].uci() if moves else None
        sans, positions = _replay(game.start, moves[start_moves:])
        return {
            "session": key,
            "table": session.table.name,
            **position_json(board),
            "us": chess.COLOR_NAMES[game.us],
            "start": game.start.fen(),
            "moves": sans,
            "positions": positions,
            "last": last,
            "over": end.detail if end is not None else None,
            "solved": game.solved(),
            "optimal": game.optimal,
            "distance": game.distance(),
            "played": game.moves_played,
        }

    def move(self, body: Json) -> Json:
        """Play the student's move (UCI): its verdict, explanation and the
        defence's reply."""
        session = self._session(body)
        text = _text(body, "move", 10)
        with session.lock:
            game = session.game
            if game.ending() is not None:
                raise ApiError(409, "the game is over: retry or undo to take your move back")
            try:
                move = chess.Move.from_uci(text)
            except ValueError:
                raise ApiError(400, f"{text!r} is not a move in UCI (e2e4)") from None
            if move not in game.board.legal_moves:
                raise ApiError(400, f"{text!r} is not legal in {game.board.fen()!r}")
            before = game.board.copy(stack=False)
            turn = game.play(move)
            return {
                "turn": self._turn(turn, before, session.table),
                "state": self._state(body["session"].strip(), session),
            }

    def _turn(self, turn: Turn, before: chess.Board, table: AdviceTable) -> Json:
        verdict = turn.verdict
        return {
            "san": turn.san,
            "reply": turn.reply_san,
            "before": turn.before,
            "after": turn.after,
            "verdict": _verdict(verdict, before),
            "explanation": _explanation(verdict, before, turn.move, table),
        }

    def hint(self, body: Json) -> Json:
        """What to play here, in the table's words."""
        session = self._session(body)
        with session.lock:
            game = session.game
            if game.ending() is not None:
                raise ApiError(409, "the game is over: retry or undo to take your move back")
            advice = game.hint()
            move = advice.move
            if move is None:
                return {
                    "move": None,
                    "words": "there is no forced mate here any more: retry (take back your move)",
                }
            san = game.board.san(move)
            if advice.advice is None:
                return {
                    "move": move.uci(),
                    "san": san,
                    "advice": None,
                    "words": f"play {san} (the tablebase's fastest move: the table has no plan here)",
                }
            kept = "" if advice.new_plan else ", the plan being followed"
            goal = session.table.describe_advice(advice.advice)
            return {
                "move": move.uci(),
                "san": san,
                "advice": advice.advice,
                "goal": goal,
                "words": f"play {san} — {goal}{kept}",
            }

    def leave(self, body: Json) -> Json:
        """The page leaves the exercise (a new one, the page closed): it is
        counted in the progress record as ``al0 practice`` counts one left,
        unless no move of it got a verdict."""
        session = self._session(body)
        with session.lock:
            game = session.game
            counted = not session.left and self.record is not None and sum(game.given.values()) > 0
            session.left = True
            if counted and self.record is not None:
                with self._record_lock:  # one read-and-write of the file at a time
                    add_attempt(self.record, game.attempt(session.table.material.name))
        return {"recorded": counted}

    def progress(self, body: Json) -> Json:
        """The progress record, one line an ending."""
        if self.record is None:
            return {"lines": ["no progress record is kept by this server"]}
        with self._record_lock:
            return {"lines": record_lines(read_record(self.record))}

    def undo(self, body: Json) -> Json:
        """Take back the student's last move and the reply (also after the end)."""
        session = self._session(body)
        with session.lock:
            taken = session.game.undo()
            return {"taken_back": taken, "state": self._state(body["session"].strip(), session)}


def _verdict(verdict: Verdict, before: chess.Board) -> Json:
    return {
        "grade": verdict.grade.value,
        "reason": verdict.reason,
        "before": verdict.before,
        "after": verdict.after,
        "best": [before.san(move) for move in verdict.best],
        "method": before.san(verdict.method) if verdict.method is not None else None,
    }


def _explanation(verdict: Verdict, before: chess.Board, move: chess.Move, table: AdviceTable) -> Json | None:
    """The explanation of the move against the advice followed, with the
    squares of the features it reads that the board can show: the box of
    their king before and after the move."""
    explanation = verdict.explanation
    if explanation is None:
        return None
    after = before.copy(stack=False)
    after.push(move)
    boxed = any(split_call(change.feature)[0] in BOX_FAMILIES for change in explanation.changes)
    squares: Json = {}
    if boxed:
        region = area_squares(material_pieces(Material.of(before, table.us))["k"])
        squares = {
            "before": [chess.square_name(s) for s in chess.SquareSet(region(Node(before, 0, table.us)))],
            "after": [chess.square_name(s) for s in chess.SquareSet(region(Node(after, 1, table.us)))],
        }
    return {
        "advice": explanation.advice,
        "goal": explanation.goal,
        "because": explanation.because(),
        "said": explanation.progress_words(every=True),
        "met": explanation.met,
        "changes": [
            {
                "feature": change.feature,
                "words": change.words,
                "before": change.before,
                "after": change.after,
                "progress": change.progress,
            }
            for change in explanation.changes
        ],
        "parts": [{"words": part.words, "holds": part.holds} for part in explanation.parts if part.words],
        "squares": squares,
    }
