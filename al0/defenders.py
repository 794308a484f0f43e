"""Computer defenders: the side al0 plays against.

A defender is a callable ``board -> move`` (their turn). ``make_defender``
turns a name from the command line into one: ``random``, ``tablebase`` or
``uci:COMMAND``.
"""

from __future__ import annotations

import random
import shlex

import chess
import chess.engine

from al0.errors import AL0Error


class DefenderError(AL0Error):
    """A defender cannot be made or has failed (e.g. its engine died)."""


class RandomDefender:
    """Plays a uniformly random legal move; the same seed gives the same game."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, board: chess.Board) -> chess.Move:
        moves = sorted(board.legal_moves, key=chess.Move.uci)
        return self.rng.choice(moves)


class TablebaseDefender:
    """Resists longest by the exact tablebase (ties broken by UCI order)."""

    name = "tablebase"

    def __init__(self, material: str):
        from al0 import tablebase  # lazily: building a table takes seconds
        self.table = tablebase.load(material)

    def __call__(self, board: chess.Board) -> chess.Move:
        return self.table.best_defence(board)


class UciDefender:
    """A UCI engine, through python-chess's engine module, thinking
    ``seconds`` per move. Call :meth:`close` (or use ``with``) to stop it."""

    def __init__(self, command: str, seconds: float = 0.05):
        self.name = f"uci:{command}"
        self.limit = chess.engine.Limit(time=seconds)
        try:
            self.engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command))
        except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            raise DefenderError(f"cannot start UCI engine {command!r}: {error}") from None

    def __call__(self, board: chess.Board) -> chess.Move:
        try:
            result = self.engine.play(board, self.limit)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            raise DefenderError(f"UCI engine {self.name[4:]!r} failed at {board.fen()}: "
                                f"{error}") from None
        if result.move is None or result.move not in board.legal_moves:
            raise DefenderError(f"UCI engine {self.name[4:]!r} gave no legal move at "
                                f"{board.fen()}")
        return result.move

    def close(self) -> None:
        try:
            self.engine.quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
            pass  # it is already gone: nothing left to stop

    def __enter__(self) -> UciDefender:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def check_defender_name(name: str, extra: tuple[str, ...] = ()) -> str:
    """``name`` if it names a defender: ``random``, ``tablebase``,
    ``uci:COMMAND`` or one of ``extra``.

    :raises DefenderError: naming the bad value and the choices.
    """
    if name in ("random", "tablebase") + extra or (name.startswith("uci:") and name[4:].strip()):
        return name
    choices = ", ".join(("random", "tablebase") + extra)
    raise DefenderError(f"unknown defender {name!r}: use {choices} or uci:COMMAND")


def make_defender(name: str, material: str, seed: int = 0,
                  engine_seconds: float = 0.05) -> RandomDefender | TablebaseDefender | UciDefender:
    """The defender ``name`` (random, tablebase or uci:COMMAND) for ``material``.

    :raises DefenderError: for an unknown name, a material without a
        tablebase, or an engine that cannot start.
    """
    check_defender_name(name)
    if name == "random":
        return RandomDefender(seed)
    if name == "tablebase":
        from al0.errors import PositionError
        try:
            return TablebaseDefender(material)
        except PositionError:
            raise DefenderError(f"no tablebase for {material}: use another opponent") from None
    return UciDefender(name[4:], engine_seconds)
