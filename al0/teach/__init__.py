"""al0 teaches: a verdict and an explanation for a student's move, from a
table's goals and descriptions and the tablebase; exercise sets and a
progress record. A library entry every front end may use (``al0
practice``, ``al0 play --explain``, a later one): it prints nothing."""

from __future__ import annotations

from al0.teach.explain import Change, Explainer, Explanation, Part
from al0.teach.verdict import Grade, Judge, Verdict, blunder_reason

__all__ = ["Change", "Explainer", "Explanation", "Grade", "Judge", "Part", "Verdict",
           "blunder_reason"]
