"""al0 teaches: a verdict and an explanation for a student's move, from a
table's goals and descriptions and the tablebase; exercise sets and a
progress record; a practice session (:class:`Practice`) that holds the
game, the plan and the verdicts. A library entry every front end uses
(``al0 practice``, ``al0 play --explain``, ``al0 serve``): it prints nothing."""

from __future__ import annotations

from al0.teach.exercises import Level, level_starts, parse_level
from al0.teach.explain import Change, Explainer, Explanation, Part
from al0.teach.pgn import practice_game, practice_pgn_text
from al0.teach.record import add_attempt, check_record, read_record, record_lines, record_path
from al0.teach.refutation import Refutation, refutation_lines, refutations
from al0.teach.session import Practice, Turn
from al0.teach.verdict import Grade, Judge, Verdict, blunder_reason, moves_text

__all__ = [
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
    "practice_game",
    "practice_pgn_text",
    "read_record",
    "record_lines",
    "record_path",
    "refutation_lines",
    "refutations",
]
