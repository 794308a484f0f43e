"""Seeded random positions of a given material, for tests and benchmarks."""

from __future__ import annotations

import math
import random
from collections import Counter

import chess

from al0.board.material import Material
from al0.errors import PositionError


def random_positions(
    material: Material, count: int, seed: int = 0, us: chess.Color = chess.WHITE
) -> list[chess.Board]:
    """``count`` distinct random positions of ``material`` with us to move,
    legal (pawns on ranks 2 to 7), not mate or stalemate, and where them,
    were it their move, could capture nothing (so no piece hangs at the
    start).

    :raises PositionError: when that many such positions cannot be found.
    """
    rng = random.Random(seed)
    men = material
    pieces = [chess.Piece(piece_type, us) for piece_type in (chess.KING, *men.first)]
    pieces += [chess.Piece(piece_type, not us) for piece_type in (chess.KING, *men.second)]
    # Pawns first, on ranks 2 to 7 (a pawn never stands on the first or last
    # rank), then the other men on the squares left.
    pieces.sort(key=lambda piece: piece.piece_type != chess.PAWN)
    pawns = sum(piece.piece_type == chess.PAWN for piece in pieces)
    found: dict[str, chess.Board] = {}
    # Enough tries for any real material (most random placements are legal);
    # a material with fewer positions than asked for must not loop forever.
    # After placements × (ln placements + 20) tries every placement has been
    # drawn but with a chance below e^-20, so asking for more than there are
    # gives up then, not after 1000 × count tries (hours for KRK).
    placements = placement_count(men)
    tries = min(1000 * count + 10_000, math.ceil(placements * (math.log(placements) + 20)))
    for _ in range(tries):
        if len(found) >= count:
            break
        board = chess.Board(None)
        squares = rng.sample(_PAWN_SQUARES, pawns)
        squares += rng.sample([s for s in chess.SQUARES if s not in squares], len(pieces) - pawns)
        for piece, square in zip(pieces, squares):
            board.set_piece_at(square, piece)
        board.turn = us
        if not board.is_valid() or board.is_checkmate() or board.is_stalemate():
            continue
        board.turn = not us
        hangs = any(board.generate_legal_captures())
        board.turn = us
        if not hangs and board.is_valid():
            found.setdefault(board.fen(), board)
    if len(found) < count:
        raise PositionError(f"found only {len(found)} of {count} random {men} positions")
    return list(found.values())


_PAWN_SQUARES = list(range(chess.A2, chess.H7 + 1))
"""Where a pawn may stand: ranks 2 to 7."""


def placement_count(material: Material) -> int:
    """In how many ways the men of ``material`` can stand on distinct
    squares, pawns on ranks 2 to 7 (men of one kind and colour are
    interchangeable)."""
    alike = Counter(material.first) + Counter(-piece_type for piece_type in material.second)
    pawns = material.first.count(chess.PAWN) + material.second.count(chess.PAWN)
    ways = math.perm(len(_PAWN_SQUARES), pawns) * math.perm(64 - pawns, material.men - pawns)
    return ways // math.prod(math.factorial(n) for n in alike.values())


def check_sample_size(asked: str, count: int, available: int, population: str, instead: str = "") -> None:
    """Refuse to draw ``count`` positions from only ``available``: a sample
    larger than its population is all of it at best, and a sampler of
    distinct positions would look for the rest for hours.

    :raises PositionError: naming what was ``asked`` (``'sample:N'``,
        ``--count N``), the ``population`` and what to do ``instead``.
    """
    if count > available:
        raise PositionError(
            f"{asked}: there are only {available:,} {population}" + (f": {instead}" if instead else "")
        )
