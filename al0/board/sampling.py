"""Seeded random positions of a given material, for tests and benchmarks."""

from __future__ import annotations

import random

import chess

from al0.errors import PositionError
from al0.board.fen import canonical_material

PIECE_TYPES = {symbol: chess.PIECE_SYMBOLS.index(symbol.lower()) for symbol in "KQRBNP"}


def random_positions(material: str, count: int, seed: int = 0,
                     us: chess.Color = chess.WHITE) -> list[chess.Board]:
    """``count`` distinct random positions of ``material`` with us to move,
    legal, not mate or stalemate, and where them, were it their move, could
    capture nothing (so no piece hangs at the start).

    :raises PositionError: when that many such positions cannot be found.
    """
    rng = random.Random(seed)
    material = canonical_material(material)
    second = material.index("K", 1)
    pieces = [chess.Piece(PIECE_TYPES[s], us) for s in material[:second]]
    pieces += [chess.Piece(PIECE_TYPES[s], not us) for s in material[second:]]
    found: dict[str, chess.Board] = {}
    # Enough tries for any real material (most random placements are legal);
    # a material with fewer positions than asked for must not loop forever.
    for _ in range(1000 * count + 10_000):
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
        raise PositionError(f"found only {len(found)} of {count} random {material} positions")
    return list(found.values())
