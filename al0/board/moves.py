"""Legal moves of a compact position: which moves there are, and playing one.

Split from :mod:`al0.board.position` (the type and its reads) so that each
module holds one idea: this one generates the legal moves in python-chess's
order and plays them, checked (:func:`play`) or not (:func:`apply`). These
functions are the search's hot path: each binds python-chess's attack tables
to module names of its own and inlines what it would otherwise call per move.
"""

from __future__ import annotations

from typing import Iterable, Iterator

import chess

from al0.board.position import (
    MOVES,
    PROMOTIONS,
    Bitboard,
    Position,
    attackers,
    attacks,
    is_check,
    king_danger,
)

_BB = chess.BB_SQUARES
_KING = chess.BB_KING_ATTACKS
_KNIGHT = chess.BB_KNIGHT_ATTACKS
_RANK_ATT, _RANK_MASK = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
_FILE_ATT, _FILE_MASK = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
_DIAG_ATT, _DIAG_MASK = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
_PAWN_ATT = chess.BB_PAWN_ATTACKS
_Move = chess.Move
_new = tuple.__new__  # builds a Position without NamedTuple's Python-level __new__


def play(position: Position, move: chess.Move) -> Position | None:
    """The position after ``move``, or None when ``move`` is not a legal move
    of the side to move (any object that is not a plain ``chess.Move`` of a
    piece of the side to move, to a square it attacks and not its own, that
    leaves its own king safe; with pawns on the board, any move not among
    :func:`legal_moves`)."""
    if type(move) is not _Move:
        return None
    if position[7]:
        return apply(position, move) if move in legal_moves(position) else None
    if move.promotion or move.drop:
        return None
    frm, to = move.from_square, move.to_square
    f, t = _BB[frm], _BB[to]
    white, black, kings, queens, rooks, bishops, knights, _, turn, _ = position
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
        if (
            straight
            and (_RANK_ATT[to][_RANK_MASK[to] & occupancy] | _FILE_ATT[to][_FILE_MASK[to] & occupancy])
            & straight
        ):
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
            reach = _RANK_ATT[frm][_RANK_MASK[frm] & occupancy] | _FILE_ATT[frm][_FILE_MASK[frm] & occupancy]
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
    white, black, kings, queens, rooks, bishops, knights, _, _, _ = child
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & ours
    if king_bb:
        king = king_bb.bit_length() - 1
        if (_KING[king] & kings & theirs) or (_KNIGHT[king] & knights & theirs):
            return None
        occupancy = ours | theirs
        straight = (rooks | queens) & theirs
        if (
            straight
            and (
                _RANK_ATT[king][_RANK_MASK[king] & occupancy] | _FILE_ATT[king][_FILE_MASK[king] & occupancy]
            )
            & straight
        ):
            return None
        diagonal = (bishops | queens) & theirs
        if diagonal and _DIAG_ATT[king][_DIAG_MASK[king] & occupancy] & diagonal:
            return None
    return child


def apply(position: Position, move: chess.Move) -> Position:
    """The position after ``move``, which must be a legal move of the side to
    move (unchecked: for moves :func:`legal_moves` gave; :func:`play` checks)."""
    if position[7]:
        return _apply_with_pawns(position, move)
    f, t = _BB[move.from_square], _BB[move.to_square]
    white, black, kings, queens, rooks, bishops, knights, _, turn, _ = position
    ours, theirs = (white, black) if turn else (black, white)
    # A capture removes their piece from every mask; then the mover's mask
    # loses ``f`` and gains ``t`` (``t`` is clear in it now, so xor does both).
    if theirs & t:
        keep = ~t
        kings, queens, rooks, bishops, knights = (
            kings & keep,
            queens & keep,
            rooks & keep,
            bishops & keep,
            knights & keep,
        )
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
        return _new(Position, (ours, theirs, kings, queens, rooks, bishops, knights, 0, False, None))
    return _new(Position, (theirs, ours, kings, queens, rooks, bishops, knights, 0, True, None))


def _apply_with_pawns(position: Position, move: chess.Move) -> Position:
    """:func:`apply` on a board with pawns: a capture may take a pawn, a pawn
    may step, capture en passant or promote, and after a double step the
    en-passant square is kept only when a pawn of theirs may take there."""
    frm, to = move.from_square, move.to_square
    f, t = _BB[frm], _BB[to]
    white, black, kings, queens, rooks, bishops, knights, pawns, turn, ep_square = position
    ours, theirs = (white, black) if turn else (black, white)
    if theirs & t:
        keep = ~t
        kings, queens, rooks, bishops, knights, pawns = (
            kings & keep,
            queens & keep,
            rooks & keep,
            bishops & keep,
            knights & keep,
            pawns & keep,
        )
        theirs &= keep
    elif to == ep_square and pawns & f:
        # En passant: the pawn taken stands beside ours, behind ``to``.
        taken = _BB[to - 8 if turn else to + 8]
        pawns &= ~taken
        theirs &= ~taken
    both = f | t
    ep_square = None
    if pawns & f:
        pawns ^= f
        promotion = move.promotion
        if promotion is None:
            pawns |= t
            if to - frm in (16, -16):
                middle = (frm + to) // 2
                # Their pawns that attack the square passed over, as a
                # pawn of ours standing there would attack.
                if _PAWN_ATT[turn][middle] & pawns & theirs:
                    ep_square = middle
        elif promotion == chess.QUEEN:
            queens |= t
        elif promotion == chess.ROOK:
            rooks |= t
        elif promotion == chess.BISHOP:
            bishops |= t
        else:
            knights |= t
    elif kings & f:
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
        return _new(Position, (ours, theirs, kings, queens, rooks, bishops, knights, pawns, False, ep_square))
    return _new(Position, (theirs, ours, kings, queens, rooks, bishops, knights, pawns, True, ep_square))


def legal_moves(position: Position) -> list[chess.Move]:
    """The legal moves of the side to move, in python-chess's order: when in
    check the king's moves first, then the other pieces'; otherwise by piece,
    from the highest square down, each piece's targets from the highest
    square down.

    No move is played to find them: the king may step where no piece of
    theirs attacks (:func:`king_danger`), and when we are not in check and they
    have no line piece to pin with, every other move is legal as it stands;
    only the remaining moves (in check, or possibly pinned) are played to
    test them. With pawns on the board, :func:`_legal_moves_with_pawns`.
    """
    white, black, kings, queens, rooks, bishops, knights, pawns, turn, _ = position
    if pawns:
        return _legal_moves_with_pawns(position)
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


def _legal_moves_with_pawns(position: Position) -> list[chess.Move]:
    """:func:`legal_moves` of a board with pawns, in python-chess's order:
    (when in check, the king's moves first) the pieces' moves as without
    pawns, then the pawns' captures by pawn from the highest square down,
    their single steps and their double steps by target from the highest
    square down, then the captures en passant. A promotion is four moves,
    queen, rook, bishop, knight. Every move but the king's is played to test
    that our king is safe after it (a pawn moved off a line, a capture en
    passant that empties a rank)."""
    white, black, kings, _, _, _, _, pawns, turn, ep_square = position
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & ours
    occupancy = white | black
    candidates: list[chess.Move] = []
    found: list[chess.Move] = []
    pieces = ours & ~pawns
    if king_bb and is_check(position):
        found += _king_steps(position, ours, theirs, king_bb)
        pieces &= ~king_bb
    for frm in chess.scan_reversed(pieces):
        if kings >> frm & 1:
            candidates += _king_steps(position, ours, theirs, _BB[frm])
            continue
        row = MOVES[frm]
        candidates += [row[to] for to in chess.scan_reversed(attacks(position, frm, occupancy) & ~ours)]
    ours_pawns = ours & pawns
    step = 8 if turn else -8
    for frm in chess.scan_reversed(ours_pawns):
        for to in chess.scan_reversed(_PAWN_ATT[turn][frm] & theirs):
            candidates += PROMOTIONS.get((frm, to)) or (MOVES[frm][to],)
    singles = (ours_pawns << 8 if turn else ours_pawns >> 8) & ~occupancy & chess.BB_ALL
    for to in chess.scan_reversed(singles):
        candidates += PROMOTIONS.get((to - step, to)) or (MOVES[to - step][to],)
    doubles = (
        (singles << 8 if turn else singles >> 8) & ~occupancy & (chess.BB_RANK_4 if turn else chess.BB_RANK_5)
    )
    candidates += [MOVES[to - 2 * step][to] for to in chess.scan_reversed(doubles)]
    if ep_square is not None:
        capturers = ours_pawns & _PAWN_ATT[not turn][ep_square]
        candidates += [MOVES[frm][ep_square] for frm in chess.scan_reversed(capturers)]
    if not king_bb:
        return found + candidates
    for move in candidates:
        if move.from_square != king_bb.bit_length() - 1 and _exposes_king(position, move):
            continue
        found.append(move)
    return found


def _exposes_king(position: Position, move: chess.Move) -> bool:
    """After ``move`` our king stands attacked."""
    turn = position[8]
    child = _apply_with_pawns(position, move)
    king_bb = child[2] & (child[0] if turn else child[1])
    return attackers(child, not turn, king_bb.bit_length() - 1) != 0


def legal_targets(position: Position, froms: Iterable[chess.Square] | None = None) -> list[Bitboard]:
    """``[square]``: the target squares of the legal moves of the piece of
    the side to move on ``square`` (0 where it has none): the moves of
    :func:`legal_moves` as bitboards, without listing them. Telling whether
    a move is legal is then one lookup (the search marks a generator's
    moves so, most of which are never played). With ``froms``, only the
    pieces on those squares are looked at (the rest read 0): a generator's
    moves mostly come from one or two pieces, and a king's targets cost a
    map of the squares it may not step to. A promotion, which is not the
    shared ``MOVES[from][to]``, is never among the targets."""
    white, black, kings, queens, rooks, bishops, knights, pawns, turn, _ = position
    if pawns:
        found = [0] * 64
        squares = set(chess.SQUARES if froms is None else froms)
        for move in _legal_moves_with_pawns(position):
            if move.promotion is None and move.from_square in squares:
                found[move.from_square] |= _BB[move.to_square]
        return found
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
            found[frm] = _KING[frm] & ~ours & ~king_danger(position, theirs, f)
            continue
        # :func:`attacks`, inlined on the fields at hand.
        if knights & f:
            targets = _KNIGHT[frm]
        else:
            targets = 0
            if (rooks | queens) & f:
                targets = (
                    _RANK_ATT[frm][_RANK_MASK[frm] & occupancy] | _FILE_ATT[frm][_FILE_MASK[frm] & occupancy]
                )
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


def _king_steps(position: Position, ours: Bitboard, theirs: Bitboard, king_bb: Bitboard) -> list[chess.Move]:
    """The legal moves of our king on ``king_bb``, highest target square first."""
    king = king_bb.bit_length() - 1
    row = MOVES[king]
    targets = _KING[king] & ~ours & ~king_danger(position, theirs, king_bb)
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
    white, black, kings, _, _, _, _, pawns, turn, _ = position
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & ours
    if king_bb and (_KING[king_bb.bit_length() - 1] & ~ours & ~king_danger(position, theirs, king_bb)):
        return True
    if pawns:
        return bool(_legal_moves_with_pawns(position))
    occupancy = white | black
    for frm in chess.scan_reversed(ours & ~king_bb):
        row = MOVES[frm]
        for to in chess.scan_reversed(attacks(position, frm, occupancy) & ~ours):
            if play(position, row[to]) is not None:
                return True
    return False
