"""Squares, the board's symmetries and the index of a tablebase, in numpy.

Every function here works on whole arrays of positions at once: a position
is a list of square arrays, one per slot of its :class:`Material` (square
64 stands for "off the board" in intermediate steps). The index puts the
first side's king in the triangle a1-d1-d4, which one of the board's 8
symmetries (flips and the diagonal reflection: none changes a pawnless
position's value) always achieves; the other men take any of the 64 squares.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import chess
import numpy as np
import numpy.typing as npt

from al0.board import Material
from al0.board.symmetry import SQUARE_MAPS

Squares = npt.NDArray[np.int64]
"""Squares of one slot for many positions (64: off the board)."""
Indices = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]

OFF = 64
"""The square beyond the edge: every table maps it to itself."""


SYMMETRIES = np.array([list(SQUARE_MAPS[g]) + [OFF] for g in range(8)], dtype=np.int64)
"""``SYMMETRIES[g, square]``: the 8 symmetries of the board as square maps
(:data:`al0.board.symmetry.SQUARE_MAPS`, with OFF mapped to itself)."""
_FLAT_SYMMETRIES = SYMMETRIES.ravel()
"""The same, indexed by ``g * 65 + square``: one flat lookup is cheaper than two."""
DIAGONAL = 4
"""The reflection in the a1-h8 diagonal: the symmetry that fixes the triangle's
diagonal squares, so the only one that can map a canonical position to another."""
TRIANGLE = [s for s in chess.SQUARES if chess.square_rank(s) <= chess.square_file(s) <= 3]
"""a1 b1 c1 d1 b2 c2 d2 c3 d3 d4: one square of every orbit of the symmetries."""
TRIANGLE_INDEX = np.full(OFF + 1, -1, dtype=np.int64)
TRIANGLE_INDEX[TRIANGLE] = np.arange(len(TRIANGLE))
ONTO = np.array(
    [next(g for g in range(8) if SQUARE_MAPS[g][s] in TRIANGLE) for s in range(64)] + [0], dtype=np.int64
)
"""``ONTO[square]``: a symmetry that maps ``square`` into the triangle."""
MIRROR_ONTO = np.array([1 if chess.square_file(s) > 3 else 0 for s in range(64)] + [0], dtype=np.int64)
"""``MIRROR_ONTO[square]``: the symmetry (of the two a table with pawns
keeps) that maps ``square`` onto files a-d."""
ON_DIAGONAL = np.array([chess.square_file(s) == chess.square_rank(s) for s in range(64)] + [False])


def _steps(offsets: list[tuple[int, int]]) -> npt.NDArray[np.int64]:
    table = np.full((len(offsets), OFF + 1), OFF, dtype=np.int64)
    for d, (df, dr) in enumerate(offsets):
        for s in chess.SQUARES:
            f, r = chess.square_file(s) + df, chess.square_rank(s) + dr
            if 0 <= f < 8 and 0 <= r < 8:
                table[d, s] = chess.square(f, r)
    return table


STEP = _steps(
    [
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ]
)
"""``STEP[direction, square]``: the next square that way (OFF past the edge).
Directions 0-3 are orthogonal, 4-7 diagonal, 8-15 the knight's jumps."""

MOVES: dict[chess.PieceType, tuple[range, bool]] = {
    chess.KING: (range(0, 8), False),
    chess.QUEEN: (range(0, 8), True),
    chess.ROOK: (range(0, 4), True),
    chess.BISHOP: (range(4, 8), True),
    chess.KNIGHT: (range(8, 16), False),
}
"""Each piece's directions and whether it slides (repeats its step)."""


def _pairs(test: Callable[[int, int], object]) -> npt.NDArray[np.bool_]:
    """``table[a, b]``: whether ``test`` holds for squares a and b (never for OFF)."""
    return np.array(
        [[bool(test(a, b)) if a < OFF and b < OFF else False for b in range(OFF + 1)] for a in range(OFF + 1)]
    )


KING_TOUCH = _pairs(lambda a, b: chess.square_distance(a, b) == 1)
KNIGHT_TOUCH = _pairs(lambda a, b: chess.BB_KNIGHT_ATTACKS[a] & chess.BB_SQUARES[b])
ROOK_LINE = _pairs(
    lambda a, b: (
        a != b
        and chess.BB_RAYS[a][b]
        and (chess.square_file(a) == chess.square_file(b) or chess.square_rank(a) == chess.square_rank(b))
    )
)
BISHOP_LINE = _pairs(lambda a, b: a != b and chess.BB_RAYS[a][b] and not ROOK_LINE[a, b])


def _pawn_touch(colour: chess.Color) -> npt.NDArray[np.bool_]:
    return _pairs(lambda a, b: chess.BB_PAWN_ATTACKS[colour][a] & chess.BB_SQUARES[b])


PAWN_TOUCH = np.array([_pawn_touch(chess.WHITE), _pawn_touch(chess.BLACK)])
"""``PAWN_TOUCH[side, a, b]``: a pawn of ``side`` on ``a`` attacks ``b`` (the
first side's pawns go up the board: White's)."""
BETWEEN = np.array(
    [[chess.between(a, b) if a < 64 and b < 64 else 0 for b in range(OFF + 1)] for a in range(OFF + 1)],
    dtype=np.uint64,
)
"""``BETWEEN[a, b]``: the squares strictly between two squares on a line, as a bitboard."""
BIT = np.array([1 << s for s in range(64)] + [0], dtype=np.uint64)


@dataclass(frozen=True, eq=False)
class Layout:
    """The index of one material: slot 0 (the first king) by the ordinal of
    its square among the least squares of the symmetries' orbits (the
    triangle's without pawns, files a-d's with them: a pawn keeps only the
    mirror of the files), every other slot by its square, most significant
    first."""

    material: Material

    @property
    def men(self) -> int:
        return len(self.material.types)

    @functools.cached_property
    def symmetries(self) -> tuple[int, ...]:
        """The symmetries that keep a position's value: all 8 without pawns,
        the identity and the mirror of the files (1) with them."""
        return (0, 1) if chess.PAWN in self.material.types else tuple(range(8))

    @functools.cached_property
    def first_squares(self) -> Squares:
        """The squares of slot 0, in index order: the least of each orbit."""
        return np.array(
            [s for s in chess.SQUARES if min(SQUARE_MAPS[g][s] for g in self.symmetries) == s], dtype=np.int64
        )

    @functools.cached_property
    def first_index(self) -> Indices:
        """``first_index[square]``: its ordinal among :attr:`first_squares`, else -1."""
        ordinals = np.full(OFF + 1, -1, dtype=np.int64)
        ordinals[self.first_squares] = np.arange(len(self.first_squares))
        return ordinals

    @property
    def size(self) -> int:
        """Entries per side to move."""
        return len(self.first_squares) << 6 * (self.men - 1)

    @property
    def weights(self) -> tuple[int, ...]:
        return tuple(1 << 6 * (self.men - 1 - slot) for slot in range(self.men))

    def decode(self, index: Indices) -> list[Squares]:
        """The squares of every slot at ``index``."""
        weights = self.weights
        squares = [self.first_squares[index // weights[0]]]
        squares += [index // weights[slot] % 64 for slot in range(1, self.men)]
        return squares

    def _index(self, squares: list[Squares]) -> Indices:
        """The index of positions whose first king is in the triangle."""
        weights = self.weights
        index = self.first_index[squares[0]] * weights[0]
        for slot in range(1, self.men):
            index += squares[slot] * weights[slot]
        return index

    def raw_index(self, squares: list[Squares]) -> Indices:
        """The index of positions whose first king is on a least square (else -1)."""
        return np.where(self.first_index[squares[0]] < 0, -1, self._index(squares))

    def images(self, squares: list[Squares]) -> Iterator[Indices]:
        """The indices of every symmetric image of the positions, where the
        image puts the first king in the triangle (else -1)."""
        pair = self.material.pair
        for g in self.symmetries:
            image = [SYMMETRIES[g][s] for s in squares]
            yield self.raw_index(image)
            if pair is not None:
                yield self.raw_index(self._swapped(image, pair))

    @staticmethod
    def _swapped(squares: list[Squares], pair: tuple[int, int]) -> list[Squares]:
        """``squares`` with the two like pieces' slots exchanged."""
        swapped = list(squares)
        swapped[pair[0]], swapped[pair[1]] = squares[pair[1]], squares[pair[0]]
        return swapped

    def canonical(self, squares: list[Squares], king_placed: bool = False) -> Indices:
        """The index of the class of each position: the least index among
        its symmetric images (and the orders of two like pieces). Only the
        symmetry that takes the first king into the triangle, and then the
        diagonal reflection when it lands on the diagonal, can give one.
        ``king_placed``: the first king is known to be in the triangle
        already (a man other than it moved in a canonical position), which
        saves the first symmetry."""
        if king_placed:
            image = squares
        else:
            onto = ONTO if len(self.symmetries) == 8 else MIRROR_ONTO
            offset = onto[squares[0]] * (OFF + 1)
            image = [_FLAT_SYMMETRIES[offset + s] for s in squares]
        pair = self.material.pair
        result = self._index(image)
        if pair is not None:
            result = np.minimum(result, self._index(self._swapped(image, pair)))
        if len(self.symmetries) < 8:
            return result  # the mirror of the files keeps no square
        on = np.flatnonzero(ON_DIAGONAL[image[0]])
        if len(on):
            reflected = [SYMMETRIES[DIAGONAL][s[on]] for s in image]
            best = self._index(reflected)
            if pair is not None:
                best = np.minimum(best, self._index(self._swapped(reflected, pair)))
            result[on] = np.minimum(result[on], best)
        return result


def attacked(
    types: tuple[chess.PieceType, ...],
    attackers: list[int],
    squares: list[Squares],
    target: Squares,
    occupied: npt.NDArray[np.uint64],
    sides: tuple[int, ...] = (),
) -> Mask:
    """Whether any man in ``attackers`` (slots) attacks ``target``, with
    ``occupied`` (a bitboard per position) blocking the sliders; ``sides``,
    each slot's side, where a pawn attacks."""
    hit = np.zeros(len(target), dtype=bool)
    for slot in attackers:
        piece, square = types[slot], squares[slot]
        if piece == chess.PAWN:
            hit |= PAWN_TOUCH[sides[slot], square, target]
        elif piece == chess.KING:
            hit |= KING_TOUCH[square, target]
        elif piece == chess.KNIGHT:
            hit |= KNIGHT_TOUCH[square, target]
        else:
            line = np.zeros(len(target), dtype=bool)
            if piece in (chess.ROOK, chess.QUEEN):
                line |= ROOK_LINE[square, target]
            if piece in (chess.BISHOP, chess.QUEEN):
                line |= BISHOP_LINE[square, target]
            hit |= line & ((BETWEEN[square, target] & occupied) == 0)
    return hit


def occupancy(squares: list[Squares]) -> npt.NDArray[np.uint64]:
    """The bitboard of every man, per position."""
    bits = BIT[squares[0]]
    for square in squares[1:]:
        bits = bits | BIT[square]
    return bits


def bitboards(squares: Sequence[Squares], pieces: Sequence[chess.Piece]) -> npt.NDArray[np.uint64]:
    """The eight bitboards of a compact position (:class:`~al0.board.position.Position`'s
    order: white, black, kings, queens, rooks, bishops, knights, pawns), a
    row per position, from each slot's squares and the piece standing on
    them."""
    rows = np.zeros((len(squares[0]) if len(squares) else 0, 8), dtype=np.uint64)
    for slot, piece in zip(squares, pieces):
        bits = BIT[slot]
        rows[:, 0 if piece.color else 1] |= bits
        rows[:, 8 - piece.piece_type] |= bits  # kings 2, queens 3, ..., knights 6, pawns 7
    return rows
