"""An advice table as a UCI engine: the protocol's state machine, line by line.

:class:`UciEngine` answers one line of the Universal Chess Interface at a time
and returns the lines to send back; :func:`serve` feeds it a stream. Nothing
here reads standard input or prints (``al0 uci`` does), so the engine is
tested by calling it, and by python-chess's own UCI client through the CLI.

Like the play loop (:mod:`al0.engine.play`), the engine keeps the forcing tree of its
plan between moves of one game: when the GUI's position is the one our last
move left followed by a reply the tree covers, the next move comes from the
subtree; any other position gets a new plan. The table plays its material
and what our captures leave of it (KQKR goes on as KQK). Where the table
cannot play — a position of other material, the other side to move, no plan — the engine
says why in ``info string`` and still answers a legal move (the fallback):
the tablebase's best move when the table plays the position's material and
there is a tablebase for it, else the first legal move in UCI order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

import chess
from chess.polyglot import zobrist_hash

from al0.errors import AL0Error
from al0.integers import IntegerError, parse_int
from al0.lang.model import AdviceTable
from al0.engine.play import descend
from al0.engine.plan import Plan, Planner
from al0.board.fen import canonical_material, material_of, played_by
from al0.engine.tree import ForcingTree, principal_line
from al0.verify.verifier import load_tablebase

if TYPE_CHECKING:
    from al0.tablebase import Tablebase


MAX_BUDGET = 1_000_000_000
"""The largest node budget the Budget option takes: far beyond any table's need."""


@dataclass(frozen=True)
class Followed:
    """The plan being followed: the board our last move left, the subtree
    from there (their move next) and the plan it comes from."""
    after: chess.Board
    tree: ForcingTree
    plan: Plan


@dataclass(frozen=True)
class Choice:
    """The answer to ``go``: the ``info`` lines and the move (None: no legal move)."""
    info: tuple[str, ...]
    move: chess.Move | None


class UciEngine:
    """The UCI state of one engine process: the position the GUI set, the
    forcing tree being followed, a ``bestmove`` held back while the GUI
    lets it think without limit (``go infinite``, ``go ponder``)."""

    def __init__(self, table: AdviceTable, planner: Planner):
        self.table = table
        self.planner = planner
        self.board: chess.Board | None = chess.Board()
        self.position_error = ""
        """Why the last ``position`` command was refused ('' when it was not)."""
        self.followed: Followed | None = None
        self.held: str | None = None
        self.finished = False
        """True after ``quit``: the caller stops reading."""
        self._tablebase: Tablebase | None = None
        self._tablebase_looked_up = False

    # ------------------------------------------------------------ protocol

    def handle(self, line: str) -> list[str]:
        """The lines to send back for one line from the GUI.

        Unknown leading words are skipped, as the protocol asks; a line with
        no known command at all is answered by an ``info string`` only.
        """
        words = line.split()
        handlers: dict[str, Callable[[list[str]], list[str]]] = {
            "uci": self._uci, "isready": lambda _: ["readyok"],
            "ucinewgame": self._new_game, "position": self._position, "go": self._go,
            "stop": self._release, "ponderhit": self._release, "quit": self._quit,
            "setoption": self._set_option,
            # Accepted and ignored: we have no debug output and need no registration.
            "debug": lambda _: [], "register": lambda _: [],
        }
        for at, word in enumerate(words):
            if word in handlers:
                return handlers[word](words[at + 1:])
        return [f"info string ignored unknown command {line.strip()!r}"] if words else []

    def _uci(self, _: list[str]) -> list[str]:
        return [f"id name al0 {self.table.name}", "id author al0",
                f"option name Budget type spin default {self.planner.budget} min 1 "
                f"max {MAX_BUDGET}", "uciok"]

    def _set_option(self, args: list[str]) -> list[str]:
        """``setoption name Budget value N``: the node budget of one search.
        Other options are ignored, as the protocol asks."""
        text = " ".join(args)
        name, _, value = text.partition(" value ")
        if name.removeprefix("name ").strip().lower() != "budget":
            return []
        try:
            budget = parse_int(value, "Budget", minimum=1, maximum=MAX_BUDGET)
        except IntegerError as error:
            return [f"info string ignored setoption: {error}"]
        self.planner = Planner(self.table, budget)
        self.followed = None  # its plan came from the old planner
        return []

    def _new_game(self, _: list[str]) -> list[str]:
        self.followed = None
        return []

    def _quit(self, _: list[str]) -> list[str]:
        self.finished = True
        return []

    def _release(self, _: list[str]) -> list[str]:
        """``stop`` or ``ponderhit``: send the move held back, if any."""
        held, self.held = self.held, None
        return [held] if held else []

    def _position(self, args: list[str]) -> list[str]:
        """``position startpos|fen FEN [moves M…]``. A bad FEN or an illegal
        move refuses the whole command: ``go`` then answers no move."""
        try:
            self.board = parse_position(args)
            self.position_error = ""
            return []
        except ValueError as error:
            self.board = None
            self.position_error = str(error)
            return [f"info string position refused: {error}"]

    def _go(self, args: list[str]) -> list[str]:
        """Search (any time control is accepted: a plan takes milliseconds,
        bounded by the node budget). Under ``infinite`` or ``ponder`` the
        move waits for ``stop``/``ponderhit``."""
        choice = self.choose()
        best = f"bestmove {choice.move.uci() if choice.move else '(none)'}"
        if "infinite" in args or "ponder" in args:
            self.held = best
            return list(choice.info)
        self.held = None
        return [*choice.info, best]

    # ------------------------------------------------------------- playing

    def choose(self) -> Choice:
        """Our move at the current position, from the followed tree or a new
        plan, with the ``info`` lines that explain it; the fallback where the
        table cannot play."""
        board = self.board
        if board is None:
            return Choice((f"info string no valid position ({self.position_error})",), None)
        if not any(board.generate_legal_moves()):
            return Choice(("info string the game is over: no legal move",), None)
        if not played_by(board, self.table.material, self.table.us):
            return self._fallback(board, f"position is {material_of(board, self.table.us)}, "
                                         f"the table plays {canonical_material(self.table.material)}")
        if board.turn != self.table.us:
            side = "White" if self.table.us == chess.WHITE else "Black"
            return self._fallback(board, f"the table plays {side}, not the side to move")
        tree, plan, how = self._tree_at(board)
        if tree is None:
            try:
                plan = self.planner.plan(board)
            except AL0Error as error:  # a spent budget, a library that raised
                return self._fallback(board, " ".join(str(error).split()))
            if plan.tree is None:
                return self._fallback(board, f"no plan: {plan.describe_failure()}")
            tree, how = plan.tree, "new plan"
        assert plan is not None  # set with the tree, by _tree_at or the planner
        move = tree.branches[0][0]
        after = board.copy()
        after.push(move)
        subtree = descend(tree, move)
        self.followed = Followed(after, subtree, plan) if subtree is not None else None
        pv = " ".join(m.uci() for m in principal_line(tree))
        # Following the tree searches nothing: no nodes, no time.
        searched = how == "new plan"
        nodes, ms = (plan.nodes, round(plan.seconds * 1000)) if searched else (0, 0)
        return Choice((f"info depth {tree.height} nodes {nodes} time {ms} pv {pv}",
                       f"info string rule {plan.rule} advice {plan.advice} ({how})"), move)

    def _tree_at(self, board: chess.Board) -> tuple[ForcingTree | None, Plan | None, str]:
        """The subtree to follow at ``board``: when it is the position our last
        move left followed by a reply the tree covers. Compared by position,
        so a GUI that sends ``position fen`` without the moves is followed too."""
        followed, self.followed = self.followed, None
        if followed is None:
            return None, None, ""
        key = zobrist_hash(board)
        for reply, _ in followed.tree.branches:
            followed.after.push(reply)
            reached = zobrist_hash(followed.after) == key
            followed.after.pop()
            subtree = descend(followed.tree, reply)
            if reached and subtree is not None:
                return subtree, followed.plan, "following the tree"
        return None, None, ""

    def _fallback(self, board: chess.Board, why: str) -> Choice:
        self.followed = None
        move, source = None, "first legal move"
        table = self._tablebase_for(board)
        if table is not None:
            try:
                if board.turn == self.table.us:
                    best = table.best_moves(board)
                    move = best[0] if best else None
                else:
                    move = table.best_defence(board)
                source = "tablebase move"
            except AL0Error:
                move = None
        if move is None:
            move, source = min(board.legal_moves, key=chess.Move.uci), "first legal move"
        return Choice((f"info string {why}: playing the {source}",), move)

    def _tablebase_for(self, board: chess.Board) -> Tablebase | None:
        """The tablebase of the table's material when the table plays ``board``."""
        if not played_by(board, self.table.material, self.table.us):
            return None
        if not self._tablebase_looked_up:
            # Only the fallback needs it: looked up (or built) the first time.
            self._tablebase_looked_up = True
            self._tablebase = load_tablebase(self.table.material)
        return self._tablebase


def parse_position(args: list[str]) -> chess.Board:
    """The board of a ``position`` command's arguments.

    :raises ValueError: naming the bad FEN or the first illegal move.
    """
    if "moves" in args:
        at = args.index("moves")
        setup, moves = args[:at], args[at + 1:]
    else:
        setup, moves = args, []
    if setup == ["startpos"]:
        board = chess.Board()
    elif setup[:1] == ["fen"] and len(setup) > 1:
        fen = " ".join(setup[1:])
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise ValueError(f"bad FEN {fen!r}: {error}") from None
        if not board.is_valid():
            raise ValueError(f"illegal position {fen!r}")
    else:
        raise ValueError(f"expected 'startpos' or 'fen FEN', got {' '.join(setup)!r}")
    for text in moves:
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            raise ValueError(f"bad move {text!r} at {board.fen()}") from None
        if move not in board.legal_moves:
            raise ValueError(f"illegal move {text!r} at {board.fen()}")
        board.push(move)
    return board


def serve(engine: UciEngine, lines: Iterable[str], write: Callable[[str], None]) -> None:
    """Answer every line until ``quit`` or the end of the input."""
    for line in lines:
        for answer in engine.handle(line):
            write(answer)
        if engine.finished:
            return
