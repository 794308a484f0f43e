"""An explicit game tree as a :class:`~al0.games.base.Game`: nodes, moves and static values as data.

Used by the search tests: textbook trees are written out by hand, random trees
are drawn from a seed. Leaves are terminal and score their static value; an
inner node's static value is what a depth-limited search sees at its horizon.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from al0.games.base import Game

MAX = "MAX"
MIN = "MIN"


@dataclass(frozen=True)
class Node:
    """One node: who moves, its static value (for MAX) and its ``(move, child)`` edges."""

    side: str
    value: float
    edges: tuple[tuple[str, str], ...]


class TreeGame(Game[str, str]):
    """A game whose positions are node names of an explicit tree."""

    def __init__(self, nodes: dict[str, Node], root: str) -> None:
        self.nodes = nodes
        self.root = root

    def initial(self) -> str:
        return self.root

    def to_move(self, state: str) -> str:
        return self.nodes[state].side

    def moves(self, state: str) -> Sequence[str]:
        return [move for move, _ in self.nodes[state].edges]

    def result(self, state: str, move: str) -> str:
        return dict(self.nodes[state].edges)[move]

    def is_terminal(self, state: str) -> bool:
        return not self.nodes[state].edges

    def winner(self, state: str) -> str | None:
        v = self.nodes[state].value
        return None if v == 0 else MAX if v > 0 else MIN

    def utility(self, state: str, side: object) -> float:
        return self.evaluate(state, side)

    def display(self, state: str) -> str:
        return state

    def evaluate(self, state: str, side: object) -> float:
        """The static value of ``state`` for ``side`` (the data holds it for MAX)."""
        v = self.nodes[state].value
        return v if side == MAX else -v


def tree(spec: dict[str, tuple[float, Sequence[str]]], root: str) -> TreeGame:
    """A tree from ``{node: (static value, children)}``; sides alternate from MAX at
    the root, and the move to a child is named after the child."""
    nodes: dict[str, Node] = {}

    def build(name: str, side: str) -> None:
        value, children = spec.get(name, (0.0, ()))
        nodes[name] = Node(side, value, tuple((child, child) for child in children))
        for child in children:
            build(child, MIN if side == MAX else MAX)

    build(root, MAX)
    return TreeGame(nodes, root)


def random_tree(rng: random.Random, depth: int, alternate: bool = True) -> TreeGame:
    """A random tree up to ``depth`` plies deep, 1–4 moves per node, small integer
    values (so ties are common); with ``alternate=False`` the side to move is
    drawn at random, so one side may move twice in a row."""
    nodes: dict[str, Node] = {}
    count = 0

    def build(side: str, left: int) -> str:
        nonlocal count
        name = f"n{count}"
        count += 1
        leaf = left == 0 or (left < depth and rng.random() < 0.15)
        children = [] if leaf else [build(_next(side), left - 1) for _ in range(rng.randint(1, 4))]
        nodes[name] = Node(
            side, float(rng.randint(-5, 5)), tuple((f"m{i}", c) for i, c in enumerate(children))
        )
        return name

    def _next(side: str) -> str:
        if alternate:
            return MIN if side == MAX else MAX
        return rng.choice((MAX, MIN))

    root = build(MAX, depth)
    return TreeGame(nodes, root)
