"""Lessons (a catalogue per ending, each goal stated and judged by the
tablebase) and the review queue (missed positions brought back after
spaced intervals, computed from a clock passed in, in milliseconds)."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from al0 import tablebase
from al0.bundled import bundled_tables
from al0.errors import AL0Error, PositionError
from al0.lang.loader import load_table
from al0.teach.lessons import (
    CATALOGUE,
    Goal,
    catalogue_rows,
    find_lesson,
    goal_met,
    goal_moves,
    outcome_text,
)
from al0.teach.record import (
    DAY_MS,
    Attempt,
    add_attempt,
    due_reviews,
    next_review,
    read_record,
    record_lines,
    review_intro,
    review_lines,
)
from al0.teach.session import Practice

NOW = 1_800_000_000_000
"""A stated clock (ms since the epoch): 2027-01-15 08:00 UTC."""
KQKR_FEN = "8/8/8/8/4rQ2/1k6/8/1K6 w - - 0 1"
"""Qxe4 wins the rook at once (mate in 4 after it); Qe3+?? Rxe3 loses the queen."""


def entry(step: int, due: int, material: str = "KQK") -> dict[str, object]:
    return {"material": material, "step": step, "due": due}


# ---------------------------------------------------------- the schedule


@pytest.mark.parametrize(
    "before, missed, solved, now, after",
    [
        # A miss (re)starts the position at the first interval, 1 day.
        (None, True, False, NOW, entry(0, NOW + DAY_MS)),
        (None, True, True, NOW, entry(0, NOW + DAY_MS)),  # mated, but with a mistake
        (entry(3, NOW + 5 * DAY_MS), True, True, NOW, entry(0, NOW + DAY_MS)),
        # A clean mate of a due position moves it on: 1 -> 3 -> 7 -> 14 -> 30 days.
        (entry(0, NOW), False, True, NOW, entry(1, NOW + 3 * DAY_MS)),
        (entry(1, NOW - 1), False, True, NOW, entry(2, NOW + 7 * DAY_MS)),
        (entry(2, NOW - DAY_MS), False, True, NOW, entry(3, NOW + 14 * DAY_MS)),
        (entry(3, 0), False, True, NOW, entry(4, NOW + 30 * DAY_MS)),
        # After the last interval it leaves the queue.
        (entry(4, NOW), False, True, NOW, None),
        # Not yet due, left unsolved, or never missed: nothing changes.
        (entry(1, NOW + 1), False, True, NOW, entry(1, NOW + 1)),
        (entry(1, NOW), False, False, NOW, entry(1, NOW)),
        (None, False, True, NOW, None),
    ],
)
def test_a_miss_resets_a_success_moves_to_the_next_interval(before, missed, solved, now, after):
    assert next_review(before, "KQK", missed, solved, now) == after


def record(review: dict[str, object]) -> dict[str, object]:
    return {"version": 1, "endings": {}, "review": review}


@pytest.mark.parametrize(
    "review, material, expected",
    [
        ({}, None, []),
        ({"a": entry(0, NOW + 1)}, None, []),
        ({"a": entry(0, NOW), "b": entry(2, NOW - 5, "KRK")}, None, [("b", "KRK"), ("a", "KQK")]),
        ({"a": entry(0, NOW), "b": entry(2, NOW - 5, "KRK")}, "KQK", [("a", "KQK")]),
    ],
)
def test_the_positions_due_the_longest_waiting_first(review, material, expected):
    assert due_reviews(record(review), NOW, material) == expected


@pytest.mark.parametrize(
    "review, expected",
    [
        ({}, ["review queue: empty (a position you miss comes back after 1, 3, 7, 14 and 30 days)"]),
        (
            {"a": entry(0, NOW - 1), "b": entry(1, NOW + 3 * DAY_MS, "KRK")},
            [
                "review queue: 1 of 2 positions due now (1 KQK)",
                "  the next due in 3 days (2027-01-18 08:00 UTC)",
                "  al0 practice --review plays them",
            ],
        ),
        (
            {"a": entry(0, NOW + 2 * 3_600_000)},
            ["review queue: 0 of 1 positions due now", "  the next due in 2 hours (2027-01-15 10:00 UTC)"],
        ),
    ],
)
def test_progress_says_how_many_are_due_and_when_the_next_comes(review, expected):
    assert review_lines(record(review), NOW) == expected


@pytest.mark.parametrize(
    "step, said",
    [
        (
            0,
            "Review: a position you missed (interval 1 of 5); mate with no mistake and it comes back in 3 days.",
        ),
        (
            3,
            "Review: a position you missed (interval 4 of 5); mate with no mistake and it comes back in 30 days.",
        ),
        (4, "Review: a position you missed (interval 5 of 5); mate with no mistake and it leaves the queue."),
    ],
)
def test_a_review_says_what_a_clean_mate_earns(step, said):
    assert review_intro(entry(step, NOW)) == said


# ---------------------------------------------------------- the record


def attempt(fen: str, mistakes: int, solved: bool) -> Attempt:
    return Attempt("KQK", fen, solved, 3, 2, 0, mistakes, 0)


def test_a_record_before_the_queue_is_read_and_gains_one(tmp_path: Path):
    path = tmp_path / "progress.json"
    counts = dict.fromkeys(("tried", "solved", "moves", "over_optimum", "hints", "mistakes", "blunders"), 1)
    path.write_text(json.dumps({"version": 1, "endings": {"KRK": counts}}))
    assert record_lines(read_record(path), NOW) == [
        "KRK: 1 of 1 exercises solved, 1.0 moves over the optimum a mate; 1 hints, 1 mistakes, 1 blunders"
    ]
    add_attempt(path, attempt("fen a", 1, True), NOW)
    add_attempt(path, attempt("fen b", 0, True), NOW)  # never missed: not queued
    add_attempt(path, attempt("fen c", 1, False))  # no clock given: the queue left alone
    data = read_record(path)
    assert data["review"] == {"fen a": entry(0, NOW + DAY_MS)}
    assert data["endings"]["KQK"]["tried"] == 3 and data["endings"]["KRK"]["tried"] == 1
    assert record_lines(data, NOW)[-2:] == [
        "review queue: 0 of 1 positions due now",
        "  the next due in 1 day (2027-01-16 08:00 UTC)",
    ]


@pytest.mark.parametrize(
    "review, fragment",
    [
        ([], "'review' is not an object"),
        ({"f": {"material": "KQK", "step": 0}}, "review 'f' does not hold due, material, step"),
        ({"f": entry(0, -1)}, "review 'f': due is -1, not a count"),
        ({"f": entry(5, 0)}, "review 'f': step 5 beyond the 5 intervals"),
        ({"f": {"material": 3, "step": 0, "due": 0}}, "review 'f': material is 3"),
    ],
)
def test_a_queue_that_is_not_one_is_refused_naming_the_file(tmp_path: Path, review, fragment):
    path = tmp_path / "progress.json"
    path.write_text(json.dumps(record(review)))
    with pytest.raises(AL0Error, match=f"{path}: not a progress record of al0 .*{fragment}"):
        read_record(path)


# ---------------------------------------------------------- the lessons


def test_every_bundled_tables_ending_and_the_tablebases_four_have_lessons():
    # A table that holds (krkb_hold, krkn_hold, kpk_hold) too: the student defends.
    endings = {lesson.material for lesson in CATALOGUE}
    tables = [load_table(str(path)) for path in bundled_tables()]
    assert {table.material.name for table in tables} <= endings
    assert {lesson.material for lesson in CATALOGUE if lesson.goal is Goal.HOLD} == {"KBKR", "KNKR", "KKP"}
    assert {"KQK", "KRK", "KBBK", "KQKR"} <= endings
    names = [row["name"] for row in catalogue_rows()]
    assert len(names) == len(set(names))
    for lesson in CATALOGUE:
        assert lesson.table is None or load_table(lesson.table).material.name == lesson.material


@pytest.mark.parametrize(
    "name, optimal, goal",
    [
        ("kqk-1", 1, "Mate in at most 1 move."),
        ("KRK-3", 12, "Mate in at most 15 moves."),
        ("kqkr-2", 6, "Win the rook, keeping the win: take it (or mate) within 6 moves."),
        ("kbkr-1", 50, "Hold the draw for 50 moves: every move must keep it."),
    ],
)
def test_a_lessons_goal_in_a_coachs_words(name, optimal, goal):
    assert find_lesson(name).goal_text(optimal) == goal


def test_a_lesson_not_in_the_catalogue_names_the_catalogue():
    with pytest.raises(PositionError, match=r"'kxk-9' is not a lesson: the lessons are kqk-1, .*kqkr-3"):
        find_lesson("kxk-9")


@pytest.mark.parametrize(
    "goal, limit, moves, met, text",
    [
        (Goal.MATE, 5, 4, True, "Goal met: you mated in 4 moves (at most 5)."),
        (Goal.MATE, 5, 5, True, "Goal met: you mated in 5 moves (at most 5)."),
        (Goal.MATE, 5, 6, False, "Goal not met: you mated in 6 moves, the goal was at most 5."),
        (Goal.MATE, 1, None, False, "Goal not met: no mate (the goal: within 1 move)."),
        (Goal.WIN_ROOK, 3, 1, True, "Goal met: you won the rook in 1 move (at most 3)."),
        (Goal.WIN_ROOK, 3, None, False, "Goal not met: the rook not won (the goal: within 3 moves)."),
        (Goal.HOLD, 50, 50, True, "Goal met: you held the draw (50 moves)."),
        (Goal.HOLD, 50, None, False, "Goal not met: the draw was not held to the game's end."),
    ],
)
def test_a_goal_met_or_not_said_at_the_end(goal, limit, moves, met, text):
    assert goal_met(limit, moves) is met
    assert outcome_text(goal, limit, moves) == text


@pytest.mark.parametrize(
    "moves, mate, rook",
    [
        (["Qxe4"], None, 1),  # the rook taken at once, the win kept
        (["Qe3+"], None, None),  # Rxe3: the queen lost, the game over
        ([], None, None),
    ],
)
def test_the_tablebase_judges_when_the_rook_was_won(tablebase_cache: Path, moves, mate, rook):
    game = Practice(tablebase.load("KQKR", tablebase_cache), chess.Board(KQKR_FEN))
    for san in moves:
        game.play(game.board.parse_san(san))
    assert goal_moves(Goal.MATE, game) == mate
    assert goal_moves(Goal.WIN_ROOK, game) == rook
