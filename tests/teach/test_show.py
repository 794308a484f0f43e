"""Show why: after a slip the tablebase plays on from it, both sides at
their best (the refutation first), and says what it comes to."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from al0 import tablebase
from al0.cli import cli
from al0.teach.session import Practice
from al0.teach.show import SHOWN_PLIES, best_line, show_lines

KQKR_FEN = "8/8/8/8/4rQ2/1k6/8/1K6 w - - 0 1"
"""Qe3+?? Rxe3 loses the queen and Black mates in 2; Qxe4 mates in 5."""


@pytest.mark.parametrize(
    "material, fen, played, expected",
    [
        (
            "KQKR",
            KQKR_FEN,
            ["Qe3+"],  # a blunder: the line starts with the refuting reply
            [
                "show: the tablebase plays on after Qe3+: 1...Rxe3 2. Kc1 Rd3 3. Kb1 Rd1#",
                "  checkmate: Black wins",
            ],
        ),
        (
            "KQKR",
            KQKR_FEN,
            [],  # no slip: from the position now
            [
                "show: the tablebase plays on from here: 1. Qxe4 Kc3 2. Ka2 Kd2 3. Kb2 Kd1 4. Kc3 Kc1 5. Qc2#",
                "  checkmate: White wins",
            ],
        ),
        (
            "KQK",
            "5Q2/8/8/8/8/8/k1K5/8 w - - 0 1",
            ["Qa8#"],
            ["show: the game is over here, nothing to play out"],
        ),
    ],
)
def test_show_plays_the_refutation_out_and_says_what_it_comes_to(
    tablebase_cache: Path, material, fen, played, expected
):
    game = Practice(tablebase.load(material, tablebase_cache), chess.Board(fen))
    for san in played:
        game.play(game.board.parse_san(san))
    assert list(show_lines(game)) == expected


def test_a_long_line_is_cut_and_says_how_it_ends(tablebase_cache: Path):
    krk = tablebase.load("KRK", tablebase_cache)
    board = chess.Board("8/8/4R3/8/3K4/8/2k5/8 w - - 0 1")  # mate in 8
    assert len(best_line(krk, board)) == SHOWN_PLIES
    game = Practice(krk, board)
    assert list(show_lines(game))[-1] == "  and so on: White mates in 2 more"


def test_at_the_terminal_show_is_offered_after_a_blunder_and_works_after_the_game_ended(
    monkeypatch, tmp_path
):
    monkeypatch.setenv("AL0_DATA_DIR", str(tmp_path))
    typed = "Qe3+\nshow\nquit\n"
    result = CliRunner().invoke(cli, ["practice", "KQKR", "--fen", KQKR_FEN, "--no-board"], input=typed)
    assert result.exit_code == 0, result.output
    assert "  type show to see the tablebase play on from it\n" in result.output
    assert "show: the tablebase plays on after Qe3+: 1...Rxe3 2. Kc1 Rd3 3. Kb1 Rd1#" in result.output
