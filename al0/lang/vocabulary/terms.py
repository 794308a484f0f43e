"""The terms of the vocabulary: the named pieces and square colours its
entries take, and the features, predicates and generators they return."""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Callable, Union

import chess

from al0.board import Material
from al0.board.position import Bitboard, Position, king_square
from al0.errors import TableSyntaxError
from al0.lang.node import Node, Predicate

Colour = Union[bool, "PieceRef", None]
"""A square colour argument: chess.WHITE (light), chess.BLACK (dark), the
colour of a piece's square, or None (any colour)."""


@dataclass(frozen=True)
class PieceRef:
    """A named piece of a material: whose, which kind, which of its kind."""

    name: str
    ours: bool
    piece_type: chess.PieceType
    index: int
    """Its place among the pieces of its side and kind, by square a1 … h8."""

    def square(self, node: Node) -> chess.Square | None:
        """Where the piece stands at ``node``; None when it is gone."""
        position = node.position
        # Its side's pieces are White's exactly when ``ours`` equals ``node.us``
        # (the fields read inline: this runs for every piece a goal names).
        mask: Bitboard = _FIELD[self.piece_type - 1](position) & (
            position.white if node.us == self.ours else position.black
        )
        if self.index:
            for _ in range(self.index):
                mask &= mask - 1
        return (mask & -mask).bit_length() - 1 if mask else None

    def colour(self, node: Node) -> chess.Color:
        """The side the piece plays for at ``node``."""
        return node.us if self.ours else not node.us


def _no_king(p: PieceRef, name: str) -> None:
    """Refuses a king where the family ``name`` needs another piece."""
    if p.piece_type == chess.KING:
        raise TableSyntaxError(f"{name} takes a piece other than a king, not {p.name}")


PieceAndKing = Callable[[Position, chess.Color, chess.Square, chess.Square, Bitboard], bool]
"""A test of a piece and its own king: (position, the piece's colour, its
square, its king's square, the occupied squares)."""


def _with_its_king(p: PieceRef, name: str, test: PieceAndKing) -> Predicate:
    """The predicate ``name`` of piece ``p`` and its king, by ``test``: false
    where the piece or its king is not on the board."""
    _no_king(p, name)

    def predicate(node: Node, root: Node) -> bool:
        square = p.square(node)
        if square is None:
            return False
        position, colour = node.position, p.colour(node)
        king = king_square(position, colour)
        if king < 0:
            return False
        return test(position, colour, square, king, position.white | position.black)

    return predicate


_FIELD = tuple(attrgetter(name) for name in ("pawns", "knights", "bishops", "rooks", "queens", "kings"))
"""What reads the field of :class:`Position` that holds each piece type
(``_FIELD[piece_type - 1]``)."""


def material_pieces(men: Material) -> dict[str, PieceRef]:
    """The piece names of a material such as ``KRK`` or ``KBBK``."""
    names: dict[str, PieceRef] = {}
    for ours, pieces in ((True, (chess.KING, *men.first)), (False, (chess.KING, *men.second))):
        for piece_type in dict.fromkeys(pieces):
            count = pieces.count(piece_type)
            letter = chess.piece_symbol(piece_type)
            name = letter.upper() if ours else letter
            for index in range(count):
                full = name if count == 1 else f"{name}{index + 1}"
                names[full] = PieceRef(full, ours, piece_type, index)
    return names


ListGenerator = Callable[[Node], list[chess.Move]]
"""A generator of the vocabulary: its moves as a list, in a stated order."""
