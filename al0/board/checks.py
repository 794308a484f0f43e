"""Checks, mates and stalemates of a compact position.

Split from :mod:`al0.board.moves` (all legal moves) so that each module holds
one idea: this one finds the moves that give check, the first mate in one,
and whether the side to move is mated or stalemated, mostly from bitboards,
without listing every legal move. Advice whose leaves need check (mate)
spends most of its search here, so these functions bind python-chess's
attack tables to module names of their own and inline their tests. With
pawns on the board (a pawn checks unlike a piece, a promotion makes a new
one), each takes the plain way: play the move and look.
"""

from __future__ import annotations

from typing import Iterable, Iterator

import chess

from al0.board.moves import apply, has_legal_move, legal_moves
from al0.board.position import MOVES, Bitboard, Position, attacks, is_check, king_danger

_BB = chess.BB_SQUARES
_KING = chess.BB_KING_ATTACKS
_KNIGHT = chess.BB_KNIGHT_ATTACKS
_RANK_ATT, _RANK_MASK = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
_FILE_ATT, _FILE_MASK = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
_DIAG_ATT, _DIAG_MASK = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS


def gives_check(position: Position, move: chess.Move) -> bool:
    """Whether ``move``, a legal move of the side to move, puts the other
    side in check: :func:`is_check` of the position after it, without
    building that position."""
    if position[7]:
        return is_check(apply(position, move))
    frm, to = move.from_square, move.to_square
    f, t = _BB[frm], _BB[to]
    white, black, kings, queens, rooks, bishops, knights, _, turn, _ = position
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & theirs
    if not king_bb:
        return False
    king = king_bb.bit_length() - 1
    # Each of our masks after the move: without ``frm``, with ``to`` for the mover's kind.
    mine = ours & ~f
    if _KING[king] & (kings & mine | (t if kings & f else 0)) or _KNIGHT[king] & (
        knights & mine | (t if knights & f else 0)
    ):
        return True
    occupancy = ((white | black) & ~f) | t
    straight = (rooks | queens) & mine | (t if (rooks | queens) & f else 0)
    if (
        straight
        and (_RANK_ATT[king][_RANK_MASK[king] & occupancy] | _FILE_ATT[king][_FILE_MASK[king] & occupancy])
        & straight
    ):
        return True
    diagonal = (bishops | queens) & mine | (t if (bishops | queens) & f else 0)
    return bool(diagonal and _DIAG_ATT[king][_DIAG_MASK[king] & occupancy] & diagonal)


def _lines(square: chess.Square, occupancy: Bitboard) -> tuple[Bitboard, Bitboard]:
    """The squares a rook and a bishop on ``square`` would attack, with
    ``occupancy`` blocking: where a line piece checks a king on ``square``."""
    return (
        _RANK_ATT[square][_RANK_MASK[square] & occupancy] | _FILE_ATT[square][_FILE_MASK[square] & occupancy],
        _DIAG_ATT[square][_DIAG_MASK[square] & occupancy],
    )


def checking_moves(position: Position, moves: Iterable[chess.Move]) -> list[chess.Move]:
    """Those of ``moves`` (legal moves of the side to move) that put the
    other side in check, in their order. Each piece's checking squares are
    found once (its kind's lines from their king, the piece's own square
    vacated); only a move that may uncover a check by another line piece of
    ours is tested whole (:func:`gives_check`)."""
    white, black, kings, queens, rooks, bishops, knights, pawns, turn, _ = position
    if pawns:
        return [move for move in moves if gives_check(position, move)]
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
                mask = (straight if (rooks | queens) & f else 0) | (diagonal if (bishops | queens) & f else 0)
            squares[frm] = mask
        if mask & _BB[move.to_square] if mask >= 0 else gives_check(position, move):
            found.append(move)
    return found


def legal_checks(position: Position) -> list[chess.Move]:
    """The legal moves that put the other side in check, in the order of
    :func:`legal_moves`. When we are not in check and they have no line
    piece, each piece's checking targets come straight from its checking
    squares (:func:`_checking_targets`), without listing its other moves."""
    white, black, kings, queens, rooks, bishops, knights, pawns, turn, _ = position
    theirs = black if turn else white
    if pawns or is_check(position) or theirs & (rooks | queens | bishops) or not kings & theirs:
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
    line piece of ours (and no pawns on the board)."""
    white, black, kings, queens, rooks, bishops, knights, _, turn, _ = position
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
                yield frm, _KING[frm] & ~ours & ~king_danger(position, theirs, f), True
            continue
        targets = attacks(position, frm, occupancy) & ~ours
        if not uncovers:
            if knights & f:
                targets &= _KNIGHT[king]
            else:
                targets &= (straight if (rooks | queens) & f else 0) | (
                    diagonal if (bishops | queens) & f else 0
                )
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
    white, black, kings, queens, rooks, bishops, knights, pawns, turn, _ = position
    ours, theirs = (white, black) if turn else (black, white)
    king_bb = kings & theirs
    # Against a lone king only that king could check us (is_check's whole
    # test here); a check to escape, other men of theirs, or pawns of ours
    # (whose checks and promotions the bitboards below do not model) take
    # the long way.
    if pawns or theirs != king_bb or not king_bb or _KING[king_bb.bit_length() - 1] & kings & ours:
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
                    reach = (
                        _RANK_ATT[square][_RANK_MASK[square] & vacated]
                        | _FILE_ATT[square][_FILE_MASK[square] & vacated]
                    )
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


def _lone_king(position: Position) -> tuple[bool, bool] | None:
    """For a side to move with its king alone: whether it is in check and
    whether it has a legal move, both read off one map of the squares the
    king may not step to (:func:`king_danger`: its own square is on it exactly
    when it is attacked, as the lines are seen through the king), where
    :func:`is_stalemate` would otherwise test both apart. None for any
    other side."""
    white, black, kings, _, _, _, _, _, turn, _ = position
    ours, theirs = (white, black) if turn else (black, white)
    if ours != kings & ours or not ours:
        return None
    danger = king_danger(position, theirs, ours)
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
