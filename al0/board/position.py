"""Compact pawnless positions: what the forcing-tree search walks over.

al0 plays pawnless endgames of a few men. A general ``chess.Board`` carries
move stacks, castling and en-passant state and costs a push and a pop per
search node; a :class:`Position` is just the piece bitboards and the side to
move, an immutable tuple that hashes in C and keys the search's memo. Its
moves, checks, mates and stalemates are computed from python-chess's own
attack tables (``BB_KING_ATTACKS``, ``BB_KNIGHT_ATTACKS`` and the sliding
``BB_*_ATTACKS`` with their masks): python-chess stays the I/O layer and the
oracle, and a test checks that these functions agree with it, move for move
and in the same order, on every pawnless material up to four men.

Reading a position (for predicate libraries)::

    pos = node.position
    pos.turn                        # chess.WHITE or chess.BLACK
    pos.white, pos.black            # occupancy of each colour
    pos.kings & pos.black           # a bitboard; king_square(pos, color)
    pieces(pos, chess.ROOK, color)  # bitboard of that colour's rooks
    legal_moves(pos), is_check(pos), is_checkmate(pos), is_stalemate(pos)
"""

from __future__ import annotations

from typing import Iterable, Iterator, NamedTuple

import chess

from al0.errors import PositionError

Bitboard = int


class Position(NamedTuple):
    """A pawnless position without castling rights: piece bitboards and the
    side to move. Two positions are equal exactly when they have the same
    legal moves and the same future, so a Position is the search's key."""
    white: Bitboard
    black: Bitboard
    kings: Bitboard
    queens: Bitboard
    rooks: Bitboard
    bishops: Bitboard
    knights: Bitboard
    turn: chess.Color


# Every move of a pawnless game is a from-square and a to-square: one Move
# object per pair, shared, so generators and the search never build them.
MOVES = tuple(tuple(chess.Move(a, b) for b in chess.SQUARES) for a in chess.SQUARES)
"""``MOVES[from][to]``: the (shared, never mutated) ``chess.Move``."""

_BB = chess.BB_SQUARES
_KING = chess.BB_KING_ATTACKS
_KNIGHT = chess.BB_KNIGHT_ATTACKS
_RANK_ATT, _RANK_MASK = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
_FILE_ATT, _FILE_MASK = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
_DIAG_ATT, _DIAG_MASK = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
_Move = chess.Move
_new = tuple.__new__  # builds a Position without NamedTuple's Python-level __new__


def from_board(board: chess.Board) -> Position:
    """The compact position of ``board``.

    :raises PositionError: when the board has pawns or castling rights,
        which a compact position cannot represent.
    """
    if board.pawns or board.castling_rights:
        raise PositionError(f"al0 searches pawnless positions without castling rights, "
                            f"not {board.fen()}")
    return _new(Position, (board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK],
                           board.kings, board.queens, board.rooks, board.bishops,
                           board.knights, board.turn))


def to_board(position: Position) -> chess.Board:
    """A python-chess board at ``position`` (move counters at their defaults)."""
    board = chess.Board(None)
    for piece_type, mask in ((chess.KING, position.kings), (chess.QUEEN, position.queens),
                             (chess.ROOK, position.rooks), (chess.BISHOP, position.bishops),
                             (chess.KNIGHT, position.knights)):
        for color in chess.COLORS:
            for square in chess.scan_forward(mask & (position.white if color else position.black)):
                board.set_piece_at(square, chess.Piece(piece_type, color))
    board.turn = position.turn
    return board


def fen(position: Position) -> str:
    """The FEN of ``position``, for messages."""
    return to_board(position).fen()


def occupied(position: Position) -> Bitboard:
    return position.white | position.black


def pieces(position: Position, piece_type: chess.PieceType, color: chess.Color) -> Bitboard:
    """The squares of ``color``'s pieces of ``piece_type``, as a bitboard."""
    mask = (0, 0, position.knights, position.bishops, position.rooks, position.queens,
            position.kings)[piece_type]
    return mask & (position.white if color else position.black)


def king_square(position: Position, color: chess.Color) -> chess.Square:
    """The square of ``color``'s king (-1 when it has none)."""
    return (position.kings & (position.white if color else position.black)).bit_length() - 1


def piece_counts(position: Position, color: chess.Color) -> tuple[int, ...]:
    """Like :func:`al0.board.fen.piece_counts`: pawns, knights, bishops,
    rooks, queens and kings of ``color``."""
    side = position.white if color else position.black
    return (0, (position.knights & side).bit_count(), (position.bishops & side).bit_count(),
            (position.rooks & side).bit_count(), (position.queens & side).bit_count(),
            (position.kings & side).bit_count())


def attacks(position: Position, square: chess.Square, occupancy: Bitboard) -> Bitboard:
    """The squares the piece on ``square`` attacks, with ``occupancy`` blocking."""
    bb = _BB[square]
    if position.kings & bb:
        return _KING[square]
    if position.knights & bb:
        return _KNIGHT[square]
    result = 0
    if (position.rooks | position.queens) & bb:
        result = (_RANK_ATT[square][_RANK_MASK[square] & occupancy]
                  | _FILE_ATT[square][_FILE_MASK[square] & occupancy])
    if (position.bishops | position.queens) & bb:
        result |= _DIAG_ATT[square][_DIAG_MASK[square] & occupancy]
    return result


def attackers(position: Position, color: chess.Color, square: chess.Square) -> Bitboard:
    """``color``'s pieces that attack ``square``."""
    them = position.white if color else position.black
    occupancy = position.white | position.black
    found = (_KING[square] & position.kings) | (_KNIGHT[square] & position.knights)
    straight = (position.rooks | position.queens) & them
    if straight:
        found |= (_RANK_ATT[square][_RANK_MASK[square] & occupancy]
                  | _FILE_ATT[square][_FILE_MASK[square] & occupancy]) & straight
    diagonal = (position.bishops | position.queens) & them
    if diagonal:
        found |= _DIAG_ATT[square][_DIAG_MASK[square] & occupancy] & diagonal
    return found & them


def is_check(position: Position) -> bool:
    """The side to move is in check."""
    white, black, kings, queens, rooks, bishops, knights, turn = position
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & ours
    if not king_bb:
        return False
    king = king_bb.bit_length() - 1
    if (_KING[king] & kings | _KNIGHT[king] & knights) & theirs:
        return True
    occupancy = white | black
    straight = (rooks | queens) & theirs
    if straight and (_RANK_ATT[king][_RANK_MASK[king] & occupancy]
                     | _FILE_ATT[king][_FILE_MASK[king] & occupancy]) & straight:
        return True
    diagonal = (bishops | queens) & theirs
    return bool(diagonal and _DIAG_ATT[king][_DIAG_MASK[king] & occupancy] & diagonal)


def _danger(position: Position, theirs: Bitboard, king_bb: Bitboard) -> Bitboard:
    """Every square a piece of ``theirs`` attacks, lines seen through our
    king (``king_bb``): where the king may not step. A piece the king would
    capture does not defend its own square, so taking it is safe exactly
    when the square is outside this map."""
    white, black, kings, queens, rooks, bishops, knights, _ = position
    occupancy = (white | black) & ~king_bb
    danger = 0
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
        danger |= (_RANK_ATT[square][_RANK_MASK[square] & occupancy]
                   | _FILE_ATT[square][_FILE_MASK[square] & occupancy])
    pieces = theirs & (bishops | queens)
    while pieces:
        square = pieces.bit_length() - 1
        pieces ^= _BB[square]
        danger |= _DIAG_ATT[square][_DIAG_MASK[square] & occupancy]
    return danger


def play(position: Position, move: chess.Move) -> Position | None:
    """The position after ``move``, or None when ``move`` is not a legal move
    of the side to move (any object that is not a plain ``chess.Move`` of a
    piece of the side to move, to a square it attacks and not its own, that
    leaves its own king safe)."""
    if type(move) is not _Move or move.promotion or move.drop:
        return None
    frm, to = move.from_square, move.to_square
    f, t = _BB[frm], _BB[to]
    white, black, kings, queens, rooks, bishops, knights, turn = position
    ours = white if turn else black
    if not ours & f or ours & t:
        return None
    occupancy = white | black
    theirs = black if turn else white
    if kings & f:
        if not _KING[frm] & t:
            return None
        # The king is safe on ``to`` exactly when no piece of theirs (but
        # one it takes there) attacks it, lines seen through where it stood:
        # decided without playing the move (the other side's king moves
        # are most of the moves the search checks).
        theirs &= ~t
        if (_KING[to] & kings | _KNIGHT[to] & knights) & theirs:
            return None
        occupancy &= ~f
        straight = (rooks | queens) & theirs
        if straight and (_RANK_ATT[to][_RANK_MASK[to] & occupancy]
                         | _FILE_ATT[to][_FILE_MASK[to] & occupancy]) & straight:
            return None
        diagonal = (bishops | queens) & theirs
        if diagonal and _DIAG_ATT[to][_DIAG_MASK[to] & occupancy] & diagonal:
            return None
        return apply(position, move)
    # Is ``to`` a square the piece on ``frm`` attacks? (Inlined: this runs
    # for every move the search tries.)
    if knights & f:
        reach = _KNIGHT[frm]
    else:
        reach = 0
        if (rooks | queens) & f:
            reach = (_RANK_ATT[frm][_RANK_MASK[frm] & occupancy]
                     | _FILE_ATT[frm][_FILE_MASK[frm] & occupancy])
        if (bishops | queens) & f:
            reach |= _DIAG_ATT[frm][_DIAG_MASK[frm] & occupancy]
    if not reach & t:
        return None
    if not theirs & (rooks | queens | bishops):
        # With no line piece of theirs, our king (which has not moved) is
        # safe after the move exactly when no king or knight of theirs (but
        # one the move takes) is next to, or a knight's jump from, it.
        king_bb = kings & ours
        if king_bb:
            king = king_bb.bit_length() - 1
            if (_KING[king] & kings | _KNIGHT[king] & knights) & theirs & ~t:
                return None
        return apply(position, move)
    child = apply(position, move)
    # Our own king must not stand attacked after the move.
    white, black, kings, queens, rooks, bishops, knights, _ = child
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & ours
    if king_bb:
        king = king_bb.bit_length() - 1
        if (_KING[king] & kings & theirs) or (_KNIGHT[king] & knights & theirs):
            return None
        occupancy = ours | theirs
        straight = (rooks | queens) & theirs
        if straight and (_RANK_ATT[king][_RANK_MASK[king] & occupancy]
                         | _FILE_ATT[king][_FILE_MASK[king] & occupancy]) & straight:
            return None
        diagonal = (bishops | queens) & theirs
        if diagonal and _DIAG_ATT[king][_DIAG_MASK[king] & occupancy] & diagonal:
            return None
    return child


def apply(position: Position, move: chess.Move) -> Position:
    """The position after ``move``, which must be a legal move of the side to
    move (unchecked: for moves :func:`legal_moves` gave; :func:`play` checks)."""
    f, t = _BB[move.from_square], _BB[move.to_square]
    white, black, kings, queens, rooks, bishops, knights, turn = position
    ours, theirs = (white, black) if turn else (black, white)
    # A capture removes their piece from every mask; then the mover's mask
    # loses ``f`` and gains ``t`` (``t`` is clear in it now, so xor does both).
    if theirs & t:
        keep = ~t
        kings, queens, rooks, bishops, knights = (kings & keep, queens & keep, rooks & keep,
                                                  bishops & keep, knights & keep)
        theirs &= keep
    both = f | t
    if kings & f:
        kings ^= both
    elif rooks & f:
        rooks ^= both
    elif queens & f:
        queens ^= both
    elif bishops & f:
        bishops ^= both
    else:
        knights ^= both
    ours ^= both
    if turn:
        return _new(Position, (ours, theirs, kings, queens, rooks, bishops, knights, False))
    return _new(Position, (theirs, ours, kings, queens, rooks, bishops, knights, True))


def gives_check(position: Position, move: chess.Move) -> bool:
    """Whether ``move``, a legal move of the side to move, puts the other
    side in check: :func:`is_check` of the position after it, without
    building that position."""
    frm, to = move.from_square, move.to_square
    f, t = _BB[frm], _BB[to]
    white, black, kings, queens, rooks, bishops, knights, turn = position
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & theirs
    if not king_bb:
        return False
    king = king_bb.bit_length() - 1
    # Each of our masks after the move: without ``frm``, with ``to`` for the mover's kind.
    mine = ours & ~f
    if (_KING[king] & (kings & mine | (t if kings & f else 0))
            or _KNIGHT[king] & (knights & mine | (t if knights & f else 0))):
        return True
    occupancy = ((white | black) & ~f) | t
    straight = (rooks | queens) & mine | (t if (rooks | queens) & f else 0)
    if straight and (_RANK_ATT[king][_RANK_MASK[king] & occupancy]
                     | _FILE_ATT[king][_FILE_MASK[king] & occupancy]) & straight:
        return True
    diagonal = (bishops | queens) & mine | (t if (bishops | queens) & f else 0)
    return bool(diagonal and _DIAG_ATT[king][_DIAG_MASK[king] & occupancy] & diagonal)


def _lines(square: chess.Square, occupancy: Bitboard) -> tuple[Bitboard, Bitboard]:
    """The squares a rook and a bishop on ``square`` would attack, with
    ``occupancy`` blocking: where a line piece checks a king on ``square``."""
    return (_RANK_ATT[square][_RANK_MASK[square] & occupancy]
            | _FILE_ATT[square][_FILE_MASK[square] & occupancy],
            _DIAG_ATT[square][_DIAG_MASK[square] & occupancy])


def checking_moves(position: Position, moves: Iterable[chess.Move]) -> list[chess.Move]:
    """Those of ``moves`` (legal moves of the side to move) that put the
    other side in check, in their order. Each piece's checking squares are
    found once (its kind's lines from their king, the piece's own square
    vacated); only a move that may uncover a check by another line piece of
    ours is tested whole (:func:`gives_check`)."""
    white, black, kings, queens, rooks, bishops, knights, turn = position
    ours = white if turn else black
    king_bb = kings & (black if turn else white)
    if not king_bb:
        return []
    king = king_bb.bit_length() - 1
    occupancy = white | black
    straight_ours, diagonal_ours = (rooks | queens) & ours, (bishops | queens) & ours
    squares: dict[chess.Square, int] = {}
    found = []
    for move in moves:
        frm = move.from_square
        mask = squares.get(frm)
        if mask is None:
            f = _BB[frm]
            straight, diagonal = _lines(king, occupancy & ~f)
            if (straight & straight_ours | diagonal & diagonal_ours) & ~f:
                mask = -1  # another line piece looks at their king through ``frm``
            elif knights & f:
                mask = _KNIGHT[king]
            else:
                mask = ((straight if (rooks | queens) & f else 0)
                        | (diagonal if (bishops | queens) & f else 0))
            squares[frm] = mask
        if mask & _BB[move.to_square] if mask >= 0 else gives_check(position, move):
            found.append(move)
    return found


def legal_checks(position: Position) -> list[chess.Move]:
    """The legal moves that put the other side in check, in the order of
    :func:`legal_moves`. When we are not in check and they have no line
    piece, each piece's checking targets come straight from its checking
    squares (:func:`_checking_targets`), without listing its other moves."""
    white, black, kings, queens, rooks, bishops, knights, turn = position
    theirs = black if turn else white
    if is_check(position) or theirs & (rooks | queens | bishops) or not kings & theirs:
        return checking_moves(position, legal_moves(position))
    found: list[chess.Move] = []
    for frm, targets, uncovers in _checking_targets(position):
        row = MOVES[frm]
        if uncovers:
            found += [move for move in _descending(row, targets) if gives_check(position, move)]
        else:
            found += _descending(row, targets)
    return found


def _checking_targets(position: Position) -> Iterator[tuple[chess.Square, Bitboard, bool]]:
    """For each of our pieces, highest square first: its square, the
    targets of its legal moves that may give check, and whether each must
    still be tested (:func:`gives_check`: the piece may uncover a check by
    another); when not, its targets are exactly its checking moves'. Only
    for a position where we are not in check and they have a king and no
    line piece: then every move of a piece but the king is legal, and one
    checks when it lands on its kind's lines from their king or uncovers a
    line piece of ours."""
    white, black, kings, queens, rooks, bishops, knights, turn = position
    ours, theirs = (white, black) if turn else (black, white)
    king = (kings & theirs).bit_length() - 1
    occupancy = white | black
    straight_ours, diagonal_ours = (rooks | queens) & ours, (bishops | queens) & ours
    pieces = ours
    while pieces:
        frm = pieces.bit_length() - 1
        f = _BB[frm]
        pieces ^= f
        straight, diagonal = _lines(king, occupancy & ~f)
        uncovers = bool((straight & straight_ours | diagonal & diagonal_ours) & ~f)
        if kings & f:
            if uncovers:
                yield frm, _KING[frm] & ~ours & ~_danger(position, theirs, f), True
            continue
        targets = attacks(position, frm, occupancy) & ~ours
        if not uncovers:
            if knights & f:
                targets &= _KNIGHT[king]
            else:
                targets &= ((straight if (rooks | queens) & f else 0)
                            | (diagonal if (bishops | queens) & f else 0))
        yield frm, targets, uncovers


def mate_in_one(position: Position) -> chess.Move | None:
    """The first of :func:`legal_checks` after which the other side has no
    legal move: the first mate in one, or None.

    Against a king alone, a check mates only if it leaves none of that
    king's steps uncovered. The steps our other pieces may cover are found
    once per moving piece (its square vacated, their king seen through: a
    superset of what they cover after the move); the piece must cover the
    rest from where it lands, and it covers a square from exactly the
    squares its kind would attack from that square, so its targets are cut
    to those by bitboards. Only a move left after that is played."""
    white, black, kings, queens, rooks, bishops, knights, turn = position
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & theirs
    # Against a lone king only that king could check us (is_check's whole
    # test here); a check to escape, or other men of theirs, take the long way.
    if theirs != king_bb or not king_bb or _KING[king_bb.bit_length() - 1] & kings & ours:
        for move in legal_checks(position):
            if not has_legal_move(apply(position, move)):
                return move
        return None
    steps = _KING[king_bb.bit_length() - 1]
    seen = (white | black) & ~king_bb
    for frm, targets, uncovers in _checking_targets(position):
        f = _BB[frm]
        vacated = seen & ~f
        free = steps
        others = ours & ~f
        while others:
            square = others.bit_length() - 1
            others ^= _BB[square]
            free &= ~attacks(position, square, vacated)
        while free and targets:
            square = free.bit_length() - 1
            free ^= _BB[square]
            # Where the piece may stand to cover ``square``: its kind's
            # attacks from there (a square never covers itself).
            if kings & f:
                targets &= _KING[square]
            elif knights & f:
                targets &= _KNIGHT[square]
            else:
                reach = 0
                if (rooks | queens) & f:
                    reach = (_RANK_ATT[square][_RANK_MASK[square] & vacated]
                             | _FILE_ATT[square][_FILE_MASK[square] & vacated])
                if (bishops | queens) & f:
                    reach |= _DIAG_ATT[square][_DIAG_MASK[square] & vacated]
                targets &= reach
        row = MOVES[frm]
        while targets:
            to = targets.bit_length() - 1
            targets ^= _BB[to]
            move = row[to]
            if uncovers and not gives_check(position, move):
                continue
            if not has_legal_move(apply(position, move)):
                return move
    return None


def _descending(row: tuple[chess.Move, ...], targets: Bitboard) -> list[chess.Move]:
    """The moves of ``row`` to ``targets``, highest target square first."""
    moves = []
    while targets:
        to = targets.bit_length() - 1
        targets ^= _BB[to]
        moves.append(row[to])
    return moves


def legal_moves(position: Position) -> list[chess.Move]:
    """The legal moves of the side to move, in python-chess's order: when in
    check the king's moves first, then the other pieces'; otherwise by piece,
    from the highest square down, each piece's targets from the highest
    square down.

    No move is played to find them: the king may step where no piece of
    theirs attacks (:func:`_danger`), and when we are not in check and they
    have no line piece to pin with, every other move is legal as it stands;
    only the remaining moves (in check, or possibly pinned) are played to
    test them.
    """
    white, black, kings, queens, rooks, bishops, knights, turn = position
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & ours
    if ours == king_bb:
        # A lone king: its steps are all the moves, in check or not.
        return _king_steps(position, ours, theirs, king_bb) if king_bb else []
    occupancy = white | black
    in_check = is_check(position)
    free = not in_check and not theirs & (rooks | queens | bishops)
    found: list[chess.Move] = []
    pieces = ours
    if in_check and king_bb:
        found += _king_steps(position, ours, theirs, king_bb)
        pieces &= ~king_bb
    while pieces:
        frm = pieces.bit_length() - 1
        f = _BB[frm]
        pieces ^= f
        if kings & f:
            found += _king_steps(position, ours, theirs, f)
            continue
        row = MOVES[frm]
        targets = attacks(position, frm, occupancy) & ~ours
        while targets:
            to = targets.bit_length() - 1
            targets ^= _BB[to]
            move = row[to]
            if free or play(position, move) is not None:
                found.append(move)
    return found


def legal_targets(position: Position,
                  froms: Iterable[chess.Square] | None = None) -> list[Bitboard]:
    """``[square]``: the target squares of the legal moves of the piece of
    the side to move on ``square`` (0 where it has none): the moves of
    :func:`legal_moves` as bitboards, without listing them. Telling whether
    a move is legal is then one lookup (the search marks a generator's
    moves so, most of which are never played). With ``froms``, only the
    pieces on those squares are looked at (the rest read 0): a generator's
    moves mostly come from one or two pieces, and a king's targets cost a
    map of the squares it may not step to."""
    white, black, kings, queens, rooks, bishops, knights, turn = position
    ours, theirs = (white, black) if turn else (black, white)
    occupancy = white | black
    free = not theirs & (rooks | queens | bishops)
    if free:
        # With no line piece of theirs only a king or a knight could check
        # us (:func:`is_check`'s first test, here the whole of it).
        king_bb = kings & ours
        if king_bb:
            king = king_bb.bit_length() - 1
            free = not (_KING[king] & kings | _KNIGHT[king] & knights) & theirs
    found = [0] * 64
    for frm in chess.scan_reversed(ours) if froms is None else froms:
        f = _BB[frm]
        if not ours & f:
            continue
        if kings & f:
            found[frm] = _KING[frm] & ~ours & ~_danger(position, theirs, f)
            continue
        # :func:`attacks`, inlined on the fields at hand.
        if knights & f:
            targets = _KNIGHT[frm]
        else:
            targets = 0
            if (rooks | queens) & f:
                targets = (_RANK_ATT[frm][_RANK_MASK[frm] & occupancy]
                           | _FILE_ATT[frm][_FILE_MASK[frm] & occupancy])
            if (bishops | queens) & f:
                targets |= _DIAG_ATT[frm][_DIAG_MASK[frm] & occupancy]
        targets &= ~ours
        if not free:
            # In check, or a line piece of theirs may pin: test each move.
            row = MOVES[frm]
            for to in chess.scan_reversed(targets):
                if play(position, row[to]) is None:
                    targets &= ~_BB[to]
        found[frm] = targets
    return found


def _king_steps(position: Position, ours: Bitboard, theirs: Bitboard,
                king_bb: Bitboard) -> list[chess.Move]:
    """The legal moves of our king on ``king_bb``, highest target square first."""
    king = king_bb.bit_length() - 1
    row = MOVES[king]
    targets = _KING[king] & ~ours & ~_danger(position, theirs, king_bb)
    steps = []
    while targets:
        to = targets.bit_length() - 1
        targets ^= _BB[to]
        steps.append(row[to])
    return steps


def successors(position: Position) -> Iterator[tuple[chess.Move, Position]]:
    """Every legal move with the position it leads to, in the order of
    :func:`legal_moves`."""
    for move in legal_moves(position):
        yield move, apply(position, move)


def has_legal_move(position: Position) -> bool:
    """The side to move has a legal move. The king goes first (the piece
    likeliest to have a move; the order does not matter here)."""
    white, black, kings, _, _, _, _, turn = position
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & ours
    if king_bb and _KING[king_bb.bit_length() - 1] & ~ours & ~_danger(position, theirs,
                                                                          king_bb):
        return True
    occupancy = white | black
    for frm in chess.scan_reversed(ours & ~king_bb):
        row = MOVES[frm]
        for to in chess.scan_reversed(attacks(position, frm, occupancy) & ~ours):
            if play(position, row[to]) is not None:
                return True
    return False


def _lone_king(position: Position) -> tuple[bool, bool] | None:
    """For a side to move with its king alone: whether it is in check and
    whether it has a legal move, both read off one map of the squares the
    king may not step to (:func:`_danger`: its own square is on it exactly
    when it is attacked, as the lines are seen through the king), where
    :func:`is_stalemate` would otherwise test both apart. None for any
    other side."""
    white, black, kings, _, _, _, _, turn = position
    ours, theirs = (white, black) if turn else (black, white)
    if ours != kings & ours or not ours:
        return None
    danger = _danger(position, theirs, ours)
    return danger & ours != 0, _KING[ours.bit_length() - 1] & ~danger != 0


def is_checkmate(position: Position) -> bool:
    """The side to move is in check and has no legal move. (Not in check,
    most positions, is decided by :func:`is_check` alone.)"""
    return is_check(position) and not has_legal_move(position)


def is_stalemate(position: Position) -> bool:
    """The side to move is not in check and has no legal move."""
    lone = _lone_king(position)
    if lone is not None:
        return not lone[0] and not lone[1]
    return not is_check(position) and not has_legal_move(position)
