"""The registry of the standard names, the one list of them: the basic
names (``mate``, ``legal`` …, no arguments: :data:`BASIC_PREDICATES`,
:data:`BASIC_GENERATORS`) and every family of the vocabulary with its name,
kind and parameters (:data:`VOCABULARY`), and the reference text
``docs/language.md`` lists them by."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from al0.lang.vocabulary.basics import check, legal, mate, nomove, stalemate, themtomove, ustomove
from al0.lang.vocabulary.boxes import area, area_corner_dist, area_dist, inward, least_area, mobility, room
from al0.lang.vocabulary.corners import corner_triangle, diagonal_area, triangle_corner_dist, wrong_way
from al0.lang.vocabulary.distances import (
    centre_side_dist,
    corner_dist,
    critical_mdist,
    dist,
    edge_dist,
    mdist,
)
from al0.lang.vocabulary.generators import captures, checks, moves
from al0.lang.vocabulary.placement import corner, cut_off, divides, edge, opposition
from al0.lang.vocabulary.safety import attacked, en_prise, hanging, lost, threatened

PIECE, KING, COLOUR = "piece", "king", "colour"

BASIC_PREDICATES: dict[str, Callable[..., bool]] = {
    "mate": mate,
    "stalemate": stalemate,
    "check": check,
    "themtomove": themtomove,
    "ustomove": ustomove,
}
"""The predicates every library has; no library may redefine them."""
BASIC_GENERATORS: dict[str, Callable[..., Any]] = {"legal": legal, "nomove": nomove}
"""The move generators every library has; a library may order them its own way."""


def summary_of(function: Callable[..., Any]) -> str:
    """The first paragraph of ``function``'s docstring, on one line (a
    summary wrapped over lines is not cut mid-sentence)."""
    doc = (function.__doc__ or "").strip()
    return " ".join(doc.split("\n\n")[0].split())


@dataclass(frozen=True)
class VocabularyEntry:
    """One family of the vocabulary: its name, kind, parameters and builder."""

    name: str
    kind: str
    """``feature``, ``predicate`` or ``generator``."""
    params: tuple[str, ...]
    """The kind of each parameter: ``piece``, ``king`` (a piece that must be
    a king) or ``colour``."""
    build: Callable[..., Any]
    optional: int = 0
    """How many trailing parameters may be left out."""
    default: str | None = None
    """The piece a feature with no argument measures (``room``: their king)."""

    @property
    def signature(self) -> str:
        """``dist(piece, piece)``, optional parameters in brackets."""
        required = len(self.params) - self.optional
        words = list(self.params[:required]) + [f"[{p}]" for p in self.params[required:]]
        return f"{self.name}({', '.join(words)})" if words else self.name

    @property
    def summary(self) -> str:
        """The first paragraph of the builder's docstring, on one line."""
        return summary_of(self.build)


VOCABULARY: tuple[VocabularyEntry, ...] = (
    VocabularyEntry("dist", "feature", (PIECE, PIECE), dist),
    VocabularyEntry("mdist", "feature", (PIECE, PIECE), mdist),
    VocabularyEntry("edge_dist", "feature", (PIECE,), edge_dist),
    VocabularyEntry("centre_side_dist", "feature", (PIECE, PIECE), centre_side_dist),
    VocabularyEntry("corner_dist", "feature", (PIECE, COLOUR), corner_dist, optional=1),
    VocabularyEntry("room", "feature", (KING,), room, optional=1, default="k"),
    VocabularyEntry("area", "feature", (KING,), area, optional=1, default="k"),
    VocabularyEntry("least_area", "feature", (KING,), least_area, optional=1, default="k"),
    VocabularyEntry("area_corner_dist", "feature", (KING, COLOUR), area_corner_dist, optional=2, default="k"),
    VocabularyEntry("corner_triangle", "feature", (KING, COLOUR), corner_triangle, optional=2, default="k"),
    VocabularyEntry("diagonal_area", "feature", (KING, COLOUR), diagonal_area, optional=2, default="k"),
    VocabularyEntry("wrong_way", "feature", (KING, COLOUR), wrong_way),
    VocabularyEntry("triangle_corner_dist", "feature", (PIECE, KING), triangle_corner_dist),
    VocabularyEntry("area_dist", "feature", (PIECE, KING), area_dist),
    VocabularyEntry("mobility", "feature", (KING,), mobility, optional=1, default="k"),
    VocabularyEntry("inward", "feature", (KING,), inward, optional=1, default="k"),
    VocabularyEntry("critical_mdist", "feature", (PIECE, PIECE, PIECE), critical_mdist),
    VocabularyEntry("hanging", "feature", (), hanging),
    VocabularyEntry("lost", "predicate", (PIECE,), lost),
    VocabularyEntry("attacked", "predicate", (PIECE,), attacked),
    VocabularyEntry("en_prise", "predicate", (PIECE,), en_prise),
    VocabularyEntry("threatened", "predicate", (PIECE,), threatened),
    VocabularyEntry("divides", "predicate", (PIECE,), divides),
    VocabularyEntry("cut_off", "predicate", (PIECE,), cut_off),
    VocabularyEntry("opposition", "predicate", (), opposition),
    VocabularyEntry("edge", "predicate", (PIECE,), edge),
    VocabularyEntry("corner", "predicate", (PIECE, COLOUR), corner, optional=1),
    VocabularyEntry("moves", "generator", (PIECE,), moves),
    VocabularyEntry("checks", "generator", (), checks),
    VocabularyEntry("captures", "generator", (), captures),
)
"""Every family, in the order the reference lists them."""

ENTRIES = {entry.name: entry for entry in VOCABULARY}


def reference_markdown() -> str:
    """The vocabulary section of ``docs/language.md``: every name of the
    standard library and of this vocabulary with its docstring's summary
    (a test keeps the document equal to this)."""
    rows = ["| name | kind | meaning |", "|---|---|---|"]
    for name, predicate in BASIC_PREDICATES.items():
        rows.append(f"| `{name}` | predicate | {summary_of(predicate)} |")
    for name, generator in BASIC_GENERATORS.items():
        rows.append(f"| `{name}` | generator | {summary_of(generator)} |")
    for entry in VOCABULARY:
        rows.append(f"| `{entry.signature}` | {entry.kind} | {entry.summary} |")
    return "\n".join(rows)
