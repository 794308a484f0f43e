"""Compact positions: what the forcing-tree search walks over.

al0 plays endgames of a few men. A general ``chess.Board`` carries move
stacks, castling state and move counters and costs a push and a pop per
search node; a :class:`Position` is just the piece bitboards, the side to
move and the en-passant square, an immutable tuple that hashes in C and keys
the search's memo. Its
moves, checks, mates and stalemates are computed from python-chess's own
attack tables (``BB_KING_ATTACKS``, ``BB_KNIGHT_ATTACKS`` and the sliding
``BB_*_ATTACKS`` with their masks): python-chess stays the I/O layer and the
oracle, and a test checks that these functions agree with it, move for move
and in the same order, on every material up to four men (pawns included).

Reading a position (for predicate libraries)::

    pos = node.position
    pos.turn                        # chess.WHITE or chess.BLACK
    pos.white, pos.black            # occupancy of each colour
    pos.kings & pos.black           # a bitboard; king_square(pos, color)
    pieces(pos, chess.ROOK, color)  # bitboard of that colour's rooks
    pos.pawns & pos.white           # White's pawns (ranks 2-7 only)
    pos.ep_square                   # a square, only when an en-passant capture is on
    is_check(pos), attacks(pos, square, occupancy), attackers(pos, color, square)

Its legal moves are in :mod:`al0.board.moves` (``legal_moves(pos)``), its
checks, mates and stalemates in :mod:`al0.board.checks` (``is_checkmate(pos)``,
``is_stalemate(pos)``): this module is the type and what reads it.
"""

from __future__ import annotations

from typing import NamedTuple

import chess

from al0.errors import PositionError

Bitboard = int


class Position(NamedTuple):
    """A position without castling rights: piece bitboards, the side to move
    and the en-passant square. Two positions are equal exactly when they have
    the same legal moves and the same future, so a Position is the search's
    key: that is why ``ep_square`` is set only when the side to move has a
    (pseudo-legal) capture en passant, never merely after any double step."""

    white: Bitboard
    black: Bitboard
    kings: Bitboard
    queens: Bitboard
    rooks: Bitboard
    bishops: Bitboard
    knights: Bitboard
    pawns: Bitboard
    """Both colours' pawns (on ranks 2 to 7: a pawn that reaches the last
    rank has been promoted)."""
    turn: chess.Color
    ep_square: chess.Square | None
    """The square a pawn of the side to move may capture en passant on, or
    None."""


# Every move but a promotion is a from-square and a to-square: one Move
# object per pair, shared, so generators and the search never build them.
MOVES = tuple(tuple(chess.Move(a, b) for b in chess.SQUARES) for a in chess.SQUARES)
"""``MOVES[from][to]``: the (shared, never mutated) ``chess.Move``."""

PROMOTION_TYPES = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
"""What a pawn may become, in python-chess's order of its moves."""

PROMOTIONS = {
    (a, b): tuple(chess.Move(a, b, promotion=piece) for piece in PROMOTION_TYPES)
    for a in chess.SQUARES
    for b in chess.SQUARES
    if chess.square_rank(a) in (1, 6)
    and chess.square_rank(b) == (7 if chess.square_rank(a) == 6 else 0)
    and abs(chess.square_file(a) - chess.square_file(b)) <= 1
}
"""``PROMOTIONS[from, to]``: the four (shared, never mutated) promotions of
a pawn's step or capture onto the last rank, queen first."""

_BB = chess.BB_SQUARES
_KING = chess.BB_KING_ATTACKS
_KNIGHT = chess.BB_KNIGHT_ATTACKS
_RANK_ATT, _RANK_MASK = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
_FILE_ATT, _FILE_MASK = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
_DIAG_ATT, _DIAG_MASK = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
_PAWN_ATT = chess.BB_PAWN_ATTACKS
_new = tuple.__new__  # builds a Position without NamedTuple's Python-level __new__


def from_board(board: chess.Board) -> Position:
    """The compact position of ``board``.

    :raises PositionError: when the board has castling rights, which a
        compact position cannot represent.
    """
    if board.castling_rights:
        raise PositionError(f"al0 searches positions without castling rights, not {board.fen()}")
    return _new(
        Position,
        (
            board.occupied_co[chess.WHITE],
            board.occupied_co[chess.BLACK],
            board.kings,
            board.queens,
            board.rooks,
            board.bishops,
            board.knights,
            board.pawns,
            board.turn,
            board.ep_square if board.has_pseudo_legal_en_passant() else None,
        ),
    )


def to_board(position: Position) -> chess.Board:
    """A python-chess board at ``position`` (move counters at their defaults)."""
    board = chess.Board(None)
    for piece_type, mask in (
        (chess.KING, position.kings),
        (chess.QUEEN, position.queens),
        (chess.ROOK, position.rooks),
        (chess.BISHOP, position.bishops),
        (chess.KNIGHT, position.knights),
        (chess.PAWN, position.pawns),
    ):
        for color in chess.COLORS:
            for square in chess.scan_forward(mask & (position.white if color else position.black)):
                board.set_piece_at(square, chess.Piece(piece_type, color))
    board.turn = position.turn
    board.ep_square = position.ep_square
    return board


def fen(position: Position) -> str:
    """The FEN of ``position`` with the move counters at 0 and 1 (the one
    FEN writer of a compact position; verify writes one per game): what
    ``to_board(position).fen(en_passant="xfen")`` gives (the en-passant square
    written when a capture there is pseudo-legal, as :func:`from_board` keeps
    it, so that the FEN reads back to the same position), from its few men,
    not from every square."""
    white, black, kings, queens, rooks, bishops, knights, pawns, turn, ep_square = position
    occupied = white | black
    ranks = []
    for rank in range(56, -8, -8):
        if not occupied >> rank & 255:
            ranks.append("8")
            continue
        text, empty = "", 0
        for square in range(rank, rank + 8):
            bit = 1 << square
            if not occupied & bit:
                empty += 1
                continue
            symbol = (
                "k"
                if kings & bit
                else "q"
                if queens & bit
                else "r"
                if rooks & bit
                else "b"
                if bishops & bit
                else "n"
                if knights & bit
                else "p"
            )
            text += (str(empty) if empty else "") + (symbol.upper() if white & bit else symbol)
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    ep = "-" if ep_square is None else chess.SQUARE_NAMES[ep_square]
    return f"{'/'.join(ranks)} {'w' if turn else 'b'} - {ep} 0 1"


def occupied(position: Position) -> Bitboard:
    return position.white | position.black


def pieces(position: Position, piece_type: chess.PieceType, color: chess.Color) -> Bitboard:
    """The squares of ``color``'s pieces of ``piece_type``, as a bitboard."""
    mask = (
        0,
        position.pawns,
        position.knights,
        position.bishops,
        position.rooks,
        position.queens,
        position.kings,
    )[piece_type]
    return mask & (position.white if color else position.black)


def king_square(position: Position, color: chess.Color) -> chess.Square:
    """The square of ``color``'s king (-1 when it has none)."""
    return (position.kings & (position.white if color else position.black)).bit_length() - 1


def piece_counts(position: Position, color: chess.Color) -> tuple[int, ...]:
    """Like :func:`al0.board.fen.piece_counts`: pawns, knights, bishops,
    rooks, queens and kings of ``color``."""
    side = position.white if color else position.black
    return (
        (position.pawns & side).bit_count(),
        (position.knights & side).bit_count(),
        (position.bishops & side).bit_count(),
        (position.rooks & side).bit_count(),
        (position.queens & side).bit_count(),
        (position.kings & side).bit_count(),
    )


def attacks(position: Position, square: chess.Square, occupancy: Bitboard) -> Bitboard:
    """The squares the piece on ``square`` attacks, with ``occupancy`` blocking."""
    bb = _BB[square]
    if position.kings & bb:
        return _KING[square]
    if position.knights & bb:
        return _KNIGHT[square]
    if position.pawns & bb:
        return _PAWN_ATT[bool(position.white & bb)][square]
    result = 0
    if (position.rooks | position.queens) & bb:
        result = (
            _RANK_ATT[square][_RANK_MASK[square] & occupancy]
            | _FILE_ATT[square][_FILE_MASK[square] & occupancy]
        )
    if (position.bishops | position.queens) & bb:
        result |= _DIAG_ATT[square][_DIAG_MASK[square] & occupancy]
    return result


def attackers(position: Position, color: chess.Color, square: chess.Square) -> Bitboard:
    """``color``'s pieces that attack ``square``."""
    them = position.white if color else position.black
    occupancy = position.white | position.black
    # A pawn of ``color`` attacks ``square`` from where a pawn of the other
    # colour on ``square`` would attack.
    found = (
        (_KING[square] & position.kings)
        | (_KNIGHT[square] & position.knights)
        | (_PAWN_ATT[not color][square] & position.pawns)
    )
    straight = (position.rooks | position.queens) & them
    if straight:
        found |= (
            _RANK_ATT[square][_RANK_MASK[square] & occupancy]
            | _FILE_ATT[square][_FILE_MASK[square] & occupancy]
        ) & straight
    diagonal = (position.bishops | position.queens) & them
    if diagonal:
        found |= _DIAG_ATT[square][_DIAG_MASK[square] & occupancy] & diagonal
    return found & them


def is_check(position: Position) -> bool:
    """The side to move is in check."""
    white, black, kings, queens, rooks, bishops, knights, pawns, turn, _ = position
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & ours
    if not king_bb:
        return False
    king = king_bb.bit_length() - 1
    if (_KING[king] & kings | _KNIGHT[king] & knights | _PAWN_ATT[turn][king] & pawns) & theirs:
        return True
    occupancy = white | black
    straight = (rooks | queens) & theirs
    if (
        straight
        and (_RANK_ATT[king][_RANK_MASK[king] & occupancy] | _FILE_ATT[king][_FILE_MASK[king] & occupancy])
        & straight
    ):
        return True
    diagonal = (bishops | queens) & theirs
    return bool(diagonal and _DIAG_ATT[king][_DIAG_MASK[king] & occupancy] & diagonal)


def king_danger(position: Position, theirs: Bitboard, king_bb: Bitboard) -> Bitboard:
    """Every square a piece of ``theirs`` attacks, lines seen through our
    king (``king_bb``): where the king may not step. A piece the king would
    capture does not defend its own square, so taking it is safe exactly
    when the square is outside this map."""
    white, black, kings, queens, rooks, bishops, knights, pawns, _, _ = position
    occupancy = (white | black) & ~king_bb
    danger = 0
    pieces = theirs & pawns
    if pieces:
        danger = pawn_attacks(pieces, bool(theirs & white))
    # Kind by kind (:func:`attacks` inlined: this runs for every king's
    # moves, and whether the side to move has any).
    pieces = theirs & (kings | knights)
    while pieces:
        square = pieces.bit_length() - 1
        pieces ^= _BB[square]
        danger |= _KING[square] if kings >> square & 1 else _KNIGHT[square]
    pieces = theirs & (rooks | queens)
    while pieces:
        square = pieces.bit_length() - 1
        pieces ^= _BB[square]
        danger |= (
            _RANK_ATT[square][_RANK_MASK[square] & occupancy]
            | _FILE_ATT[square][_FILE_MASK[square] & occupancy]
        )
    pieces = theirs & (bishops | queens)
    while pieces:
        square = pieces.bit_length() - 1
        pieces ^= _BB[square]
        danger |= _DIAG_ATT[square][_DIAG_MASK[square] & occupancy]
    return danger


_NOT_A, _NOT_H = ~chess.BB_FILE_A & chess.BB_ALL, ~chess.BB_FILE_H & chess.BB_ALL


def pawn_attacks(pawns: Bitboard, color: chess.Color) -> Bitboard:
    """Every square ``color``'s pawns on ``pawns`` attack (diagonally
    forward), by two shifts for all of them at once."""
    if color:
        return (pawns << 7 & _NOT_H | pawns << 9 & _NOT_A) & chess.BB_ALL
    return pawns >> 9 & _NOT_H | pawns >> 7 & _NOT_A
