"""The forcing-tree builder: does a piece of advice hold from a position?

The search is an AND/OR depth-first search with a transposition table keyed by
(position, depth) — the constraints depend on depth, and the comparative
predicates on the root, which is fixed for one search. At our nodes it deepens
the bound on the child's height one step at a time, so the first child found
is one with the least worst-case depth (best-first in the sense of IDA*, with
cost = plies to the better-goal); at their nodes it tries first the replies
already known to refute. Each (position, depth) has its goals evaluated and
its moves generated once per search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import chess

from al0.errors import SearchBudgetExceeded
from al0.goals import GoalFn, MovesFn, compile_constraint, compile_goal
from al0.library import Library, Node
from al0.model import Advice
from al0.tree import LEAF, ForcingTree

FAILS_ALWAYS = 1 << 30
"""A lower bound larger than any tree: the node can never be satisfied."""

PositionKey = tuple[object, ...]


def position_key(board: chess.Board) -> PositionKey:
    """Everything about a position that moves and predicates depend on:
    piece placement, side to move, castling rights and en-passant square.
    (Move counters and history are not part of a forcing tree.)"""
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens,
            board.kings, board.occupied_co[chess.WHITE], board.turn,
            board.castling_rights, board.ep_square)


@dataclass(frozen=True)
class CompiledAdvice:
    """A piece of advice with its goals and constraints bound to a library."""
    name: str
    better: GoalFn
    holding: GoalFn
    us_moves: MovesFn
    them_moves: MovesFn
    horizon: int
    """No node deeper than this has an allowed move, so no tree is higher."""


def compile_advice(advice: Advice, library: Library) -> CompiledAdvice:
    """Bind ``advice`` to ``library``; its names were checked at load time."""
    horizons = [advice.us_moves.horizon(), advice.them_moves.horizon()]
    bounded = [h for h in horizons if h is not None]
    if len(bounded) < 2:
        raise ValueError(f"advice {advice.name!r} has an unbounded move constraint")
    return CompiledAdvice(advice.name, compile_goal(advice.better_goal, library),
                          compile_goal(advice.holding_goal, library),
                          compile_constraint(advice.us_moves, library),
                          compile_constraint(advice.them_moves, library),
                          max(bounded))


class _Entry:
    """What one search knows of one (position, depth).

    ``lo``: the node fails at every bound <= lo (-1: nothing known yet).
    ``tree``: the best forcing tree found so far, if any.
    ``children``: [move, child key or None, place in the generator's order],
    in trying order, once expanded.
    """

    __slots__ = ("lo", "tree", "children")

    def __init__(self, lo: int = -1, tree: ForcingTree | None = None):
        self.lo = lo
        self.tree = tree
        self.children: list[list[Any]] | None = None


class ForcingTreeSearch:
    """One search for one piece of advice from one root position.

    ``root`` is the root node, on a board of its own that nobody mutates (the
    comparative predicates read it throughout). ``board`` stands on the same
    position; the search pushes and pops on it and leaves it as it found it.
    ``budget`` bounds the number of nodes whose goals are evaluated;
    :meth:`run` raises :class:`SearchBudgetExceeded` when it is spent.
    """

    def __init__(self, advice: CompiledAdvice, root: Node, board: chess.Board,
                 budget: int = 1_000_000):
        self.advice = advice
        self.board = board
        self.us = root.us
        self.root = root
        self.budget = budget
        self.nodes = 0
        self.memo: dict[tuple[PositionKey, int], _Entry] = {}

    def run(self) -> ForcingTree | None:
        """The forcing tree of least worst-case depth, or None if there is none
        within the constraints."""
        key = (position_key(self.board), 0)
        return self._solve(key, 0, self.advice.horizon)

    def _visit(self, key: tuple[PositionKey, int], depth: int) -> _Entry:
        """Evaluate the goals at a new node (the board stands on it)."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise SearchBudgetExceeded(
                f"advice {self.advice.name!r}: node budget of {self.budget} spent "
                f"searching from {self.root.board.fen()}")
        node = Node(self.board, depth, self.us)
        if not self.advice.holding(node, self.root):
            entry = _Entry(FAILS_ALWAYS)
        elif self.advice.better(node, self.root):
            entry = _Entry(tree=LEAF)
        else:
            entry = _Entry()
        self.memo[key] = entry
        return entry

    def _solve(self, key: tuple[PositionKey, int], depth: int, bound: int) -> ForcingTree | None:
        """A forcing tree of height <= ``bound`` from the node the board stands
        on, or None if none exists. Minimal in height when it exists."""
        entry = self.memo.get(key) or self._visit(key, depth)
        if entry.tree is not None and entry.tree.height <= bound:
            return entry.tree
        if entry.lo >= bound:
            return None
        if bound == 0:
            # Not a leaf, and no room for a move: fail without generating moves.
            entry.lo = 0
            return None
        if entry.children is None:
            node = Node(self.board, depth, self.us)
            ours = self.board.turn == self.us
            moves = (self.advice.us_moves if ours else self.advice.them_moves)(node)
            entry.children = [[move, None, place] for place, move in enumerate(moves)]
        if not entry.children:
            # Not a leaf and no allowed move: no tree, at any bound.
            entry.lo = FAILS_ALWAYS
            return None
        if self.board.turn == self.us:
            tree = self._solve_ours(entry, depth, bound)
        else:
            tree = self._solve_theirs(entry, depth, bound)
        if tree is None:
            entry.lo = bound
        else:
            entry.tree = tree
        return tree

    def _child(self, child: list[Any], depth: int, bound: int) -> ForcingTree | None:
        """Solve one child ``[move, key, place]``, looking in the memo before pushing."""
        move, key, _ = child
        if key is not None:
            entry = self.memo[key]
            if entry.tree is not None and entry.tree.height <= bound:
                return entry.tree
            if entry.lo >= bound:
                return None
        board = self.board
        board.push(move)
        try:
            if key is None:
                key = child[1] = (position_key(board), depth + 1)
            return self._solve(key, depth + 1, bound)
        finally:
            board.pop()

    def _solve_ours(self, entry: _Entry, depth: int, bound: int) -> ForcingTree | None:
        # Raise the child bound one ply at a time: the first child that
        # succeeds has the least height, so the tree is the shallowest.
        for child_bound in range(max(0, entry.lo), bound):
            for child in entry.children:  # type: ignore[union-attr]
                subtree = self._child(child, depth, child_bound)
                if subtree is not None:
                    return ForcingTree(subtree.height + 1, ((child[0], subtree),))
        return None

    def _solve_theirs(self, entry: _Entry, depth: int, bound: int) -> ForcingTree | None:
        children = entry.children
        branches = []
        for index, child in enumerate(children):  # type: ignore[arg-type]
            subtree = self._child(child, depth, bound - 1)
            if subtree is None:
                # Try this refutation first next time: it is the likeliest to refute again.
                children.insert(0, children.pop(index))  # type: ignore[union-attr]
                return None
            branches.append((child[2], child[0], subtree))
        # The tree lists the replies in the generator's order, whatever order they were tried in.
        branches.sort(key=lambda branch: branch[0])
        height = 1 + max(subtree.height for _, _, subtree in branches)
        return ForcingTree(height, tuple((move, subtree) for _, move, subtree in branches))
