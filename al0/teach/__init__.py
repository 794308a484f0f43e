"""al0 teaches: a verdict and an explanation for a student's move, from a
table's goals and descriptions and the tablebase; exercise sets and a
progress record; a practice session (:class:`Practice`) that holds the
game, the plan and the verdicts. A library entry every front end uses
(``al0 practice``, ``al0 play --explain``, ``al0 serve``): it prints nothing."""

from __future__ import annotations

from al0.teach.explain import Change, Explainer, Explanation, Part
from al0.teach.session import Practice, Turn
from al0.teach.verdict import Grade, Judge, Verdict, blunder_reason

__all__ = [
    "Change",
    "Explainer",
    "Explanation",
    "Grade",
    "Judge",
    "Part",
    "Practice",
    "Turn",
    "Verdict",
    "blunder_reason",
]
