"""Search written once against :class:`~al0.games.base.Game`.

- :func:`prove_win` — the AND/OR proof that a position is won within N moves,
  with the proof tree (for chess: a mate-in-N prover);
- :func:`minimax` — depth-limited minimax with a static evaluation at the
  leaves, returning the backed-up value and the principal variation;
- :func:`alphabeta` — the same in negamax form with alpha-beta pruning; it
  returns the same value and principal variation as :func:`minimax` and counts
  the positions it visits, so the saving can be measured.

All three are deterministic: they try moves in the order the game (or the
caller, through ``moves=``) gives, and on equal values keep the first.
Nothing here prints; node counters and caches live on per-call objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic

from al0.errors import SearchBudgetExceeded
from al0.games.base import Evaluation, Game, M, S, Side

PROOF_BUDGET = 1_000_000
"""Positions an AND/OR proof makes before it gives up undecided, unless told
otherwise (``al0 solve``, a UCI ``go mate N``): about 30 s and 200 MB of a
chess proof; without a bound a deep proof grows by megabytes a second."""


@dataclass(frozen=True)
class Proof(Generic[S, M]):
    """An AND/OR tree proving that ``side`` wins from ``state``.

    At our turn the node keeps one move (the OR choice); at theirs it keeps
    every legal reply (the AND); a terminal position that ``side`` has won is a
    leaf with no branches.
    """

    state: S
    """The position this node proves won."""
    ours: bool
    """Whether it is our move in ``state`` (an OR node) rather than theirs."""
    branches: tuple[tuple[M, Proof[S, M]], ...]
    """``(move, proof of the position after it)``: one at OR nodes, all at AND nodes."""
    moves: int
    """Our moves on the longest line of this proof: the N of "won within N"."""


class _AndOr(Generic[S, M]):
    """One proof search: the game, the side that wants to win, caches and a node count.

    Caches map a position to what is known about it, and are shared between
    the iterations of :func:`prove_win`'s deepening: a position proved won
    within ``n`` is won within any larger limit, one that failed for ``n``
    fails for any smaller limit.
    """

    def __init__(self, game: Game[S, M], side: Side, max_nodes: int | None) -> None:
        self.game = game
        self.side = side
        self.max_nodes = max_nodes
        self.nodes = 0
        self.won: dict[S, Proof[S, M]] = {}
        self.failed: dict[S, int] = {}

    def child(self, state: S, move: M) -> S:
        """The position after ``move``, counted against the node budget."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchBudgetExceeded(f"AND/OR search spent its budget of {self.max_nodes} nodes undecided")
        return self.game.result(state, move)

    def solve(self, state: S, n: int) -> Proof[S, M] | None:
        """A proof that ``self.side`` wins from ``state`` using at most ``n`` more of
        its own moves, or ``None`` if there is none.

        A terminal position is won or lost by the rules (a draw is not a win).
        At our turn some move must lead to a won position; at theirs every move must.
        """
        game = self.game
        if game.is_terminal(state):
            if game.winner(state) == self.side:
                return Proof(state, game.to_move(state) == self.side, (), 0)
            return None
        known = self.won.get(state)
        if known is not None and known.moves <= n:
            return known
        if self.failed.get(state, -1) >= n:
            return None
        if game.to_move(state) == self.side:
            proof = self.our_turn(state, n)
        else:
            proof = self.their_turn(state, n)
        if proof is None:
            self.failed[state] = n
        else:
            self.won[state] = proof
        return proof

    def our_turn(self, state: S, n: int) -> Proof[S, M] | None:
        """The OR node: one move that leads to a position won within ``n - 1``."""
        if n == 0:  # No move of ours left and the game is not yet won.
            return None
        after = [(move, self.child(state, move)) for move in self.game.moves(state)]
        # Immediate wins first, so every line of the proof ends as soon as it can.
        for move, position in after:
            if self.game.is_terminal(position) and self.game.winner(position) == self.side:
                leaf: Proof[S, M] = Proof(position, self.game.to_move(position) == self.side, (), 0)
                return Proof(state, True, ((move, leaf),), 1)
        for move, position in after:
            found = self.solve(position, n - 1)
            if found is not None:
                return Proof(state, True, ((move, found),), found.moves + 1)
        return None

    def their_turn(self, state: S, n: int) -> Proof[S, M] | None:
        """The AND node: every reply leads to a position won within ``n``."""
        # Our moves are used up, so only their own moves can still lose them
        # the game; in games where no move can do that, skip the replies.
        if n == 0 and not self.game.can_move_into_loss(state):
            return None
        branches = []
        for reply in self.game.moves(state):
            found = self.solve(self.child(state, reply), n)
            if found is None:  # One refutation is enough: stop at the first.
                return None
            branches.append((reply, found))
        return Proof(state, False, tuple(branches), max(p.moves for _, p in branches))


def prove_win(
    game: Game[S, M],
    state: S,
    max_moves: int,
    side: Side | None = None,
    max_nodes: int | None = None,
) -> Proof[S, M] | None:
    """The proof that ``side`` (by default the side to move) wins within ``max_moves``
    of its own moves, or ``None`` if it cannot force a win that soon.

    The limit is deepened 1, 2, …, ``max_moves``, so a returned proof's
    :attr:`Proof.moves` is the least N for which the win can be forced (for
    chess: the k of "mate in k").

    :raises SearchBudgetExceeded: if more than ``max_nodes`` positions are generated.
    """
    me = game.to_move(state) if side is None else side
    search = _AndOr(game, me, max_nodes)
    if game.is_terminal(state):
        return search.solve(state, 0)
    for n in range(1, max_moves + 1):
        found = search.solve(state, n)
        if found is not None:
            return found
    return None


def format_proof(game: Game[S, M], proof: Proof[S, M]) -> list[str]:
    """The proof tree as indented text lines, in move-number notation.

    Our k-th move is written ``k. move``; each of their replies goes on its own
    line as ``k... reply`` followed by our answer, one level deeper::

        1. Kc6
           1... Ka7 2. Ra1#
           1... Ka8 2. Ra1#
    """
    lines: list[str] = []

    def ours(node: Proof[S, M], k: int) -> str:
        """Our move at ``node`` as ``k. move`` (the line's text, not yet emitted)."""
        move, _ = node.branches[0]
        return f"{k}. {game.move_name(node.state, move)}"

    def below(node: Proof[S, M], k: int, indent: str) -> None:
        """Emit the lines under the position reached by our k-th move."""
        if not node.branches:
            return
        if node.ours:  # We move again (a game with passes or double moves).
            lines.append(indent + ours(node, k + 1))
            below(node.branches[0][1], k + 1, indent + "   ")
            return
        for reply, after in node.branches:
            text = f"{indent}{k}... {game.move_name(node.state, reply)}"
            if after.ours and after.branches:
                lines.append(f"{text} {ours(after, k + 1)}")
                below(after.branches[0][1], k + 1, indent + "   ")
            else:
                lines.append(text)
                below(after, k, indent + "   ")

    if proof.ours and proof.branches:
        lines.append(ours(proof, 1))
        below(proof.branches[0][1], 1, "   ")
    else:
        below(proof, 0, "")
    return lines


@dataclass(frozen=True)
class SearchResult(Generic[M]):
    """The answer of :func:`minimax` or :func:`alphabeta`."""

    value: float
    """The backed-up value for the side to move at the root."""
    pv: tuple[M, ...]
    """The principal variation: the line both sides play if they follow the search."""
    nodes: int
    """Positions visited, the root included."""

    @property
    def move(self) -> M | None:
        """The move chosen at the root (``None`` if the root is terminal or depth is 0)."""
        return self.pv[0] if self.pv else None


def minimax(
    game: Game[S, M],
    state: S,
    depth: int,
    evaluate: Evaluation[S],
    moves: Iterable[M] | None = None,
) -> SearchResult[M]:
    """Depth-limited minimax in its textbook max/min form.

    Values are for the side to move at the root (MAX): terminal positions score
    :meth:`Game.utility`, positions at the depth limit ``evaluate``; MAX takes
    the largest child value and MIN the smallest, the first one on ties. ``moves``
    overrides the order of the root's moves (players shuffle it to break ties).
    """
    root = game.to_move(state)
    nodes = 0
    inf = float("inf")

    def value(position: S, left: int, order: Iterable[M] | None) -> tuple[float, tuple[M, ...]]:
        nonlocal nodes
        nodes += 1
        if game.is_terminal(position):
            return game.utility(position, root), ()
        if left == 0:
            return evaluate(position, root), ()
        maximize = game.to_move(position) == root
        best = -inf if maximize else inf
        line: tuple[M, ...] = ()
        for move in game.moves(position) if order is None else order:
            v, rest = value(game.result(position, move), left - 1, None)
            # Strict comparison: on equal values the first move stays.
            if v > best if maximize else v < best:
                best, line = v, (move, *rest)
        return best, line

    v, pv = value(state, depth, moves)
    return SearchResult(v, pv, nodes)


def alphabeta(
    game: Game[S, M],
    state: S,
    depth: int,
    evaluate: Evaluation[S],
    moves: Sequence[M] | None = None,
) -> SearchResult[M]:
    """Depth-limited negamax with alpha-beta pruning.

    Contract: the result has the value and principal variation of
    :func:`minimax` on the same arguments (given a zero-sum ``evaluate``), and
    visits no more positions. Every value is for the side to move; a child's
    value is negated when the turn passes to the other side and kept when the
    same side moves again.
    """
    nodes = 0
    inf = float("inf")

    def search(
        position: S, left: int, alpha: float, beta: float, order: Sequence[M] | None
    ) -> tuple[float, tuple[M, ...]]:
        """The value of ``position`` for its side to move if it lies in (alpha, beta);
        otherwise a bound on the far side of the window (fail-soft)."""
        nonlocal nodes
        nodes += 1
        side = game.to_move(position)
        if game.is_terminal(position):
            return game.utility(position, side), ()
        if left == 0:
            return evaluate(position, side), ()
        best = -inf
        line: tuple[M, ...] = ()
        for move in game.moves(position) if order is None else order:
            after = game.result(position, move)
            if game.to_move(after) == side:
                v, rest = search(after, left - 1, alpha, beta, None)
            else:
                v, rest = search(after, left - 1, -beta, -alpha, None)
                v = -v
            # Strictly greater: on equal values the first move stays, as in minimax.
            if v > best:
                best, line = v, (move, *rest)
            if v > alpha:
                alpha = v
            # The opponent already has a line that holds us to beta or less,
            # so it will never let this position arise: skip the other moves.
            if alpha >= beta:
                break
        return best, line

    v, pv = search(state, depth, -inf, inf, moves)
    return SearchResult(v, pv, nodes)
