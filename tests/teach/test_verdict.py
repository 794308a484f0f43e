"""Verdicts and explanations as tables of cases: (table, position, move)
→ grade and reason; the blunders computed from the position."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import chess
import pytest

from al0 import tablebase
from al0.engine.plan import Planner
from al0.engine.search import ForcingTreeSearch
from al0.errors import SearchBudgetExceeded
from al0.lang.loader import load_table
from al0.tablebase import Tablebase
from al0.teach import Explainer, Grade, Judge
from al0.teach.verdict import fastest_moves

KRK_START = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
KQK_START = "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1"
KPK_AT_99 = "8/8/8/8/8/8/4P3/K6k w - - 99 1"
"""A won KPK position one half-move before the 50-move rule: only e4 keeps the win."""
KRK_AFTER_TWO = "8/8/8/8/4K3/4R3/2k5/8 w - - 4 3"
"""krk's start after 1. Re3 Kd2 2. Ke4 Kc2: the method squeezes with Rd3."""


@pytest.fixture
def endgame(tablebase_cache: Path) -> Callable[[str], Tablebase]:
    """The tablebase of a material, built once per session in the test cache."""
    return lambda material: tablebase.load(material, tablebase_cache)


def verdict(endgame, name: str, fen: str, san: str):
    table = load_table(name)
    planner = Planner(table)
    board = chess.Board(fen)
    plan = planner.plan(board)
    judge = Judge(endgame(table.material.name), table.us, planner)
    return judge.judge(board, board.parse_san(san), plan.advice, plan.tree, plan)


@pytest.mark.parametrize(
    "name, fen, san, grade, reason",
    [
        # The table's move is the method's, even where it is not the fastest.
        (
            "krk",
            KRK_START,
            "Re3",
            Grade.METHOD,
            "Squeeze: shrink the box the rook keeps their "
            "king in, the rook kept safe. — the box their king is held in shrinks from 14 to 8 "
            "squares",
        ),
        (
            "kqk",
            KQK_START,
            "Qc3",
            Grade.METHOD,
            "the box their king is held in shrinks from 41 to 20 squares",
        ),
        # Another queen move that squeeze_half accepts is the method's too.
        ("kqk", KQK_START, "Qf6", Grade.METHOD, "Squeeze hard"),
        # Qf6, the method's here, is also the fastest: Kd2 is a move slower.
        ("kqk", KQK_START, "Kd2", Grade.MISTAKE, "mate in 8 after it instead of 7: 1 move slower"),
        (
            "kqk",
            "8/8/8/3k4/8/8/8/2Q1K3 w - - 0 1",
            "Kd2",
            Grade.GOOD,
            "the win kept: mate in 8, as fast as the method's move",
        ),
        (
            "kqk",
            KQK_START,
            "Kd1",
            Grade.MISTAKE,
            "it breaks the plan: the box their king is held in grows from 41 to",
        ),
        # A plan of two moves is measured where its line ends (their longest resistance).
        (
            "kbbk",
            "8/8/8/1k6/8/5K2/2BB4/8 w - - 8 5",
            "Kg4",
            Grade.METHOD,
            "Make progress in two "
            "moves: a smaller triangle, box or wall, or our king nearer. — in 2 moves: the box "
            "their king is held in shrinks from 27 to 26 squares",
        ),
        ("krk", KRK_START, "Kc4", Grade.FASTEST, "the fastest way: mate in 7 after it"),
        ("krk", KRK_AFTER_TWO, "Kd4", Grade.MISTAKE, "mate in 9 after it instead of 7: 2 moves slower"),
        ("krk", KRK_AFTER_TWO, "Kf4", Grade.MISTAKE, "the plan was: Squeeze"),
        # The blunders, from held positions.
        (
            "krk",
            "8/8/8/8/8/3k4/8/K3R3 w - - 0 1",
            "Re3+",
            Grade.BLUNDER,
            "Kxe3: the rook on e3 was undefended",
        ),
        (
            "kqk",
            "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1",
            "Qc7",
            Grade.BLUNDER,
            "stalemate: their king on a8 has no square and no other move",
        ),
        ("kqk", KQK_START, "Qd4+", Grade.BLUNDER, "Kxd4: the queen on d4 was undefended"),
        ("kqk", "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", "Qc8#", Grade.METHOD, "checkmate"),
        # At clock 99 a move that does not reset it draws by the 50-move rule
        # (a tablebase counts no clock: Kb2 was "the fastest way"); a mate
        # on the 100th half-move still mates.
        ("kpk", KPK_AT_99, "Kb2", Grade.BLUNDER, "the 50-move rule ends the game: 50 moves without"),
        ("kpk", KPK_AT_99, "e4", Grade.METHOD, "Push the pawn"),
        ("kpk", "8/8/8/8/8/8/4P3/K6k w - - 98 1", "Kb2", Grade.FASTEST, "the fastest way: mate in 12"),
        ("kqk", "k7/8/1K6/8/8/8/8/2Q5 w - - 99 80", "Qc8#", Grade.METHOD, "checkmate"),
        # Holding: the move the tablebase says loses holds at clock 99.
        ("kpk_hold", "8/8/8/8/4k3/8/3KP3/8 b - - 98 80", "Kf4", Grade.BLUNDER, "the draw is gone"),
        (
            "kpk_hold",
            "8/8/8/8/4k3/8/3KP3/8 b - - 99 80",
            "Kf4",
            Grade.GOOD,
            "the draw kept (5 moves do)",
        ),  # each of its moves
    ],
)
def test_verdicts(endgame, name, fen, san, grade, reason):
    given = verdict(endgame, name, fen, san)
    assert given.grade is grade, given
    assert reason in given.reason


def test_with_no_table_the_fastest_move_is_fastest_and_a_slow_one_a_mistake(endgame):
    board = chess.Board(KQK_START)
    judge = Judge(endgame("KQK"), chess.WHITE)
    best = endgame("KQK").best_moves(board)
    assert judge.judge(board, best[0]).grade is Grade.FASTEST
    slow = judge.judge(board, board.parse_san("Kd1"))
    assert slow.grade is Grade.MISTAKE and "slower" in slow.reason
    # With no table, the measures of every mating drive explain a fastest move.
    assert slow.reason == "mate in 9 after it instead of 7: 2 moves slower"
    fast = judge.judge(board, board.parse_san("Qa6"))
    assert fast.reason == (
        "the fastest way: mate in 7 after it — the box their king is held in shrinks from 41 to 26 squares"
    )


def test_the_fastest_moves_leave_out_those_the_50_move_rule_ends(endgame):
    kpk = endgame("KPK")
    at = {clock: chess.Board(f"8/8/8/8/8/8/4P3/K6k w - - {clock} 1") for clock in (98, 99)}
    assert sorted(at[98].san(move) for move in fastest_moves(kpk, at[98])) == ["Kb2", "e4"]
    assert [at[99].san(move) for move in fastest_moves(kpk, at[99])] == ["e4"]
    assert at[99].fen() == "8/8/8/8/8/8/4P3/K6k w - - 99 1"  # left as it was


@pytest.mark.parametrize(
    "fen, san, lost, after, words",
    [
        # A queen given to a skewer: Black mates in 2 after Rxe3, a loss, not a draw.
        ("8/8/8/8/4rQ2/1k6/8/1K6 w - - 0 1", "Qe3+", 2, None, "Black mates in 2"),
        # The back rank left open: Re1# at once.
        ("8/8/8/8/4rQ2/1k6/8/1K6 w - - 0 1", "Qf8", 0, None, "Black mates"),
        # A queen given for the rook: a draw, no side mates.
        ("8/8/8/8/4rQ2/1k6/8/1K6 w - - 0 1", "Qc7", None, None, "no forced mate"),
        ("8/8/8/8/4rQ2/1k6/8/1K6 w - - 0 1", "Qxe4", None, 4, "mate in 4"),
    ],
)
def test_a_blunder_that_loses_says_who_mates(endgame, fen, san, lost, after, words):
    board = chess.Board(fen)
    given = Judge(endgame("KQKR"), chess.WHITE).judge(board, board.parse_san(san))
    assert (given.lost, given.after, given.after_words()) == (lost, after, words)
    assert given.reason.endswith("; Black wins") is (lost is not None), given.reason


def test_measures_that_read_the_same_numbers_are_said_once():
    table = load_table("kbbk")
    board = chess.Board("8/8/8/3k4/8/8/8/2BBK3 w - - 0 1")
    explanation = Explainer(table).explain("squeeze", board, board.parse_san("Bd2"))
    said = explanation.progress_words(every=True)
    merged = [words for words in said if "35 to 32" in words]
    assert merged == [
        "the box their king is held in shrinks from 35 to 32 squares, as do the room the pieces "
        "leave their king and the smallest box their king can step into"
    ], said


def test_an_explanation_reads_every_feature_of_the_goal_before_and_after():
    table = load_table("kbbk")
    board = chess.Board(table.start_fen)
    explanation = Explainer(table).explain("squeeze", board, board.parse_san("Bd2"))
    assert explanation.goal.startswith("Squeeze: shrink their king's box")
    features = {
        change.feature: (change.before, change.after, change.progress) for change in explanation.changes
    }
    assert features["area"] == (35, 32, True)
    assert features["least_area"][2] is False  # a bound, not a measure of progress
    assert explanation.met and not explanation.broken
    words = [part.words for part in explanation.parts]
    assert "the bishop on d1 is out of reach" in words
    assert "the corner triangle that holds their king's box stays at 9" in words
    assert explanation.because().startswith("the box their king is held in shrinks from 35 to 32 squares")


def test_a_library_of_its_own_is_told_by_the_standard_measures():
    # krk's goals name the book's predicates: the box and the kings' distance are told.
    table = load_table("krk")
    board = chess.Board(KRK_START)
    explanation = Explainer(table).explain("squeeze", board, board.parse_san("Re3"))
    assert [change.feature for change in explanation.changes] == ["area", "dist(K, k)"]
    assert all("newroomsmaller" not in part.words for part in explanation.parts)
    broken = Explainer(table).explain("squeeze", board, board.parse_san("Kc4"))
    assert not broken.met


def test_a_move_whose_acceptance_the_budget_cannot_decide_is_judged_by_the_tablebase(endgame, monkeypatch):
    def spent(self, move):
        raise SearchBudgetExceeded("budget spent")

    monkeypatch.setattr(ForcingTreeSearch, "after", spent)
    # Qc3 is accepted by squeeze_half when the search can tell (test_verdicts),
    # though a move slower than the method's own Qf6.
    given = verdict(endgame, "kqk", KQK_START, "Qc3")
    assert given.grade is Grade.MISTAKE and given.reason.startswith(
        "mate in 8 after it instead of 7: 1 move slower"
    )
