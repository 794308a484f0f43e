"""The set-ups a coach names in the queen against the rook: Philidor's
position, and the rook guarded by its king one or two lines in from an
edge (the second- and third-rank defences)."""

from __future__ import annotations

import chess

from al0.board.position import Bitboard, Position, king_square
from al0.errors import TableSyntaxError
from al0.lang.node import Node, Predicate
from al0.lang.vocabulary.squares import _DIST, _XY
from al0.lang.vocabulary.terms import PieceRef, _with_its_king

_CORNER_STEPS = (
    (chess.A1, chess.B2, chess.C3),
    (chess.H1, chess.G2, chess.F3),
    (chess.A8, chess.B7, chess.C6),
    (chess.H8, chess.G7, chess.F6),
)
"""Each corner, the square one diagonal step in and the one two steps in."""


def _edge_lines(square: chess.Square) -> tuple[int, int, int, int]:
    """How many lines ``square`` stands in from the a-file, the h-file, the
    first rank and the eighth rank (0: on that edge)."""
    x, y = _XY[square]
    return (x, 7 - x, y, 7 - y)


def philidor(q: PieceRef, r: PieceRef) -> Predicate:
    """Philidor's position, the queen ``q`` against the rook ``r`` in a
    corner: the rook one diagonal step in from the corner, its king beside
    both (on the edge) and not in check, the queen's king two diagonal
    steps in from that corner, the queen a knight's move from her king and
    from the rook (White Kc6 Qa5, Black Kb8 Rb7 and its mirror images). With
    the rook's side to move it loses the rook or is mated; with the
    queen's, a triangle of queen moves passes the move over."""
    if q.piece_type != chess.QUEEN or r.piece_type != chess.ROOK:
        raise TableSyntaxError(f"philidor takes a queen and a rook, not {q.name} and {r.name}")

    def predicate(node: Node, root: Node) -> bool:
        queen, rook = q.square(node), r.square(node)
        if queen is None or rook is None:
            return False
        ours, theirs = king_square(node.position, q.colour(node)), king_square(node.position, r.colour(node))
        if ours < 0 or theirs < 0:
            return False
        for corner, inner, outer in _CORNER_STEPS:
            if rook != inner or ours != outer or theirs == corner:
                continue
            beside = _DIST[theirs][corner] == 1 and _DIST[theirs][rook] == 1
            knight = chess.BB_KNIGHT_ATTACKS[queen]
            if beside and knight & chess.BB_SQUARES[ours] and knight & chess.BB_SQUARES[rook]:
                return not _checked(node, queen, theirs)
        return False

    return predicate


def _checked(node: Node, queen: chess.Square, king: chess.Square) -> bool:
    """The queen on ``queen`` attacks ``king``."""
    occupied = node.position.white | node.position.black
    lines = (
        chess.BB_RANK_ATTACKS[queen][chess.BB_RANK_MASKS[queen] & occupied]
        | chess.BB_FILE_ATTACKS[queen][chess.BB_FILE_MASKS[queen] & occupied]
        | chess.BB_DIAG_ATTACKS[queen][chess.BB_DIAG_MASKS[queen] & occupied]
    )
    return bool(lines & chess.BB_SQUARES[king])


def _rank_defence(p: PieceRef, name: str, king_line: int) -> Predicate:
    """The piece diagonally next to its king, the king ``king_line`` lines
    in from its nearest edge and the piece one line farther in from that edge."""

    def test(
        position: Position, colour: chess.Color, square: chess.Square, king: chess.Square, occupied: Bitboard
    ) -> bool:
        if _DIST[king][square] != 1:
            return False
        (px, py), (kx, ky) = _XY[square], _XY[king]
        if px == kx or py == ky:
            return False
        lines = _edge_lines(king)
        # The king's nearest edge: a king in the corner region is not one
        # line in from the other edge as well.
        return min(lines) == king_line and any(
            k == king_line and s == king_line + 1 for k, s in zip(lines, _edge_lines(square))
        )

    return _with_its_king(p, name, test)


def second_rank_defence(p: PieceRef) -> Predicate:
    """The second-rank defence: the piece diagonally next to its king, the
    king on an edge, the piece on the line next to that edge (guarded, and
    keeping the other king off its king's edge)."""
    return _rank_defence(p, "second_rank_defence", 0)


def third_rank_defence(p: PieceRef) -> Predicate:
    """The third-rank defence: the piece diagonally next to its king, the
    king one line in from the nearest edge, the piece on the third line from that
    edge (guarded, and keeping the other king from coming round)."""
    return _rank_defence(p, "third_rank_defence", 1)
