"""The generic game interface and the classic ``play(Game)`` loop.

A game is described once, by a :class:`Game` object: the initial position, the
legal moves of a position, the result of a move, a terminal test with its
winner, and a text display. Positions are immutable and hashable, so search can
key its caches on them. Search (:mod:`al0.games.solvers`) and players
(:mod:`al0.games.players`) are written against this interface only; nothing
here knows a particular game.

Sides are whatever hashable values a game chooses (``chess.WHITE``, ``0``/``1``,
``"MAX"``); nothing assumes that sides alternate, only that there are two of them
and that the game is zero-sum.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from al0.errors import AL0Error

S = TypeVar("S", bound=Hashable)
"""A position of some game: immutable and hashable."""
M = TypeVar("M", bound=Hashable)
"""A move of some game: hashable."""
Side = Hashable
"""One of the two players, as the game names it."""

Evaluation = Callable[[S, Side], float]
"""A static evaluation: how good a (non-terminal) position is for a side.

Search assumes it is zero-sum, ``evaluate(s, a) == -evaluate(s, b)`` for the two
sides ``a`` and ``b``, because negamax only ever asks the side to move.
"""


class IllegalMoveError(AL0Error):
    """A move (typed by a human or returned by a player) is not legal in the position."""


class PlayerSpecError(AL0Error):
    """A player specification such as ``alphabeta:3`` names no known player."""


class QuitGame(Exception):
    """Not an error: a human asked to stop (``quit`` or end of input).

    Raised by a player's :meth:`~Player.choose`; :func:`play` catches it and
    ends the game early, so it never reaches the user as a failure.
    """


class Game(ABC, Generic[S, M]):
    """The rules of a two-player, zero-sum, perfect-information game.

    Subclasses provide the abstract methods; the others have defaults that
    suit most games. :meth:`moves` must return the legal moves in a fixed,
    documented order, because search is deterministic and breaks ties by it.
    """

    @abstractmethod
    def initial(self) -> S:
        """The start position."""

    @abstractmethod
    def to_move(self, state: S) -> Side:
        """The side whose turn it is in ``state``."""

    @abstractmethod
    def moves(self, state: S) -> Sequence[M]:
        """The legal moves of ``state`` in a fixed order; empty exactly when terminal.

        A game in which a player may have to pass lists the pass as a move.
        """

    @abstractmethod
    def result(self, state: S, move: M) -> S:
        """The position after ``move`` (assumed legal) is played in ``state``."""

    @abstractmethod
    def is_terminal(self, state: S) -> bool:
        """Whether the game is over in ``state``."""

    @abstractmethod
    def winner(self, state: S) -> Side | None:
        """The winner of a terminal ``state``, or ``None`` for a draw."""

    @abstractmethod
    def display(self, state: S) -> str:
        """A multi-line text picture of ``state`` for a human."""

    def utility(self, state: S, side: Side) -> float:
        """The value of a terminal ``state`` for ``side``: +1 win, 0 draw, -1 loss.

        Games whose evaluations are larger than 1 override this so that a win
        always outweighs any static evaluation (search mixes the two).
        """
        won = self.winner(state)
        if won is None:
            return 0.0
        return 1.0 if won == side else -1.0

    def can_move_into_loss(self, state: S) -> bool:
        """Whether the side to move might have a move that ends the game lost for itself.

        The default, ``True``, is always safe. A game where no move can do that
        (in chess nobody checkmates themselves) returns ``False``, which lets the
        AND/OR prover give up on a position as soon as the winning side has no
        moves left, without trying the other side's replies.
        """
        return True

    def side_name(self, side: Side) -> str:
        """How to name ``side`` to a human."""
        return str(side)

    def move_name(self, state: S, move: M) -> str:
        """How to write ``move``, played in ``state``, for a human."""
        return str(move)

    def parse_move(self, state: S, text: str) -> M:
        """The legal move of ``state`` that ``text`` names.

        The default accepts exactly what :meth:`move_name` writes.

        :raises IllegalMoveError: if no legal move has that name.
        """
        wanted = text.strip()
        for move in self.moves(state):
            if self.move_name(state, move) == wanted:
                return move
        legal = " ".join(self.move_name(state, m) for m in self.moves(state))
        raise IllegalMoveError(f"illegal move: {text!r} (legal: {legal})")

    def outcome_text(self, state: S) -> str:
        """A one-line announcement of the result of a terminal ``state``."""
        won = self.winner(state)
        return "draw" if won is None else f"{self.side_name(won)} wins"


class Player(Protocol[S, M]):
    """Anything that picks a move: a human at a prompt or a search."""

    name: str

    def choose(self, game: Game[S, M], state: S) -> M:
        """A legal move of the non-terminal ``state``.

        :raises QuitGame: if the player wants to stop the game.
        """
        ...


@dataclass(frozen=True)
class PlayedGame(Generic[S, M]):
    """What :func:`play` returns: the moves played and where the game ended."""

    start: S
    """The position the game started from."""
    moves: tuple[M, ...]
    """The moves played, in order."""
    final: S
    """The last position: terminal unless the game was quit."""
    quit: bool
    """Whether a player stopped the game before it was over."""


def play(
    game: Game[S, M],
    players: Mapping[Side, Player[S, M]],
    show: Callable[[str], None] | None = None,
    start: S | None = None,
) -> PlayedGame[S, M]:
    """Play one game: show the position, let the side to move choose, apply, repeat.

    ``players`` maps each side to its player. ``show``, if given, receives the
    text a spectator would see (positions, moves, the result); the loop itself
    never prints, so matches run silently and a CLI decides where text goes.

    :raises IllegalMoveError: if a player returns a move that is not legal.
    """
    say = show if show is not None else _ignore
    first = game.initial() if start is None else start
    state = first
    played: list[M] = []
    while not game.is_terminal(state):
        side = game.to_move(state)
        if show is not None:
            say(game.display(state))
        try:
            move = players[side].choose(game, state)
        except QuitGame:
            say("game abandoned")
            return PlayedGame(first, tuple(played), state, quit=True)
        # A buggy player must not corrupt the game: check before applying.
        if move not in game.moves(state):
            raise IllegalMoveError(
                f"{players[side].name} chose an illegal move {move!r} in\n{game.display(state)}"
            )
        if show is not None:
            say(f"{game.side_name(side)} plays {game.move_name(state, move)}")
        played.append(move)
        state = game.result(state, move)
    if show is not None:
        say(game.display(state))
        say(game.outcome_text(state))
    return PlayedGame(first, tuple(played), state, quit=False)


def _ignore(_text: str) -> None:
    """The default ``show`` of :func:`play`: a silent spectator."""


def perft(game: Game[S, M], state: S, depth: int, count_finished: bool = False) -> int:
    """The number of move sequences of length ``depth`` from ``state``.

    A game that ends early contributes nothing, as in chess perft, unless
    ``count_finished``, when it counts once (the Othello convention). Perft
    exercises only :meth:`Game.moves` and :meth:`Game.result`, which makes it
    the standard check of a move generator.
    """
    if depth == 0:
        return 1
    if count_finished and game.is_terminal(state):
        return 1
    return sum(perft(game, game.result(state, m), depth - 1, count_finished) for m in game.moves(state))


@dataclass(frozen=True)
class Scored(Generic[S]):
    """A position of a :class:`ScoredGame`: the inner position and a running score."""

    state: S
    """The position of the wrapped game."""
    score: float
    """The sum of the gains of the side to move minus those of the other side."""


class ScoredGame(Game[Scored[S], M]):
    """A game whose positions carry the sum of per-move gains along the line played.

    Some evaluations value moves, not positions: Reversi's novice scores a move
    by the discs it flips. Summing each side's gains along a line (own minus
    opponent's) turns such a move score into a position evaluation,
    :meth:`evaluate`, that minimax and alpha-beta can use unchanged: 1-ply
    search of it is the move-scoring player, 2-ply search is "my gain minus the
    best gain of the reply".

    Terminal positions keep the wrapped game's winner and utility: the running
    score only ranks positions the search did not see to the end.
    """

    def __init__(self, game: Game[S, M], gain: Callable[[S, M], float]) -> None:
        self.game = game
        """The wrapped game."""
        self.gain = gain
        """The value of a move for the side playing it."""

    def wrap(self, state: S) -> Scored[S]:
        """``state`` with a zero running score."""
        return Scored(state, 0.0)

    def initial(self) -> Scored[S]:
        return self.wrap(self.game.initial())

    def to_move(self, state: Scored[S]) -> Side:
        return self.game.to_move(state.state)

    def moves(self, state: Scored[S]) -> Sequence[M]:
        return self.game.moves(state.state)

    def result(self, state: Scored[S], move: M) -> Scored[S]:
        mover = self.game.to_move(state.state)
        after = self.game.result(state.state, move)
        score = state.score + self.gain(state.state, move)
        # The score is kept from the viewpoint of the side to move: flip it
        # when the turn passes to the other side.
        return Scored(after, score if self.game.to_move(after) == mover else -score)

    def is_terminal(self, state: Scored[S]) -> bool:
        return self.game.is_terminal(state.state)

    def winner(self, state: Scored[S]) -> Side | None:
        return self.game.winner(state.state)

    def utility(self, state: Scored[S], side: Side) -> float:
        return self.game.utility(state.state, side)

    def display(self, state: Scored[S]) -> str:
        return self.game.display(state.state)

    def side_name(self, side: Side) -> str:
        return self.game.side_name(side)

    def move_name(self, state: Scored[S], move: M) -> str:
        return self.game.move_name(state.state, move)

    def parse_move(self, state: Scored[S], text: str) -> M:
        return self.game.parse_move(state.state, text)

    def outcome_text(self, state: Scored[S]) -> str:
        return self.game.outcome_text(state.state)

    def evaluate(self, state: Scored[S], side: Side) -> float:
        """The running score for ``side``: its gains minus the other side's."""
        return state.score if side == self.game.to_move(state.state) else -state.score
