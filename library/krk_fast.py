"""A KRK vocabulary for fast mating: the book's KRK library plus the move
orders a chess teacher would use (squeeze the king's box as hard as you can,
walk your king straight at the critical square) and the ideas of the last
phase, their king held on the edge (``edgebound``, ``reach``, ``frontdist``:
walk your king to a knight's move in front of it, wait with the rook, mate),
and, with our king stuck in a corner, the box both kings share along an edge
(``box``, ``span``, ``length``: drive their king along it with ours), or
else the walk out of the corner (``kingnear``, ``cornerdist``, ``edgedist``:
measures of our king alone, which their moves cannot undo).

The book's predicates and generators are ``library/krk.py``'s, loaded by the
project's own loader and re-exported unchanged; this module adds move
generators and the edge predicates and features. In a forcing-tree search the generator's order decides which of
the moves that reach the better-goal is played, and the book's board order
often picks a poor one. Coordinates, W, R, B, room and the critical square
are as in ``library/krk.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, NamedTuple

import chess

from al0.board.position import MOVES, attacks, king_square, occupied, pieces
from al0.lang.library import Library, load_library, standard_library
from al0.lang.node import Node


class Squares(NamedTuple):
    """Our king, our rook (None when it is gone), their king."""

    w: chess.Square
    r: chess.Square | None
    b: chess.Square


def squares(node: Node) -> Squares:
    """The pieces' squares at ``node`` (memoised per node), read from the
    compact position: a ``node.board`` would be built for every node."""
    return node.fact(_find_squares)  # type: ignore[return-value]


def _find_squares(node: Node) -> Squares:
    position = node.position
    rooks = pieces(position, chess.ROOK, node.us)
    return Squares(
        king_square(position, node.us),
        chess.lsb(rooks) if rooks else None,
        king_square(position, not node.us),
    )


def _room(rook: chess.Square, b: chess.Square) -> int:
    """The book's room of B with the rook on ``rook``."""
    rx, ry = chess.square_file(rook), chess.square_rank(rook)
    bx, by = chess.square_file(b), chess.square_rank(b)
    if bx == rx or by == ry:
        return 64
    return (rx if bx < rx else 7 - rx) * (ry if by < ry else 7 - ry)


def _csquare_distance(w: chess.Square, rook: chess.Square, b: chess.Square) -> int:
    """Manhattan distance from W to the critical square (the square diagonally
    next to R on B's side)."""
    rx, ry = chess.square_file(rook), chess.square_rank(rook)
    bx, by = chess.square_file(b), chess.square_rank(b)
    cx = rx - 1 if bx < rx else rx + 1
    cy = ry - 1 if by < ry else ry + 1
    return abs(chess.square_file(w) - cx) + abs(chess.square_rank(w) - cy)


_DISTANCE = tuple(tuple(chess.square_distance(a, b) for b in chess.SQUARES) for a in chess.SQUARES)
"""``_DISTANCE[a][b]``: king steps from ``a`` to ``b`` (python-chess's
square_distance, read from a table in the generators' sort keys)."""


# ------------------------------------------------------------ generators


def _king_moves(node: Node) -> list[chess.Move]:
    """Our king's steps, never next to B or onto R, in square order."""
    s = squares(node)
    forbidden = chess.BB_KING_ATTACKS[s.b] | chess.BB_SQUARES[s.b]
    if s.r is not None:
        forbidden |= chess.BB_SQUARES[s.r]
    row = MOVES[s.w]
    return [row[to] for to in chess.scan_forward(chess.BB_KING_ATTACKS[s.w] & ~forbidden)]


def kingtoward(node: Node) -> Iterator[chess.Move]:
    """Our king's moves (never next to B or onto R), nearest to the critical
    square first, then nearest to B."""
    s = squares(node)
    moves = _king_moves(node)
    if s.r is None:
        return iter(moves)
    rook = s.r
    return iter(
        sorted(
            moves,
            key=lambda move: (
                _csquare_distance(move.to_square, rook, s.b),
                chess.square_distance(move.to_square, s.b),
            ),
        )
    )


def rooksqueeze(node: Node) -> Iterator[chess.Move]:
    """The rook's moves along its file and rank (never through or onto a
    king), the one leaving B the least room first, then the one farthest
    from B."""
    s = squares(node)
    from_b = _DISTANCE[s.b]
    return iter(
        sorted(_rook_moves(node), key=lambda move: (_room(move.to_square, s.b), -from_b[move.to_square]))
    )


def _rook_moves(node: Node) -> list[chess.Move]:
    """The rook's moves along its file and rank, never through or onto a
    king (none when the rook is gone)."""
    rook = squares(node).r
    if rook is None:
        return []
    board = occupied(node.position)
    targets = attacks(node.position, rook, board) & ~board
    row = MOVES[rook]
    return [row[to] for to in chess.scan_forward(targets)]


def kingreach(node: Node) -> Iterator[chess.Move]:
    """Our king's moves (never next to B or onto R), the one leaving B the
    fewest squares to reach (:func:`reach`) first, then nearest to B."""
    s = squares(node)
    return iter(
        sorted(
            _king_moves(node),
            key=lambda move: (
                chess.popcount(_region_of(move.to_square, s.r, s.b)),
                chess.square_distance(move.to_square, s.b),
            ),
        )
    )


def rookbeyond(node: Node) -> Iterator[chess.Move]:
    """The rook's moves along its file and rank (never through or onto a
    king): first those at least three king steps from B (it cannot come
    next to the rook at once), of those first the ones nearer B than W
    (beyond their king, where the rook can later shut it on the edge),
    each group farthest from W first."""
    s = squares(node)

    from_b, from_w = _DISTANCE[s.b], _DISTANCE[s.w]

    def key(move: chess.Move) -> tuple[bool, bool, int]:
        to = move.to_square
        return (from_b[to] < 3, from_w[to] <= from_b[to], -from_w[to])

    return iter(sorted(_rook_moves(node), key=key))


def _far_edges(w: chess.Square) -> chess.Bitboard:
    """The edge lines five lines or more from W."""
    x, y = chess.square_file(w), chess.square_rank(w)
    lines = chess.BB_EMPTY
    if x <= 2:
        lines |= chess.BB_FILE_H
    if x >= 5:
        lines |= chess.BB_FILE_A
    if y <= 2:
        lines |= chess.BB_RANK_8
    if y >= 5:
        lines |= chess.BB_RANK_1
    return lines


def rookfar(node: Node) -> Iterator[chess.Move]:
    """The rook's moves along its file and rank onto an edge line five
    lines or more from W (none when it stands on one), leaving B the least
    room first."""
    s = squares(node)
    far = _far_edges(s.w)
    if s.r is None or chess.BB_SQUARES[s.r] & far:
        return iter(())
    return iter(
        sorted(
            (move for move in _rook_moves(node) if chess.BB_SQUARES[move.to_square] & far),
            key=lambda move: _room(move.to_square, s.b),
        )
    )


def kingnear(node: Node) -> Iterator[chess.Move]:
    """Our king's moves (never next to B or onto R), nearest to B first,
    then farthest from the nearest corner: out of a corner, towards their
    king."""
    s = squares(node)
    return iter(
        sorted(
            _king_moves(node),
            key=lambda move: (chess.square_distance(move.to_square, s.b), -_corner_distance(move.to_square)),
        )
    )


def squeezefirst(node: Node) -> Iterator[chess.Move]:
    """All our moves (in KRK, exactly the legal ones), the rook's first as
    rooksqueeze orders them, then the king's as kingtoward orders them."""
    yield from rooksqueeze(node)
    yield from kingtoward(node)


# ------------------------------------------------------------ the edge box


def _region(node: Node) -> chess.Bitboard:
    """B's square and the squares B can reach from it by king steps, never
    onto a square W or R attacks (R's lines as on the board, seen through B)
    nor onto R (whether B can take it is the holding-goal's business:
    ``rooklost``). Their moves never change it: B moves inside it."""
    s = squares(node)
    return _region_of(s.w, s.r, s.b)


def _region_of(w: chess.Square, r: chess.Square | None, b: chess.Square) -> chess.Bitboard:
    """:func:`_region` with W, R (None when it is gone) and B on these
    squares: in KRK, only W and R block R's lines."""
    if r is None:
        return _flood(w, 0, b)
    blockers = chess.BB_SQUARES[w] | chess.BB_SQUARES[r]
    return _flood(
        w,
        chess.BB_RANK_ATTACKS[r][chess.BB_RANK_MASKS[r] & blockers]
        | chess.BB_FILE_ATTACKS[r][chess.BB_FILE_MASKS[r] & blockers]
        | chess.BB_SQUARES[r],
        b,
    )


def _flood(w: chess.Square, guarded: chess.Bitboard, b: chess.Square) -> chess.Bitboard:
    """B's square and every square it reaches by king steps, never onto W,
    a square W attacks, or a square of ``guarded``. Grown a king step at a
    time by shifting the whole region (the searches ask it at most nodes)."""
    open_squares = ~(chess.BB_KING_ATTACKS[w] | chess.BB_SQUARES[w] | guarded) & chess.BB_ALL
    region = chess.BB_SQUARES[b]
    while True:
        wide = region | (region << 1 & _NOT_FILE_A) | (region >> 1 & _NOT_FILE_H)
        grown = region | ((wide | wide << 8 | wide >> 8) & open_squares)
        if grown == region:
            return region
        region = grown


_NOT_FILE_A = chess.BB_ALL & ~chess.BB_FILE_A
_NOT_FILE_H = chess.BB_ALL & ~chess.BB_FILE_H


def region(node: Node) -> chess.Bitboard:
    """:func:`_region`, memoised per node."""
    return node.fact(_region)  # type: ignore[return-value]


def reach(node: Node) -> int:
    """How many squares B can reach by king steps, never onto a square W or
    R attacks, nor onto R (:func:`region`)."""
    return chess.popcount(region(node))


_EDGES = (chess.BB_RANK_1, chess.BB_RANK_8, chess.BB_FILE_A, chess.BB_FILE_H)


def _edge_of(node: Node) -> int | None:
    """The index in _EDGES of the edge line B is held on: B stands on it and
    every square B can reach lies on it; None when there is none."""
    squares_reached = region(node)
    if not squares_reached:
        return None
    for index, line in enumerate(_EDGES):
        if not squares_reached & ~line:
            return index
    return None


def edge_of(node: Node) -> int | None:
    """:func:`_edge_of`, memoised per node."""
    return node.fact(_edge_of)  # type: ignore[return-value]


def edgebound(node: Node, root: Node) -> bool:
    """B is held on an edge: every square it can reach by king steps (never
    onto a square W or R attacks) lies on the edge line it stands on."""
    return edge_of(node) is not None


def _targets(edge: int, b: chess.Square) -> list[tuple[int, int]]:
    """The squares (x, y, from 0) two lines in from B off edge number ``edge``
    and one line to either side: from there, with B to move, B must step in
    front of W (and the rook mates) or away from it (and W follows)."""
    bx, by = chess.square_file(b), chess.square_rank(b)
    if edge < 2:
        y = 2 if edge == 0 else 5
        return [(x, y) for x in (bx - 1, bx + 1) if 0 <= x < 8]
    x = 2 if edge == 2 else 5
    return [(x, y) for y in (by - 1, by + 1) if 0 <= y < 8]


def _target_distance(w: chess.Square, targets: list[tuple[int, int]]) -> int:
    wx, wy = chess.square_file(w), chess.square_rank(w)
    return min(max(abs(wx - x), abs(wy - y)) for x, y in targets)


def _front(node: Node) -> int:
    """See :func:`frontdist`."""
    edge = edge_of(node)
    if edge is None:
        return 8
    s = squares(node)
    return _target_distance(s.w, _targets(edge, s.b))


def frontdist(node: Node) -> int:
    """King steps from W to the nearer square two lines in from B off the
    edge B is held on and one line to its side (a knight's move from B): 8
    when B is not held on an edge."""
    return node.fact(_front)  # type: ignore[return-value]


def kingtofront(node: Node) -> Iterator[chess.Move]:
    """Our king's moves (never next to B or onto R), nearest to the squares
    of :func:`frontdist` first, then nearest to B."""
    s = squares(node)
    edge = edge_of(node)
    moves = _king_moves(node)
    if edge is None:
        return iter(moves)
    targets = _targets(edge, s.b)
    return iter(
        sorted(
            moves,
            key=lambda move: (
                _target_distance(move.to_square, targets),
                chess.square_distance(move.to_square, s.b),
            ),
        )
    )


def rookaside(node: Node) -> Iterator[chess.Move]:
    """The rook's moves along its file and rank (never through or onto a
    king): first those that leave it between W and B along its line (our
    king can then cross behind it) and not next to B, then the rest, each
    group farthest from B first."""
    s = squares(node)

    def between(rook: chess.Square, to: chess.Square) -> bool:
        along = chess.square_rank if chess.square_file(to) == chess.square_file(rook) else chess.square_file
        low, high = sorted((along(s.w), along(s.b)))
        return low < along(to) < high and chess.square_distance(to, s.b) > 1

    return iter(
        sorted(
            _rook_moves(node),
            key=lambda move: (
                not between(move.from_square, move.to_square),
                -chess.square_distance(move.to_square, s.b),
            ),
        )
    )


def _held(node: Node) -> tuple[int, int]:
    """(squares, lines) of the region B could reach were R to guard only
    the one of its lines that holds B closer: its squares, and how many
    lines across that line (files for a rank) those squares touch."""
    s = squares(node)
    if s.r is None:
        return 64, 8
    blockers = chess.BB_SQUARES[s.w] | chess.BB_SQUARES[s.r]
    rank = chess.BB_RANK_ATTACKS[s.r][chess.BB_RANK_MASKS[s.r] & blockers] | chess.BB_SQUARES[s.r]
    file = chess.BB_FILE_ATTACKS[s.r][chess.BB_FILE_MASKS[s.r] & blockers] | chess.BB_SQUARES[s.r]
    by_rank = _flood(s.w, rank, s.b)
    by_file = _flood(s.w, file, s.b)
    if chess.popcount(by_rank) <= chess.popcount(by_file):
        return (
            chess.popcount(by_rank),
            len({chess.square_file(square) for square in chess.scan_forward(by_rank)}),
        )
    return (
        chess.popcount(by_file),
        len({chess.square_rank(square) for square in chess.scan_forward(by_file)}),
    )


def span(node: Node) -> int:
    """How many squares B could reach were R to guard only one of its lines
    (the one that holds B closer): the rook's other line guards only a
    square or two for a move or two, and the rook may move along the line
    that holds B (a waiting move) without changing this."""
    return node.fact(_held)[0]  # type: ignore[index, no-any-return]


def length(node: Node) -> int:
    """How many lines across the rook's holding line (files for a rank) the
    squares of :func:`span` touch: how far along the box their king can
    still run."""
    return node.fact(_held)[1]  # type: ignore[index, no-any-return]


def _box(node: Node) -> int:
    """See :func:`box`."""
    s = squares(node)
    held = region(node) | chess.BB_SQUARES[s.w]
    files = held | held >> 32
    files |= files >> 16
    files = (files | files >> 8) & 0xFF  # bit f: some square held on file f
    low, high = chess.lsb(held) >> 3, chess.msb(held) >> 3
    return min(high + 1, 8 - low, chess.msb(files) + 1, 8 - chess.lsb(files))


def box(node: Node) -> int:
    """How many lines next to one edge hold W and every square B can reach
    (:func:`region`): 2 when the rook shuts both kings in the two ranks next
    to the first, so that ours can drive theirs along them."""
    return node.fact(_box)  # type: ignore[return-value]


def rooksafe(node: Node, root: Node) -> bool:
    """B cannot come next to R with one step (R is at least three king
    steps from B), or W guards R."""
    s = squares(node)
    if s.r is None:
        return False
    return _DISTANCE[s.r][s.b] >= 3 or _DISTANCE[s.r][s.w] == 1


_CORNERS = (chess.A1, chess.H1, chess.A8, chess.H8)


_CORNER_DISTANCE = tuple(
    min(chess.square_manhattan_distance(square, corner) for corner in _CORNERS) for square in chess.SQUARES
)
"""By square: steps along the lines to the nearest corner."""


def _corner_distance(square: chess.Square) -> int:
    """Steps along the lines from ``square`` to the nearest corner."""
    return _CORNER_DISTANCE[square]


def cornerdist(node: Node) -> int:
    """Steps along the lines (files plus ranks) from W to the nearest
    corner: their moves never change it, so a king walk out of the corner
    that raises it is progress they cannot undo."""
    return _corner_distance(squares(node).w)


def edgedist(node: Node) -> int:
    """Lines between W and the nearest edge line (0: W on an edge)."""
    w = squares(node).w
    x, y = chess.square_file(w), chess.square_rank(w)
    return min(x, 7 - x, y, 7 - y)


def cutgap(node: Node) -> int:
    """Lines between B and the nearest rook line that cuts it off from W
    with room for W: the rook's file strictly between the kings' files
    and at least three files from W (or the same with ranks). 1 when the
    rook shuts B off right next to it, with our king three lines or more
    behind the rook (free to walk out of a corner); 8 when no line does."""
    s = squares(node)
    if s.r is None:
        return 8
    gaps = [
        abs(along(s.b) - along(s.r))
        for along in (chess.square_file, chess.square_rank)
        if min(along(s.w), along(s.b)) < along(s.r) < max(along(s.w), along(s.b))
        and abs(along(s.w) - along(s.r)) >= 3
    ]
    return min(gaps, default=8)


def our_king_cornered(node: Node, root: Node) -> bool:
    """W in a corner: at most two steps from it along the lines (a1, a2,
    a3, b1, b2, c1 and their images)."""
    return cornerdist(node) <= 2


def library() -> Library:
    """The book's KRK vocabulary plus this module's."""
    book = load_library(Path(__file__).with_name("krk.py"))
    standard = standard_library()
    return Library(
        "krk_fast",
        predicates={
            **{
                name: predicate
                for name, predicate in book.predicates.items()
                if name not in standard.predicates
            },
            "edgebound": edgebound,
            "our_king_cornered": our_king_cornered,
            "rooksafe": rooksafe,
        },
        generators={
            **book.generators,
            "kingtoward": kingtoward,
            "rooksqueeze": rooksqueeze,
            "squeezefirst": squeezefirst,
            "kingtofront": kingtofront,
            "rookaside": rookaside,
            "rookbeyond": rookbeyond,
            "rookfar": rookfar,
            "kingreach": kingreach,
            "kingnear": kingnear,
        },
        features={
            "frontdist": frontdist,
            "reach": reach,
            "box": box,
            "span": span,
            "length": length,
            "cornerdist": cornerdist,
            "edgedist": edgedist,
            "cutgap": cutgap,
        },
        symmetric=True,
    )
