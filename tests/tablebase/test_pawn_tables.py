"""The four-man tables with pawns (KPKP, KPPK, KQKP, KRKP, KBKP, KNKP,
KQPK, KRPK, KBPK, KNPK): one step of python-chess play on seeded samples
(en passant included), hand-known positions of the queen against a pawn
on the seventh and of en passant, and the statistics ``al0 tablebase``
answers for each. The index of en passant is checked on hand positions
without a table.

Building them takes the session about a minute of CPU (the pawnless
four-man tables their promotions lead to included): the tests that need
them are in the slow tier."""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess
import numpy as np
import pytest
from click.testing import CliRunner

from al0 import tablebase as tb
from al0.board import Material
from al0.board.position import from_board
from al0.cli import cli
from al0.tablebase.geometry import Layout
from al0.tablebase.retrograde import on_board, passant_target
from conftest import one_step_value

PAWN_FOUR_MEN = ["KPKP", "KPPK", "KQKP", "KRKP", "KBKP", "KNKP", "KQPK", "KRPK", "KBPK", "KNPK"]


def _board(material: Material, side: int, squares: list[int]) -> chess.Board | None:
    """The board of an entry's squares, the first side White, or None when
    two men share a square. A pawn on its own first rank has just stepped
    twice: it stands three squares ahead, the square it passed is the
    board's en passant square."""
    board = chess.Board(None)
    for square, piece, owner in zip(squares, material.types, material.sides):
        colour = owner == 0
        if piece == chess.PAWN and square >> 3 == (0 if colour else 7):
            square += 24 if colour else -24
            board.ep_square = square - 8 if colour else square + 8
        if board.piece_at(square) is not None:
            return None
        board.set_piece_at(square, chess.Piece(piece, colour))
    board.turn = side == 0
    return board


def _valid(board: chess.Board) -> bool:
    """python-chess's ``is_valid()`` but for a check no move could give (the
    tables keep those, as the pawnless ones do), and with en passant open
    only where a pawn can take (a table indexes no other right)."""
    valid = board.status() & ~chess.STATUS_IMPOSSIBLE_CHECK == chess.STATUS_VALID
    return valid and (board.ep_square is None or board.has_pseudo_legal_en_passant())


def _one_step_errors(table: tb.Tablebase, entries: list[tuple[int, int]]) -> list[str]:
    """Entries that disagree with one step of python-chess play (legality,
    mates, and the best move's value one ply on, read from this table or
    the one a capture or a promotion leads to)."""
    layout = Layout(table.material)
    decoded = zip(*(column.tolist() for column in layout.decode(np.array([i for _, i in entries]))))
    errors = []
    for (side, index), squares in zip(entries, decoded):
        entry = int(table.values[side, index])
        board = _board(table.material, side, list(squares))
        if board is None or not _valid(board):
            errors += (
                [] if entry == tb.ILLEGAL else [f"{side}/{index} {board and board.fen()}: entry {entry}"]
            )
            continue
        expected = one_step_value(table, board)
        errors += [] if entry == expected else [f"{board.fen()}: entry {entry}, one step gives {expected}"]
    return errors


@pytest.mark.slow
@pytest.mark.parametrize("material", PAWN_FOUR_MEN)
def test_a_pawn_table_agrees_with_one_step_of_play(tablebase_cache: Path, material: str) -> None:
    """A seeded sample of 4,000 entries (about half of them legal
    positions; the rest must read illegal), and in KPKP 800 more whose side
    to move may take en passant (a few hundredths of those). The check
    costs about a second of CPU a table; the builds are the test's cost."""
    table = tb.load(material, tablebase_cache)
    size = Layout(table.material).size
    rng = random.Random(f"one step {material}")
    entries = [(rng.randrange(2), rng.randrange(size)) for _ in range(4000)]
    if material == "KPKP":
        # The other side's pawn (slot 3 Black's, 1 White's) coded on its own
        # first rank: the index's six bits of that slot set to a square there.
        for side, pawn, rank in ((0, 3, 7), (1, 1, 0)):
            shift = 6 * (3 - pawn)
            coded = []
            while len(coded) < 400:
                index = rng.randrange(size) & ~(63 << shift) | (rank * 8 + rng.randrange(8)) << shift
                coded += [] if table.values[side, index] == tb.ILLEGAL else [(side, index)]
            entries += coded
    assert _one_step_errors(table, entries)[:5] == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "material, fen, winner, plies, best",
    [
        # The queen against a pawn on the seventh, her king far away: the
        # bishop pawn and the rook pawn draw (the king hides in the corner,
        # Qxc2 or Qxa2 is stalemate), the centre and knight pawns lose.
        ("KQKP", "7K/8/8/8/8/8/2p3Q1/1k6 w - - 0 1", None, None, None),
        ("KQKP", "7K/8/8/8/8/8/p5Q1/1k6 w - - 0 1", None, None, None),
        ("KQKP", "7K/8/8/8/8/8/3p2Q1/2k5 w - - 0 1", chess.WHITE, 49, "g2c6"),
        ("KQKP", "7K/8/8/8/8/8/1p4Q1/2k5 w - - 0 1", chess.WHITE, 41, "g2f1"),
        ("KQKP", "8/8/8/8/8/2K5/2p3Q1/1k6 w - - 0 1", chess.WHITE, 3, "g2b7"),  # her king is near
        # Black's pawn just stepped b7-b5: axb6 e.p. runs to b8 before the
        # king can come back; without the right, a draw.
        ("KPKP", "8/8/8/Pp6/8/8/8/K1k5 w - b6 0 1", chess.WHITE, 23, "a5b6"),
        ("KPKP", "8/8/8/Pp6/8/8/8/K1k5 w - - 0 1", None, None, None),
        ("KPKP", "8/1p6/8/P7/8/8/8/K1k5 b - - 0 1", None, None, None),  # so Black does not play b5
        # e7-e5: dxe6 e.p. draws (the king takes the pawn on e7); without
        # the right, Black's e-pawn wins.
        ("KPKP", "8/8/8/2kPp3/8/8/8/K7 w - e6 0 1", None, None, None),
        ("KPKP", "8/8/8/2kPp3/8/8/8/K7 w - - 0 1", chess.BLACK, 34, None),
        # The same seen from the other side (Black takes en passant).
        ("KPKP", "k7/8/8/8/2KpP3/8/8/8 b - e3 0 1", None, None, None),
        ("KPKP", "k7/8/8/8/2KpP3/8/8/8 b - - 0 1", chess.WHITE, 34, None),
    ],
)
def test_hand_known_pawn_positions(
    tablebase_cache: Path,
    material: str,
    fen: str,
    winner: chess.Color | None,
    plies: int | None,
    best: str | None,
) -> None:
    table, board = tb.load(material, tablebase_cache), chess.Board(fen)
    assert table.result(board) == tb.Result(winner, plies)
    if best is not None:
        assert best in [move.uci() for move in table.best_moves(board)]
    # The compact position (its en passant square kept) is probed alike.
    assert table.result_at(from_board(board)) == table.result(board)
    assert table.best_defence_at(from_board(board)) == table.best_defence(board)


# Counts over positions (placements with a side to move; one with the right
# to take en passant counts with the same placement without it).
STATS = {
    "KPKP": (14_872_176, 4_970_180, 33),
    "KPPK": (7_438_086, 360_998, 32),
    "KQKP": (16_704_944, 1_246_100, 29),
    "KRKP": (18_063_048, 2_424_280, 43),
    "KBKP": (18_854_368, 16_039_534, 29),
    "KNKP": (19_371_540, 14_909_882, 29),
    "KQPK": (16_796_858, 291_872, 28),
    "KRPK": (18_126_636, 251_868, 28),
    "KBPK": (18_882_694, 2_069_454, 31),
    "KNPK": (19_398_914, 2_234_474, 28),
}


@pytest.mark.slow
@pytest.mark.parametrize("material", PAWN_FOUR_MEN)
def test_the_cli_answers_the_stats_of_every_pawn_table(tablebase_cache: Path, material: str) -> None:
    result = CliRunner().invoke(cli, ["tablebase", material, "--stats", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    first, second = stats["stronger"], stats["weaker"]
    assert (first["legal"] + second["legal"], first["draws"] + second["draws"], stats["max_dtm"]) == STATS[
        material
    ]
    if material == "KPKP":  # the colours swapped and the board turned: the same counts
        assert first == second
    if material.endswith("PK"):  # a lone king never mates
        assert first["losses"] == second["wins"] == 0


@pytest.mark.slow
def test_the_cli_probes_en_passant(tablebase_cache: Path) -> None:
    result = CliRunner().invoke(cli, ["tablebase", "KPKP", "--fen", "8/8/8/Pp6/8/8/8/K1k5 w - b6 0 1"])
    assert result.exit_code == 0, result.output
    assert "result: white mates in 12\nbest moves: axb6" in result.output


def _squares(material: str, placement: str) -> tuple[Material, list[np.ndarray]]:
    """A material's slots on the squares ``placement`` names, in slot order."""
    parsed = tb.parse_material(material)
    return parsed, [np.array([chess.parse_square(name)]) for name in placement.split()]


@pytest.mark.parametrize(
    "placement, mover, target",
    [
        # KPKP's slots: White's king and pawn, Black's king and pawn.
        ("a1 a5 c1 b5", chess.WHITE, 3),  # b7-b5 beside White's a5
        ("a1 c5 c1 b5", chess.WHITE, 3),  # beside c5
        ("a1 d5 c1 b5", chess.WHITE, -1),  # not beside
        ("a1 a4 c1 b4", chess.WHITE, -1),  # not Black's fourth rank
        ("b6 a5 c1 b5", chess.WHITE, -1),  # b6 is not empty: it did not pass
        ("b7 a5 c1 b5", chess.WHITE, -1),  # nor b7
        ("a8 e4 c8 d4", chess.BLACK, 1),  # e2-e4 beside Black's d4
        ("a8 e4 e3 d4", chess.BLACK, -1),  # e3 is not empty
        ("a8 h4 c8 a4", chess.BLACK, -1),  # h and a are not beside each other
        ("a8 h4 c8 a5", chess.BLACK, -1),  # h4 and a5 neither (the next square in order)
    ],
)
def test_the_pawn_that_may_be_taken_en_passant(placement: str, mover: chess.Color, target: int) -> None:
    material, squares = _squares("KPKP", placement)
    assert passant_target(material, squares, 0 if mover else 1).tolist() == [target]


@pytest.mark.parametrize(
    "placement, side, board, passant, valid",
    [
        # Black's pawn on b8, White to move: it stands on b5, just stepped twice.
        ("a1 a5 c1 b8", 0, "a1 a5 c1 b5", 3, True),
        ("a1 a5 c1 b8", 1, "a1 a5 c1 b8", -1, False),  # Black to move: no such position
        ("a1 d5 c1 b8", 0, "a1 d5 c1 b5", 3, False),  # no pawn to take it: no index of its own
        ("a8 e1 c8 d4", 1, "a8 e4 c8 d4", 1, True),  # White's e2-e4, Black to move
        ("a1 a5 c1 b5", 0, "a1 a5 c1 b5", -1, True),  # the same placement without the right
    ],
)
def test_an_entry_on_the_board(placement: str, side: int, board: str, passant: int, valid: bool) -> None:
    material, squares = _squares("KPKP", placement)
    found, slot, ok = on_board(material, squares, side)
    assert ([chess.square_name(int(s[0])) for s in found], slot.tolist(), ok.tolist()) == (
        board.split(),
        [passant],
        [valid],
    )
