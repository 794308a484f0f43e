"""``al0 practice``: a person plays the table's winning side against the
tablebase's defence, with hints, the forcing tree, undo and a flipped board,
driven through click's runner with typed input."""

from __future__ import annotations


import chess
import pytest
from click.testing import CliRunner

from al0 import tablebase
from al0.cli import cli
from al0.engine.defenders import TablebaseDefender
from al0.engine.plan import Planner
from al0.engine.play import OurMove, play_game
from al0.lang.loader import load_table
from conftest import ROOT

KRK_FEN = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
"""The bundled krk table's start: the tablebase mates in 8."""
PROMPT = "Your move as White"


def practise(*args: str, input: str | bytes):
    return CliRunner().invoke(cli, ["practice", *args], input=input)


def advised_moves(fen: str) -> list[str]:
    """The moves al0's krk table plays from ``fen`` against the tablebase:
    the moves a person who always takes the hint plays."""
    table = load_table("krk")
    defender = TablebaseDefender(table.material)
    events = play_game(Planner(table), chess.Board(fen), defender)
    return [event.san for event in events if isinstance(event, OurMove) and event.san]


def test_a_game_that_takes_every_hint_mates_as_al0_does_with_undo_flip_and_bad_input():
    moves = advised_moves(KRK_FEN)
    optimal = tablebase.load("KRK").dtm(chess.Board(KRK_FEN))
    assert (len(moves), optimal) == (10, 8)
    # Before the first move: a hint, the tree, a flip and back, bad input, an undo
    # with nothing to undo; then a move taken back, then the hints followed.
    # Near the end: the hint of a new two-move plan, taken, and after the
    # reply its tree foresaw, the hint and the tree that plan still follows.
    assert moves[8:] == ["Kc2", "Ra3#"]
    typed = ["hint", "why", "flip", "Kd3", "", "moves", "undo", "flip",
             "Kc4", "undo", *moves[:8], "hint", "why", moves[8], "hint", "why", moves[9]]
    result = practise("krk", input="".join(f"{line}\n" for line in typed))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "the fastest mate takes 8 moves" in out.splitlines()[0]
    assert "hint: rule else_rule, advice squeeze: play Re3" in out
    assert "advice:   squeeze — forcing tree of depth 1" in out   # why: the plan made here
    assert "  1. Re3  (goal)" in out
    # The board in chess symbols, then seen from Black's side.
    assert "4 · · · ♔ · · · ·\n" in out and "4 · · · · ♔ · · ·\n" in out
    assert "  h g f e d c b a\n" in out
    assert "'Kd3' is not a legal move here; legal moves: Kc4, Kc5" in out
    assert "legal moves: Kc4, Kc5, Kd5" in out
    assert "nothing to undo" in out
    assert "1. Kc4  Kd2" in out                      # played, then taken back
    # The optimal first move would take one off; the table's first move does not.
    assert ("1. Re3  Kd2        mate in 8 → mate in 9: that move did not bring the mate "
            "nearer") in out
    assert out.count("1. Re3  Kd2") == 1 and out.count("nothing to undo") == 1
    assert out.splitlines()[-1] == "You mated in 10 moves; the fastest mate from the start " \
                                   "takes 8 (tablebase): 2 over."
    assert "hint: rule edge_rule, advice mate_in_2: play Kc2" in out
    assert "advice:   mate_in_2 — forcing tree of depth 3" in out
    assert "hint: rule edge_rule, advice mate_in_2 (the plan being followed): play Ra3#" in out
    assert ("following rule edge_rule, advice mate_in_2: the rest of its forcing tree, "
            "depth 1\n  10. Ra3#  (goal)\n") in out
    assert "10. Ra3#" in out and "mate in 1 → mated" in out


def test_undo_takes_back_the_pair_and_the_game_goes_on():
    result = practise("krk", input="Re3\nundo\nundo\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    assert out.count("nothing to undo") == 1
    assert out.endswith("): Stopped after 0 of your moves; from the start the "
                        "tablebase mates in 8.\n")


def test_a_line_that_is_not_utf8_is_refused_and_the_game_goes_on():
    result = practise("krk", input=b"\xff\xfe\nquit\n")
    assert result.exit_code == 0, result.output
    assert "that line is not utf-8 text" in result.output


def test_a_move_that_gives_the_rook_away_ends_the_game_as_material_lost():
    # Re3+?? puts the rook beside their king, undefended: Kxe3.
    fen = "8/8/8/8/8/3k4/8/K3R3 w - - 0 1"
    result = practise("krk", "--fen", fen, input="Re3+\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "mate in" in out and "no forced mate: that move lets the win go" in out
    assert out.splitlines()[-1].startswith("Game over: material lost")


@pytest.mark.parametrize("args, fragment", [
    (["--fen", "8/8/8/8/8/8/2Rk4/K7 b - - 0 1"], "cannot force mate here"),
    (["--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"], "KRK"),
    (["--fen", "not a fen"], "not a fen"),
    (["--fen", "k7/1R6/1K6/8/8/8/8/8 b - - 0 1"], "already over"),
])
def test_a_start_with_nothing_to_practise_is_one_line_and_exit_2(args, fragment):
    result = practise("krk", *args, input="")
    assert result.exit_code == 2, result.output
    line, = result.output.strip().splitlines()
    assert line.startswith("Error: ") and fragment in line


def test_the_defence_moves_first_when_the_start_is_its_turn():
    result = practise("krk", "--fen", "8/8/4R3/8/3K4/8/2k5/8 b - - 0 1", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "the defence opens: " in result.output


def test_where_the_table_has_no_plan_the_hint_says_why_and_gives_the_tablebases_move():
    first_draft = str(ROOT / "docs" / "my_kqk.yaml")
    result = practise(first_draft, "--fen", "8/8/8/8/6Q1/8/3K4/5k2 w - - 0 1",
                      input="hint\nquit\n")
    assert result.exit_code == 0, result.output
    assert ("hint: the table has no plan here (rule drive: no advice gives a move to play "
            "(tried mate_in_1, squeeze, approach))\n      the tablebase's fastest: Ke3\n"
            ) in result.output
