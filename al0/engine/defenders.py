"""Computer defenders: the side al0 plays against.

A defender is a callable ``board -> move`` (their turn) with a ``close()``.
A spec from the command line (``random``, ``tablebase``, ``uci:COMMAND``, and
where a command allows them ``worst`` or ``human``) is parsed once into a
:class:`DefenderSpec` by :meth:`DefenderSpec.parse`, so an unknown one is an
error wherever it is given; :func:`make_defender` is the one factory that
turns a spec into a defender.
"""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass
from typing import Literal

import chess
import chess.engine

from al0.errors import AL0Error, PositionError

DefenderKind = Literal["random", "tablebase", "uci", "worst", "human"]

MADE_KINDS: tuple[DefenderKind, ...] = ("random", "tablebase", "uci")
"""The kinds :func:`make_defender` makes; ``worst`` (an analysis over every
defence) and ``human`` (a person at the keyboard) are handled by the command
that allows them."""

VERIFY_KINDS: tuple[DefenderKind, ...] = ("tablebase", "random", "uci", "worst")
"""The kinds ``al0 verify`` can judge with."""

TABLE_KINDS: tuple[DefenderKind, ...] = ("tablebase", "random", "worst")
"""The kinds a file may name (a table's ``expect:`` block, the pytest
plugin's ini option): those built into al0. A file never makes al0 start a
program: an engine's command comes only from whoever runs al0."""

ENGINE_FROM_THE_RUNNER = ("a UCI engine's command comes only from whoever runs al0, never "
                          "from a file: give it as al0 verify TABLE --defender uci:COMMAND, "
                          "or pytest --al0-defender uci:COMMAND (or AL0_DEFENDER=uci:COMMAND "
                          "in the environment)")
"""Why a file cannot name a ``uci:`` defender, and where an engine is given instead."""

ENGINE_GRACE_SECONDS = 3.0
"""How long a UCI engine may stay silent past its due: to answer ``uci``
with ``uciok`` at start (a real engine takes milliseconds; a program that is
not one, such as ``cat``, never does), beyond its thinking time for each
move, and to stop at ``quit``. Past it the engine counts as hung."""


class DefenderError(AL0Error):
    """A defender spec is unknown, or a defender cannot be made or has
    failed (e.g. its engine died or stopped answering)."""


@dataclass(frozen=True)
class DefenderSpec:
    """A parsed defender spec: its kind and, for ``uci``, the engine's
    command line split into words."""
    kind: DefenderKind
    command: tuple[str, ...] = ()
    """The engine's program and arguments (``uci`` only)."""

    @property
    def name(self) -> str:
        """The spec as the user writes it: ``random``, ``uci:stockfish -l``."""
        if self.kind == "uci":
            return "uci:" + shlex.join(self.command)
        return self.kind

    def __str__(self) -> str:
        """The spec as written, so a report's reproduce line reads
        ``--defender worst``, not the dataclass."""
        return self.name

    @classmethod
    def parse(cls, text: str, allowed: tuple[DefenderKind, ...] = MADE_KINDS) -> DefenderSpec:
        """The spec ``text`` names, of one of the ``allowed`` kinds.

        :raises DefenderError: naming the bad value and the choices, or why
            a ``uci:`` command cannot be split into words (an unclosed quote).
        """
        if text.startswith("uci:") and "uci" in allowed:
            try:
                command = tuple(shlex.split(text[4:]))
            except ValueError as error:
                raise DefenderError(f"bad engine command {text[4:]!r}: {error}") from None
            if not command:
                raise DefenderError(f"{text!r}: give the engine's command after uci:")
            return cls("uci", command)
        for kind in allowed:
            if kind != "uci" and text == kind:
                return cls(kind)
        choices = ", ".join(kind if kind != "uci" else "uci:COMMAND" for kind in allowed)
        raise DefenderError(f"unknown defender {text!r}: use {choices}")

    @classmethod
    def from_file(cls, text: str) -> DefenderSpec:
        """The spec a file names (a table, an ini file): one of
        :data:`TABLE_KINDS`, so that no file starts a program.

        :raises DefenderError: for an unknown kind, and for an engine
            (``uci:…``), saying how to give one instead.
        """
        if text.startswith("uci:"):
            raise DefenderError(f"defender {text!r}: {ENGINE_FROM_THE_RUNNER}")
        return cls.parse(text, TABLE_KINDS)


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
    """Resists longest by the exact tablebase (ties broken by UCI order)."""

    name = "tablebase"

    def __init__(self, material: str):
        from al0 import tablebase  # lazily: building a table takes seconds
        self.table = tablebase.load(material)

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
            self.engine = chess.engine.SimpleEngine.popen_uci(list(command),
                                                              timeout=ENGINE_GRACE_SECONDS)
        except TimeoutError:  # before OSError: in Python 3.11 it is one
            raise DefenderError(f"{self.shown!r} is not a UCI engine: it did not answer 'uci' "
                                f"with 'uciok' within {ENGINE_GRACE_SECONDS:g} s") from None
        except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            reason = getattr(error, "strerror", None) or error
            raise DefenderError(f"cannot start UCI engine {self.shown!r}: {reason}") from None
        self.hung = False

    def __call__(self, board: chess.Board) -> chess.Move:
        try:
            result = self.engine.play(board, self.limit)
        except TimeoutError:
            self.hung = True
            raise DefenderError(f"UCI engine {self.shown!r} did not answer 'go' within "
                                f"{self.limit.time:g} s + {ENGINE_GRACE_SECONDS:g} s at "
                                f"{board.fen()}") from None
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            raise DefenderError(f"UCI engine {self.shown!r} failed at {board.fen()}: "
                                f"{error}") from None
        if result.move is None or result.move not in board.legal_moves:
            raise DefenderError(f"UCI engine {self.shown!r} gave no legal move at "
                                f"{board.fen()}")
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


def make_defender(spec: DefenderSpec, material: str, seed: int = 0,
                  engine_seconds: float = 0.05) -> Defender:
    """The defender ``spec`` names for ``material``: the one factory of
    play and verify.

    :raises DefenderError: for a kind it does not make (``worst``,
        ``human``), a material without a tablebase, or an engine that cannot
        start.
    """
    if spec.kind == "random":
        return RandomDefender(seed)
    if spec.kind == "tablebase":
        try:
            return TablebaseDefender(material)
        except PositionError:
            raise DefenderError(f"no tablebase for {material}: use another defender") from None
    if spec.kind == "uci":
        return UciDefender(spec.command, engine_seconds)
    raise DefenderError(f"the {spec.kind!r} defender is not a player that can be made here")
