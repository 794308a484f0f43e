"""Won KQKB starts with their king in its corner and the bishop beside it.

Writes COUNT distinct positions (White to move, won for White by the
tablebase, Black's king on h8, the bishop within two king steps of it, our
king and queen anywhere else, seeded) as EPD: the shape of the no-plan
games of `al0 verify kqkb --positions all` (the bishop pinning our queen
where taking it stalemates) and of the bishop's checks along the back
rank, which the seeded samples of every class meet too rarely to measure.
Usage: python research/kqkb_corner_starts.py COUNT SEED > FILE.epd
"""

from __future__ import annotations

import random
import sys

import chess

from al0.tablebase.cache import load


def corner_starts(count: int, seed: int) -> list[str]:
    """``count`` won starts in the shape above, sorted, as EPD lines."""
    table = load("KQKB")
    rng = random.Random(seed)
    near = [square for square in chess.SQUARES if 0 < chess.square_distance(square, chess.H8) <= 2]
    found: set[str] = set()
    while len(found) < count:
        bishop = rng.choice(near)
        king, queen = rng.sample([s for s in chess.SQUARES if s not in (chess.H8, bishop)], 2)
        board = chess.Board(None)
        board.set_piece_map(
            {
                chess.H8: chess.Piece(chess.KING, chess.BLACK),
                bishop: chess.Piece(chess.BISHOP, chess.BLACK),
                king: chess.Piece(chess.KING, chess.WHITE),
                queen: chess.Piece(chess.QUEEN, chess.WHITE),
            }
        )
        if board.is_valid() and not board.is_game_over() and table.dtm(board) is not None:
            found.add(board.epd())
    return sorted(found)


if __name__ == "__main__":
    print("\n".join(corner_starts(int(sys.argv[1]), int(sys.argv[2]))))
