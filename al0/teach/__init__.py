"""al0 teaches: a verdict and an explanation for a student's move, from a
table's goals and descriptions and the tablebase; exercise sets, lessons
with goals, and a progress record with its review queue; a practice
session (:class:`Practice`) that holds the game, the plan and the verdicts, and what the coach says of it
(:mod:`al0.teach.coach`). A library entry every front end uses
(``al0 practice``, ``al0 play --explain``, ``al0 serve``): it prints nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face

if TYPE_CHECKING:
    from al0.teach.coach import (
        GRADE_WORDS,
        after_a_slip,
        best_lines,
        distance_text,
        game_summary,
        hint_lines,
        trace_lines,
        turn_line,
        why_lines,
    )
    from al0.teach.exercises import Level, level_starts, parse_level, practised_side
    from al0.teach.explain import Change, Explainer, Explanation, Part
    from al0.teach.lessons import (
        ADVISORS,
        CATALOGUE,
        Goal,
        Lesson,
        catalogue_lines,
        catalogue_rows,
        find_lesson,
        goal_met,
        goal_moves,
        outcome_text,
    )
    from al0.teach.pgn import practice_game, practice_pgn_text
    from al0.teach.record import (
        REVIEW_DAYS,
        add_attempt,
        check_record,
        due_reviews,
        next_review,
        now_ms,
        read_record,
        record_lines,
        record_path,
        review_intro,
        review_lines,
    )
    from al0.teach.refutation import Refutation, refutation_lines, refutations
    from al0.teach.session import Practice, Turn
    from al0.teach.show import best_line, show_lines
    from al0.teach.verdict import Grade, Judge, Verdict, blunder_reason, moves_text

_HOMES = {
    "GRADE_WORDS": "coach",
    "after_a_slip": "coach",
    "best_lines": "coach",
    "distance_text": "coach",
    "game_summary": "coach",
    "hint_lines": "coach",
    "trace_lines": "coach",
    "turn_line": "coach",
    "why_lines": "coach",
    "Level": "exercises",
    "level_starts": "exercises",
    "parse_level": "exercises",
    "practised_side": "exercises",
    "Change": "explain",
    "Explainer": "explain",
    "Explanation": "explain",
    "Part": "explain",
    "ADVISORS": "lessons",
    "CATALOGUE": "lessons",
    "Goal": "lessons",
    "Lesson": "lessons",
    "catalogue_lines": "lessons",
    "catalogue_rows": "lessons",
    "find_lesson": "lessons",
    "goal_met": "lessons",
    "goal_moves": "lessons",
    "outcome_text": "lessons",
    "practice_game": "pgn",
    "practice_pgn_text": "pgn",
    "REVIEW_DAYS": "record",
    "due_reviews": "record",
    "next_review": "record",
    "review_intro": "record",
    "review_lines": "record",
    "add_attempt": "record",
    "check_record": "record",
    "read_record": "record",
    "now_ms": "record",
    "record_lines": "record",
    "record_path": "record",
    "Refutation": "refutation",
    "refutation_lines": "refutation",
    "refutations": "refutation",
    "best_line": "show",
    "show_lines": "show",
    "Practice": "session",
    "Turn": "session",
    "Grade": "verdict",
    "Judge": "verdict",
    "Verdict": "verdict",
    "blunder_reason": "verdict",
    "moves_text": "verdict",
}
"""Each name of the face and the module it lives in."""

__all__ = [
    "best_line",
    "show_lines",
    "ADVISORS",
    "CATALOGUE",
    "Goal",
    "Lesson",
    "catalogue_lines",
    "catalogue_rows",
    "find_lesson",
    "goal_met",
    "goal_moves",
    "outcome_text",
    "REVIEW_DAYS",
    "due_reviews",
    "next_review",
    "review_intro",
    "review_lines",
    "GRADE_WORDS",
    "after_a_slip",
    "best_lines",
    "distance_text",
    "game_summary",
    "hint_lines",
    "trace_lines",
    "turn_line",
    "why_lines",
    "Change",
    "Explainer",
    "Explanation",
    "Grade",
    "Judge",
    "Level",
    "Part",
    "Practice",
    "Refutation",
    "Turn",
    "Verdict",
    "add_attempt",
    "blunder_reason",
    "check_record",
    "level_starts",
    "moves_text",
    "parse_level",
    "practised_side",
    "practice_game",
    "practice_pgn_text",
    "read_record",
    "now_ms",
    "record_lines",
    "record_path",
    "refutation_lines",
    "refutations",
]

__getattr__ = lazy_face(__name__, _HOMES)
