"""The native core's legal moves against the Python twin and python-chess:
the same moves in the same order on seeded random positions of every
pawnless material up to four men, either side to move (checks, pins and
captures included). Skipped where the core was not built."""

from __future__ import annotations

import itertools
import random

import chess
import pytest

from al0.board.moves import legal_moves, move_generator
from al0.board.position import from_board
from al0.core import native

core = native()
pytestmark = pytest.mark.skipif(core is None, reason="the native core is not running")

EXTRA = "QRBN"
MATERIALS = (
    ["K" + a + "K" for a in EXTRA]
    + ["K" + "".join(pair) + "K" for pair in itertools.combinations_with_replacement(EXTRA, 2)]
    + ["K" + a + "K" + b for a in EXTRA for b in EXTRA]
)
"""Every pawnless material of three and four men with at least one piece
for us (30 of them)."""


def random_boards(material: str, count: int, seed: int) -> list[chess.Board]:
    """``count`` legal random placements of ``material``, either side to move."""
    rng = random.Random(f"{material}:{seed}")
    second = material.index("K", 1)
    pieces = [chess.Piece.from_symbol(s) for s in material[:second]] + [
        chess.Piece.from_symbol(s.lower()) for s in material[second:]
    ]
    boards: list[chess.Board] = []
    while len(boards) < count:
        board = chess.Board(None)
        for piece, square in zip(pieces, rng.sample(chess.SQUARES, len(pieces))):
            board.set_piece_at(square, piece)
        board.turn = rng.random() < 0.5
        if board.is_valid():
            boards.append(board)
    return boards


@pytest.mark.parametrize("material", MATERIALS)
def test_legal_moves_in_python_chess_order(material: str) -> None:
    chosen = move_generator()  # the board's moves on the core
    for board in random_boards(material, 40, seed=35):
        position = from_board(board)
        expected = [move.from_square << 6 | move.to_square for move in board.legal_moves]
        assert list(core.legal_moves(position)) == expected, board.fen()
        assert [move.from_square << 6 | move.to_square for move in legal_moves(position)] == expected, (
            board.fen()
        )
        assert chosen.legal_moves(position) == list(board.legal_moves), board.fen()
        assert chosen.has_legal_move(position) is bool(expected), board.fen()


def test_bad_position_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        core.legal_moves((1, 2, 3))
