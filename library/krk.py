"""The KRK predicate library of Bratko's AL0 (King and Rook vs King).

Coordinates are file x and rank y, 1..8. W is our king, R our rook, B their
king. Distance is king-move (Chebyshev) distance; Manhattan distance is
|dx| + |dy|. Every predicate is a pure function of (node, root).
"""

from __future__ import annotations

import chess

from al0.board.moves import legal_moves
from al0.board.position import MOVES
from al0.lang.library import Library
from al0.lang.node import Node

Squares = tuple[chess.Square, chess.Square | None, chess.Square]
"""Our king, our rook (None when it is gone), their king: a plain tuple,
which the predicates unpack (``w, r, b = ...``) in a few instructions,
where each field of a NamedTuple is a Python-level lookup (they run
several times at every search node)."""


def squares(node: Node) -> Squares:
    """The pieces' squares at ``node``, memoised per node under this
    function (:meth:`Node.fact` inlined, as this runs several times at
    every node). The predicates run at every node read the memo first
    themselves (``node.facts.get(squares) or squares(node)``): they mostly
    find the squares there, and a call is most of what reading them costs."""
    found = node.facts.get(squares)
    if found is None:
        white, black, kings, _, rooks, _, _, _, _, _ = node.position
        ours, theirs = (white, black) if node.us else (black, white)
        rooks &= ours
        found = node.facts[squares] = (
            (kings & ours).bit_length() - 1,
            (rooks & -rooks).bit_length() - 1 if rooks else None,
            (kings & theirs).bit_length() - 1,
        )
    return found


_BB = chess.BB_SQUARES


# python-chess's distances and coordinates, tabulated once: predicates read
# them at every search node, and an indexing is several times faster than a
# call (so the predicates index these tables directly).
DISTANCE = tuple(tuple(chess.square_distance(a, b) for b in chess.SQUARES) for a in chess.SQUARES)
MANHATTAN = tuple(tuple(chess.square_manhattan_distance(a, b) for b in chess.SQUARES) for a in chess.SQUARES)
XY = tuple((chess.square_file(s) + 1, chess.square_rank(s) + 1) for s in chess.SQUARES)


def _between(masks: list[chess.Bitboard]) -> tuple[tuple[chess.Bitboard, ...], ...]:
    """``[i][j]``: the union of ``masks`` strictly between indices i and j."""
    return tuple(tuple(sum(masks[min(i, j) + 1 : max(i, j)]) for j in range(8)) for i in range(8))


_FILES_BETWEEN, _RANKS_BETWEEN = _between(chess.BB_FILES), _between(chess.BB_RANKS)
DIVIDING = tuple(
    tuple(
        _FILES_BETWEEN[chess.square_file(w)][chess.square_file(b)]
        | _RANKS_BETWEEN[chess.square_rank(w)][chess.square_rank(b)]
        for b in chess.SQUARES
    )
    for w in chess.SQUARES
)
"""``DIVIDING[w][b]``: the squares on a file strictly between the files of
w and b or on a rank strictly between their ranks (where the rook divides
kings on w and b), tabulated once: rookdivides runs at most nodes."""


EDGE = tuple(chess.square_file(s) in (0, 7) or chess.square_rank(s) in (0, 7) for s in chess.SQUARES)
"""``EDGE[square]``: whether ``square`` is on an edge file or rank."""


# ------------------------------------------------------------ predicates


def their_king_edge(node: Node, root: Node) -> bool:
    """B stands on an edge file or rank."""
    return EDGE[(node.facts.get(squares) or squares(node))[2]]


def our_king_edge(node: Node, root: Node) -> bool:
    """W stands on an edge file or rank."""
    return EDGE[(node.facts.get(squares) or squares(node))[0]]


def kings_close(node: Node, root: Node) -> bool:
    """distance(W, B) < 4."""
    w, _, b = node.facts.get(squares) or squares(node)
    return DISTANCE[w][b] < 4


def rooklost(node: Node, root: Node) -> bool:
    """The rook is gone, or it is their move, B is next to R and W is not."""
    w, r, b = node.facts.get(squares) or squares(node)
    if r is None:
        return True
    return node.position.turn != node.us and DISTANCE[b][r] == 1 and DISTANCE[w][r] > 1


def rookexposed(node: Node, root: Node) -> bool:
    """d1 = distance(W, R), d2 = distance(B, R): us to move d1 > d2 + 1, them
    to move d1 > d2. (A lost rook counts as exposed.)"""
    w, r, b = node.facts.get(squares) or squares(node)
    if r is None:
        return True
    d1, d2 = DISTANCE[w][r], DISTANCE[b][r]
    return d1 > d2 + 1 if node.position.turn == node.us else d1 > d2


def rookdivides(node: Node, root: Node) -> bool:
    """R's file lies strictly between the kings' files, or R's rank strictly
    between the kings' ranks."""
    w, r, b = node.facts.get(squares) or squares(node)
    return r is not None and DIVIDING[w][b] & _BB[r] != 0


def _rectangle(r: chess.Square, b: chess.Square) -> int:
    """Squares of the rectangle a rook on ``r`` leaves a king on ``b``; 64
    when they share a file or rank."""
    (rx, ry), (bx, by) = XY[r], XY[b]
    if bx == rx or by == ry:
        return 64
    return (rx - 1 if bx < rx else 8 - rx) * (ry - 1 if by < ry else 8 - ry)


ROOM = tuple(tuple(_rectangle(r, b) for b in chess.SQUARES) for r in chess.SQUARES)
"""``ROOM[r][b]``: :func:`_rectangle`, tabulated once (room is read at
most nodes of the advice that squeeze)."""


def room(node: Node) -> int:
    """Squares of the rectangle the rook's lines leave B; 64 when B shares
    R's file or rank (or the rook is gone)."""
    _, r, b = node.facts.get(squares) or squares(node)
    return 64 if r is None else ROOM[r][b]


def newroomsmaller(node: Node, root: Node) -> bool:
    """room(node) < room(root)."""
    # room() of both, inlined: this runs at every node of squeeze.
    _, r, b = node.facts.get(squares) or squares(node)
    _, root_r, root_b = root.facts.get(squares) or squares(root)
    return (64 if r is None else ROOM[r][b]) < (64 if root_r is None else ROOM[root_r][root_b])


def roomgt2(node: Node, root: Node) -> bool:
    """room > 2."""
    return room(node) > 2


def critical_square(node: Node) -> tuple[int, int]:
    """The square diagonally next to R on B's side, as (x, y); it may lie off
    the board, which only matters as a target of Manhattan distance."""
    _, r, b = squares(node)
    (rx, ry), (bx, by) = XY[r], XY[b]  # type: ignore[index]
    return (rx - 1 if bx < rx else rx + 1, ry - 1 if by < ry else ry + 1)


def _w_to_csquare(node: Node) -> int:
    wx, wy = XY[squares(node)[0]]
    cx, cy = critical_square(node)
    return abs(wx - cx) + abs(wy - cy)


def okapproachedcsquare(node: Node, root: Node) -> bool:
    """Manhattan distance from W to the critical square is smaller at the
    node than at the root (each measured in its own position)."""
    if squares(node)[1] is None or squares(root)[1] is None:
        return False
    return _w_to_csquare(node) < _w_to_csquare(root)


def lpatt(node: Node, root: Node) -> bool:
    """L-pattern: Manhattan(W, B) = 2 and Manhattan(R, B) = 3."""
    w, r, b = node.facts.get(squares) or squares(node)
    if r is None:
        return False
    return MANHATTAN[w][b] == 2 and MANHATTAN[r][b] == 3


def okorndle(node: Node, root: Node) -> bool:
    """distance(W, R) at the node <= distance(W, R) at the root."""
    w, r, _ = squares(node)
    root_w, root_r, _ = squares(root)
    if r is None or root_r is None:
        return False
    return DISTANCE[w][r] <= DISTANCE[root_w][root_r]


# ------------------------------------------------------------ generators

# The book's orders, so that al0 tries moves as Bratko's program does:
# - a king steps to its neighbours diagonals first, then along the rank, then
#   along the file, each time +1 before -1 ((x+1, y+1), (x+1, y-1), ...);
# - a rook goes to coordinate I = 1..8, for each I first along its file
#   (to rank I), then along its rank (to file I).
KING_STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1))


def _book_rook_order(rook: chess.Square, to: chess.Square) -> tuple[int, int]:
    """Sort key of a rook move in the book's order."""
    if chess.square_file(to) == chess.square_file(rook):
        return chess.square_rank(to), 0
    return chess.square_file(to), 1


# Both orders tabulated once per square, as (target bitboard, move) pairs:
# a generator then only filters them, which is most of the speed of search.
KING_ORDER = tuple(
    tuple(
        (chess.BB_SQUARES[to], MOVES[king][to])
        for to in (
            chess.square(chess.square_file(king) + dx, chess.square_rank(king) + dy)
            for dx, dy in KING_STEPS
            if 0 <= chess.square_file(king) + dx < 8 and 0 <= chess.square_rank(king) + dy < 8
        )
    )
    for king in chess.SQUARES
)


def _rook_targets_in_book_order(rook: chess.Square) -> list[chess.Square]:
    """The squares a rook on ``rook`` reaches on an empty board, in the book's order."""
    targets = [
        to
        for to in chess.SQUARES
        if to != rook
        and (
            chess.square_file(to) == chess.square_file(rook)
            or chess.square_rank(to) == chess.square_rank(rook)
        )
    ]
    return sorted(targets, key=lambda to: _book_rook_order(rook, to))


ROOK_ORDER = tuple(
    tuple((chess.BB_SQUARES[to], MOVES[rook][to]) for to in _rook_targets_in_book_order(rook))
    for rook in chess.SQUARES
)
ROOK_MOVES = tuple(tuple(move for _, move in order) for order in ROOK_ORDER)
"""``ROOK_MOVES[rook]``: every move of a rook on an empty board, in the book's order."""
ROOK_LINES = tuple(
    (chess.BB_FILES[chess.square_file(rook)] | chess.BB_RANKS[chess.square_rank(rook)])
    & ~chess.BB_SQUARES[rook]
    for rook in chess.SQUARES
)
"""``ROOK_LINES[rook]``: the squares of the rook's file and rank but its own."""


def _king_steps(king: chess.Square, forbidden: chess.Bitboard) -> list[chess.Move]:
    """The king's steps in the book's order, except onto ``forbidden`` squares."""
    return [move for to, move in KING_ORDER[king] if not forbidden & to]


def kingdiagfirst(node: Node) -> list[chess.Move]:
    """Our king's moves, diagonal ones first, never next to B or onto R."""
    w, r, b = squares(node)
    forbidden = chess.BB_KING_ATTACKS[b] | chess.BB_SQUARES[b]
    if r is not None:
        forbidden |= chess.BB_SQUARES[r]
    return _king_steps(w, forbidden)


def rookmove(node: Node) -> list[chess.Move]:
    """The rook's moves along its file and rank, never through or onto a king."""
    rook = (node.facts.get(squares) or squares(node))[1]
    if rook is None:
        return []
    position = node.position
    occupied = position.white | position.black
    if not ROOK_LINES[rook] & occupied:
        # Nothing on its file or rank (more than half the positions): every
        # move, without filtering them.
        return list(ROOK_MOVES[rook])
    targets = (
        chess.BB_RANK_ATTACKS[rook][chess.BB_RANK_MASKS[rook] & occupied]
        | chess.BB_FILE_ATTACKS[rook][chess.BB_FILE_MASKS[rook] & occupied]
    ) & ~occupied
    return [move for to, move in ROOK_ORDER[rook] if targets & to]


def legal(node: Node) -> list[chess.Move]:
    """Every legal move, in the book's order: ours are the king's moves
    (diagonals first) then the rook's; theirs are their king's moves in the
    same order as ours."""
    position, (w, r, b) = node.position, squares(node)
    ours = position.white if node.us else position.black
    occupied = position.white | position.black
    our_rooks = position.rooks & ours
    if occupied & ~(position.kings | our_rooks) or our_rooks.bit_count() > 1:
        # Not K(+R) v K: python-chess's rules decide, in the book's order where it can.
        allowed = set(legal_moves(position))
        book = _king_steps(w if position.turn == node.us else b, 0)
        ordered = [move for move in book if move in allowed]
        return ordered + sorted(allowed.difference(ordered), key=chess.Move.uci)
    if position.turn == node.us:
        # Nothing can pin or check us: every king step kingdiagfirst allows
        # and every rook move is legal, and there is no other move.
        return kingdiagfirst(node) + rookmove(node)
    # Their king may not step next to W, nor onto a line of the rook, seen
    # with B gone from its square (it cannot hide behind itself); it may take
    # the rook when W does not guard it. (A test checks these are exactly
    # python-chess's legal moves, for both sides.)
    guarded = chess.BB_KING_ATTACKS[w] | chess.BB_SQUARES[w]
    if r is not None:
        without_b = occupied & ~chess.BB_SQUARES[b]
        guarded |= (
            chess.BB_RANK_ATTACKS[r][chess.BB_RANK_MASKS[r] & without_b]
            | chess.BB_FILE_ATTACKS[r][chess.BB_FILE_MASKS[r] & without_b]
        )
    return _king_steps(b, guarded)


def checkmove(node: Node) -> list[chess.Move]:
    """Rook moves that land on B's file or rank (giving check)."""
    b = squares(node)[2]
    lines = chess.BB_FILES[chess.square_file(b)] | chess.BB_RANKS[chess.square_rank(b)]
    return [move for move in rookmove(node) if lines & chess.BB_SQUARES[move.to_square]]


def library() -> Library:
    """The KRK vocabulary."""
    return Library(
        "krk",
        predicates={
            "their_king_edge": their_king_edge,
            "our_king_edge": our_king_edge,
            "kings_close": kings_close,
            "rooklost": rooklost,
            "rookexposed": rookexposed,
            "rookdivides": rookdivides,
            "newroomsmaller": newroomsmaller,
            "roomgt2": roomgt2,
            "okapproachedcsquare": okapproachedcsquare,
            "lpatt": lpatt,
            "okorndle": okorndle,
        },
        generators={
            "kingdiagfirst": kingdiagfirst,
            "rookmove": rookmove,
            "checkmove": checkmove,
            "legal": legal,
        },
        symmetric=True,
    )
