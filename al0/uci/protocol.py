"""The UCI state machine, one line of the protocol at a time
(:class:`UciEngine`), and :func:`serve` to feed it a stream."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

import chess
from chess.polyglot import zobrist_hash

from al0.board import canonical_material, material_of, played_by
from al0.bundled import TABLES_DIR
from al0.engine import (
    DEFAULT_BUDGET,
    ForcingTree,
    Match,
    Plan,
    SearchLimits,
    Tablebases,
    descend,
    principal_line,
)
from al0.errors import AL0Error, PositionError, SearchBudgetExceeded
from al0.games import PROOF_BUDGET
from al0.integers import IntegerError, parse_int
from al0.lang import AdviceTable
from al0.uci.go import Go, Search, Send, parse_go
from al0.uci.handshake import AUTO, MAX_BUDGET, identify
from al0.uci.rescue import rescue_move, why_not
from al0.uci.scores import move_score, playable, proof_line, table_score, tablebase_score
from al0.uci.short_search import ShortSearch, material_balance

if TYPE_CHECKING:
    from al0.tablebase import Tablebase

SHORT_DEPTH = 3
"""Plies of the short search when ``go`` sets no limit: a fraction of a
second in Python (e.g. 659 positions from the start position)."""
MAX_DEPTH = 64
"""Plies the short search deepens to at most while the clock allows."""


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


LONGEST_LINE = 1000
"""Most characters of a line al0 sends: an ``info string`` that quotes what
the GUI sent (a 5 MB FEN, quoted twice in python-chess's error) is cut to
this, with its full length, so a GUI never gets 10 MB in one line."""


def bounded(line: str) -> str:
    """``line`` cut to :data:`LONGEST_LINE` characters, saying so."""
    if len(line) <= LONGEST_LINE:
        return line
    return f"{line[: LONGEST_LINE - 40]}… (cut from {len(line):,} characters)"


@dataclass(frozen=True)
class Followed:
    """The plan being followed: the board our last move left, the subtree
    from there (their move next) and the plan it comes from."""

    after: chess.Board
    tree: ForcingTree
    plan: Plan


class UciEngine:
    """The UCI state of one engine process: the table (given, or
    :data:`AUTO`), the position the GUI set, the forcing tree being followed,
    the current :class:`Search`.

    ``send`` is called with each line to send, from the reader's thread or a
    worker's, never from two at once.
    """

    def __init__(
        self,
        send: Send,
        table: AdviceTable | None = None,
        budget: int = DEFAULT_BUDGET,
        table_spec: str = AUTO,
        rescue: bool = True,
    ):
        lock = threading.Lock()

        def locked_send(line: str) -> None:
            with lock:
                send(bounded(line))

        self._send = locked_send
        self.budget = budget
        self.table_spec = table_spec
        self.rescue = rescue
        """Whether the tablebase's move replaces the table's where that
        would repeat a position or throw a won game away (:mod:`al0.uci.rescue`)."""
        self.tablebases = Tablebases(lambda message: self._send(f"info string {message}"))
        """Every tablebase a table's positions need, loaded (or built) once:
        a build's progress goes to the GUI as ``info string``, which would
        otherwise wait in silence, 5 to 40 s for a four-man ending."""
        self.fixed: Match | None = None if table is None else Match(table, budget, self.tablebases)
        """The match of the table given, None to take the bundled one of
        each position's material."""
        self._auto: dict[str, Match | None] = {}
        """The bundled table's match by material (None: no such table)."""
        self.board: chess.Board | None = chess.Board()
        self.position_error = ""
        """Why the last ``position`` command was refused ('' when it was not)."""
        self.followed: Followed | None = None
        self.search: Search | None = None
        self.finished = False
        """True after ``quit``: the caller stops reading."""

    # ------------------------------------------------------------ protocol

    def handle(self, line: str) -> None:
        """Answer one line from the GUI.

        Unknown leading words are skipped, as the protocol asks; a line with
        no known command at all is answered by an ``info string`` only.
        """
        words = line.split()
        handlers: dict[str, Callable[[list[str]], None]] = {
            "uci": self._uci,
            "isready": self._is_ready,
            "ucinewgame": self._new_game,
            "position": self._position,
            "go": self._go,
            "stop": self._stop,
            "ponderhit": self._ponderhit,
            "quit": self._quit,
            "setoption": self._set_option,
            # Accepted and ignored: we have no debug output and need no registration.
            "debug": lambda _: None,
            "register": lambda _: None,
        }
        for at, word in enumerate(words):
            if word in handlers:
                handlers[word](words[at + 1 :])
                return
        if words:
            self._send(f"info string ignored unknown command {line.strip()!r}")

    def close(self) -> None:
        """The input has ended: a search still thinking ends and answers."""
        self._settle()

    def _uci(self, _: list[str]) -> None:
        for line in identify(self.budget, self.table_spec, self.rescue):
            self._send(line)

    def _is_ready(self, _: list[str]) -> None:
        """``readyok``, at once while we think; else once the table given
        (or with ``Table auto``, the one that plays the position) has its
        tablebase loaded (or built, its progress said), as the protocol
        allows: a GUI sends ``isready`` to wait for that, and a first ``go``
        on a short clock then has the time to think instead of loading (it
        would else answer with a stopgap move)."""
        if self.search is None:
            self._prepare()
        self._send("readyok")

    def _prepare(self) -> None:
        """Load the table and the tablebase a ``go`` at the position set
        will need, unless loaded: at ``isready``, and at ``position`` too,
        since a GUI (python-chess) sends ``ucinewgame`` and ``isready``
        before the new game's first position, whose material may be a new
        one, and a match runner's clock starts at ``go``."""
        board = self.board
        try:
            match = self.fixed if self.fixed is not None or board is None else self._match_for(board)
            if match is not None:
                match.tablebase  # loaded (or built) now, not on the clock of a go
        except Exception as error:  # the worker meets it again, and says so
            self._send(f"info string could not load: {one_line(error)}")

    def _set_option(self, args: list[str]) -> None:
        """``setoption name Budget value N`` (the node budget of one
        search), ``setoption name Table value T`` (a table file or bundled
        name, or ``auto``), ``setoption name TablebaseRescue value
        true|false``. Other options are ignored, as the protocol asks."""
        self._settle()
        at = args.index("value") if "value" in args else len(args)
        named = args[1:at] if args[:1] == ["name"] else args[:at]
        name, value = " ".join(named).lower(), " ".join(args[at + 1 :])
        if name == "budget":
            try:
                self.budget = parse_int(value, "Budget", minimum=1, maximum=MAX_BUDGET)
            except IntegerError as error:
                self._send(f"info string ignored setoption: {error}")
                return
            if self.fixed is not None:
                self.fixed = self.fixed.with_budget(self.budget)
            self._auto.clear()
        elif name == "tablebaserescue":
            if value.lower() not in ("true", "false"):
                self._send(f"info string ignored setoption: TablebaseRescue is true or false, not {value!r}")
                return
            self.rescue = value.lower() == "true"
            return
        elif name == "table":
            if value in ("", AUTO):
                self.fixed, self.table_spec = None, AUTO
            else:
                try:
                    self.fixed = Match.load(value, self.budget, self.tablebases)
                except AL0Error as error:
                    self._send(f"info string ignored Table {value!r}: {one_line(error)}")
                    return
                self.table_spec = value
        else:
            return
        self.followed = None  # its plan came from the old planner

    def _new_game(self, _: list[str]) -> None:
        self._settle()
        self.followed = None

    def _quit(self, _: list[str]) -> None:
        if self.search is not None:
            self.search.halt()
        self.finished = True

    def _stop(self, _: list[str]) -> None:
        if self.search is not None:
            self.search.halt()

    def _ponderhit(self, _: list[str]) -> None:
        if self.search is not None:
            self.search.ponderhit()

    def _settle(self) -> None:
        """Let the last search end before the state it reads changes: a held
        one is stopped (its move goes out), another is waited for (a GUI
        sends nothing but ``isready``, ``stop`` and ``ponderhit`` while we
        think; a script piping its commands may)."""
        search, self.search = self.search, None
        if search is None:
            return
        if search.held:
            search.halt()
        search.wait()

    def _position(self, args: list[str]) -> None:
        """``position startpos|fen FEN [moves M…]``. A bad FEN or an illegal
        move refuses the whole command: ``go`` then answers no move."""
        self._settle()
        try:
            self.board = parse_position(args)
            self.position_error = ""
        except ValueError as error:
            self.board = None
            self.position_error = str(error)
            self._send(f"info string position refused: {error}")
            return
        self._prepare()

    def _go(self, args: list[str]) -> None:
        """Start thinking in a worker; the ``bestmove`` comes from it, or
        from ``stop`` or the clock."""
        self._settle()
        board = self.board
        go, notes = parse_go(args, board.turn if board is not None else chess.WHITE)
        for note in notes:
            self._send(note)
        if board is None or not any(board.generate_legal_moves()):
            why = (
                "the game is over: no legal move"
                if board is not None
                else f"no valid position ({self.position_error})"
            )
            self._send(f"info string {why}")
            self._send("bestmove (none)")
            return
        # Until the worker knows better: a legal move, the first in UCI order.
        search = Search(self._send, go.held, min(board.legal_moves, key=chess.Move.uci))
        search.worker = threading.Thread(
            target=self._think, args=(search, board.copy(), go), name="al0-search", daemon=True
        )
        if go.seconds is not None:
            search.clock = threading.Timer(go.seconds, search.expire)
            search.clock.daemon = True
            search.clock.start()
        self.search = search
        search.worker.start()

    # ------------------------------------------------------------- thinking

    def _think(self, search: Search, board: chess.Board, go: Go) -> None:
        """The worker: choose a move and hand it to ``search``."""
        move = None
        try:
            move = self._choose(search, board, go)
        except Exception as error:  # the GUI waits for a bestmove whatever happens
            search.say(f"info string the search failed: {one_line(error)}")
        finally:
            if search.clock is not None:
                search.clock.cancel()
            search.finish(move)

    def _choose(self, search: Search, board: chess.Board, go: Go) -> chess.Move | None:
        """Our move at ``board``, its ``info`` lines said: a mate the mate
        search finds (``go mate N``), else the table's (or the tablebase's,
        where the table has none in time or its move would draw), else the
        short search's. Before any search, the move a cut search plays."""
        match = self._match_for(board)
        # No tablebase knows castling rights (a rook and king on their squares).
        tablebase = None if match is None or board.castling_rights else match.tablebase
        self._floor(search, board, tablebase)
        if go.mate is not None:
            move = self._mate_search(search, board, go.mate, go.nodes)
            if move is not None:
                return move
        if match is None:
            self.followed = None
            outside = (
                "no bundled table plays this position"
                if self.fixed is None
                else f"not a {canonical_material(self.fixed.table.material)} position"
            )
            return self._short_search(search, board, go, outside)
        table, planner = match.table, match.planner
        if board.turn != table.us:
            side = "White" if table.us == chess.WHITE else "Black"
            return self._fallback(
                search, board, go, tablebase, f"the table plays {side}, not the side to move"
            )
        tree, plan, how = self._tree_at(board)
        # Following the tree searches nothing: no nodes, no time.
        nodes, ms = 0, 0
        if tree is None:
            limits = SearchLimits(min(self.budget, go.nodes or self.budget), stop=search.stop)
            searches = len(planner.search_seconds)
            started = time.perf_counter()
            try:
                plan = planner.plan(board, limits)
            except AL0Error as error:  # a spent budget, a stop, a library that raised
                return self._fallback(search, board, go, tablebase, one_line(error))
            if plan.tree is None:
                return self._fallback(search, board, go, tablebase, f"no plan: {plan.describe_failure()}")
            tree = plan.tree
            # A plan the planner remembers (this position, or its mirror
            # image, planned before, in this game or an earlier one) was
            # not searched now: its own figures are another search's.
            if len(planner.search_seconds) > searches:
                how, nodes, ms = "new plan", plan.nodes, round((time.perf_counter() - started) * 1000)
            else:
                how = "plan from memory: no search"
        assert plan is not None  # set with the tree, by _tree_at or the planner
        move = tree.branches[0][0]
        said = f"rule {plan.rule} advice {plan.advice} ({how})"
        if tablebase is not None and self.rescue:
            try:
                why = why_not(tablebase, board, move)
            except PositionError:  # material the tablebase does not cover
                why = None
            if why is not None:
                return self._fallback(search, board, go, tablebase, f"{said}: its move {move.uci()} {why}")
        after = board.copy()
        after.push(move)
        subtree = descend(tree, move)
        self.followed = Followed(after, subtree, plan) if subtree is not None else None
        score, source = table_score(board, tree, tablebase)
        pv = " ".join(m.uci() for m in principal_line(tree))
        # The advice in the table's own words, where it has them, for a GUI's
        # engine output (the identifiers are for the table's author); on the
        # same line, since a client keeps one string a move, and with a
        # folded description's line ends taken out, which would end the line.
        advice = table.advice.get(plan.advice) if plan.advice is not None else None
        words = " ".join(advice.description.split()) if advice is not None else ""
        search.improve(
            move,
            f"info depth {tree.height} score {score} nodes {nodes} time {ms} pv {pv}",
            f"info string {said}; score from {source}" + (f" — {words}" if words else ""),
        )
        return move

    def _floor(self, search: Search, board: chess.Board, tablebase: Tablebase | None) -> None:
        """The move ``stop`` or the clock plays until a search has one: the
        tablebase's, else the first legal move in UCI order (a short
        search's position, where its first depth comes in milliseconds)."""
        if tablebase is not None:
            try:
                move, lines = tablebase_answer(tablebase, board, "cut before the plan was made")
            except PositionError:  # material the tablebase does not cover
                pass
            else:
                search.floor(move, *lines)
                return
        move = min(board.legal_moves, key=chess.Move.uci)
        search.floor(
            move,
            f"info depth 0 score cp {material_balance(board, board.turn)} pv {move.uci()}",
            "info string cut before a search ended: playing the first legal move",
        )

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

    def _fallback(
        self, search: Search, board: chess.Board, go: Go, tablebase: Tablebase | None, why: str
    ) -> chess.Move | None:
        """Where the table cannot play its own material: the tablebase's
        move, else the short search's."""
        self.followed = None
        if tablebase is None:
            return self._short_search(search, board, go, why)
        move, lines = tablebase_answer(tablebase, board, why)
        search.improve(move, *lines)
        return move

    def _short_search(self, search: Search, board: chess.Board, go: Go, why: str) -> chess.Move | None:
        """The short search's move, each depth's line said as it is found."""
        search.say(f"info string {why}: playing a short search")
        limited = go.held or go.seconds is not None or go.nodes is not None
        depth = go.depth or (MAX_DEPTH if limited else SHORT_DEPTH)
        searcher = ShortSearch(board, go.nodes, search.stop, self.tablebases)
        started = time.perf_counter()
        move = None
        try:
            for line in searcher.deepen(depth):
                score = f"mate {line.mate}" if line.mate is not None else f"cp {line.centipawns}"
                ms = round((time.perf_counter() - started) * 1000)
                pv = " ".join(m.uci() for m in playable(board, line.pv))
                if line.pv:
                    move = line.pv[0]
                    search.improve(
                        move, f"info depth {line.depth} score {score} nodes {line.nodes} time {ms} pv {pv}"
                    )
        except SearchBudgetExceeded as error:
            search.say(f"info string short search ended: {one_line(error)}")
        return move

    def _mate_search(
        self, search: Search, board: chess.Board, moves: int, nodes: int | None
    ) -> chess.Move | None:
        """``go mate N``: the first move of a mate in ``moves``, if one is found."""
        searcher = ShortSearch(board, PROOF_BUDGET if nodes is None else nodes, search.stop, self.tablebases)
        try:
            proof = searcher.prove_mate(moves)
        except SearchBudgetExceeded as error:
            search.say(f"info string no mate in {moves} found: {one_line(error)}")
            return None
        if proof is None:
            search.say(f"info string there is no mate in {moves}")
            return None
        self.followed = None
        move = proof.branches[0][0]
        pv = " ".join(m.uci() for m in proof_line(proof))
        search.improve(
            move,
            f"info depth {2 * proof.moves - 1} score mate {proof.moves} nodes {searcher.game.nodes} pv {pv}",
            f"info string mate in {proof.moves} found by the mate search",
        )
        return move

    def _match_for(self, board: chess.Board) -> Match | None:
        """The match of the table that plays ``board``'s material: the one
        given, else the bundled table named by the side to move's material."""
        if self.fixed is not None:
            table = self.fixed.table
            return self.fixed if played_by(board, table.material, table.us) else None
        material = material_of(board, board.turn)
        if material not in self._auto:
            self._auto[material] = None
            path = TABLES_DIR / f"{material.lower()}.yaml"
            if path.is_file():
                match = Match.load(path, self.budget, self.tablebases)
                table = match.table
                if table.us == board.turn and played_by(board, table.material, table.us):
                    self._auto[material] = match
        return self._auto[material]


def tablebase_answer(
    tablebase: Tablebase, board: chess.Board, why: str
) -> tuple[chess.Move, tuple[str, str]]:
    """The tablebase's move (:func:`~al0.uci.rescue.rescue_move`) and its
    ``info`` lines: its score, and ``why`` it is played.

    :raises PositionError: where the tablebase does not cover ``board``.
    """
    move = rescue_move(tablebase, board)
    score, best = move_score(tablebase, board, move), tablebase_score(tablebase, board)
    note = "" if score == best else f" (its quickest, {best}, would repeat a position)"
    return move, (
        f"info depth 1 score {score} pv {move.uci()}",
        f"info string {why}: playing the tablebase move{note}",
    )


def parse_position(args: list[str]) -> chess.Board:
    """The board of a ``position`` command's arguments.

    :raises ValueError: naming the bad FEN or the first illegal move.
    """
    if "moves" in args:
        at = args.index("moves")
        setup, moves = args[:at], args[at + 1 :]
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


def serve(engine: UciEngine, lines: Iterable[str]) -> None:
    """Answer every line until ``quit``, or the end of the input (where a
    search still thinking is let finish, or stopped if held)."""
    for line in lines:
        engine.handle(line)
        if engine.finished:
            return
    engine.close()
