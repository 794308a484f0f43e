"""A material: which men stand on the board, side by side.

A material is written as the pieces of one side, then the other, each side
starting with its king: ``KRKN`` is king and rook against king and knight,
``KPK`` king and pawn against king. :meth:`Material.parse` reads that text
once (each side's men put in the order Q, R, B, N, P, the sides kept as
written: a table's own side first), and
:meth:`Material.of` reads a board's; everything else asks the value. The
tablebase stores one table per colour-blind ending, so it names a material
by :meth:`Material.stronger_first`, and it lays the men out in slots.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from al0.errors import PositionError

PIECE_LETTERS = "QRBN"
"""The pieces a material may hold besides its kings, strongest first."""

_SYNTAX = re.compile(r"K([QRBNP]*)K([QRBNP]*)")
_VALUES = {chess.QUEEN: 9, chess.ROOK: 5, chess.BISHOP: 3, chess.KNIGHT: 3, chess.PAWN: 1}

Pieces = tuple[chess.PieceType, ...]
"""One side's men besides its king, queens first (as ``PIECE_LETTERS``),
pawns last."""


def _ordered(pieces: Pieces) -> Pieces:
    return tuple(sorted(pieces, reverse=True))  # QUEEN > ROOK > BISHOP > KNIGHT > PAWN


def _side_key(pieces: Pieces) -> tuple[int, Pieces]:
    """Orders sides by material value, then by the pieces themselves (a
    bishop before a knight), so that every material has one canonical name."""
    return sum(_VALUES[piece] for piece in pieces), pieces


@dataclass(frozen=True)
class Material:
    """The men of the side named first and of the other side, each besides
    its king and in the order Q, R, B, N, P.

    Slots (for the tablebase's index): the first side's king, its pieces,
    the second side's king, its pieces; side 0 is the first, side 1 the second.
    """

    first: Pieces
    """Men of the side named first besides its king, queen first, pawns
    last."""
    second: Pieces
    """Pieces of the other side besides its king."""

    @classmethod
    def parse(cls, text: str) -> Material:
        """The material ``text`` names (``KRK``, ``KQKR``, ``KPK``), sides
        as written.

        :raises PositionError: for anything but two kings and any queens,
            rooks, bishops, knights or pawns.
        """
        match = _SYNTAX.fullmatch(text)
        if match is None:
            raise PositionError(f"material must look like KRK, KQKR or KPK, not {text!r}")

        def pieces(letters: str) -> Pieces:
            return _ordered(tuple(chess.PIECE_SYMBOLS.index(letter.lower()) for letter in letters))

        return cls(pieces(match.group(1)), pieces(match.group(2)))

    @classmethod
    def of(cls, board: chess.Board, first: chess.Color) -> Material:
        """The material on ``board``, the side of colour ``first`` named first
        (pawns named last: ``KRPK``)."""

        def pieces(color: chess.Color) -> Pieces:
            return tuple(
                piece_type
                for piece_type in reversed(chess.PIECE_TYPES[:-1])
                for _ in board.pieces(piece_type, color)
            )

        return cls(pieces(first), pieces(not first))

    @property
    def name(self) -> str:
        """``KRK``: the first side's king and pieces, then the other's."""

        def letters(pieces: Pieces) -> str:
            return "".join(chess.piece_symbol(piece).upper() for piece in pieces)

        return f"K{letters(self.first)}K{letters(self.second)}"

    def __str__(self) -> str:
        return self.name

    @property
    def side_names(self) -> tuple[str, str]:
        """Each side's men: ``("KR", "K")`` for ``KRK``."""
        name = self.name
        split = 1 + len(self.first)
        return name[:split], name[split:]

    @property
    def has_pawns(self) -> bool:
        """Whether either side has a pawn."""
        return chess.PAWN in self.first or chess.PAWN in self.second

    @property
    def men(self) -> int:
        """How many men stand on the board, kings included."""
        return 2 + len(self.first) + len(self.second)

    def counts(self, side: int = 0) -> tuple[int, ...]:
        """How many pawns, knights, bishops, rooks, queens and kings ``side``
        (0 the first, 1 the second) has, as
        :func:`al0.board.position.piece_counts` counts a board's."""
        pieces = self.first if side == 0 else self.second
        return tuple(
            1 if piece_type == chess.KING else pieces.count(piece_type) for piece_type in chess.PIECE_TYPES
        )

    def swapped(self) -> Material:
        """The same men, the other side named first."""
        return Material(self.second, self.first)

    def stronger_first(self) -> Material:
        """The material with the stronger side named first (by value, then
        a bishop before a knight): one name for a colour-blind ending."""
        if _side_key(self.second) > _side_key(self.first):
            return self.swapped()
        return self

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
        material (stronger side first), for each of its slots the slot here
        that fills it, and whether its first side is our second side."""
        types, sides = self.types, self.sides
        rest = [s for s in range(len(types)) if s != slot]
        ours = [
            tuple(types[s] for s in rest if sides[s] == side and types[s] != chess.KING) for side in (0, 1)
        ]
        smaller = Material(_ordered(ours[0]), _ordered(ours[1])).stronger_first()
        swapped = smaller.first != _ordered(ours[0])
        order = (1, 0) if swapped else (0, 1)
        mapping: list[int] = []
        for side in order:
            mapping.append(next(s for s in rest if sides[s] == side and types[s] == chess.KING))
            taken = [s for s in rest if sides[s] == side and types[s] != chess.KING]
            for piece in smaller.first if side == order[0] else smaller.second:
                chosen = next(s for s in taken if types[s] == piece)
                taken.remove(chosen)
                mapping.append(chosen)
        return smaller, tuple(mapping), swapped
