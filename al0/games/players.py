"""Pluggable players for any :class:`~al0.games.base.Game`.

A player has a ``name`` and a ``choose(game, state)`` method. Computer players
break ties between equally good moves with their own seeded
:class:`random.Random` (shuffling the root moves, then keeping the first best),
so a match is reproducible from its seed yet games between the same two
programs still differ. Pass ``rng=None`` for the game's fixed move order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Generic

from al0.games.base import Evaluation, Game, IllegalMoveError, M, Player, QuitGame, S, Scored, ScoredGame
from al0.games.solvers import alphabeta, minimax


def root_order(game: Game[S, M], state: S, rng: random.Random | None) -> list[M]:
    """The moves of ``state`` in the order a player tries them: shuffled by ``rng``, if any.

    Search keeps the first of equally valued moves, so shuffling the root
    moves is a uniform random choice among the best ones.
    """
    moves = list(game.moves(state))
    if rng is not None:
        rng.shuffle(moves)
    return moves


class HumanPlayer:
    """A person at a prompt: reads a move, re-prompts on bad input.

    ``ask(prompt)`` returns one line of input and raises :class:`EOFError` at
    end of input; ``tell(text)`` shows a message. Both are supplied by the
    caller (the CLI), so this class does no I/O of its own. Typing ``quit``,
    or ending the input, raises :class:`~al0.games.base.QuitGame`.
    """

    def __init__(self, ask: Callable[[str], str], tell: Callable[[str], None], name: str = "human") -> None:
        self.ask = ask
        self.tell = tell
        self.name = name

    def choose(self, game: Game[S, M], state: S) -> M:
        legal = " ".join(game.move_name(state, m) for m in game.moves(state))
        prompt = f"{game.side_name(game.to_move(state))} to move [{legal}]: "
        while True:
            try:
                text = self.ask(prompt).strip()
            except EOFError:
                raise QuitGame() from None
            if text.lower() in ("quit", "q", "exit"):
                raise QuitGame()
            if not text:
                continue
            try:
                return game.parse_move(state, text)
            except IllegalMoveError as error:
                self.tell(str(error))


class RandomPlayer:
    """Plays a uniformly random legal move: the baseline every player should beat."""

    def __init__(self, rng: random.Random, name: str = "random") -> None:
        self.rng = rng
        self.name = name

    def choose(self, game: Game[S, M], state: S) -> M:
        return self.rng.choice(list(game.moves(state)))


class StaticPlayer(Generic[S, M]):
    """Looks one ply ahead: plays the move whose resulting position evaluates best.

    A move that ends the game is scored by :meth:`Game.utility`, any other by
    ``evaluate``; this is :func:`~al0.games.solvers.minimax` to depth 1.
    """

    def __init__(
        self, evaluate: Evaluation[S], rng: random.Random | None = None, name: str = "static"
    ) -> None:
        self.evaluate = evaluate
        self.rng = rng
        self.name = name

    def choose(self, game: Game[S, M], state: S) -> M:
        me = game.to_move(state)

        def score(move: M) -> float:
            after = game.result(state, move)
            if game.is_terminal(after):
                return game.utility(after, me)
            return self.evaluate(after, me)

        return first_best(root_order(game, state, self.rng), score)


class MinimaxPlayer(Generic[S, M]):
    """Plays the first move of the :func:`~al0.games.solvers.minimax` principal variation."""

    def __init__(
        self, depth: int, evaluate: Evaluation[S], rng: random.Random | None = None, name: str = ""
    ) -> None:
        self.depth = depth
        self.evaluate = evaluate
        self.rng = rng
        self.name = name or f"minimax:{depth}"

    def choose(self, game: Game[S, M], state: S) -> M:
        found = minimax(game, state, self.depth, self.evaluate, root_order(game, state, self.rng))
        return _chosen(found.move, game, state)


class AlphaBetaPlayer(Generic[S, M]):
    """Plays the first move of the :func:`~al0.games.solvers.alphabeta` principal variation.

    ``nodes`` adds up the positions visited over the player's moves, to show
    what the pruning saves.
    """

    def __init__(
        self, depth: int, evaluate: Evaluation[S], rng: random.Random | None = None, name: str = ""
    ) -> None:
        self.depth = depth
        self.evaluate = evaluate
        self.rng = rng
        self.name = name or f"alphabeta:{depth}"
        self.nodes = 0

    def choose(self, game: Game[S, M], state: S) -> M:
        found = alphabeta(game, state, self.depth, self.evaluate, root_order(game, state, self.rng))
        self.nodes += found.nodes
        return _chosen(found.move, game, state)


def first_best(moves: Sequence[M], score: Callable[[M], float]) -> M:
    """The first of ``moves`` with the highest ``score`` (later equal scores lose the tie)."""
    best, best_score = moves[0], score(moves[0])
    for move in moves[1:]:
        value = score(move)
        if value > best_score:
            best, best_score = move, value
    return best


def _chosen(move: M | None, game: Game[S, M], state: S) -> M:
    """The move a search chose, or, with a depth of 0, the first legal one."""
    return move if move is not None else game.moves(state)[0]


class ScoredPlayer(Generic[S, M]):
    """Runs a player on the :class:`~al0.games.base.ScoredGame` view of a game.

    The running score starts at zero at the position to move from, so the
    inner player's evaluation counts only the gains along the lines it searches.
    """

    def __init__(self, inner: Player[Scored[S], M], scored: ScoredGame[S, M], name: str = "") -> None:
        self.inner = inner
        self.scored = scored
        self.name = name or inner.name

    def choose(self, game: Game[S, M], state: S) -> M:
        return self.inner.choose(self.scored, self.scored.wrap(state))
