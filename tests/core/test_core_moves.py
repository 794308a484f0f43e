"""The native core's legal moves against the Python twin and python-chess:
the same moves in the same order on seeded random positions of every
pawnless material up to four men, either side to move (checks, pins and
captures included), and of pawn materials (double steps, en passant,
promotions), with the positions they lead to and the canonical
orientation. Skipped where the core was not built."""

from __future__ import annotations

import itertools
import random

import chess
import pytest

from al0.board.moves import apply, legal_moves, move_generator
from al0.board.position import from_board
from al0.board.symmetry import canonical_symmetry, transform_position
from al0.core import native
from conftest import PAWN_MATERIALS, pawn_boards

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


def code(move: chess.Move) -> int:
    """The core's code of ``move``: from * 64 + to, plus 4096 times the
    piece a pawn becomes."""
    return (move.promotion or 0) << 12 | move.from_square << 6 | move.to_square


def test_pawn_moves_and_the_positions_they_lead_to_equal_the_twins() -> None:
    rng = random.Random(4646)
    seen = {"promotions": 0, "en passant": 0, "en-passant squares": 0, "mirrored": 0}
    boards = [board for material in PAWN_MATERIALS.values() for board in pawn_boards(material, 30, rng)]
    # The positions before the double steps too: their moves set en-passant squares.
    for board in list(boards):
        if board.move_stack:
            boards.append(board.copy())
            boards[-1].pop()
    chosen = move_generator()  # the board's moves on the core, promotions decoded
    for board in boards:
        position = from_board(board)
        moves = legal_moves(position)
        assert list(core.legal_moves(position)) == [code(move) for move in board.legal_moves], board.fen()
        assert chosen.legal_moves(position) == moves, board.fen()
        for move in moves:
            assert core.apply(position, code(move)) == apply(position, move), (board.fen(), move)
            seen["promotions"] += move.promotion is not None
            seen["en passant"] += board.is_en_passant(move)
            seen["en-passant squares"] += apply(position, move).ep_square is not None
        for us in chess.COLORS:
            symmetry = canonical_symmetry(position, us)
            assert core.canonical(position, us) == (symmetry, transform_position(position, symmetry))
            seen["mirrored"] += symmetry != 0
    assert min(seen.values()) > 0, seen


def test_an_illegal_move_is_not_applied() -> None:
    position = from_board(chess.Board("8/8/8/8/6k1/8/4P3/4K3 w - - 0 1"))
    assert core.apply(position, code(chess.Move.from_uci("e2e4"))) == apply(
        position, chess.Move.from_uci("e2e4")
    )
    with pytest.raises(ValueError, match="not a legal move"):
        core.apply(position, code(chess.Move.from_uci("e2e5")))
