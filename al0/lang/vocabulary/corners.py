"""Corner features: how near the corner triangles a king's box (``area``)
reaches, the measures of a king driven into a corner by bishops or by
bishop and knight."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import chess

from al0.lang.node import FeatureFunction, Node
from al0.lang.vocabulary.boxes import _area_region, _AreaRegion
from al0.lang.vocabulary.squares import _CORNERS, _DIST, _MDIST, _corner_squares
from al0.lang.vocabulary.terms import Colour, PieceRef


def _farthest(table: tuple[chess.Bitboard, ...], region: chess.Bitboard) -> int:
    """The largest ``d`` with a square of ``region`` in ``table[d]``, where
    ``table[d]`` holds the squares at ``d`` or more from a square (``table[0]``
    every square, so a non-empty ``region`` has at least 0): a binary
    search over the masks instead of a scan over the region's squares."""
    low, high = 0, len(table) - 1  # table[high] is empty
    while high - low > 1:
        middle = (low + high) // 2
        if region & table[middle]:
            low = middle
        else:
            high = middle
    return low


_MDIST_BEYOND = {
    c: tuple(sum(chess.BB_SQUARES[s] for s in chess.SQUARES if _MDIST[c][s] >= d) for d in range(16))
    for c in _CORNERS[None]
}
"""For each corner and ``d`` in 0 … 15, the squares at a Manhattan
distance of ``d`` or more from it (for :func:`_farthest`)."""


@dataclass(frozen=True)
class _TriangleCorners:
    """The size of the smallest corner triangle that holds ``area(king)``
    (see :func:`corner_triangle`) and the corners of that size, or
    ``(0, ())`` without a box or corners. Equal for equal arguments, so as
    a :meth:`Node.fact` key it is computed once per node for every feature
    that reads it."""

    king: PieceRef
    colour: Colour

    def __call__(self, node: Node) -> tuple[int, tuple[chess.Square, ...]]:
        region: chess.Bitboard = node.fact(_AreaRegion(self.king))  # type: ignore[assignment]
        corners = _corner_squares(node, self.colour)
        if not region or corners is None:
            return 0, ()
        reach = [_farthest(_MDIST_BEYOND[corner], region) for corner in corners]
        least = min(reach)
        return 1 + least, tuple(corner for corner, far in zip(corners, reach) if far == least)


def _triangle_corners(p: PieceRef, colour: Colour) -> Callable[[Node], tuple[int, tuple[chess.Square, ...]]]:
    """``node -> _TriangleCorners(p, colour)(node)``, memoised per node."""
    key = _TriangleCorners(p, colour)

    def found(node: Node) -> tuple[int, tuple[chess.Square, ...]]:
        return node.fact(key)  # type: ignore[return-value]

    return found


def corner_triangle(p: PieceRef, colour: Colour = None) -> FeatureFunction:
    """The size of the smallest corner triangle that holds a king's whole
    ``area``: 1 + the most files-plus-ranks steps from a square of the box to
    a corner, for the corner where that is least (with a second argument, a
    corner of that colour, as for ``corner_dist``).

    A bishop's diagonal cuts a corner off the board as a triangle, so this is
    the measure of a king driven into a corner by bishops: 1 is the corner
    square alone, 2 the corner and its two neighbours on the edges, 3 six
    squares; 8 or more, a box no diagonal separates from the middle. It
    does not change as the king steps about inside its box, and it falls
    only when the box is cut from the side away from its corner."""
    triangle = _triangle_corners(p, colour)

    def feature(node: Node) -> int | None:
        return triangle(node)[0] or None

    return feature


def diagonal_area(p: PieceRef, colour: Colour = None) -> FeatureFunction:
    """8 times the farthest diagonal a king's ``area`` reaches from a corner
    (files plus ranks from it), plus the squares of the area on that
    diagonal, for the corner where this is least (with a second argument, a
    corner of that colour, as for ``corner_dist``): Guid, Možina, Sadikov
    and Bratko's *king_area* of KBNK.

    Like ``corner_triangle`` it falls when the box is cut from the side away
    from the corner; it also falls, by less, when a square of the box's
    farthest diagonal is taken from it."""
    region = _area_region(p)

    def feature(node: Node) -> int | None:
        box, corners = region(node), _corner_squares(node, colour)
        if not box or corners is None:
            return None
        return min(_diagonal_measure(corner, box) for corner in corners)

    return feature


def _diagonal_measure(corner: chess.Square, box: chess.Bitboard) -> int:
    """8 times the farthest diagonal of ``box`` from ``corner``, plus its
    squares on that diagonal."""
    beyond = _MDIST_BEYOND[corner]
    far = _farthest(beyond, box)
    return 8 * far + chess.popcount(box & beyond[far] & ~beyond[far + 1])


def wrong_way(p: PieceRef, colour: PieceRef | bool) -> FeatureFunction:
    """``diagonal_area`` from the corner of that colour nearest to a king,
    of the part of its ``area`` that lies towards the nearest corner of the
    other colour (as near to it as to the other corner of that colour, files
    plus ranks): how far along the edge the king can still run the wrong
    way. Guid, Možina, Sadikov and Bratko's *wrong_corner_way* of KBNK.
    Where corners tie for nearest, the least of their measures.

    0 when that part of the box is empty."""
    region = _area_region(p)

    def feature(node: Node) -> int | None:
        box, square = region(node), p.square(node)
        corners = _corner_squares(node, colour)
        if not box or square is None or corners is None:
            return None
        wrong = tuple(corner for corner in _CORNERS[None] if corner not in corners)
        values = []
        for right in _nearest_corners(square, corners):
            for towards in _nearest_corners(square, wrong):
                other = wrong[0] if towards == wrong[1] else wrong[1]
                part = box & _AS_NEAR[towards][other]
                values.append(_diagonal_measure(right, part) if part else 0)
        return min(values)

    return feature


def _nearest_corners(square: chess.Square, corners: tuple[chess.Square, ...]) -> list[chess.Square]:
    """The corners of ``corners`` nearest to ``square`` (king steps)."""
    least = min(_DIST[square][corner] for corner in corners)
    return [corner for corner in corners if _DIST[square][corner] == least]


_AS_NEAR = {
    a: {
        b: sum(chess.BB_SQUARES[s] for s in chess.SQUARES if _MDIST[a][s] <= _MDIST[b][s])
        for b in _CORNERS[None]
    }
    for a in _CORNERS[None]
}
"""``_AS_NEAR[a][b]``: the squares at least as near to corner ``a`` as to
corner ``b``, files plus ranks."""


def triangle_corner_dist(a: PieceRef, p: PieceRef) -> FeatureFunction:
    """King steps from a piece to the corner of a king's
    ``corner_triangle`` (the nearest of them when two corners tie): where
    our king goes to help mate a king boxed towards that corner.

    It depends only on the box, so it does not change as the boxed king
    steps about inside it."""
    triangle = _triangle_corners(p, None)

    def feature(node: Node) -> int | None:
        x, corners = a.square(node), triangle(node)[1]
        if x is None or not corners:
            return None
        return min(_DIST[x][corner] for corner in corners)

    return feature


def hypotenuse_dist(a: PieceRef, p: PieceRef, colour: Colour = None) -> FeatureFunction:
    """Diagonals between a piece and the hypotenuse of a king's
    ``corner_triangle``: the difference between the piece's files-plus-ranks
    steps from the triangle's corner and the triangle's size (the least over
    corners that tie; with a third argument, the triangle towards a corner
    of that colour, as for ``corner_dist``). 0: the piece stands on the
    diagonal just beyond the box, the line that confines it.

    Delétang's method (1923) confines the king in ever smaller isosceles
    right triangles whose right angle is the bishop's corner; the bishop
    holds each one's hypotenuse, the other pieces its ends. So
    ``hypotenuse_dist(B, k, B)`` is 0 where the bishop holds the wall of
    their king's triangle, and says how far it is from that diagonal
    otherwise (a bishop of the other colour than the line is at least 1
    off it)."""
    triangle = _triangle_corners(p, colour)

    def feature(node: Node) -> int | None:
        x = a.square(node)
        size, corners = triangle(node)
        if x is None or not corners:
            return None
        return min(abs(_MDIST[corner][x] - size) for corner in corners)

    return feature
