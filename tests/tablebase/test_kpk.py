"""KPK, the first table with a pawn (built on either core): its counts
against an independent count (331,352 legal positions with White holding
the pawn, either side to move; 222,564 of them won for White; the longest
mate 28 moves), one step of python-chess play, Gaviota where it is at
hand, hand-worked positions of the opposition and the rook pawn, probes
of boards through the file mirror, and the materials a table with pawns
is named by."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import chess
import numpy as np
import pytest
from click.testing import CliRunner

from al0 import tablebase as tb
from al0.board.position import from_board
from al0.cli import cli
from al0.errors import PositionError
from al0.tablebase.geometry import Layout
from conftest import one_step_value


def test_kpk_counts_are_the_independent_ones(tablebase_cache: Path) -> None:
    result = CliRunner().invoke(cli, ["tablebase", "KPK", "--stats", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    white, black = stats["stronger"], stats["weaker"]
    assert white["legal"] + black["legal"] == 331_352
    assert white["wins"] + black["losses"] == 222_564  # won for White, either side to move
    assert white["losses"] == black["wins"] == 0  # the lone king never mates
    assert stats["max_dtm"] == 28


def _value(table: tb.Tablebase, white_king: str, pawn: str, black_king: str, turn: chess.Color) -> int:
    """The entry of the position (the pawn White's), read through the index."""
    squares = [np.array([chess.parse_square(s)]) for s in (white_king, pawn, black_king)]
    return int(table.values[0 if turn else 1, Layout(table.material).canonical(squares)[0]])


@pytest.mark.parametrize(
    "white_king, pawn, black_king, turn, won",
    [
        ("e5", "e4", "e7", chess.WHITE, False),  # Black has the opposition: a draw
        ("e5", "e4", "e7", chess.BLACK, True),  # White has it: a key square is reached
        ("e6", "e5", "e8", chess.WHITE, True),  # the king on a key square wins whoever moves
        ("e6", "e5", "e8", chess.BLACK, True),
        ("h6", "h5", "h8", chess.WHITE, False),  # the rook pawn, their king in the corner
        ("h6", "h5", "h8", chess.BLACK, False),
        ("b6", "a7", "d7", chess.WHITE, True),  # a8=Q: the promotion leads into KQK
        ("f6", "e6", "e8", chess.WHITE, True),  # e7, then the king escorts it
    ],
)
def test_hand_worked_kpk_positions(
    tablebase_cache: Path, white_king: str, pawn: str, black_king: str, turn: chess.Color, won: bool
) -> None:
    value = _value(tb.load("KPK", tablebase_cache), white_king, pawn, black_king, turn)
    white_wins = value < tb.DRAW and (value % 2 == 1) == (turn == chess.WHITE)
    assert value != tb.ILLEGAL and white_wins == won, value


def test_the_mirror_of_the_files_is_the_only_symmetry(tablebase_cache: Path) -> None:
    """The same entry for a position and its mirror image; a king on file a-d first."""
    table = tb.load("KPK", tablebase_cache)
    for turn in chess.COLORS:
        assert _value(table, "c3", "b4", "f6", turn) == _value(table, "f3", "g4", "c6", turn)
    assert Layout(table.material).size == 32 * 64 * 64


def test_kpk_agrees_with_one_step_of_python_chess_play(tablebase_cache: Path) -> None:
    """On a seeded sample of entries: illegal exactly where python-chess
    says the board is invalid, 0 at mates, and otherwise the best of its
    legal moves (pushes, double steps, promotions into KQK, KRK, KBK and
    KNK, the pawn taken into KK) one ply on: a table that agrees
    everywhere is the table (see test_tablebase.py)."""
    table = tb.load("KPK", tablebase_cache)
    layout = Layout(table.material)
    rng = np.random.default_rng(46)
    sides, indices = rng.integers(0, 2, 1500).tolist(), rng.integers(0, layout.size, 1500)
    errors = []
    for side, index, squares in zip(sides, indices, zip(*(c.tolist() for c in layout.decode(indices)))):
        entry = int(table.values[side, index])
        board = chess.Board(None)
        if len(set(squares)) == 3:
            for square, piece in zip(squares, (chess.KING, chess.PAWN, chess.KING)):
                board.set_piece_at(square, chess.Piece(piece, square != squares[2]))
        board.turn = side == 0
        if len(set(squares)) < 3 or not board.is_valid():
            errors += [] if entry == tb.ILLEGAL else [f"{board.fen()}: invalid, entry {entry}"]
            continue
        expected = one_step_value(table, board)  # KPK's, or the table a promotion or capture leads to
        errors += [] if entry == expected else [f"{board.fen()}: entry {entry}, one step gives {expected}"]
    assert errors[:5] == []


GAVIOTA = os.environ.get("AL0_GAVIOTA_DIR", "")
"""A folder with Gaviota's kpk.gtb.cp4, as python-chess's source
distribution carries it (``pip download --no-binary :all: --no-deps chess``,
its ``data/gaviota``): an independent oracle, used where it is given."""


@pytest.mark.skipif(
    not (GAVIOTA and (Path(GAVIOTA) / "kpk.gtb.cp4").is_file()),
    reason="AL0_GAVIOTA_DIR names no Gaviota KPK table",
)
def test_kpk_is_gaviotas_distance_to_mate(tablebase_cache: Path) -> None:
    """On a seeded sample of legal positions, the plies to mate are
    Gaviota's (signed for the side to move, 0 a draw; a mate is 0 there too)."""
    gaviota = pytest.importorskip("chess.gaviota")
    table = tb.load("KPK", tablebase_cache)
    layout = Layout(table.material)
    rng = np.random.default_rng(1978)
    sides, indices = rng.integers(0, 2, 4000).tolist(), rng.integers(0, layout.size, 4000)
    errors = []
    with gaviota.open_tablebase(GAVIOTA) as oracle:
        for side, index, squares in zip(sides, indices, zip(*(c.tolist() for c in layout.decode(indices)))):
            value = int(table.values[side, index])
            if value == tb.ILLEGAL:
                continue
            board = chess.Board(None)
            for square, piece in zip(squares, (chess.KING, chess.PAWN, chess.KING)):
                board.set_piece_at(square, chess.Piece(piece, square != squares[2]))
            board.turn = side == 0
            plies = oracle.probe_dtm(board)
            expected = tb.DRAW if plies == 0 and not board.is_checkmate() else abs(plies)
            errors += [] if value == expected else [f"{board.fen()}: entry {value}, Gaviota {plies}"]
    assert errors[:5] == []


@pytest.mark.parametrize(
    "text, name",
    [
        ("KPK", "KPK"),
        ("KKP", "KPK"),
        ("kpk", "KPK"),
        ("KPKP", "KPKP"),
        ("KKPP", "KPPK"),
        ("KPKQ", "KQKP"),
        ("KPKR", "KRKP"),
        ("KPKB", "KBKP"),
        ("KNKP", "KNKP"),
        ("KKPQ", "KQPK"),
        ("KPRK", "KRPK"),
        ("KBPK", "KBPK"),
        ("KKNP", "KNPK"),
    ],
)
def test_a_material_with_pawns_is_named_stronger_side_first(text: str, name: str) -> None:
    assert tb.parse_material(text.upper()).name == name


@pytest.mark.parametrize("text", ["KPPKP", "KPPPK", "KQPKP"])
def test_five_men_with_pawns_are_refused_by_name(text: str) -> None:
    with pytest.raises(PositionError, match=f"unsupported material '{text}'.*up to 2 men.*KNPK"):
        tb.parse_material(text)


@pytest.mark.parametrize(
    "text, expected",
    [
        # Quoted with spaces around (a shell's quotes): the material.
        (" KPK ", "KPK"),
        ("\tKPKP\n", "KPKP"),
        # Spaces within: said so, where ' KPK ' and 'K P K' read as unsupported materials.
        ("K P K", "material 'K P K': write it without spaces ('KPK')"),
        ("KQ KR", "material 'KQ KR': write it without spaces ('KQKR')"),
        # Five men without pawns: the men a material may hold, pawns named too.
        ("KQQQK", "unsupported material 'KQQQK': expected two kings and up to 2 men of Q, R, B, N or P"),
        ("KK", "KK"),
    ],
)
def test_a_material_typed_with_spaces_or_too_many_men(text: str, expected: str) -> None:
    if expected.isalpha():
        assert tb.parse_material(text).name == expected
    else:
        with pytest.raises(PositionError, match=re.escape(expected)):
            tb.parse_material(text)


@pytest.mark.parametrize(
    "fen, winner, moves",
    [
        # Distances as Gaviota's KPK table gives them.
        ("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", chess.WHITE, 14),  # White has the opposition
        ("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", None, None),
        ("8/8/8/4p3/4k3/8/4K3/8 w - - 0 1", chess.BLACK, 14),  # the same, colours and ranks swapped
        ("8/8/8/3p4/3k4/8/3K4/8 w - - 0 1", chess.BLACK, 14),  # and mirrored
        ("8/P7/1K6/8/8/8/8/3k4 w - - 0 1", chess.WHITE, 8),  # a8=Q, then KQK
    ],
)
def test_a_kpk_board_is_probed_through_the_mirror(
    tablebase_cache: Path, fen: str, winner: chess.Color | None, moves: int | None
) -> None:
    assert tb.load("KPK", tablebase_cache).result(chess.Board(fen)) == tb.Result(
        winner, None if moves is None else 2 * moves - (1 if chess.Board(fen).turn == winner else 0)
    )


def test_kpk_best_moves_promote(tablebase_cache: Path) -> None:
    """The promotion's position is read from the table it leads to."""
    table = tb.load("KPK", tablebase_cache)
    best = table.best_moves(chess.Board("8/P7/1K6/8/8/8/8/3k4 w - - 0 1"))
    assert [move.uci() for move in best] == ["a7a8q", "b6c5"]  # mate in 8 either way
    assert table.best_defence(chess.Board("8/8/8/8/8/8/k1pK4/8 w - - 0 1")).uci() == "d2c2"  # takes it


def test_the_cli_probes_a_kpk_position(tablebase_cache: Path) -> None:
    result = CliRunner().invoke(cli, ["tablebase", "KPK", "--fen", "8/4k3/8/4K3/4P3/8/8/8 b - - 0 1"])
    assert result.exit_code == 0, result.output
    assert "result: white mates in 14\nbest defence: Kd7" in result.output


def test_a_compact_kpk_position_is_probed_as_its_board(tablebase_cache: Path) -> None:
    """Either colour holding the pawn, either side to move: the result and
    the defence of the compact position are the board's (promotions,
    the pawn taken and the mirror included)."""
    table = tb.load("KPK", tablebase_cache)
    rng = random.Random("compact KPK")
    checked = 0
    while checked < 300:
        board = chess.Board(None)
        colour = rng.random() < 0.5
        for square, piece in zip(
            rng.sample(range(8, 56), 1) + rng.sample(chess.SQUARES, 2),
            (chess.Piece(chess.PAWN, colour), chess.Piece(chess.KING, True), chess.Piece(chess.KING, False)),
        ):
            board.set_piece_at(square, piece)
        board.turn = rng.random() < 0.5
        if len(board.piece_map()) < 3 or not board.is_valid() or not any(board.legal_moves):
            continue
        position = from_board(board)
        assert table.result_at(position) == table.result(board), board.fen()
        assert table.best_defence_at(position) == table.best_defence(board), board.fen()
        checked += 1


@pytest.mark.parametrize(
    "material, fen, said",
    [
        ("KPK", "8/8/8/8/8/8/k1pK4/8 w - - 0 1", "result: draw\na drawing move: Kxc2"),  # not a defence
        ("KPK", "8/8/8/8/8/1k6/p7/K7 w - - 0 1", "result: draw: stalemate"),
        ("KPK", "k7/P7/1K6/8/8/8/8/8 b - - 0 1", "result: draw: stalemate"),
    ],
)
def test_the_cli_names_a_drawing_move_and_a_stalemate_as_such(
    tablebase_cache: Path, material: str, fen: str, said: str
) -> None:
    result = CliRunner().invoke(cli, ["tablebase", material, "--fen", fen])
    assert result.exit_code == 0, result.output
    assert f"{said}\n" in result.output, result.output
