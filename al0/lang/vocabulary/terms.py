"""The terms of the vocabulary: the named pieces and square colours its
entries take, and the features, predicates and generators they return."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

import chess

from al0.board import Material
from al0.board.position import pieces
from al0.lang.node import Node

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
        # Its side's pieces are White's exactly when ``ours`` equals ``node.us``.
        mask = pieces(node.position, self.piece_type, node.us == self.ours)
        if self.index:
            for _ in range(self.index):
                mask &= mask - 1
        return (mask & -mask).bit_length() - 1 if mask else None

    def colour(self, node: Node) -> chess.Color:
        """The side the piece plays for at ``node``."""
        return node.us if self.ours else not node.us


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
