"""A KRK vocabulary for fast mating: the book's KRK library plus the move
orders a chess teacher would use (squeeze the king's box as hard as you can,
walk your king straight at the critical square).

The book's predicates and generators are ``library/krk.py``'s, loaded by the
project's own loader and re-exported unchanged; this module only adds move
generators. In a forcing-tree search the generator's order decides which of
the moves that reach the better-goal is played, and the book's board order
often picks a poor one. Coordinates, W, R, B, room and the critical square
are as in ``library/krk.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, NamedTuple

import chess

from al0.library import Library, Node, load_library, standard_library
from al0.position import attacks, king_square, occupied, pieces


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
    return Squares(king_square(position, node.us), chess.lsb(rooks) if rooks else None,
                   king_square(position, not node.us))


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


# ------------------------------------------------------------ generators

def _king_moves(node: Node) -> list[chess.Move]:
    """Our king's steps, never next to B or onto R, in square order."""
    s = squares(node)
    forbidden = chess.BB_KING_ATTACKS[s.b] | chess.BB_SQUARES[s.b]
    if s.r is not None:
        forbidden |= chess.BB_SQUARES[s.r]
    return [chess.Move(s.w, to)
            for to in chess.scan_forward(chess.BB_KING_ATTACKS[s.w] & ~forbidden)]


def kingtoward(node: Node) -> Iterator[chess.Move]:
    """Our king's moves (never next to B or onto R), nearest to the critical
    square first, then nearest to B."""
    s = squares(node)
    moves = _king_moves(node)
    if s.r is None:
        return iter(moves)
    rook = s.r
    return iter(sorted(moves, key=lambda move: (
        _csquare_distance(move.to_square, rook, s.b),
        chess.square_distance(move.to_square, s.b))))


def rooksqueeze(node: Node) -> Iterator[chess.Move]:
    """The rook's moves along its file and rank (never through or onto a
    king), the one leaving B the least room first, then the one farthest
    from B."""
    s = squares(node)
    if s.r is None:
        return iter(())
    rook = s.r
    board = occupied(node.position)
    targets = attacks(node.position, rook, board) & ~board
    return iter(sorted((chess.Move(rook, to) for to in chess.scan_forward(targets)),
                       key=lambda move: (_room(move.to_square, s.b),
                                         -chess.square_distance(move.to_square, s.b))))


def squeezefirst(node: Node) -> Iterator[chess.Move]:
    """All our moves (in KRK, exactly the legal ones), the rook's first as
    rooksqueeze orders them, then the king's as kingtoward orders them."""
    yield from rooksqueeze(node)
    yield from kingtoward(node)


def library() -> Library:
    """The book's KRK vocabulary plus this module's."""
    book = load_library(Path(__file__).with_name("krk.py"))
    standard = standard_library()
    return Library(
        "krk_fast",
        predicates={name: predicate for name, predicate in book.predicates.items()
                    if name not in standard.predicates},
        generators={**book.generators, "kingtoward": kingtoward,
                    "rooksqueeze": rooksqueeze, "squeezefirst": squeezefirst},
    )
