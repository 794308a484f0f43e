"""The search node every goal, feature and generator reads: a position,
its depth (plies from the root) and the side the table plays for, with a
memo of what is derived from it. The search makes one at every position it
meets; a library's functions take them."""

from __future__ import annotations

from typing import Any, Callable, Iterable

import chess

from al0.board.moves import apply, legal_moves
from al0.board.position import Position, from_board, to_board


class Node:
    """A search node: a position, its depth (plies from the root) and the
    side the table plays for.

    Predicates read ``node.position``, the compact immutable position of
    :mod:`al0.board.position` (piece bitboards and side to move; see that module
    for the functions that read it): it is what the search walks over, and
    reading it is cheap. ``node.board`` is a python-chess ``Board`` at the
    same position, built on first use, for libraries that want python-chess's
    API; it is the library's own copy (mutating it changes nothing for the
    search) and costs a board per node, so fast libraries avoid it.
    :meth:`fact` memoises a derived value (e.g. piece squares) for the node's
    lifetime, so predicates that share it compute it once; ``node.facts`` is
    that memo (function -> value), which a predicate run at every node may
    read directly (``node.facts.get(compute)``) to save the call.
    """

    __slots__ = ("position", "depth", "us", "facts", "_board")

    def __init__(self, position: Position | chess.Board, depth: int, us: chess.Color):
        if isinstance(position, chess.Board):
            self._board: chess.Board | None = position
            position = from_board(position)
        else:
            self._board = None
        self.position: Position = position
        self.depth = depth
        self.us = us
        self.facts: dict[Callable[[Node], object], Any] = {}

    @property
    def board(self) -> chess.Board:
        """A python-chess board at this node's position (built once, lazily)."""
        if self._board is None:
            self._board = to_board(self.position)
        return self._board

    @property
    def fen(self) -> str:
        """The node's position as FEN, for messages."""
        return self.board.fen()

    def legal_moves(self) -> list[chess.Move]:
        """Every legal move at this node, in python-chess's order (computed
        once per node, without playing them; do not mutate the list)."""
        return self.fact(_legal_moves)  # type: ignore[return-value]

    def known_legal_moves(self) -> list[chess.Move] | None:
        """:meth:`legal_moves` if something has asked for them already, else None."""
        return self.facts.get(_legal_moves)

    def successors(self) -> dict[chess.Move, Position]:
        """Every legal move at this node, in python-chess's order, with the
        position it leads to (computed once per node)."""
        return self.fact(_successor_map)  # type: ignore[return-value]

    def fact(self, compute: Callable[[Node], object]) -> object:
        """``compute(self)``, computed once per node (``compute`` must not return None)."""
        value = self.facts.get(compute)
        if value is None:
            value = self.facts[compute] = compute(self)
        return value


def node_at(position: Position, depth: int, us: chess.Color) -> Node:
    """``Node(position, depth, us)`` for a compact position, made without
    the class call: calling a class runs its ``__init__`` through a slower
    path than a function's (the search makes a node at every position it
    meets)."""
    node = _new_object(Node)
    node.position = position
    node.depth = depth
    node.us = us
    node.facts = {}
    node._board = None
    return node


_new_object = object.__new__


def _legal_moves(node: Node) -> list[chess.Move]:
    return legal_moves(node.position)


def _successor_map(node: Node) -> dict[chess.Move, Position]:
    position = node.position
    return {move: apply(position, move) for move in node.legal_moves()}


Predicate = Callable[[Node, Node], bool]
"""A predicate of a library: a truth of a node and the search's root."""
Generator = Callable[[Node], Iterable[chess.Move]]
"""A move generator of a library: moves of a node, in the order to try them."""
FeatureFunction = Callable[[Node], "int | None"]
"""A feature of a library: a number (or None) of a node; the goal
language's :class:`~al0.lang.model.Feature` names one in an expression."""
