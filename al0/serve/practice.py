"""The API's practice games: an exercise started (at a FEN, a level's
position or the table's start), the student's move with its verdict and
explanation, a hint in the table's words, a move taken back, an exercise
left (counted in the progress record), and the record itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import chess

from al0.board import Material, check_playable
from al0.lang import Node
from al0.lang.vocabulary import area_squares, material_pieces, measured_on_box, split_call
from al0.serve.api import ApiError, Json, board_of, legal_move, optional_text, position_json, text
from al0.serve.sessions import Session, Sessions
from al0.serve.tables import Matches
from al0.teach import Practice, Turn, level_starts, parse_level

if TYPE_CHECKING:
    from al0.lang import AdviceTable
    from al0.teach import Verdict

MAX_LEVEL = 20
"""The longest level a request may name (``12..40`` is six characters)."""
GAME_OVER = "the game is over: retry or undo to take your move back"


class Coach:
    """The routes of practice games: each game a :class:`Session` of
    ``sessions``, played against its table's match in ``matches``."""

    def __init__(self, matches: Matches, sessions: Sessions):
        self.matches = matches
        self.sessions = sessions
        self.routes: dict[str, Callable[[Json], Json]] = {
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
            {"practice/start", "practice/move", "practice/hint", "practice/undo", "practice/retry"}
        )
        """The routes that search or read a tablebase: the server runs them
        off the threads that answer requests."""

    def _session(self, body: Json) -> tuple[str, Session]:
        key = text(body, "session", 64)
        return key, self.sessions.get(key)

    def start(self, body: Json) -> Json:
        """A practice game: at ``fen``, at a position of ``level`` (``A..B``
        moves to mate, ``seed``), or at the table's start."""
        served = self.matches.get(text(body, "table"))
        tablebase = self.matches.tablebase(served.material)
        level, fen = optional_text(body, "level", MAX_LEVEL), optional_text(body, "fen")
        if level is not None and fen is not None:
            raise ApiError(400, "give a fen or a level, not both")
        if level is not None:
            seed = body.get("seed", 0)
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ApiError(400, "'seed': a whole number is required")
            holds = served.planner is not None and served.planner.table.holds
            board = level_starts(tablebase, parse_level(level), 1, seed, served.us, holds)[0]
        else:
            fen = fen if fen is not None else served.start
            if fen is None:
                raise ApiError(400, f"{served.name} has no start position: give a fen or a level")
            board = board_of(fen)
        check_playable(board, served.material, served.us)
        with served.lock:
            game = Practice(tablebase, board, served.planner)
        session = Session(game, served)
        key = self.sessions.add(session)
        with session.lock:
            answer = _state(key, session)
        answer["opening_reply"] = game.opening_reply
        return answer

    def state(self, body: Json) -> Json:
        key, session = self._session(body)
        with session.lock:
            return _state(key, session)

    def move(self, body: Json) -> Json:
        """Play the student's move (UCI): its verdict, explanation and the
        defence's reply."""
        key, session = self._session(body)
        uci = text(body, "move", 10)
        with session.lock, session.served.lock:
            game = session.game
            if game.ending() is not None:
                raise ApiError(409, GAME_OVER)
            move = legal_move(game.board, uci)
            before = game.board.copy(stack=False)
            playing = game.planner  # the table that judges the move (a capture or promotion may hand it on)
            turn = game.play(move)
            table = playing.table if playing is not None else None
            handed = playing is not None and playing is not game.first
            return {"turn": _turn(turn, before, table, handed), "state": _state(key, session)}

    def hint(self, body: Json) -> Json:
        """What to play here, in the table's words."""
        _, session = self._session(body)
        with session.lock, session.served.lock:
            game = session.game
            if game.ending() is not None:
                raise ApiError(409, GAME_OVER)
            advice = game.hint()
            move = advice.move
            if move is None:
                return {
                    "move": None,
                    "words": "there is no forced mate here any more: retry (take back your move)",
                }
            san = game.board.san(move)
            match = session.served.match
            if advice.advice is None or match is None:
                why = "the table has no plan here" if match is not None else "there is no table"
                return {
                    "move": move.uci(),
                    "san": san,
                    "advice": None,
                    "words": f"play {san} (the tablebase's fastest move: {why})",
                }
            kept = "" if advice.new_plan else ", the plan being followed"
            assert game.planner is not None  # a plan comes from a table
            table = game.planner.table
            goal = table.describe_advice(advice.advice)
            handed = f"{table.name}: " if game.planner is not game.first else ""
            return {
                "move": move.uci(),
                "san": san,
                "advice": advice.advice,
                "table": table.name,
                "goal": goal,
                "words": f"play {san} — {handed}{goal}{kept}",
            }

    def undo(self, body: Json) -> Json:
        """Take back the student's last move and the reply (also after the end)."""
        key, session = self._session(body)
        with session.lock, session.served.lock:
            taken = session.game.undo()
            return {"taken_back": taken, "state": _state(key, session)}

    def leave(self, body: Json) -> Json:
        """The page leaves the exercise (a new one, the page closed): it is
        counted in the progress record as ``al0 practice`` counts one left,
        unless no move of it got a verdict."""
        _, session = self._session(body)
        return {"recorded": self.sessions.leave(session)}

    def progress(self, body: Json) -> Json:
        """The progress record, one line an ending."""
        return {"lines": self.sessions.progress()}


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


def _state(key: str, session: Session) -> Json:
    """The game of ``session`` as the page shows it."""
    game = session.game
    board = game.board
    moves = list(board.move_stack)
    start_moves = len(game.start.move_stack)
    end = game.ending()
    last = moves[-1].uci() if moves else None
    sans, positions = _replay(game.start, moves[start_moves:])
    return {
        "session": key,
        "table": session.served.name,
        **position_json(board),
        "us": chess.COLOR_NAMES[game.us],
        "start": game.start.fen(),
        "moves": sans,
        "positions": positions,
        "last": last,
        "over": end.detail if end is not None else None,
        "solved": game.solved(),
        "holds": game.holds,
        "optimal": game.optimal,
        "distance": game.distance(),
        "played": game.moves_played,
    }


def _turn(turn: Turn, before: chess.Board, table: AdviceTable | None, handed: bool) -> Json:
    """The student's turn as the page reads it; ``table`` judged the move
    (``handed``: not the game's first, a capture or a promotion handed the
    game to it)."""
    verdict = turn.verdict
    return {
        "san": turn.san,
        "table": table.name if table is not None else None,
        "handed_on": handed,
        "reply": turn.reply_san,
        "before": turn.before,
        "after": turn.after,
        "verdict": _verdict(verdict, before),
        "explanation": _explanation(verdict, before, turn.move, table),
    }


def _verdict(verdict: Verdict, before: chess.Board) -> Json:
    return {
        "grade": verdict.grade.value,
        "reason": verdict.reason,
        "before": verdict.before,
        "after": verdict.after,
        "best": [before.san(move) for move in verdict.best],
        "method": before.san(verdict.method) if verdict.method is not None else None,
    }


def _explanation(
    verdict: Verdict, before: chess.Board, move: chess.Move, table: AdviceTable | None
) -> Json | None:
    """The explanation of the move against the advice followed, with the
    squares of the features it reads that the board can show: the box of
    their king before and after the move (None with no table: no advice)."""
    explanation = verdict.explanation
    if explanation is None or table is None:
        return None
    after = before.copy(stack=False)
    after.push(move)
    boxed = any(measured_on_box(split_call(change.feature)[0]) for change in explanation.changes)
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
