"""The tactics a piece falls to: defended or not, pinned to its king,
forked or skewered with its king, and the checks it can give. The words a
coach uses of a defending piece (the rook against the queen)."""

from __future__ import annotations

from typing import Callable

import chess

from al0.board.position import Bitboard, Position, attackers, attacks, king_square
from al0.errors import TableSyntaxError
from al0.lang.node import FeatureFunction, Node, Predicate
from al0.lang.vocabulary.squares import _side
from al0.lang.vocabulary.terms import PieceRef, _no_king, _with_its_king

_SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)


def _type_attacks(piece_type: chess.PieceType, square: chess.Square, occupied: Bitboard) -> Bitboard:
    """The squares a piece of ``piece_type`` on ``square`` would attack,
    ``occupied`` blocking its lines (whatever stands on ``square``)."""
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if piece_type == chess.KING:
        return chess.BB_KING_ATTACKS[square]
    found = 0
    if piece_type in (chess.ROOK, chess.QUEEN):
        found |= (
            chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
            | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
        )
    if piece_type in (chess.BISHOP, chess.QUEEN):
        found |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    return found


def _sliders(position: Position, colour: chess.Color) -> Bitboard:
    """``colour``'s bishops, rooks and queens: the pieces that attack along lines."""
    return (position.bishops | position.rooks | position.queens) & _side(position, colour)


def defended(p: PieceRef) -> Predicate:
    """The piece is defended by its own side (its king or another piece
    attacks its square)."""

    def predicate(node: Node, root: Node) -> bool:
        square = p.square(node)
        return square is not None and bool(attackers(node.position, p.colour(node), square))

    return predicate


def pinned(p: PieceRef) -> Predicate:
    """The piece is pinned: it stands on a line between its king and a
    bishop, rook or queen of the other side, nothing else between (moving
    off that line would leave its king in check)."""

    def test(
        position: Position, colour: chess.Color, square: chess.Square, king: chess.Square, occupied: Bitboard
    ) -> bool:
        for line in chess.scan_forward(_sliders(position, not colour)):
            # The king is seen through the piece, and only through it.
            through = attacks(position, line, occupied & ~chess.BB_SQUARES[square])
            if (
                through & chess.BB_SQUARES[king]
                and not attacks(position, line, occupied) & chess.BB_SQUARES[king]
            ):
                return True
        return False

    return _with_its_king(p, "pinned", test)


def forked(p: PieceRef) -> Predicate:
    """The piece is forked: its king is in check from a piece that attacks
    it too (the king must step away, and the piece is taken). Whether the
    forking piece is itself safe is another goal (``en_prise``)."""

    def test(
        position: Position, colour: chess.Color, square: chess.Square, king: chess.Square, occupied: Bitboard
    ) -> bool:
        return any(
            attacks(position, checker, occupied) & chess.BB_SQUARES[square]
            for checker in chess.scan_forward(attackers(position, not colour, king))
        )

    return _with_its_king(p, "forked", test)


def skewered(p: PieceRef) -> Predicate:
    """The piece is skewered: its king is in check along a line, and the
    piece stands behind the king on that line (when the king steps aside,
    the checking piece takes it)."""

    def test(
        position: Position, colour: chess.Color, square: chess.Square, king: chess.Square, occupied: Bitboard
    ) -> bool:
        checkers = attackers(position, not colour, king) & _sliders(position, not colour)
        for checker in chess.scan_forward(checkers):
            # Seen through the king only: behind it on the line of the check.
            through = attacks(position, checker, occupied & ~chess.BB_SQUARES[king])
            if through & ~attacks(position, checker, occupied) & chess.BB_SQUARES[square]:
                return True
        return False

    return _with_its_king(p, "skewered", test)


def _checking_squares(node: Node, p: PieceRef) -> tuple[chess.Square, Bitboard] | None:
    """The piece's square and the squares :func:`checks_by` counts (none
    where the other king is not on the board); None where the piece is not."""
    square = p.square(node)
    if square is None:
        return None
    position, colour = node.position, p.colour(node)
    king = king_square(position, not colour)
    if king < 0:
        return square, 0
    occupied = position.white | position.black
    moves = attacks(position, square, occupied) & ~_side(position, colour)
    # The squares that see the king as this piece would, the piece's own
    # square emptied: it may move along a line that it now blocks.
    return square, moves & _type_attacks(p.piece_type, king, occupied & ~chess.BB_SQUARES[square])


def checks_by(p: PieceRef) -> FeatureFunction:
    """How many checks the piece could give: the squares it can move to
    (not its own side's; pins and whose move it is aside) from which it
    would attack the other king. The rook's checks are what keeps a queen
    from closing in."""
    _no_king(p, "checks_by")

    def feature(node: Node) -> int | None:
        found = _checking_squares(node, p)
        return None if found is None else chess.popcount(found[1])

    return feature


def _attackers_after(position: Position, men: Bitboard, square: chess.Square, occupied: Bitboard) -> Bitboard:
    """Those of ``men`` that attack ``square`` with ``occupied`` blocking
    their lines: the attackers on a board where one man has moved."""
    found = 0
    for man in chess.scan_forward(men):
        if attacks(position, man, occupied) & chess.BB_SQUARES[square]:
            found |= chess.BB_SQUARES[man]
    return found


def safe_checks(p: PieceRef) -> FeatureFunction:
    """How many checks the piece could give and survive: of ``checks_by``'s
    squares, those the other side does not attack once it stands there, or
    where its own side defends it. A queen that covers the rook's checks
    lets her king walk up; a check onto a guarded square loses the rook."""
    _no_king(p, "safe_checks")

    def feature(node: Node) -> int | None:
        found = _checking_squares(node, p)
        if found is None:
            return None
        square, checking = found
        position, colour = node.position, p.colour(node)
        occupied = position.white | position.black
        own = _side(position, colour) & ~chess.BB_SQUARES[square]
        count = 0
        for target in chess.scan_forward(checking):
            after = (occupied & ~chess.BB_SQUARES[square]) | chess.BB_SQUARES[target]
            other = _side(position, not colour) & ~chess.BB_SQUARES[target]
            count += not _attackers_after(position, other, target, after) or bool(
                _attackers_after(position, own, target, after)
            )
        return count

    return feature
