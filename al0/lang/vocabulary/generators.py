"""Move generators: a piece's moves, checks and captures, each in a fixed
order so that the search is deterministic."""

from __future__ import annotations

from typing import Iterator

import chess

from al0.board.position import is_check
from al0.lang.node import Node
from al0.lang.vocabulary.squares import _XY, _side
from al0.lang.vocabulary.terms import ListGenerator, PieceRef


def _by_squares(moves: Iterator[chess.Move]) -> list[chess.Move]:
    return sorted(moves, key=lambda m: (m.from_square, m.to_square, m.promotion or 0))


KING_STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1))
"""The book's king order: diagonal steps first, then along the rank, then
along the file, each time +1 (towards h, towards the 8th rank) before -1."""


def _king_order(move: chess.Move) -> int:
    (fx, fy), (tx, ty) = _XY[move.from_square], _XY[move.to_square]
    step = (tx - fx, ty - fy)
    return KING_STEPS.index(step) if step in KING_STEPS else len(KING_STEPS)


def moves(p: PieceRef) -> ListGenerator:
    """The piece's legal moves. A king's in the book's order: diagonal steps
    first, then along the rank, then along the file, each +1 (towards h, the
    8th rank) before -1; any other piece's by target square a1, b1, … h8
    (promotions knight, bishop, rook, queen). None when it is not its side's move,
    so us-moves must name a piece of ours and them-moves one of theirs (checked
    when the table loads)."""

    def generator(node: Node) -> list[chess.Move]:
        square = p.square(node)
        if square is None or node.position.turn != p.colour(node):
            return []
        found = _by_squares(m for m in node.successors() if m.from_square == square)
        return sorted(found, key=_king_order) if p.piece_type == chess.KING else found

    return generator


def checks() -> ListGenerator:
    """Legal moves that give check, by the moving piece's square, then the
    target square (a1, b1, … h8)."""

    def generator(node: Node) -> list[chess.Move]:
        return _by_squares(m for m, child in node.successors().items() if is_check(child))

    return generator


def captures() -> ListGenerator:
    """Legal captures, by the moving piece's square, then the target square."""

    def generator(node: Node) -> list[chess.Move]:
        theirs = _side(node.position, not node.position.turn)
        return _by_squares(m for m in node.successors() if theirs & chess.BB_SQUARES[m.to_square])

    return generator
