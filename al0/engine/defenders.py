"""Computer defenders: the side al0 plays against.

A defender is a callable ``board -> move`` (their turn) with a ``close()``.
A spec (``random``, ``tablebase``, ``uci:COMMAND``; see
:mod:`al0.lang.specs`) is parsed once where it is given;
:func:`make_defender` is the one factory that turns a spec into a
defender.
"""

from __future__ import annotations

import random
import shlex
from typing import TYPE_CHECKING

import chess
import chess.engine

from al0.board import Material
from al0.errors import PositionError
from al0.lang.specs import DefenderError, DefenderSpec

if TYPE_CHECKING:
    from al0.tablebase import Tablebase

ENGINE_GRACE_SECONDS = 3.0
"""How long a UCI engine may stay silent past its due: to answer ``uci``
with ``uciok`` at start (a real engine takes milliseconds; a program that is
not one, such as ``cat``, never does), beyond its thinking time for each
move, and to stop at ``quit``. Past it the engine counts as hung."""


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


class TablebaseDefender:
    """Resists longest by the exact tablebase (ties broken by UCI order):
    ``table`` when given (one already loaded), else the one of ``material``
    loaded here."""

    name = "tablebase"

    def __init__(self, material: str, table: Tablebase | None = None):
        if table is None:
            from al0 import tablebase  # lazily: building a table takes seconds

            table = tablebase.load(material)
        self.table = table

    def __call__(self, board: chess.Board) -> chess.Move:
        return self.table.best_defence(board)

    def close(self) -> None:
        """Nothing to stop."""


class UciDefender:
    """A UCI engine, through python-chess's engine module, thinking
    ``seconds`` per move. Call :meth:`close` (or use ``with``) to stop it.

    :raises DefenderError: when the engine cannot start or does not answer
        ``uci`` within :data:`ENGINE_GRACE_SECONDS`.
    """

    def __init__(self, command: tuple[str, ...], seconds: float = 0.05):
        self.name = "uci:" + shlex.join(command)
        self.shown = shlex.join(command)
        self.limit = chess.engine.Limit(time=seconds)
        try:
            self.engine = chess.engine.SimpleEngine.popen_uci(list(command), timeout=ENGINE_GRACE_SECONDS)
        except TimeoutError:  # before OSError: in Python 3.11 it is one
            raise DefenderError(
                f"{self.shown!r} is not a UCI engine: it did not answer 'uci' "
                f"with 'uciok' within {ENGINE_GRACE_SECONDS:g} s"
            ) from None
        except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            reason = getattr(error, "strerror", None) or error
            raise DefenderError(f"cannot start UCI engine {self.shown!r}: {reason}") from None
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


Defender = RandomDefender | TablebaseDefender | UciDefender


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
