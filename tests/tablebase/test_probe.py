"""The native core's tablebase probe (``al0/core/probe.c``) against its
Python twin (``Tablebase._place`` and ``_scored_men``): the same entry of
every position, the same defence, on seeded random positions of each kind
of men, captures into the smaller tables included."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import pytest

from al0 import tablebase as tb
from al0.board.moves import legal_moves
from al0.board.position import Position, from_board, move_code, to_board
from al0.core import native
from al0.errors import PositionError

pytestmark = pytest.mark.skipif(native() is None, reason="the native core is not running")

K, k = chess.Piece(chess.KING, chess.WHITE), chess.Piece(chess.KING, chess.BLACK)


def _positions(pieces: list[chess.Piece], count: int, seed: int) -> list[Position]:
    """``count`` seeded legal positions of these men, either side to move."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = chess.Board(None)
        for square, piece in zip(rng.sample(chess.SQUARES, len(pieces)), pieces):
            board.set_piece_at(square, piece)
        board.turn = rng.random() < 0.5
        if board.is_valid():
            found.append(from_board(board))
    return found


def _twin(table: tb.Tablebase, position: Position) -> tuple[int, int | None]:
    """The Python twin's entry of ``position`` and its defence (as its
    :func:`move_code`; None without a legal move)."""
    white_king, black_king, men = table._men(position)
    found, side, index = table._locate_at(position)
    scored = table._scored_men(white_king, black_king, men, position.turn, legal_moves(position), position)
    if not scored:
        return int(found.values[side, index]), None
    best = max(score for score, _ in scored)
    move = next(move for score, move in scored if score == best)
    return int(found.values[side, index]), move_code(move)


def _check(table: tb.Tablebase, positions: list[Position]) -> None:
    prober = table._prober
    assert prober is not None
    for position in positions:
        value, defence = _twin(table, position)
        assert prober.value(position) == value, position
        assert prober.best_defence(position) == (-2 if defence is None else defence), position
        board = to_board(position)
        for side in chess.COLORS:  # on the core, against the board's path
            assert table.dtm_at(position, side) == table.dtm(board, side), position


@pytest.mark.parametrize(
    ("material", "pieces"),
    [
        ("KRK", [K, k, chess.Piece(chess.ROOK, chess.WHITE)]),
        ("KRK", [K, k, chess.Piece(chess.ROOK, chess.BLACK)]),  # the other colour holds the rook
        ("KBK", [K, k, chess.Piece(chess.BISHOP, chess.WHITE)]),
    ],
)
def test_the_core_probes_three_men_as_the_twin(
    tablebase_cache: Path, material: str, pieces: list[chess.Piece]
) -> None:
    _check(tb.load(material, tablebase_cache), _positions(pieces, 400, seed=len(material)))


@pytest.mark.slow
def test_the_core_probes_four_men_as_the_twin(tablebase_cache: Path) -> None:
    """Like pieces (two bishops), two sides' men and captures into smaller
    tables (KQKR to KQK and KRK)."""
    B, Q, r = (chess.Piece(t, c) for t, c in ((chess.BISHOP, True), (chess.QUEEN, True), (chess.ROOK, False)))
    _check(tb.load("KBBK", tablebase_cache), _positions([K, k, B, B], 1000, seed=1))
    _check(tb.load("KQKR", tablebase_cache), _positions([K, k, Q, r], 1000, seed=2))


@pytest.mark.parametrize("colour", chess.COLORS)
def test_the_core_probes_kpk_as_the_twin(tablebase_cache: Path, colour: chess.Color) -> None:
    """Either colour holding the pawn (Black's read with the ranks flipped)."""
    pawn = chess.Piece(chess.PAWN, colour)
    _check(tb.load("KPK", tablebase_cache), _positions([K, k, pawn], 400, seed=46 + colour))


@pytest.mark.parametrize(
    ("fen", "defence"),
    [
        ("8/Pk6/8/8/8/8/8/1K6 w - - 0 1", "a7a8b"),  # every move draws: the first in UCI order
        ("8/8/8/8/8/8/pK6/3k4 b - - 0 1", "a2a1b"),  # the same for Black
        ("8/1P6/8/8/8/8/8/5K1k w - - 0 1", "b7b8r"),  # b8=Q stalemates, b8=R mates soonest
        ("8/8/8/k7/8/K7/1p6/8 b - - 0 1", "b2b1r"),  # b1=Q stalemates
    ],
)
def test_the_core_defends_with_the_twins_promotion(tablebase_cache: Path, fen: str, defence: str) -> None:
    """Promotions tie-broken by their letter (b, n, q, r), as UCI strings sort."""
    table, position = tb.load("KPK", tablebase_cache), from_board(chess.Board(fen))
    assert table._prober is not None
    assert (
        table._prober.best_defence(position)
        == _twin(table, position)[1]
        == move_code(chess.Move.from_uci(defence))
    )
    assert table.best_defence_at(position) == chess.Move.from_uci(defence)


@pytest.mark.slow
def test_the_core_probes_en_passant_as_the_twin(tablebase_cache: Path) -> None:
    """KPKP positions whose side to move may take en passant: the pawn that
    stepped twice is read from its coded entry, either colour taking."""
    table = tb.load("KPKP", tablebase_cache)
    positions = [
        from_board(chess.Board(fen))
        for fen in (
            "8/8/8/Pp6/8/8/8/K1k5 w - b6 0 1",
            "8/8/8/2kPp3/8/8/8/K7 w - e6 0 1",
            "k7/8/8/8/2KpP3/8/8/8 b - e3 0 1",
            "8/8/8/8/5pP1/8/1K6/5k2 b - g3 0 1",
        )
    ]
    assert all(position.ep_square is not None for position in positions)
    P, p = chess.Piece(chess.PAWN, chess.WHITE), chess.Piece(chess.PAWN, chess.BLACK)
    _check(table, positions + _positions([K, k, P, p], 400, seed=47))


def test_positions_of_men_no_table_knows_are_left_to_the_twin(tablebase_cache: Path) -> None:
    """-1 from the core: the twin then raises the error that names them."""
    table = tb.load("KRK", tablebase_cache)
    queen = from_board(chess.Board("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"))
    assert table._prober is not None and table._prober.value(queen) == -1
    with pytest.raises(PositionError, match="not a KRK position"):
        table.result_at(queen)


def test_a_prober_refuses_malformed_tables() -> None:
    core = native()
    assert core is not None
    with pytest.raises(ValueError):
        core.Prober([0] * 63, [0] * 512, [0] * 64, [])
    with pytest.raises(ValueError):  # values too short for three slots
        core.Prober([0] * 64, [0] * 512, [0] * 64, [(0, b"\0" * 10, True, [-2, -1, 0], False)])
