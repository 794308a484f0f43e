"""A KRK vocabulary for fast mating: the book's KRK library plus a few ideas a
chess teacher uses (keep the rook guarded or out of reach, walk the king
towards the critical square, squeeze as hard as it is safe).

The book's predicates and generators are ``library/krk.py``'s, loaded by the
project's own loader and re-exported unchanged; this module only adds to them.
Coordinates, W, R, B, distance and Manhattan distance are as there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, NamedTuple

import chess

from al0.library import Library, Node, load_library, standard_library


class Squares(NamedTuple):
    """Our king, our rook (None when it is gone), their king."""
    w: chess.Square
    r: chess.Square | None
    b: chess.Square


def squares(node: Node) -> Squares:
    """The pieces' squares at ``node`` (memoised per node)."""
    return node.fact(_find_squares)  # type: ignore[return-value]


def _find_squares(node: Node) -> Squares:
    board, us = node.board, node.us
    rooks = board.pieces_mask(chess.ROOK, us)
    return Squares(board.king(us), chess.lsb(rooks) if rooks else None,  # type: ignore[arg-type]
                   board.king(not us))  # type: ignore[arg-type]


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


# ------------------------------------------------------------ predicates

def rookguarded(node: Node, root: Node) -> bool:
    """W stands next to R (distance(W, R) = 1)."""
    s = squares(node)
    return s.r is not None and chess.square_distance(s.w, s.r) == 1


def rookfar(node: Node, root: Node) -> bool:
    """B is more than two king steps from R (distance(B, R) > 2): it cannot
    attack the rook with its next move."""
    s = squares(node)
    return s.r is not None and chess.square_distance(s.b, s.r) > 2


def rookconfines(node: Node, root: Node) -> bool:
    """B stands on neither of R's lines and W on neither: the rook's lines,
    unshielded, shut B in its room's rectangle, wherever W is."""
    s = squares(node)
    if s.r is None:
        return False
    lines = (chess.BB_FILES[chess.square_file(s.r)]
             | chess.BB_RANKS[chess.square_rank(s.r)])
    return not lines & (chess.BB_SQUARES[s.b] | chess.BB_SQUARES[s.w])


def kingnearer(node: Node, root: Node) -> bool:
    """distance(W, B) is smaller at the node than at the root."""
    s, t = squares(node), squares(root)
    return chess.square_distance(s.w, s.b) < chess.square_distance(t.w, t.b)


def opposition(node: Node, root: Node) -> bool:
    """W and B stand on one file or rank, two squares apart."""
    s = squares(node)
    return (chess.square_manhattan_distance(s.w, s.b) == 2
            and chess.square_distance(s.w, s.b) == 2)


# ------------------------------------------------------------ generators

def _king_moves(node: Node) -> list[chess.Move]:
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
    king), the one leaving B the least room first."""
    s = squares(node)
    if s.r is None:
        return iter(())
    rook = s.r
    targets = node.board.attacks_mask(rook) & ~node.board.occupied
    return iter(sorted((chess.Move(rook, to) for to in chess.scan_forward(targets)),
                       key=lambda move: _room(move.to_square, s.b)))


def library() -> Library:
    """The book's KRK vocabulary plus this module's."""
    book = load_library(Path(__file__).with_name("krk.py"))
    standard = standard_library()
    return Library(
        "krk_fast",
        predicates={
            **{name: p for name, p in book.predicates.items()
               if name not in standard.predicates},
            "rookguarded": rookguarded, "rookfar": rookfar,
            "rookconfines": rookconfines,
            "kingnearer": kingnearer, "opposition": opposition,
        },
        generators={**book.generators, "kingtoward": kingtoward,
                    "rooksqueeze": rooksqueeze},
    )
