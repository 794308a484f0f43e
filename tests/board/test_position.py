"""The compact position against python-chess, its oracle.

For every pawnless material up to four men, a seeded random sample of legal
positions (both sides to move): the compact position must give exactly
python-chess's legal moves, in python-chess's order, lead to the positions
python-chess reaches, and agree on check, mate and stalemate. Moves that are
not legal must be refused.
"""

from __future__ import annotations

import itertools
import random

import chess
import pytest

from al0.board.checks import (
    checking_moves,
    gives_check,
    is_checkmate,
    is_stalemate,
    legal_checks,
    mate_in_one,
)
from al0.board.moves import legal_moves, legal_targets, play, successors
from al0.board.position import MOVES, Position, fen, from_board, is_check, to_board
from al0.errors import PositionError
from conftest import mates

PIECES = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


def materials() -> list[tuple[tuple[chess.PieceType, chess.Color], ...]]:
    """Every set of at most two non-king men (the kings are always there)."""
    men = [(piece, color) for piece in PIECES for color in chess.COLORS]
    found = [()]
    found += [(man,) for man in men]
    found += list(itertools.combinations_with_replacement(men, 2))
    return found


def random_boards(
    material: tuple[tuple[chess.PieceType, chess.Color], ...], count: int, rng: random.Random
) -> list[chess.Board]:
    boards = []
    while len(boards) < count:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2 + len(material))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square, (piece, color) in zip(squares[2:], material):
            board.set_piece_at(square, chess.Piece(piece, color))
        board.turn = rng.choice(chess.COLORS)
        if board.is_valid():
            boards.append(board)
    return boards


@pytest.mark.slow
def test_compact_moves_checks_mates_equal_python_chess():
    rng = random.Random(20261122)
    counts = {"positions": 0, "moves": 0, "checks": 0, "mates": 0, "stalemates": 0, "mates in one": 0}
    for material in materials():
        for board in random_boards(material, 150, rng):
            position = from_board(board)
            assert to_board(position).fen() == board.fen()
            expected = list(board.generate_legal_moves())
            assert legal_moves(position) == expected, board.fen()
            targets = [0] * 64
            for move in expected:
                targets[move.from_square] |= chess.BB_SQUARES[move.to_square]
            assert legal_targets(position) == targets, board.fen()
            # Asked for some squares (the search asks for a generator's
            # pieces), those read the same and every other square 0.
            some = {move.from_square for move in expected[::3]} | {rng.randrange(64)}
            assert legal_targets(position, some) == [
                targets[square] if square in some else 0 for square in chess.SQUARES
            ], board.fen()
            checks = [move for move in expected if board.gives_check(move)]
            assert checking_moves(position, expected) == checks, board.fen()
            assert legal_checks(position) == checks, board.fen()
            mate = next((move for move in checks if mates(board, move)), None)
            assert mate_in_one(position) == mate, board.fen()
            for move, child in successors(position):
                assert gives_check(position, move) == board.gives_check(move), (board.fen(), move)
                board.push(move)
                assert child == from_board(board), (board.fen(), move)
                board.pop()
            # Every other from-to pair is refused.
            legal = set(expected)
            for move in (
                MOVES[a][b]
                for a in chess.SQUARES
                for b in chess.SQUARES
                if board.occupied_co[board.turn] & chess.BB_SQUARES[a]
            ):
                assert (play(position, move) is None) == (move not in legal), (board.fen(), move)
            assert is_check(position) == board.is_check()
            assert is_checkmate(position) == board.is_checkmate()
            assert is_stalemate(position) == board.is_stalemate()
            counts["positions"] += 1
            counts["moves"] += len(expected)
            counts["checks"] += board.is_check()
            counts["mates"] += board.is_checkmate()
            counts["stalemates"] += board.is_stalemate()
            counts["mates in one"] += mate is not None
    # The sample must hold every kind of case for the comparison to mean anything.
    assert counts["positions"] == 45 * 150
    assert min(counts.values()) > 0, counts


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/8/8/k1K1R3 b - - 0 1",  # mate on the edge
        "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1",  # stalemate
        "8/8/8/8/8/5k2/6q1/7K w - - 0 1",  # in check: the king captures
        "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1",  # a pinned-style line: the king must leave the file
    ],
)
def test_known_positions(fen):
    board = chess.Board(fen)
    position = from_board(board)
    assert legal_moves(position) == list(board.legal_moves)
    assert (is_checkmate(position), is_stalemate(position)) == (board.is_checkmate(), board.is_stalemate())


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",  # a pawn
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",  # castling rights
    ],
)
def test_positions_a_compact_position_cannot_hold(fen):
    with pytest.raises(PositionError):
        from_board(chess.Board(fen))


def test_play_refuses_what_is_not_a_move():
    position = from_board(chess.Board("8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"))
    assert play(position, "e6e3") is None  # type: ignore[arg-type]
    assert play(position, None) is None  # type: ignore[arg-type]
    assert play(position, chess.Move.from_uci("e6e3q")) is None
    assert play(position, chess.Move.from_uci("c2c3")) is None  # not our piece
    assert play(position, chess.Move.from_uci("d4d3")) is None  # next to their king
    assert isinstance(play(position, chess.Move.from_uci("e6e3")), Position)


def test_a_positions_fen_is_python_chess_fen():
    generator = random.Random(7)
    men = [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT]
    for _ in range(3000):
        board = chess.Board(None)
        squares = generator.sample(chess.SQUARES, 4)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2 : 2 + generator.randrange(3)]:
            board.set_piece_at(square, chess.Piece(generator.choice(men), generator.random() < 0.5))
        board.turn = generator.random() < 0.5
        assert fen(from_board(board)) == board.fen()
