"""Which pawnless endings a tablebase covers, and how their men are laid out.

A material is written as the pieces of one side, then the other, each side
starting with its king: ``KRKN`` is king and rook against king and knight.
Tables are colour-blind (a pawnless position with the colours swapped is the
same position), so a material is stored in one canonical order: the stronger
side first, each side's pieces in the order Q, R, B, N.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from al0.errors import PositionError

MAX_MEN = 4
"""Two kings and at most two other pieces: the largest tables built here."""

PIECE_LETTERS = "QRBN"
_VALUES = {chess.QUEEN: 9, chess.ROOK: 5, chess.BISHOP: 3, chess.KNIGHT: 3}
_SYNTAX = re.compile(r"K([QRBN]*)K([QRBN]*)")


def _side_key(pieces: tuple[chess.PieceType, ...]) -> tuple[int, tuple[chess.PieceType, ...]]:
    """Orders sides by material value, then by the pieces themselves (a
    bishop before a knight), so that every material has one canonical name."""
    return sum(_VALUES[piece] for piece in pieces), pieces


@dataclass(frozen=True)
class Material:
    """A canonical pawnless material and the slots of its men in an index.

    Slots: the first side's king, its pieces, the second side's king, its
    pieces. Side 0 is the first (stronger) side, side 1 the second.
    """

    first: tuple[chess.PieceType, ...]
    """Pieces of the stronger side besides its king, queen first."""
    second: tuple[chess.PieceType, ...]
    """Pieces of the weaker side besides its king."""

    @property
    def name(self) -> str:
        def letters(pieces: tuple[chess.PieceType, ...]) -> str:
            return "".join(chess.piece_symbol(piece).upper() for piece in pieces)

        return f"K{letters(self.first)}K{letters(self.second)}"

    @property
    def types(self) -> tuple[chess.PieceType, ...]:
        """The piece type of each slot."""
        return (chess.KING, *self.first, chess.KING, *self.second)

    @property
    def sides(self) -> tuple[int, ...]:
        """The side (0 first, 1 second) of each slot."""
        return (0,) * (1 + len(self.first)) + (1,) * (1 + len(self.second))

    @property
    def kings(self) -> tuple[int, int]:
        """The slots of the first and of the second side's king."""
        return 0, 1 + len(self.first)

    @property
    def pair(self) -> tuple[int, int] | None:
        """Two slots holding the same piece of the same side (``KBBK``), whose
        order does not matter, or ``None``."""
        types, sides = self.types, self.sides
        for i in range(len(types)):
            for j in range(i + 1, len(types)):
                if types[i] == types[j] and sides[i] == sides[j] and types[i] != chess.KING:
                    return i, j
        return None

    def without(self, slot: int) -> tuple[Material, tuple[int, ...], bool]:
        """The material after the man in ``slot`` is captured: the smaller
        material, for each of its slots the slot here that fills it, and
        whether its first side is our second side."""
        types, sides = self.types, self.sides
        rest = [s for s in range(len(types)) if s != slot]
        ours = [tuple(types[s] for s in rest if sides[s] == side and types[s] != chess.KING) for side in (0, 1)]
        smaller = canonical(ours[0], ours[1])
        swapped = smaller.first != ours[0]
        order = (1, 0) if swapped else (0, 1)
        mapping: list[int] = []
        for side in order:
            mapping.append(next(s for s in rest if sides[s] == side and types[s] == chess.KING))
            taken = [s for s in rest if sides[s] == side and types[s] != chess.KING]
            for piece in (smaller.first if side == order[0] else smaller.second):
                chosen = next(s for s in taken if types[s] == piece)
                taken.remove(chosen)
                mapping.append(chosen)
        return smaller, tuple(mapping), swapped


def canonical(one: tuple[chess.PieceType, ...], other: tuple[chess.PieceType, ...]) -> Material:
    """The material of these two sides, stronger side first, pieces sorted."""

    def ordered(pieces: tuple[chess.PieceType, ...]) -> tuple[chess.PieceType, ...]:
        return tuple(sorted(pieces, reverse=True))  # QUEEN > ROOK > BISHOP > KNIGHT

    one, other = ordered(one), ordered(other)
    if _side_key(other) > _side_key(one):
        one, other = other, one
    return Material(one, other)


def parse_material(text: str) -> Material:
    """The canonical material that ``text`` names, e.g. ``"KNKR"`` → ``KRKN``.

    :raises PositionError: for anything but two kings and at most two queens,
        rooks, bishops or knights (no pawns).
    """
    match = _SYNTAX.fullmatch(text)
    if match is None or len(text) > MAX_MEN:
        raise PositionError(
            f"unsupported material {text!r}: expected two kings and up to {MAX_MEN - 2} "
            f"pieces of {', '.join(PIECE_LETTERS)}, e.g. 'KRK', 'KBNK' or 'KQKR'"
        )

    def pieces(letters: str) -> tuple[chess.PieceType, ...]:
        return tuple(chess.PIECE_SYMBOLS.index(letter.lower()) for letter in letters)

    return canonical(pieces(match.group(1)), pieces(match.group(2)))
