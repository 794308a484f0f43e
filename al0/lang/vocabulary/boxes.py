"""Box features: the squares a king can reach by king steps (``room``,
``area`` and what is measured from them) and the steps it has free: how
closely a king is confined, the measure a mate is driven by."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import chess

from al0.lang.node import FeatureFunction, Node
from al0.lang.vocabulary.squares import (
    _DIST,
    _EDGE_DIST,
    _corner_squares,
    _reach,
    _region,
    _side,
    _side_attacks,
    _spread,
)
from al0.lang.vocabulary.terms import Colour, PieceRef


def room(p: PieceRef) -> FeatureFunction:
    """The squares a king can reach by king steps without stepping onto a
    square the other side's pieces (kings aside) stand on or attack — attacks
    seen through both kings; 64 when it stands on such a square itself (it is
    not confined). The book's KRK room, generalised: with a rook it is the
    rectangle the rook's lines leave the king."""

    def compute(node: Node) -> int:
        position = node.position
        square = p.square(node)
        if square is None:
            return 64
        other = not p.colour(node)
        without_kings = (position.white | position.black) & ~position.kings
        barrier = _side_attacks(position, other, without_kings, kings=False) | (
            _side(position, other) & ~position.kings
        )
        start = chess.BB_SQUARES[square]
        return 64 if barrier & start else _reach(start, barrier)

    def feature(node: Node) -> int:
        return node.fact(compute)  # type: ignore[return-value]

    return feature


def area(p: PieceRef) -> FeatureFunction:
    """The squares a king could reach by king steps if only it moved: its
    own square, and every square connected to it through squares the other
    side does not attack (kings included, lines blocked as on the board) and
    its own side does not hold. Unlike ``room`` it counts our king's work
    too, and lines as they are; it never grows when that king itself moves."""
    region = _area_region(p)

    def feature(node: Node) -> int:
        return chess.popcount(region(node))

    return feature


@dataclass(frozen=True)
class _AreaRegion:
    """The squares of ``area(king)`` at a node (none when the king is gone).
    Equal for equal kings, so as a :meth:`Node.fact` key it is computed once
    per node for every feature that reads it."""

    king: PieceRef

    def __call__(self, node: Node) -> chess.Bitboard:
        square = self.king.square(node)
        if square is None:
            return 0
        return _region(chess.BB_SQUARES[square], _area_barrier(node, self.king, square))


def _area_barrier(node: Node, king: PieceRef, square: chess.Square) -> chess.Bitboard:
    """The squares ``area(king)`` never enters, the king standing on
    ``square``: those the other side attacks (:func:`_area_attacks`) and
    those its own side holds (the king's own square among them)."""
    return _area_attacks(node, king, square) | _side(node.position, king.colour(node))


def _area_attacks(node: Node, king: PieceRef, square: chess.Square) -> chess.Bitboard:
    """The squares the other side attacks, lines seen through the king on
    ``square`` (a square behind it along a checking line is attacked)."""
    position = node.position
    occupied = (position.white | position.black) & ~chess.BB_SQUARES[square]
    return _side_attacks(position, not king.colour(node), occupied, kings=True)


def area_squares(p: PieceRef) -> Callable[[Node], chess.Bitboard]:
    """``node -> the squares of area(p)`` as a bitboard: the box itself,
    for pictures of it (a game's record marks it)."""
    return _area_region(p)


def _area_region(p: PieceRef) -> Callable[[Node], chess.Bitboard]:
    """``node -> the squares of area(p)``, memoised per node."""
    key = _AreaRegion(p)

    def region(node: Node) -> chess.Bitboard:
        return node.fact(key)  # type: ignore[return-value]

    return region


def least_area(p: PieceRef) -> FeatureFunction:
    """The smallest ``area`` a king can leave itself with by one step of
    its own: its ``area`` when it is not in check (a step inside the box
    keeps the box); in check, the smallest of the boxes next to it that it
    can step into (0 when it has none).

    A check counts the king's attacked square in its ``area``, so the box
    can shrink when the king steps out of it: into a pocket of a single
    square, where every move of ours must free it again. ``least_area >= 2``
    after our move says their reply cannot make that pocket."""
    key = _AreaRegion(p)

    def feature(node: Node) -> int:
        square = p.square(node)
        if square is None:
            return 0
        start = chess.BB_SQUARES[square]
        attacked = _area_attacks(node, p, square)
        if not attacked & start:
            return chess.popcount(node.fact(key))  # type: ignore[arg-type]
        barrier = attacked | _side(node.position, p.colour(node))
        exits = _spread(start) & ~barrier
        least = 0
        while exits:
            box = _region(exits & -exits, barrier)
            size = chess.popcount(box)
            least = size if not least else min(least, size)
            exits &= ~box
        return least

    return feature


def area_corner_dist(p: PieceRef, colour: Colour = None) -> FeatureFunction:
    """King steps from the nearest square of a king's ``area`` to the nearest
    corner (with a second argument, a corner of that colour, as for
    ``corner_dist``): how near a corner the box it is held in reaches.

    The box is the same whichever of its squares the king stands on, so
    unlike ``corner_dist(k)`` this does not change as the king steps about
    inside it: it falls only when the box itself is moved towards a corner,
    which is how a king held on the edge is walked into one."""
    region = _area_region(p)

    def feature(node: Node) -> int | None:
        squares, corners = region(node), _corner_squares(node, colour)
        if not squares or corners is None:
            return None
        return min(_DIST[x][c] for x in chess.scan_forward(squares) for c in corners)

    return feature


def _nearest(square: chess.Square, region: chess.Bitboard) -> int:
    """King steps from ``square`` to the nearest square of a non-empty
    ``region``."""
    rings = _DIST_WITHIN[square]
    steps = 0
    while not region & rings[steps]:
        steps += 1
    return steps


_DIST_WITHIN = tuple(
    tuple(sum(chess.BB_SQUARES[s] for s in chess.SQUARES if _DIST[c][s] <= d) for d in range(8))
    for c in chess.SQUARES
)
"""For each square and ``d`` in 0 … 7, the squares within ``d`` king steps
of it (for :func:`_nearest`)."""


def area_dist(a: PieceRef, p: PieceRef) -> FeatureFunction:
    """King steps from a piece to the nearest square of a king's ``area``
    (our king's way to the box their king is held in).

    Like ``area`` it does not change when that king steps about inside its
    box, so "our king came nearer the box" is progress the other king
    cannot undo (``dist(K, k)`` changes with every step of theirs)."""
    region = _area_region(p)

    def feature(node: Node) -> int | None:
        x, squares = a.square(node), region(node)
        if x is None or not squares:
            return None
        return _nearest(x, squares)

    return feature


def mobility(p: PieceRef) -> FeatureFunction:
    """The squares a king could step to: next to it, not held by its own
    side, not attacked by the other (attacks seen through the king itself).
    With them to move, their lone king's number of legal moves."""

    def feature(node: Node) -> int | None:
        square = p.square(node)
        if square is None:
            return None
        return chess.popcount(_free_steps(node, p, square))

    return feature


def _free_steps(node: Node, p: PieceRef, square: chess.Square) -> chess.Bitboard:
    """The squares the king ``p`` on ``square`` could step to: not held by
    its own side, not attacked by the other (attacks seen through the king
    itself), as :func:`mobility` counts them and :func:`inward` filters them."""
    position = node.position
    colour = p.colour(node)
    occupied = (position.white | position.black) & ~chess.BB_SQUARES[square]
    attacked = _side_attacks(position, not colour, occupied, kings=True)
    return chess.BB_KING_ATTACKS[square] & ~_side(position, colour) & ~attacked


def inward(p: PieceRef) -> FeatureFunction:
    """The squares a king could step to (as for ``mobility``) that lie
    farther from the edge than its own: 0 for a king held on its edge.

    A king driven along the edge (bishop and knight's walk to the right
    corner) must be kept there: ``inward(k) = 0`` says our pieces and king
    close every way off it, whatever its steps along the edge."""

    def feature(node: Node) -> int | None:
        square = p.square(node)
        if square is None:
            return None
        return chess.popcount(_free_steps(node, p, square) & _FARTHER_FROM_EDGE[square])

    return feature


_FARTHER_FROM_EDGE = tuple(
    sum(chess.BB_SQUARES[t] for t in chess.SQUARES if _EDGE_DIST[t] > _EDGE_DIST[s]) for s in chess.SQUARES
)
"""For each square, the squares farther from the edge than it (for :func:`inward`)."""
