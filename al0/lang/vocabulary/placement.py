"""Where pieces stand: between the kings, cut off from their king, in
opposition, on an edge, in a corner."""

from __future__ import annotations

import chess

from al0.board.position import Bitboard, Position, king_square
from al0.errors import TableSyntaxError
from al0.lang.node import Node, Predicate
from al0.lang.vocabulary.distances import corner_dist
from al0.lang.vocabulary.squares import _DIAGONAL_LINES, _EDGE_DIST, _STRAIGHT_LINES, _XY
from al0.lang.vocabulary.terms import Colour, PieceRef, _with_its_king


def divides(p: PieceRef) -> Predicate:
    """The piece stands between the kings: a rook's or queen's file strictly
    between the kings' files or its rank strictly between their ranks; a
    bishop's diagonal or anti-diagonal strictly between the kings' ones."""
    if p.piece_type not in (chess.ROOK, chess.QUEEN, chess.BISHOP):
        raise TableSyntaxError(f"divides takes a rook, queen or bishop, not {p.name}")
    lines = _DIAGONAL_LINES if p.piece_type == chess.BISHOP else _STRAIGHT_LINES

    def predicate(node: Node, root: Node) -> bool:
        square = p.square(node)
        if square is None:
            return False
        ours, theirs = king_square(node.position, node.us), king_square(node.position, not node.us)
        if ours < 0 or theirs < 0:
            return False
        (a1, a2), (b1, b2), (c1, c2) = lines[ours], lines[square], lines[theirs]
        return (min(a1, c1) < b1 < max(a1, c1)) or (min(a2, c2) < b2 < max(a2, c2))

    return predicate


def cut_off(p: PieceRef) -> Predicate:
    """The piece is cut off from its king: a rook or queen of the other side
    has its file strictly between the piece's file and its king's, or its
    rank strictly between their ranks (the line the king would have to
    cross, as a rook cuts off a lone king). Rook against knight: a knight
    cut off is chased and won."""

    def test(
        position: Position, colour: chess.Color, square: chess.Square, king: chess.Square, occupied: Bitboard
    ) -> bool:
        (px, py), (kx, ky) = _XY[square], _XY[king]
        lines = (position.rooks | position.queens) & (position.black if colour else position.white)
        for line in chess.scan_forward(lines):
            lx, ly = _XY[line]
            if min(px, kx) < lx < max(px, kx) or min(py, ky) < ly < max(py, ky):
                return True
        return False

    return _with_its_king(p, "cut_off", test)


def opposition() -> Predicate:
    """The kings stand on one file or rank with one square between them."""

    def predicate(node: Node, root: Node) -> bool:
        a, b = king_square(node.position, chess.WHITE), king_square(node.position, chess.BLACK)
        if a < 0 or b < 0:
            return False
        (ax, ay), (bx, by) = _XY[a], _XY[b]
        return (ax == bx and abs(ay - by) == 2) or (ay == by and abs(ax - bx) == 2)

    return predicate


def edge(p: PieceRef) -> Predicate:
    """The piece stands on an edge file or rank."""

    def predicate(node: Node, root: Node) -> bool:
        square = p.square(node)
        return square is not None and _EDGE_DIST[square] == 0

    return predicate


def corner(p: PieceRef, colour: Colour = None) -> Predicate:
    """The piece stands in a corner; with a second argument, in a corner of
    that colour (``light``, ``dark``, or the colour of a piece's square)."""
    distance = corner_dist(p, colour)

    def predicate(node: Node, root: Node) -> bool:
        return distance(node) == 0

    return predicate
