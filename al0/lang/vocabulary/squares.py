"""Square tables and king-step regions the vocabulary's entries share,
computed once at import (the names are private to the vocabulary package)."""

from __future__ import annotations

import chess

from al0.board.position import Bitboard, Position, attacks
from al0.lang.node import Node
from al0.lang.vocabulary.terms import Colour, PieceRef

_XY = tuple((chess.square_file(s), chess.square_rank(s)) for s in chess.SQUARES)
_CORNERS = {
    None: (chess.A1, chess.H1, chess.A8, chess.H8),
    chess.BLACK: (chess.A1, chess.H8),
    chess.WHITE: (chess.H1, chess.A8),
}
_EDGE_DIST = tuple(min(x, 7 - x, y, 7 - y) for x, y in _XY)
# python-chess's square_distance and square_manhattan_distance, tabulated
# from the coordinates (calling them 8,192 times costs every start noticeably).
_DIST = tuple(tuple(max(abs(ax - bx), abs(ay - by)) for bx, by in _XY) for ax, ay in _XY)
_MDIST = tuple(tuple(abs(ax - bx) + abs(ay - by) for bx, by in _XY) for ax, ay in _XY)
_STRAIGHT_LINES = _XY
"""A square's file and rank: the lines a rook or queen divides along."""
_DIAGONAL_LINES = tuple((x - y, x + y) for x, y in _XY)
"""A square's diagonal and anti-diagonal: the lines a bishop divides along."""


def _square_colour(square: chess.Square) -> bool:
    """chess.WHITE for a light square, chess.BLACK for a dark one."""
    return bool(chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[square])


def _side(position: Position, colour: chess.Color) -> Bitboard:
    """``colour``'s occupancy."""
    return position.white if colour else position.black


def _side_attacks(position: Position, colour: chess.Color, occupied: Bitboard, kings: bool) -> Bitboard:
    """Every square ``colour``'s pieces attack with ``occupied`` on the board
    (its king's too when ``kings``)."""
    mask = 0
    side = _side(position, colour)
    if not kings:
        side &= ~position.kings
    while side:
        bit = side & -side
        mask |= attacks(position, bit.bit_length() - 1, occupied)
        side ^= bit
    return mask


def _spread(region: chess.Bitboard) -> chess.Bitboard:
    """``region`` and every square a king step away from it."""
    row = region | ((region >> 1) & ~chess.BB_FILE_H) | ((region << 1) & ~chess.BB_FILE_A & chess.BB_ALL)
    return row | ((row << 8) & chess.BB_ALL) | (row >> 8)


def _region(start: chess.Bitboard, barrier: chess.Bitboard) -> chess.Bitboard:
    """The squares a king on ``start`` reaches by king steps that never
    enter ``barrier`` (``start`` itself always among them)."""
    region = start
    while True:
        grown = region | (_spread(region) & ~barrier)
        if grown == region:
            return region
        region = grown


def _reach(start: chess.Bitboard, barrier: chess.Bitboard) -> int:
    """How many squares :func:`_region` holds."""
    return chess.popcount(_region(start, barrier))


def _corner_squares(node: Node, colour: Colour) -> tuple[chess.Square, ...] | None:
    """The corners of ``colour`` (a piece's: the colour of its square; None
    when that piece is gone)."""
    if isinstance(colour, PieceRef):
        shade = colour.square(node)
        return None if shade is None else _CORNERS[_square_colour(shade)]
    return _CORNERS[colour]
