"""The UCI state machine, one line of the protocol at a time
(:class:`UciEngine`), and :func:`serve` to feed it a stream."""

from __future__ import annotations

import threading
from typing import Callable, Iterable

import chess

from al0.board import parse_fen
from al0.engine import DEFAULT_BUDGET, Match, Tablebases
from al0.errors import AL0Error, one_line
from al0.integers import IntegerError, parse_int
from al0.lang import AdviceTable
from al0.uci.choice import MoveChoice
from al0.uci.go import Go, Search, Send, parse_go
from al0.uci.handshake import AUTO, MAX_BUDGET, identify

LONGEST_LINE = 1000
"""Most characters of a line al0 sends: an ``info string`` that quotes what
the GUI sent (a 5 MB FEN, quoted twice in python-chess's error) is cut to
this, with its full length, so a GUI never gets 10 MB in one line."""


def bounded(line: str) -> str:
    """``line`` cut to :data:`LONGEST_LINE` characters, saying so."""
    if len(line) <= LONGEST_LINE:
        return line
    return f"{line[: LONGEST_LINE - 40]}… (cut from {len(line):,} characters)"


class UciEngine:
    """The UCI state of one engine process: the table's name (given, or
    :data:`AUTO`), the position the GUI set, the current :class:`Search`,
    and the move's choice (:class:`~al0.uci.choice.MoveChoice`), which the
    worker of each ``go`` runs.

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
        self.table_spec = table_spec
        # Every tablebase a table's positions need, loaded (or built) once:
        # a build's progress goes to the GUI as ``info string``, which would
        # otherwise wait in silence: a second or two for a four-man ending
        # on the native core, 6 to 10 s on the Python twin.
        tablebases = Tablebases(lambda message: self._send(f"info string {message}"))
        self.choice = MoveChoice(
            tablebases, None if table is None else Match(table, budget, tablebases), budget, rescue
        )
        """How the move is chosen, and what it is chosen with (the table,
        the budget, the rescue, the tree followed)."""
        self.board: chess.Board | None = chess.Board()
        self.position_error = ""
        """Why the last ``position`` command was refused ('' when it was not)."""
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
                try:
                    handlers[word](words[at + 1 :])
                except Exception as error:  # one line never ends the engine the GUI talks to
                    self._send(f"info string could not handle {word!r}: {one_line(error)}")
                    if word == "go" and self.search is None:
                        self._send("bestmove (none)")  # the GUI waits for one
                return
        if words:
            self._send(f"info string ignored unknown command {line.strip()!r}")

    def close(self) -> None:
        """The input has ended: a search still thinking ends and answers."""
        self._settle()

    def _uci(self, _: list[str]) -> None:
        for line in identify(self.choice.budget, self.table_spec, self.choice.rescue):
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
        try:
            self.choice.prepare(self.board)
        except Exception as error:  # the worker meets it again, and says so
            self._send(f"info string could not load: {one_line(error)}")

    def _set_option(self, args: list[str]) -> None:
        """``setoption name Budget value N`` (the node budget of one
        search), ``setoption name Table value T`` (a table file or bundled
        name, or ``auto``), ``setoption name TablebaseRescue value
        true|false``. Other options are ignored, as the protocol asks, with an
        ``info string`` saying so (a misspelt name would else change nothing
        unseen)."""
        self._settle()
        at = args.index("value") if "value" in args else len(args)
        named = args[1:at] if args[:1] == ["name"] else args[:at]
        name, value = " ".join(named).lower(), " ".join(args[at + 1 :])
        if name == "budget":
            try:
                self.choice.set_budget(parse_int(value, "Budget", minimum=1, maximum=MAX_BUDGET))
            except IntegerError as error:
                self._send(f"info string ignored setoption: {error}")
        elif name == "tablebaserescue":
            if value.lower() not in ("true", "false"):
                self._send(f"info string ignored setoption: TablebaseRescue is true or false, not {value!r}")
                return
            self.choice.rescue = value.lower() == "true"
        elif name == "table":
            if value in ("", AUTO):
                self.choice.set_table(None)
                self.table_spec = AUTO
                return
            try:
                self.choice.set_table(Match.load(value, self.choice.budget, self.choice.tablebases))
            except AL0Error as error:
                self._send(f"info string ignored Table {value!r}: {one_line(error)}")
                return
            self.table_spec = value
        else:
            self._send(f"info string ignored setoption: no option {name!r} (Budget, Table, TablebaseRescue)")

    def _new_game(self, _: list[str]) -> None:
        self._settle()
        self.choice.forget_game()

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
            move = self.choice.choose(search, board, go)
        except Exception as error:  # the GUI waits for a bestmove whatever happens
            search.say(f"info string the search failed: {one_line(error)}")
        finally:
            if search.clock is not None:
                search.clock.cancel()
            search.finish(move)


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
        board = parse_fen(" ".join(setup[1:]))  # what is wrong said, as every command says it
    else:
        raise ValueError(f"expected 'startpos' or 'fen FEN', got {' '.join(setup)!r}")
    for text in moves:
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            raise ValueError(f"bad move {text!r} at {board.fen()}") from None
        if move not in board.legal_moves:
            hint = ""
            if (
                move.promotion is None
                and chess.Move(move.from_square, move.to_square, chess.QUEEN) in board.legal_moves
            ):
                hint = f" (a promotion names its piece: {text}q)"
            raise ValueError(f"illegal move {text!r} at {board.fen()}{hint}")
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
