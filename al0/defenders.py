"""Computer defenders: the side al0 plays against."""

from __future__ import annotations

import random

import chess


class RandomDefender:
    """Plays a uniformly random legal move; the same seed gives the same game."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, board: chess.Board) -> chess.Move:
        moves = sorted(board.legal_moves, key=chess.Move.uci)
        return self.rng.choice(moves)
