"""Distance features: how far apart pieces stand, and how far a piece
stands from the edge, the corners, the centre or a critical square."""

from __future__ import annotations

import math

import chess

from al0.lang.node import FeatureFunction, Node
from al0.lang.vocabulary.squares import _CORNERS, _DIST, _EDGE_DIST, _MDIST, _XY, _square_colour
from al0.lang.vocabulary.terms import Colour, PieceRef


def dist(a: PieceRef, b: PieceRef) -> FeatureFunction:
    """Chebyshev (king-move) distance between two pieces."""

    def feature(node: Node) -> int | None:
        x, y = a.square(node), b.square(node)
        return None if x is None or y is None else _DIST[x][y]

    return feature


def mdist(a: PieceRef, b: PieceRef) -> FeatureFunction:
    """Manhattan distance (files apart plus ranks apart) between two pieces."""

    def feature(node: Node) -> int | None:
        x, y = a.square(node), b.square(node)
        return None if x is None or y is None else _MDIST[x][y]

    return feature


def _knight_moves_from(start: chess.Square) -> tuple[int, ...]:
    """Knight moves from ``start`` to each square of the empty board (a
    breadth-first walk: every square is reached, a1 to b2 in four)."""
    moves = [-1] * 64
    moves[start] = 0
    frontier, steps = [start], 0
    while frontier:
        steps += 1
        reached = []
        for square in frontier:
            for target in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[square]):
                if moves[target] < 0:
                    moves[target] = steps
                    reached.append(target)
        frontier = reached
    return tuple(moves)


_KNIGHT_DIST = tuple(_knight_moves_from(s) for s in chess.SQUARES)
"""Knight moves between any two squares of the empty board."""


def knight_dist(a: PieceRef, b: PieceRef) -> FeatureFunction:
    """Knight moves from the first piece's square to the second's on an
    empty board (1: a knight's move apart; a knight beside its king on a
    file or rank is 3 away, on a diagonal 2, in a corner with its king
    diagonally beside it 4). The coach's "two knight moves from its king":
    king steps understate a knight's way home (two squares apart on a
    diagonal is four knight moves)."""

    def feature(node: Node) -> int | None:
        x, y = a.square(node), b.square(node)
        return None if x is None or y is None else _KNIGHT_DIST[x][y]

    return feature


def edge_dist(a: PieceRef) -> FeatureFunction:
    """King steps from a piece to the nearest edge square (0 on the edge)."""

    def feature(node: Node) -> int | None:
        x = a.square(node)
        return None if x is None else _EDGE_DIST[x]

    return feature


def _towards_centre(square: chess.Square) -> chess.Square:
    """The square next to ``square`` on the straight line from it to the
    middle of the board (the point between d4, e4, d5 and e5)."""
    x, y = _XY[square]
    dx, dy = 3.5 - x, 3.5 - y
    longest = max(abs(dx), abs(dy))  # at least 0.5: the middle is between squares
    return chess.square(x + math.floor(dx / longest + 0.5), y + math.floor(dy / longest + 0.5))


_CENTRE_SIDE = tuple(_towards_centre(s) for s in chess.SQUARES)


def centre_side_dist(a: PieceRef, b: PieceRef) -> FeatureFunction:
    """King steps from the first piece to the square next to the second on
    its straight way to the middle of the board (0: standing on it).

    Guid, Možina, Sadikov and Bratko's ``cpdist``: a king on that square
    stands between the other king and the centre, the place to push from
    (a king that approaches from the edge side drives the other king back
    into the middle)."""

    def feature(node: Node) -> int | None:
        x, y = a.square(node), b.square(node)
        return None if x is None or y is None else _DIST[x][_CENTRE_SIDE[y]]

    return feature


def corner_dist(a: PieceRef, colour: Colour = None) -> FeatureFunction:
    """King steps from a piece to the nearest corner; with a second argument
    (``light``, ``dark``, or a piece: the colour of its square, e.g. a
    bishop's), to the nearest corner of that colour."""
    if isinstance(colour, PieceRef):
        shade = colour

        def by_shade(node: Node) -> int | None:
            x, y = a.square(node), shade.square(node)
            return None if x is None or y is None else _CORNER_DIST_BY_SHADE[y][x]

        return by_shade
    distances = _CORNER_DIST[colour]

    def feature(node: Node) -> int | None:
        x = a.square(node)
        return None if x is None else distances[x]

    return feature


_CORNER_DIST = {
    colour: tuple(min(_DIST[x][c] for c in corners) for x in chess.SQUARES)
    for colour, corners in _CORNERS.items()
}
"""King steps from each square to the nearest corner (of a colour, or any)."""
_CORNER_DIST_BY_SHADE = tuple(_CORNER_DIST[_square_colour(s)] for s in chess.SQUARES)
"""The same for the corners of the colour of each square (a piece's)."""


def critical_mdist(a: PieceRef, line: PieceRef, target: PieceRef) -> FeatureFunction:
    """Manhattan distance from the first piece to the critical square: the
    square diagonally next to the second piece on the third's side (file and
    rank each one step towards it; the higher one when level). The book's KRK
    approach measure, ``critical_mdist(K, R, k)``: our king heading for the
    corner of the rook's box."""

    def feature(node: Node) -> int | None:
        x, r, t = a.square(node), line.square(node), target.square(node)
        if x is None or r is None or t is None:
            return None
        (rx, ry), (tx, ty), (ax, ay) = _XY[r], _XY[t], _XY[x]
        cx = rx - 1 if tx < rx else rx + 1
        cy = ry - 1 if ty < ry else ry + 1
        return abs(ax - cx) + abs(ay - cy)

    return feature
