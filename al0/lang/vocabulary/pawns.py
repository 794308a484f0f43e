"""The words of king and pawn endings: where a pawn stands and how far it
has to go (its rank, its file, a rook pawn, its promotion square), the
square of the pawn, the key squares, the opposition of the kings, a piece
in front of or behind the pawn, a piece protected, a pawn promoted.

Ranks are counted from the pawn's own side (a White pawn on e2 and a Black
pawn on e7 both stand on their second rank) and files from the nearer edge
(a rook pawn's file is 1), so every entry keeps its value under the file
mirror, the one symmetry of a position with pawns, and reads alike for
either colour."""

from __future__ import annotations

import chess

from al0.board.position import Bitboard, attackers, king_square
from al0.errors import TableSyntaxError
from al0.lang.node import FeatureFunction, Node, Predicate
from al0.lang.vocabulary.squares import _DIST, _XY
from al0.lang.vocabulary.terms import PieceRef


def relative_rank(square: chess.Square, colour: chess.Color) -> int:
    """The rank of ``square`` counted from ``colour``'s side, 1 to 8."""
    rank = chess.square_rank(square)
    return rank + 1 if colour else 8 - rank


def moves_to_promote(square: chess.Square, colour: chess.Color) -> int:
    """The moves a pawn of ``colour`` on ``square`` needs to promote,
    unhindered: one a rank, one fewer from its start rank (the double step)."""
    rank = relative_rank(square, colour)
    return 8 - rank - (rank == 2)


def promotion_square_of(square: chess.Square, colour: chess.Color) -> chess.Square:
    """The square a pawn of ``colour`` on ``square`` promotes on."""
    return chess.square(chess.square_file(square), 7 if colour else 0)


def inside_square(pawn: chess.Square, colour: chess.Color, king: chess.Square, king_to_move: bool) -> bool:
    """The rule of the square: a king on ``king`` catches the pawn of
    ``colour`` on ``pawn`` unaided (its own king aside) when its distance to
    the promotion square is at most the pawn's moves to promote, one more
    when the king is to move (it steps into the square first)."""
    return _DIST[king][promotion_square_of(pawn, colour)] <= moves_to_promote(pawn, colour) + king_to_move


def _ahead(square: chess.Square, colour: chess.Color, ranks: tuple[int, ...]) -> Bitboard:
    """The squares on the pawn's file and the two beside it, ``ranks``
    ranks in front of it (for ``colour``)."""
    x, y = _XY[square]
    step = 1 if colour else -1
    found = 0
    for ahead in ranks:
        rank = y + step * ahead
        for file in (x - 1, x, x + 1):
            if 0 <= file < 8 and 0 <= rank < 8:
                found |= chess.BB_SQUARES[chess.square(file, rank)]
    return found


def key_squares_of(pawn: chess.Square, colour: chess.Color) -> Bitboard:
    """The key squares of a pawn of ``colour`` on ``pawn``: the squares its
    king wins from, whoever is to move (the pawn not lost at once).

    A rook pawn's are the two squares of the neighbouring file on its last
    two ranks (an h-pawn's g7 and g8); another pawn's are the three squares
    two ranks in front of it (on its file and beside it), and from its fifth
    rank on, the three squares one rank in front as well (on its seventh
    rank, those beside it and in front of it)."""
    x = chess.square_file(pawn)
    if x in (0, 7):
        file = 1 if x == 0 else 6
        last, before = (7, 6) if colour else (0, 1)
        return chess.BB_SQUARES[chess.square(file, last)] | chess.BB_SQUARES[chess.square(file, before)]
    rank = relative_rank(pawn, colour)
    if rank <= 4:
        return _ahead(pawn, colour, (2,))
    if rank <= 6:
        return _ahead(pawn, colour, (1, 2))
    return _ahead(pawn, colour, (0, 1)) & ~chess.BB_SQUARES[pawn]


def opposition_between(a: chess.Square, b: chess.Square) -> int:
    """How many squares lie between two kings in opposition (on one file,
    rank or diagonal with an odd number of squares between: 1, 3 or 5);
    0 when they are not in opposition."""
    (ax, ay), (bx, by) = _XY[a], _XY[b]
    dx, dy = abs(ax - bx), abs(ay - by)
    if dx and dy and dx != dy:
        return 0
    apart = max(dx, dy)
    return apart - 1 if apart % 2 == 0 else 0


def _pawn(p: PieceRef, family: str) -> None:
    """Refuses a piece that is not a pawn where a family needs one."""
    if p.piece_type != chess.PAWN:
        raise TableSyntaxError(f"{family} takes a pawn, not {p.name}")


def _king(k: PieceRef, family: str) -> None:
    """Refuses a piece that is not a king where a family needs one."""
    if k.piece_type != chess.KING:
        raise TableSyntaxError(f"{family} takes a king, not {k.name}")


def pawn_rank(p: PieceRef) -> FeatureFunction:
    """The pawn's rank counted from its own side: 2 on its start rank, 7 one
    step from promoting."""
    _pawn(p, "pawn_rank")

    def feature(node: Node) -> int | None:
        square = p.square(node)
        return None if square is None else relative_rank(square, p.colour(node))

    return feature


def pawn_file(p: PieceRef) -> FeatureFunction:
    """The pawn's file counted from the nearer edge: 1 for a rook pawn (a or
    h), 2 for a knight pawn, 3 for a bishop pawn, 4 for a centre pawn (d or e)."""
    _pawn(p, "pawn_file")

    def feature(node: Node) -> int | None:
        square = p.square(node)
        if square is None:
            return None
        x = chess.square_file(square)
        return min(x, 7 - x) + 1

    return feature


def rook_pawn(p: PieceRef) -> Predicate:
    """The pawn is a rook pawn (on the a- or h-file): the defending king in
    its corner draws, and the key squares are the neighbouring file's."""
    _pawn(p, "rook_pawn")

    def predicate(node: Node, root: Node) -> bool:
        square = p.square(node)
        return square is not None and chess.square_file(square) in (0, 7)

    return predicate


def promotion_dist(p: PieceRef) -> FeatureFunction:
    """The pawn's moves to promote, unhindered: one a rank, one fewer from
    its start rank (the double step)."""
    _pawn(p, "promotion_dist")

    def feature(node: Node) -> int | None:
        square = p.square(node)
        return None if square is None else moves_to_promote(square, p.colour(node))

    return feature


def promotion_square_dist(a: PieceRef, p: PieceRef) -> FeatureFunction:
    """King steps from the first piece to the promotion square of the pawn
    (the square on its file and its last rank)."""
    _pawn(p, "promotion_square_dist")

    def feature(node: Node) -> int | None:
        x, square = a.square(node), p.square(node)
        if x is None or square is None:
            return None
        return _DIST[x][promotion_square_of(square, p.colour(node))]

    return feature


def in_square(k: PieceRef, p: PieceRef) -> Predicate:
    """The king stands in the square of the pawn, the move counted: its
    distance to the promotion square is at most the pawn's moves to promote,
    one more when its side is to move (it steps in first). A king of the
    other side in the square catches the pawn unaided."""
    _pawn(p, "in_square")
    _king(k, "in_square")

    def predicate(node: Node, root: Node) -> bool:
        king, square = k.square(node), p.square(node)
        if king is None or square is None:
            return False
        return inside_square(square, p.colour(node), king, node.position.turn == k.colour(node))

    return predicate


def key_square(k: PieceRef, p: PieceRef) -> Predicate:
    """The king stands on a key square of the pawn: two ranks in front of it,
    on its file or beside it (from its fifth rank on, one rank in front as
    well); a rook pawn's are the neighbouring file's last two squares. The
    pawn's king on one wins, whoever is to move, unless the pawn falls at once."""
    _pawn(p, "key_square")
    _king(k, "key_square")

    def predicate(node: Node, root: Node) -> bool:
        king, square = k.square(node), p.square(node)
        if king is None or square is None:
            return False
        return bool(key_squares_of(square, p.colour(node)) & chess.BB_SQUARES[king])

    return predicate


def key_square_dist(k: PieceRef, p: PieceRef) -> FeatureFunction:
    """King steps from the king to the nearest key square of the pawn (0: on
    one). The pawn's king heads for them; the defending king guards them."""
    _pawn(p, "key_square_dist")
    _king(k, "key_square_dist")

    def feature(node: Node) -> int | None:
        king, square = k.square(node), p.square(node)
        if king is None or square is None:
            return None
        keys = key_squares_of(square, p.colour(node))
        return min(_DIST[king][key] for key in chess.scan_forward(keys))

    return feature


def guards_key_squares(k: PieceRef, p: PieceRef) -> Predicate:
    """The king stands on or next to every key square of the pawn: the
    other king cannot step onto one while it stays. A rook pawn's defender
    in its corner or on the bishop's file in front (c7 or c8 against an
    a-pawn) guards them, as one in front of another pawn two squares ahead
    does (e7 against a pawn on e4)."""
    _pawn(p, "guards_key_squares")
    _king(k, "guards_key_squares")

    def predicate(node: Node, root: Node) -> bool:
        king, square = k.square(node), p.square(node)
        if king is None or square is None:
            return False
        keys = key_squares_of(square, p.colour(node))
        return all(_DIST[king][key] <= 1 for key in chess.scan_forward(keys))

    return predicate


def pawn_corner(k: PieceRef, p: PieceRef) -> Predicate:
    """The king holds a rook pawn's corner: the pawn is a rook pawn and the
    king stands on its promotion square or next to it, on the last two
    ranks (an h-pawn's g7, h7, g8, h8). The defending king there draws."""
    _pawn(p, "pawn_corner")
    _king(k, "pawn_corner")

    def predicate(node: Node, root: Node) -> bool:
        king, square = k.square(node), p.square(node)
        if king is None or square is None or chess.square_file(square) not in (0, 7):
            return False
        colour = p.colour(node)
        corner = promotion_square_of(square, colour)
        return _DIST[king][corner] <= 1 and relative_rank(king, colour) >= 7

    return predicate


def in_front(a: PieceRef, p: PieceRef) -> Predicate:
    """The piece stands in front of the pawn: on its file, between it and
    its promotion square (that square included). A defending king in front
    of the pawn blocks it."""
    _pawn(p, "in_front")

    def predicate(node: Node, root: Node) -> bool:
        x, square = a.square(node), p.square(node)
        if x is None or square is None or chess.square_file(x) != chess.square_file(square):
            return False
        colour = p.colour(node)
        return relative_rank(x, colour) > relative_rank(square, colour)

    return predicate


def behind(a: PieceRef, p: PieceRef) -> Predicate:
    """The piece stands behind the pawn: on its file, on the side of its
    start rank."""
    _pawn(p, "behind")

    def predicate(node: Node, root: Node) -> bool:
        x, square = a.square(node), p.square(node)
        if x is None or square is None or chess.square_file(x) != chess.square_file(square):
            return False
        colour = p.colour(node)
        return relative_rank(x, colour) < relative_rank(square, colour)

    return predicate


def protected(a: PieceRef) -> Predicate:
    """The piece is defended by a piece of its own side (a pawn protected by
    its king cannot be taken by the other king)."""

    def predicate(node: Node, root: Node) -> bool:
        square = a.square(node)
        return square is not None and bool(attackers(node.position, a.colour(node), square))

    return predicate


def promoted(p: PieceRef) -> Predicate:
    """The pawn has promoted safely: it is gone, and a queen or rook of its
    side stands on its promotion rank where the other side cannot take it at
    once (not attacked, or defended). Either wins against a bare king unless
    it is stalemate (write ``promoted(P) and not stalemate``); a rook where a
    queen would stalemate. Tried in the order of ``legal`` (the queen first),
    a promotion is to a queen wherever a queen does."""
    _pawn(p, "promoted")

    def predicate(node: Node, root: Node) -> bool:
        if p.square(node) is not None:
            return False
        position, colour = node.position, p.colour(node)
        side = position.white if colour else position.black
        last = chess.BB_RANK_8 if colour else chess.BB_RANK_1
        for square in chess.scan_forward((position.queens | position.rooks) & side & last):
            if not attackers(position, not colour, square) or attackers(position, colour, square):
                return True
        return False

    return predicate


def has_opposition(k: PieceRef) -> Predicate:
    """The king's side has the opposition: the kings stand on one file, rank
    or diagonal with an odd number of squares between them (one: direct;
    three or five: distant), and the other side is to move."""
    _king(k, "has_opposition")

    def predicate(node: Node, root: Node) -> bool:
        position = node.position
        a, b = king_square(position, chess.WHITE), king_square(position, chess.BLACK)
        if a < 0 or b < 0 or position.turn == k.colour(node):
            return False
        return opposition_between(a, b) > 0

    return predicate


def distant_opposition() -> Predicate:
    """The kings stand on one file or rank with three or five squares between
    them: the opposition at a distance, which becomes the direct one."""

    def predicate(node: Node, root: Node) -> bool:
        a, b = king_square(node.position, chess.WHITE), king_square(node.position, chess.BLACK)
        if a < 0 or b < 0 or (_XY[a][0] != _XY[b][0] and _XY[a][1] != _XY[b][1]):
            return False
        return opposition_between(a, b) in (3, 5)

    return predicate
