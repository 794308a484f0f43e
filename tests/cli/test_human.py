"""Playing against a person: moves as people type them, and the position
shown with the last move and the side to move."""

from __future__ import annotations

import chess
import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.human import MoveInputError, board_text, parse_move
from conftest import ROOT

KRK = str(ROOT / "advice_tables" / "krk.yaml")
# Black: king a1 with moves Ka2, Kb1, Kb2.
CORNER = "8/8/8/8/8/3K3R/8/k7 b - - 0 1"
# Black: bishops c5 and e3, both reaching d4.
BISHOPS = "7k/8/8/2b5/8/4b3/8/7K b - - 0 1"
# White: a pawn on e7 that promotes on e8 or takes on f8.
PROMOTION = "5n2/4P3/8/8/8/8/8/K6k w - - 0 1"


@pytest.mark.parametrize(
    "fen, text, expected",
    [
        (CORNER, "Kb2", "Kb2"),  # SAN
        (CORNER, "a1b2", "Kb2"),  # UCI
        (CORNER, "kb2", "Kb2"),  # any case, when only one move reads so
        (CORNER, "KB2", "Kb2"),
        (CORNER, "Kxb2", "Kb2"),  # a stray capture mark is forgiven
        (CORNER, "ka2+", "Ka2"),
        (BISHOPS, "Bcd4", "Bcd4"),
        (BISHOPS, "bed4", "Bed4"),
        (BISHOPS, "b1d4", MoveInputError),  # no such move
        (BISHOPS, "Bd4", MoveInputError),  # SAN needs the file here
        (BISHOPS, "bd4", MoveInputError),  # two bishops reach d4
        (CORNER, "Kc2", MoveInputError),  # next to their king
        (CORNER, "--", MoveInputError),  # a null move never passes
        (CORNER, "0000", MoveInputError),
        (CORNER, "hello", MoveInputError),
        (BISHOPS, "+", MoveInputError),  # nothing left to read
        (PROMOTION, "e8=Q", "e8=Q"),
        (PROMOTION, "e7e8r", "e8=R"),
        (PROMOTION, "e8n", "e8=N"),
        (PROMOTION, "exf8=b", "exf8=B"),
        (PROMOTION, "e7e8k", MoveInputError),  # no promotion to a king, nor a pawn
        (PROMOTION, "e8=P", MoveInputError),
    ],
)
def test_parse_move(fen, text, expected):
    board = chess.Board(fen)
    if isinstance(expected, str):
        assert board.san(parse_move(board, text)) == expected
    else:
        with pytest.raises(expected):
            parse_move(board, text)


def test_ambiguous_input_names_the_moves_it_could_be():
    with pytest.raises(MoveInputError, match=r"'bd4' is ambiguous here: Bcd4, Bed4"):
        parse_move(chess.Board(BISHOPS), "bd4")


@pytest.mark.parametrize(
    "text, could_be",
    [
        ("e7e8", "e8=B, e8=N, e8=Q, e8=R"),
        ("e8", "e8=B, e8=N, e8=Q, e8=R"),
        ("exf8", "exf8=B, exf8=N, exf8=Q, exf8=R"),
        ("e7f8", "exf8=B, exf8=N, exf8=Q, exf8=R"),
    ],
)
def test_a_promotion_typed_without_its_piece_asks_which(text, could_be):
    # It was "not a legal move here", with e8=Q among the legal moves listed.
    with pytest.raises(MoveInputError, match=rf"^'{text}' is ambiguous here: {could_be}$"):
        parse_move(chess.Board(PROMOTION), text)


def test_a_long_line_typed_is_quoted_cut():
    # A pasted 2 MB line came back whole in the error.
    with pytest.raises(MoveInputError, match=r"^'xxxx.*'… \(2,000,000 characters\) is not a legal") as caught:
        parse_move(chess.Board(CORNER), "x" * 2_000_000)
    assert len(str(caught.value)) < 200


def test_board_text_shows_the_last_move_and_the_side_to_move():
    board = chess.Board("8/8/8/8/8/8/1R6/k1K5 w - - 0 1")
    assert board_text(board).splitlines()[-1] == "White to move"
    board.push_san("Rb1+")
    lines = board_text(board).splitlines()
    assert lines[0] == "8 . . . . . . . ."
    assert lines[8] == "  a b c d e f g h"
    assert lines[9] == "last move: 1. Rb1+; Black to move (in check)"
    board.push_san("Ka2")
    assert board_text(board).splitlines()[-1] == "last move: 1... Ka2; White to move"


def test_human_lists_moves_and_plays_them_in_any_case():
    result = CliRunner().invoke(
        cli,
        ["play", KRK, "--fen", "8/8/8/8/8/8/1R6/k1K5 w - - 0 1", "--opponent", "human"],
        input="moves\nKA2\nquit\n",
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "last move: 1. Rb1+; Black to move (in check)" in out
    assert "legal moves: Ka2\n" in out
    assert "   ... Ka2\n" in out
    assert out.splitlines()[-1].endswith("Game over: the opponent quit (*)")


def test_the_default_opponent_is_watched_not_played():
    """As the README's quick start says: you watch the table mate a defender."""
    result = CliRunner().invoke(cli, ["play", KRK, "--no-board"], input="")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "al0 plays krk (KRK) against tablebase"
    assert result.output.splitlines()[-1] == "Game over: checkmate: they are mated (1-0)"
