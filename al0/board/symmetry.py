"""The board's eight symmetries, and one orientation per symmetry class.

A pawnless position without castling rights has the same future as its
mirror images: flipped left to right, top to bottom, or in a diagonal; a
position with pawns (which move up or down the board) only as its image
flipped left to right, the file mirror (a <-> h). A
table whose vocabulary ignores the board's orientation (distances, edges,
corners, boxes) still breaks ties between equally good moves by the order in
which its generators list them, which depends on the orientation: played as
it is, such a table may mate from a position and repeat from its mirror
image. Planning every position in one orientation of its class, the
*canonical* one, and mapping the plan back makes mirror images play as
mirror images, so judging one position per class judges them all.

The canonical orientation is the one the tablebase uses for a class's
representative (our king in the a1-d1-d4 triangle, then the least squares
of the other men in the order K, Q, R, B, N, k, q, r, b, n): a start
position ``verify`` takes from the tablebase is already canonical. With
pawns, it is the one with our king on the files a to d.
"""

from __future__ import annotations

import chess

from al0.board.position import Bitboard, Position

Symmetry = int
"""One of the board's eight symmetries, by its bits: 1 flips the files
(a <-> h), 2 flips the ranks (1 <-> 8), 4 then swaps files and ranks."""

IDENTITY: Symmetry = 0

FILE_MIRROR: Symmetry = 1
"""The one symmetry (besides the identity) of a position with pawns."""


def _image(symmetry: Symmetry, square: chess.Square) -> chess.Square:
    x, y = chess.square_file(square), chess.square_rank(square)
    x, y = (7 - x if symmetry & 1 else x), (7 - y if symmetry & 2 else y)
    return chess.square(y, x) if symmetry & 4 else chess.square(x, y)


SQUARE_MAPS = tuple(tuple(_image(g, s) for s in chess.SQUARES) for g in range(8))
"""``SQUARE_MAPS[g][square]``: where symmetry ``g`` takes ``square``."""

INVERSE = tuple(
    next(h for h in range(8) if all(SQUARE_MAPS[h][SQUARE_MAPS[g][s]] == s for s in chess.SQUARES))
    for g in range(8)
)
"""``INVERSE[g]``: the symmetry that undoes ``g``."""

_LEAST = tuple(
    tuple(g for g in range(8) if SQUARE_MAPS[g][square] == min(SQUARE_MAPS[h][square] for h in range(8)))
    for square in chess.SQUARES
)
"""``_LEAST[square]``: the symmetries that take ``square`` to the least
square of its orbit, in the a1-d1-d4 triangle: one, or two for a square of
a long diagonal (its image lies on a1-d4, which the a1-h8 reflection keeps)."""


def symmetries(position: Position) -> tuple[Symmetry, ...]:
    """The symmetries that keep ``position``'s future: all eight without
    pawns, the identity and the file mirror with them."""
    return (IDENTITY, FILE_MIRROR) if position[7] else tuple(range(8))


def transform_bitboard(bitboard: Bitboard, symmetry: Symmetry) -> Bitboard:
    """``bitboard`` under ``symmetry``."""
    squares = SQUARE_MAPS[symmetry]
    image = 0
    while bitboard:
        low = bitboard & -bitboard
        image |= 1 << squares[low.bit_length() - 1]
        bitboard ^= low
    return image


def transform_position(position: Position, symmetry: Symmetry) -> Position:
    """``position`` under ``symmetry`` (the side to move is kept; a position
    with pawns only under one of its :func:`symmetries`)."""
    if symmetry == IDENTITY:
        return position
    white, black, kings, queens, rooks, bishops, knights, pawns, turn, ep_square = position
    return Position(
        transform_bitboard(white, symmetry),
        transform_bitboard(black, symmetry),
        transform_bitboard(kings, symmetry),
        transform_bitboard(queens, symmetry),
        transform_bitboard(rooks, symmetry),
        transform_bitboard(bishops, symmetry),
        transform_bitboard(knights, symmetry),
        transform_bitboard(pawns, symmetry),
        turn,
        None if ep_square is None else SQUARE_MAPS[symmetry][ep_square],
    )


def canonical_symmetry(position: Position, us: chess.Color) -> Symmetry:
    """The symmetry that takes ``position`` to its class's canonical
    orientation: the least squares of the men, ``us``'s king first, then
    ``us``'s queens, rooks, bishops, knights, then theirs likewise (the
    least symmetry when several give it: the position is then symmetric).
    Only the symmetries that take our king to its least square can. With
    pawns, only the identity or the file mirror: the one that puts our king
    on the files a to d."""
    ours = position.white if us else position.black
    king = (position.kings & ours).bit_length() - 1
    if position.pawns:
        return FILE_MIRROR if king & 7 > 3 else IDENTITY
    candidates = _LEAST[king]
    if len(candidates) == 1:
        return candidates[0]
    groups: list[list[chess.Square]] = []
    for colour in (ours, (position.white | position.black) & ~ours):
        groups.append(list(chess.scan_forward(position.kings & colour)))
        # The men other than kings, most valuable first: queens, rooks,
        # bishops, knights (a position with pawns was answered above).
        groups += [list(chess.scan_forward(mask & colour)) for mask in position[3:7] if mask & colour]

    def key(symmetry: Symmetry) -> list[list[chess.Square]]:
        squares = SQUARE_MAPS[symmetry]
        return [sorted(squares[s] for s in group) for group in groups]

    return min(candidates, key=key)


def class_key(position: Position) -> Position:
    """One position for ``position``'s whole symmetry class: equal for a
    position and each of its mirror images, different across classes. The
    canonical orientation with White's king first (any fixed side gives a
    key; :func:`canonical_symmetry` takes the table's)."""
    return transform_position(position, canonical_symmetry(position, chess.WHITE))


def transform_move(move: chess.Move, symmetry: Symmetry) -> chess.Move:
    """``move`` under ``symmetry`` (any move: a library's illegal one too)."""
    squares = SQUARE_MAPS[symmetry]
    return chess.Move(squares[move.from_square], squares[move.to_square], move.promotion, move.drop)
