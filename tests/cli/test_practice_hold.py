"""``al0 practice`` of a table that holds: the student defends a drawn
position against the tablebase's most testing attack, the table the coach;
each move is the method's, good (the draw kept) or a blunder (the draw gone)."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.engine import Match
from al0.errors import PositionError
from al0.teach import Grade, Practice

START = "8/8/8/3k4/8/5b2/8/1R2K3 b - - 0 1"
"""krkb_hold's start: Black holds; 12 of its 15 moves keep the draw, Bg2 the method's."""


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A progress record of the test's own."""
    monkeypatch.setenv("AL0_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture(scope="module")
def match() -> Match:
    return Match.load("krkb_hold")


def test_a_defence_is_judged_by_the_draw_and_the_attacker_tests_it(match):
    game = Practice(match.tablebase, chess.Board(START), match.planner)
    assert game.holds and game.optimal == 50
    board = game.board
    # Judged against the tablebase: 12 of the 15 moves keep the draw.
    method, lost = (game.judge_move(board.parse_san(san)) for san in ("Bg2", "Bd1"))
    assert method.grade is Grade.METHOD and method.reason.endswith("— the draw kept")
    assert lost.grade is Grade.BLUNDER and lost.winner == chess.WHITE
    assert lost.reason.startswith("the draw is gone: Rxd1+ takes the bishop on d1")
    turn = game.play(chess.Move.from_uci("f3g2"))
    # The attacker's reply leaves the fewest moves that hold: here two.
    assert turn.reply_san == "Kf2"
    assert [board.san(move) for move in game.best_moves()] == ["Be4", "Bh3"]
    assert not game.solved() and game.ending() is None


def test_where_the_table_errs_the_tablebase_judges(match):
    # krkb_hold plays Ke1 here, which lets the rook mate (Ke3): the two that hold are good.
    game = Practice(match.tablebase, chess.Board("8/8/2b5/8/5R2/3K4/8/3k4 b - - 0 1"), match.planner)
    board = game.board
    good, tables = (game.judge_move(board.parse_san(san)) for san in ("Bg2", "Ke1"))
    assert (good.grade, good.reason) == (Grade.GOOD, "the draw kept (2 moves do)")
    assert tables.grade is Grade.BLUNDER and tables.method == board.parse_san("Ke1")
    assert tables.reason == "the draw is gone: Ke3 and mate follows by force; White wins"
    assert [board.san(move) for move in tables.best] == ["Bb5+", "Bg2"]


def test_a_position_that_is_not_drawn_is_no_defence_to_practise(match):
    with pytest.raises(PositionError, match="White mates in 8 here, so there is no draw to hold"):
        Practice(match.tablebase, chess.Board("8/8/8/8/8/8/1R6/k1bK4 w - - 0 1"), match.planner)


def test_practice_of_a_table_that_holds_at_the_terminal():
    result = CliRunner().invoke(
        cli, ["practice", "krkb_hold", "--no-board"], input="hint\nBg2\nbest\nKe6\nquit\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "You hold the draw with Black (KBKR) against the tablebase's most testing attack" in out
    assert (
        "hint: play Bg2 — Keep the king two steps or more from the bishop's corners with two squares to"
        in out
    )
    assert "1... Bg2  Kf2" in out and "method: " in out
    assert "the moves that keep the draw: Be4, Bh3" in out
    assert "BLUNDER: the draw is gone: Kxg2 takes the bishop on g2; White wins" in out
    assert "the draw held with Be4, Bh3" in out
    assert "the goal was to hold the draw for 50" in out
