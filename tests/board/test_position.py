"""The compact position against python-chess, its oracle.

For every pawnless material up to four men and for pawn materials (KPK,
KPKP, KPPK, KQKP, KRPK, KBKP), a seeded random sample of legal positions
(both sides to move; with pawns, some just after a double step): the
compact position must give exactly
python-chess's legal moves, in python-chess's order, lead to the positions
python-chess reaches, and agree on check, mate and stalemate. Moves that are
not legal must be refused.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

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
from al0.board.position import MOVES, PROMOTIONS, Position, fen, from_board, is_check, to_board
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


def agrees_with_python_chess(board: chess.Board, rng: random.Random, counts: Counter[str]) -> None:
    """The compact position of ``board`` gives python-chess's legal moves in
    its order, targets, checks, mate in one, children, refusals, check,
    mate and stalemate; ``counts`` tallies the kinds of case seen."""
    position = from_board(board)
    # The FEN without its move counters, which a position does not keep.
    assert fen(position).split()[:4] == board.fen(en_passant="xfen").split()[:4]
    assert to_board(position).fen(en_passant="xfen") == fen(position)
    expected = list(board.generate_legal_moves())
    assert legal_moves(position) == expected, board.fen()
    targets = [0] * 64
    for move in expected:
        if move.promotion is None:
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
        counts["promotions"] += move.promotion is not None
        counts["en passant"] += board.is_en_passant(move)
        counts["double steps"] += (
            board.piece_type_at(move.from_square) == chess.PAWN
            and abs(move.to_square - move.from_square) == 16
        )
    # Every other from-to pair (and every promotion) is refused.
    legal = set(expected)
    for move in (
        chess.Move(a, b, promotion)
        for a in chess.SQUARES
        for b in chess.SQUARES
        for promotion in (None, *([chess.QUEEN, chess.KNIGHT] if (a, b) in PROMOTIONS else []))
        if board.occupied_co[board.turn] & chess.BB_SQUARES[a]
    ):
        assert (play(position, move) is None) == (move not in legal), (board.fen(), move)
    assert is_check(position) == board.is_check()
    assert is_checkmate(position) == board.is_checkmate()
    assert is_stalemate(position) == board.is_stalemate()
    counts["positions"] += 1
    counts["en-passant squares"] += position.ep_square is not None
    counts["moves"] += len(expected)
    counts["checks"] += board.is_check()
    counts["mates"] += board.is_checkmate()
    counts["stalemates"] += board.is_stalemate()
    counts["mates in one"] += mate is not None


@pytest.mark.slow
def test_compact_moves_checks_mates_equal_python_chess():
    rng = random.Random(20261122)
    counts: Counter[str] = Counter()
    for material in materials():
        for board in random_boards(material, 150, rng):
            agrees_with_python_chess(board, rng, counts)
    # The sample must hold every kind of case for the comparison to mean anything.
    assert counts["positions"] == 45 * 150
    assert min(counts[kind] for kind in ("moves", "checks", "mates", "stalemates", "mates in one")) > 0, (
        counts
    )


PAWN_MATERIALS = {
    "KPK": ((chess.PAWN, chess.WHITE),),
    "KPKP": ((chess.PAWN, chess.WHITE), (chess.PAWN, chess.BLACK)),
    "KPPK": ((chess.PAWN, chess.WHITE), (chess.PAWN, chess.WHITE)),
    "KQKP": ((chess.QUEEN, chess.WHITE), (chess.PAWN, chess.BLACK)),
    "KRPK": ((chess.ROOK, chess.WHITE), (chess.PAWN, chess.WHITE)),
    "KBKP": ((chess.BISHOP, chess.BLACK), (chess.PAWN, chess.WHITE)),
}


def pawn_boards(
    material: tuple[tuple[chess.PieceType, chess.Color], ...], count: int, rng: random.Random
) -> list[chess.Board]:
    """Legal boards of ``material`` with its pawns on ranks 2 to 7, mostly
    near their promotion or start rank (where promotions and double steps
    happen). Every third board is the position just after a double step;
    with pawns of both colours, one that a pawn may take en passant."""
    boards: list[chess.Board] = []
    while len(boards) < count:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2 + len(material))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        step = len(boards) % 3 == 2
        mover = rng.choice(chess.COLORS)
        # For a capture en passant: our pawn on its start rank, theirs
        # beside its landing square.
        file = rng.randrange(8)
        beside = chess.square(file + rng.choice([d for d in (-1, 1) if 0 <= file + d < 8]), 3 if mover else 4)
        placed = {mover: chess.square(file, 1 if mover else 6), not mover: beside}
        for square, (piece, color) in zip(squares[2:], material):
            if piece == chess.PAWN:
                if (
                    step
                    and placed.get(color) is not None
                    and {c for _, c in material if _ == chess.PAWN} == {0, 1}
                ):
                    square = placed[color]
                    placed[color] = None
                else:
                    square = chess.square(
                        rng.randrange(8), rng.choice((1, 3, 4, 6) if color else (6, 4, 3, 1))
                    )
                if board.piece_at(square):
                    break
            board.set_piece_at(square, chess.Piece(piece, color))
        board.turn = mover
        if chess.popcount(board.occupied) != 2 + len(material) or not board.is_valid():
            continue
        if step:
            doubles = [
                move
                for move in board.legal_moves
                if board.piece_type_at(move.from_square) == chess.PAWN
                and abs(move.to_square - move.from_square) == 16
            ]
            if not doubles:
                continue
            board.push(rng.choice(doubles))
            board = board.copy(stack=False)
        boards.append(board)
    return boards


def test_compact_moves_with_pawns_equal_python_chess():
    rng = random.Random(46)
    counts: Counter[str] = Counter()
    for material in PAWN_MATERIALS.values():
        for board in pawn_boards(material, 36, rng):
            agrees_with_python_chess(board, rng, counts)
    # Every kind of pawn move must be met for the comparison to mean anything.
    kinds = ("en passant", "en-passant squares", "double steps", "promotions", "checks", "mates in one")
    assert min(counts[kind] for kind in kinds) > 0, counts


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/8/8/k1K1R3 b - - 0 1",  # mate on the edge
        "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1",  # stalemate
        "8/8/8/8/8/5k2/6q1/7K w - - 0 1",  # in check: the king captures
        "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1",  # a pinned-style line: the king must leave the file
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",  # en passant would empty the rank to the king
        "8/8/8/2k5/3pP3/8/8/4K3 b - e3 0 1",  # the pawn checks: taking it en passant answers
        "8/8/8/8/4k3/8/3P4/3K4 w - - 0 1",  # d2-d4 checks, d2-d3 does not
        "2n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1",  # promotions by step and by capture
        "k7/4P3/1K6/8/8/8/8/8 w - - 0 1",  # e8=Q and e8=R mate
        "k7/1Q6/1K6/8/8/8/7p/8 b - - 0 1",  # mated with a pawn that could move
        "5k2/5P2/5K2/8/8/8/8/8 b - - 0 1",  # stalemated by a pawn
    ],
)
def test_known_positions(fen):
    board = chess.Board(fen)
    agrees_with_python_chess(board, random.Random(fen), Counter())


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",  # castling rights
        "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1",  # and a pawn
    ],
)
def test_a_position_with_castling_rights_is_refused(fen):
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
