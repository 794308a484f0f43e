"""Computer defenders: the side al0 plays against.

A defender is a callable ``board -> move`` (their turn) with a ``close()``.
A spec (``random``, ``tablebase``, ``uci:COMMAND``; see
:mod:`al0.lang.specs`) is parsed once where it is given;
:func:`make_defender` is the one factory that turns a spec into a
defender.
"""

from __future__ import annotations

import logging
import random
import shlex
from typing import TYPE_CHECKING

import chess
import chess.engine

from al0.board import Material
from al0.board.moves import apply, legal_moves
from al0.board.position import Position, from_board
from al0.board.position import fen as position_fen
from al0.errors import PositionError
from al0.lang.specs import DefenderError, DefenderSpec

if TYPE_CHECKING:
    from al0.tablebase import Tablebase

ENGINE_START_SECONDS = 20.0
"""How long a UCI engine may take to answer ``uci`` with ``uciok``: a real
engine takes milliseconds, one loading a large network on a busy machine
seconds (a fake engine of the tests once took over 3 s at load 16); a
program that is not one, such as ``cat``, never does."""

ENGINE_GRACE_SECONDS = 3.0
"""How long a UCI engine may stay silent past its due: beyond its thinking
time for each move, and to stop at ``quit``. Past it the engine counts as
hung."""


class RandomDefender:
    """Plays a uniformly random legal move; the same seed gives the same game."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, board: chess.Board) -> chess.Move:
        moves = sorted(board.legal_moves, key=chess.Move.uci)
        return self.rng.choice(moves)

    def close(self) -> None:
        """Nothing to stop."""


def _load(material: str) -> Tablebase:
    """The tablebase of ``material``, imported lazily: building a table
    takes seconds, and a defender that needs none should not pay for it."""
    from al0 import tablebase

    return tablebase.load(material)


class TablebaseDefender:
    """Resists longest by the exact tablebase (ties broken by UCI order):
    ``table`` when given (one already loaded), else the one of ``material``
    loaded here."""

    name = "tablebase"

    def __init__(self, material: str, table: Tablebase | None = None):
        self.table = table if table is not None else _load(material)

    def __call__(self, board: chess.Board) -> chess.Move:
        return self.table.best_defence(board)

    def close(self) -> None:
        """Nothing to stop."""


class MostTestingAttacker:
    """The stronger side's most testing move where the other side holds
    (a drawn position): of the moves that keep the draw, and leave no man
    to be taken where one can be kept, the one after which the fewest of
    the holder's replies keep it, then the one after which the most
    replies lose, then the first in UCI order. Where it
    wins, the tablebase's fastest mate; where it loses, its longest
    resistance (:meth:`~al0.tablebase.Tablebase.best_defence`).

    It answers the question a coach asks of a defence: can it find the
    only move, again and again? The tablebase defender (longest
    resistance) plays any drawing move, the first in UCI order, and tests
    little. Each move probes every reply to every move: a few hundred
    probes, a few milliseconds on the native core."""

    name = "testing"

    def __init__(self, material: str, table: Tablebase | None = None):
        self.table = table if table is not None else _load(material)

    def __call__(self, board: chess.Board) -> chess.Move:
        return self.move_at(from_board(board))

    def move_at(self, position: Position) -> chess.Move:
        """The most testing move at ``position`` (legal, its side to move).

        :raises PositionError: if the side to move has no legal move.
        """
        table, side = self.table, position.turn
        if table.result_at(position).winner is not None:
            return table.best_defence_at(position)
        scored = []
        for move in legal_moves(position):
            after = apply(position, move)
            if table.result_at(after).winner is not None:
                continue  # a move that loses (the holder cannot lose a draw by it)
            replies = legal_moves(after)
            lose = sum(table.result_at(apply(after, reply)).winner == side for reply in replies)
            # A move that leaves a man to be taken gives up the winning chances with it.
            taken = any(capture(after, reply) for reply in replies)
            scored.append(((taken, len(replies) - lose, -lose, move.uci()), move))
        if not scored:  # a drawn position with a move has one that keeps the draw
            raise PositionError(f"the side to move has no legal move: {position_fen(position)}")
        return min(scored, key=lambda item: item[0])[1]

    def holding_replies(self, position: Position) -> int:
        """How many of the holder's moves at ``position`` (its turn) keep the draw."""
        return sum(
            self.table.result_at(apply(position, move)).winner is None for move in legal_moves(position)
        )

    def close(self) -> None:
        """Nothing to stop."""


def capture(position: Position, move: chess.Move) -> bool:
    """Whether ``move`` (legal at ``position``) takes a man."""
    white, black = position[0], position[1]
    theirs = black if position.turn else white
    return bool(theirs >> move.to_square & 1)


def not_a_closed_loop_notice(record: logging.LogRecord) -> bool:
    """False for asyncio's notice that an engine process ended after the
    event loop that started it was closed: python-chess closes its loop when
    an engine that never answered ``uci`` is given up, and asyncio's child
    watcher then says so on standard error, a second line after al0's one."""
    message = record.getMessage()
    return not ("that handles pid" in message and message.endswith("is closed"))


def _quiet_closed_loop_notices() -> None:
    """Filter asyncio's log through :func:`not_a_closed_loop_notice`, once."""
    asyncio_log = logging.getLogger("asyncio")
    if not_a_closed_loop_notice not in asyncio_log.filters:
        asyncio_log.addFilter(not_a_closed_loop_notice)


class UciDefender:
    """A UCI engine, through python-chess's engine module, thinking
    ``seconds`` per move. Call :meth:`close` (or use ``with``) to stop it.

    :raises DefenderError: when the engine cannot start or does not answer
        ``uci`` within :data:`ENGINE_START_SECONDS`.
    """

    def __init__(self, command: tuple[str, ...], seconds: float = 0.05):
        self.name = "uci:" + shlex.join(command)
        self.shown = shlex.join(command)
        self.limit = chess.engine.Limit(time=seconds)
        _quiet_closed_loop_notices()
        try:
            self.engine = chess.engine.SimpleEngine.popen_uci(list(command), timeout=ENGINE_START_SECONDS)
        except TimeoutError:  # before OSError: in Python 3.11 it is one
            raise DefenderError(
                f"{self.shown!r} is not a UCI engine: it did not answer 'uci' "
                f"with 'uciok' within {ENGINE_START_SECONDS:g} s"
            ) from None
        except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            reason = getattr(error, "strerror", None) or error
            raise DefenderError(f"cannot start UCI engine {self.shown!r}: {reason}") from None
        # python-chess waits each later call its timeout past the move's
        # time: from here on that is the grace, not the start's long wait.
        self.engine.timeout = ENGINE_GRACE_SECONDS
        self.hung = False

    def __call__(self, board: chess.Board) -> chess.Move:
        try:
            result = self.engine.play(board, self.limit)
        except TimeoutError:
            self.hung = True
            raise DefenderError(
                f"UCI engine {self.shown!r} did not answer 'go' within "
                f"{self.limit.time:g} s + {ENGINE_GRACE_SECONDS:g} s at "
                f"{board.fen()}"
            ) from None
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            raise DefenderError(f"UCI engine {self.shown!r} failed at {board.fen()}: {error}") from None
        if result.move is None or result.move not in board.legal_moves:
            raise DefenderError(f"UCI engine {self.shown!r} gave no legal move at {board.fen()}")
        return result.move

    def close(self) -> None:
        """Ask the engine to quit; kill it if it is hung or does not."""
        if not self.hung:
            try:
                self.engine.quit()
                return
            except (TimeoutError, chess.engine.EngineError, chess.engine.EngineTerminatedError):
                pass  # gone already, or deaf to quit: killed below
        self.engine.close()

    def __enter__(self) -> UciDefender:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


Defender = RandomDefender | TablebaseDefender | MostTestingAttacker | UciDefender


def make_defender(
    spec: DefenderSpec,
    material: Material,
    seed: int = 0,
    engine_seconds: float = 0.05,
    tablebase: Tablebase | None = None,
) -> Defender:
    """The defender ``spec`` names for ``material``: the one factory of
    play and verify. ``tablebase``, the material's when the caller has it
    loaded already, is the tablebase defender's, not loaded again.

    :raises DefenderError: for a kind it does not make (``worst``,
        ``human``), a material without a tablebase, or an engine that cannot
        start.
    """
    if spec.kind == "random":
        return RandomDefender(seed)
    if spec.kind == "tablebase":
        try:
            return TablebaseDefender(material.name, tablebase)
        except PositionError:
            raise DefenderError(f"no tablebase for {material}: use another defender") from None
    if spec.kind == "uci":
        return UciDefender(spec.command, engine_seconds)
    raise DefenderError(f"the {spec.kind!r} defender is not a player that can be made here")
