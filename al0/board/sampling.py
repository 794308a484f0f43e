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
    legal, not mate or stalemate, and where them, were it their move, could
    capture nothing (so no piece hangs at the start).

    :raises PositionError: when that many such positions cannot be found.
    """
    rng = random.Random(seed)
    men = material
    pieces = [chess.Piece(piece_type, us) for piece_type in (chess.KING, *men.first)]
    pieces += [chess.Piece(piece_type, not us) for piece_type in (chess.KING, *men.second)]
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
        for piece, square in zip(pieces, rng.sample(chess.SQUARES, len(pieces))):
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


def placement_count(material: Material) -> int:
    """In how many ways the men of ``material`` can stand on distinct
    squares (men of one kind and colour are interchangeable)."""
    alike = Counter(material.first) + Counter(-piece_type for piece_type in material.second)
    return math.perm(64, material.men) // math.prod(math.factorial(n) for n in alike.values())


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
