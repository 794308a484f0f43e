"""The registry of the standard names, the one list of them: the basic
names (``mate``, ``legal`` …, no arguments: :data:`BASICS`) and every
family of the vocabulary (:data:`VOCABULARY`), each with its name, kind,
parameters and default, whether the native core runs it, whether it is
measured on a king's box, and the coach's words for it; the reference
text ``docs/language.md`` lists them by, and the core's numbering
(``al0/core/names.h``, written by :func:`c_names`) is theirs.

Adding an entry: its module, a :class:`VocabularyEntry` here, its C case
(``al0/core/vocabulary.c``, or ``core=False``) and a test; the suite
fails when ``names.h`` and this list disagree, when the core lacks an
entry it is said to run, or when a family has no words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from al0.lang.vocabulary.basics import check, legal, mate, nomove, stalemate, stalemated, themtomove, ustomove
from al0.lang.vocabulary.boxes import area, area_corner_dist, area_dist, inward, least_area, mobility, room
from al0.lang.vocabulary.corners import (
    corner_triangle,
    diagonal_area,
    hypotenuse_dist,
    triangle_corner_dist,
    wrong_way,
)
from al0.lang.vocabulary.defences import philidor, second_rank_defence, third_rank_defence
from al0.lang.vocabulary.distances import (
    centre_side_dist,
    corner_dist,
    critical_mdist,
    dist,
    edge_dist,
    knight_dist,
    mdist,
)
from al0.lang.vocabulary.generators import captures, checks, moves
from al0.lang.vocabulary.pawns import (
    behind,
    distant_opposition,
    guards_key_squares,
    has_opposition,
    in_front,
    in_square,
    key_square,
    key_square_dist,
    pawn_corner,
    pawn_file,
    pawn_rank,
    promoted,
    promotion_dist,
    promotion_square_dist,
    protected,
    rook_pawn,
)
from al0.lang.vocabulary.placement import corner, cut_off, divides, edge, opposition
from al0.lang.vocabulary.safety import attacked, en_prise, hanging, lost, threatened
from al0.lang.vocabulary.tactics import checks_by, defended, forked, pinned, safe_checks, skewered

PIECE, KING, COLOUR = "piece", "king", "colour"


def summary_of(function: Callable[..., Any]) -> str:
    """The first paragraph of ``function``'s docstring, on one line (a
    summary wrapped over lines is not cut mid-sentence)."""
    doc = (function.__doc__ or "").strip()
    return " ".join(doc.split("\n\n")[0].split())


@dataclass(frozen=True)
class Measure:
    """What a numeric feature measures, in a coach's words: a noun phrase
    with ``{0}``, ``{1}`` … for its pieces, whether smaller is a size or a
    distance, and its unit."""

    noun: str
    size: bool
    """True: shrinks/grows (a box, a count); False: falls/rises (a distance)."""
    unit: str = ""
    plural: bool = False
    """The noun is plural (``the squares …``): shrink, grow, stay."""


@dataclass(frozen=True)
class Saying:
    """What a predicate says, in a coach's words, with ``{0}`` for its piece."""

    holds: str
    fails: str


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
    words: Measure | Saying | None = None
    """The coach's words (a feature's :class:`Measure`, a predicate's
    :class:`Saying`); a generator has none."""
    box: bool = False
    """Measured on the box of its king (``area``'s region): a page that
    shows a goal reading it draws the box."""
    core: bool = True
    """The native core runs it (its number in ``al0/core/names.h``, its
    case in ``al0/core/vocabulary.c`` or ``search.c``)."""

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


BASICS: tuple[VocabularyEntry, ...] = (
    VocabularyEntry("mate", "predicate", (), mate, words=Saying("checkmate", "no mate")),
    VocabularyEntry("stalemate", "predicate", (), stalemate, words=Saying("stalemate", "no stalemate")),
    VocabularyEntry(
        "stalemated", "predicate", (), stalemated, words=Saying("we are stalemated", "we are not stalemated")
    ),
    VocabularyEntry("check", "predicate", (), check, words=Saying("check", "no check")),
    VocabularyEntry("themtomove", "predicate", (), themtomove, words=Saying("their move", "our move")),
    VocabularyEntry("ustomove", "predicate", (), ustomove, words=Saying("our move", "their move")),
    VocabularyEntry("legal", "generator", (), legal),
    VocabularyEntry("nomove", "generator", (), nomove),
)
"""The names every library has, of no arguments: no library may redefine
the predicates; a library may order the generators its own way."""

BASIC_PREDICATES: dict[str, Callable[..., bool]] = {e.name: e.build for e in BASICS if e.kind == "predicate"}
BASIC_GENERATORS: dict[str, Callable[..., Any]] = {e.name: e.build for e in BASICS if e.kind == "generator"}

VOCABULARY: tuple[VocabularyEntry, ...] = (
    VocabularyEntry(
        "dist", "feature", (PIECE, PIECE), dist, words=Measure("the distance from {0} to {1}", False, "steps")
    ),
    VocabularyEntry(
        "mdist",
        "feature",
        (PIECE, PIECE),
        mdist,
        words=Measure("the files-plus-ranks distance from {0} to {1}", False, "squares"),
    ),
    VocabularyEntry(
        "knight_dist",
        "feature",
        (PIECE, PIECE),
        knight_dist,
        words=Measure("the way from {0} to {1}", False, "knight moves"),
    ),
    VocabularyEntry(
        "edge_dist",
        "feature",
        (PIECE,),
        edge_dist,
        words=Measure("the distance from {0} to the edge", False, "steps"),
    ),
    VocabularyEntry(
        "centre_side_dist",
        "feature",
        (PIECE, PIECE),
        centre_side_dist,
        words=Measure("the way of {0} to the centre side of {1}", False, "steps"),
    ),
    VocabularyEntry(
        "corner_dist",
        "feature",
        (PIECE, COLOUR),
        corner_dist,
        optional=1,
        words=Measure("the distance from {0} to the nearest corner", False, "steps"),
    ),
    VocabularyEntry(
        "room",
        "feature",
        (KING,),
        room,
        optional=1,
        default="k",
        words=Measure("the room the pieces leave {0}", True, "squares"),
    ),
    VocabularyEntry(
        "area",
        "feature",
        (KING,),
        area,
        optional=1,
        default="k",
        words=Measure("the box {0} is held in", True, "squares"),
        box=True,
    ),
    VocabularyEntry(
        "least_area",
        "feature",
        (KING,),
        least_area,
        optional=1,
        default="k",
        words=Measure("the smallest box {0} can step into", True, "squares"),
        box=True,
    ),
    VocabularyEntry(
        "area_corner_dist",
        "feature",
        (KING, COLOUR),
        area_corner_dist,
        optional=2,
        default="k",
        words=Measure("the distance from {0}'s box to the corner", False, "steps"),
        box=True,
    ),
    VocabularyEntry(
        "corner_triangle",
        "feature",
        (KING, COLOUR),
        corner_triangle,
        optional=2,
        default="k",
        words=Measure("the corner triangle that holds {0}'s box", True),
        box=True,
    ),
    VocabularyEntry(
        "diagonal_area",
        "feature",
        (KING, COLOUR),
        diagonal_area,
        optional=2,
        default="k",
        words=Measure("how far {0}'s box reaches from the corner", True),
        box=True,
    ),
    VocabularyEntry(
        "wrong_way",
        "feature",
        (KING, COLOUR),
        wrong_way,
        words=Measure("how far {0} can still run the wrong way", True),
    ),
    VocabularyEntry(
        "triangle_corner_dist",
        "feature",
        (PIECE, KING),
        triangle_corner_dist,
        words=Measure("the way of {0} to the corner of {1}'s triangle", False, "steps"),
    ),
    VocabularyEntry(
        "hypotenuse_dist",
        "feature",
        (PIECE, KING, COLOUR),
        hypotenuse_dist,
        optional=1,
        words=Measure("the diagonals between {0} and the long side of {1}'s triangle", False, "diagonals"),
    ),
    VocabularyEntry(
        "area_dist",
        "feature",
        (PIECE, KING),
        area_dist,
        words=Measure("the way of {0} to {1}'s box", False, "steps"),
        box=True,
    ),
    VocabularyEntry(
        "mobility",
        "feature",
        (KING,),
        mobility,
        optional=1,
        default="k",
        words=Measure("the squares {0} can step to", True, plural=True),
    ),
    VocabularyEntry(
        "inward",
        "feature",
        (KING,),
        inward,
        optional=1,
        default="k",
        words=Measure("the squares {0} can step to away from the edge", True, plural=True),
    ),
    VocabularyEntry(
        "critical_mdist",
        "feature",
        (PIECE, PIECE, PIECE),
        critical_mdist,
        words=Measure("the way of {0} to the critical square beside {1}", False, "squares"),
    ),
    VocabularyEntry(
        "hanging", "feature", (), hanging, words=Measure("our pieces left hanging", True, plural=True)
    ),
    VocabularyEntry(
        "lost", "predicate", (PIECE,), lost, words=Saying("{0} is lost", "{0} is still on the board")
    ),
    VocabularyEntry(
        "attacked", "predicate", (PIECE,), attacked, words=Saying("{0} is attacked", "{0} is not attacked")
    ),
    VocabularyEntry(
        "en_prise",
        "predicate",
        (PIECE,),
        en_prise,
        words=Saying("{0} is attacked and undefended", "{0} is safe"),
    ),
    VocabularyEntry(
        "threatened",
        "predicate",
        (PIECE,),
        threatened,
        words=Saying("{0} is within reach of their king, undefended", "{0} is out of reach"),
    ),
    VocabularyEntry(
        "defended", "predicate", (PIECE,), defended, words=Saying("{0} is defended", "{0} is undefended")
    ),
    VocabularyEntry(
        "pinned",
        "predicate",
        (PIECE,),
        pinned,
        words=Saying("{0} is pinned to its king", "{0} is not pinned"),
    ),
    VocabularyEntry(
        "forked",
        "predicate",
        (PIECE,),
        forked,
        words=Saying("{0} and its king are forked", "{0} is not forked"),
    ),
    VocabularyEntry(
        "skewered",
        "predicate",
        (PIECE,),
        skewered,
        words=Saying("{0} is skewered behind its king", "{0} is not skewered"),
    ),
    VocabularyEntry(
        "checks_by",
        "feature",
        (PIECE,),
        checks_by,
        words=Measure("the checks {0} can give", True, plural=True),
    ),
    VocabularyEntry(
        "safe_checks",
        "feature",
        (PIECE,),
        safe_checks,
        words=Measure("the checks {0} can give and survive", True, plural=True),
    ),
    VocabularyEntry(
        "divides",
        "predicate",
        (PIECE,),
        divides,
        words=Saying("{0} stands between the kings", "{0} does not stand between the kings"),
    ),
    VocabularyEntry(
        "cut_off",
        "predicate",
        (PIECE,),
        cut_off,
        words=Saying("{0} is cut off from its king", "{0} is not cut off from its king"),
    ),
    VocabularyEntry(
        "opposition",
        "predicate",
        (),
        opposition,
        words=Saying("the kings stand in opposition", "the kings are not in opposition"),
    ),
    VocabularyEntry(
        "edge", "predicate", (PIECE,), edge, words=Saying("{0} is on the edge", "{0} is off the edge")
    ),
    VocabularyEntry(
        "corner",
        "predicate",
        (PIECE, COLOUR),
        corner,
        optional=1,
        words=Saying("{0} is in a corner", "{0} is not in a corner"),
    ),
    VocabularyEntry(
        "pawn_rank",
        "feature",
        (PIECE,),
        pawn_rank,
        words=Measure("the rank of {0}", False),
    ),
    VocabularyEntry(
        "pawn_file",
        "feature",
        (PIECE,),
        pawn_file,
        words=Measure("the file of {0}, counted from the edge", False),
    ),
    VocabularyEntry(
        "promotion_dist",
        "feature",
        (PIECE,),
        promotion_dist,
        words=Measure("the moves {0} needs to promote", False, "moves", plural=True),
    ),
    VocabularyEntry(
        "promotion_square_dist",
        "feature",
        (PIECE, PIECE),
        promotion_square_dist,
        words=Measure("the way of {0} to the promotion square of {1}", False, "steps"),
    ),
    VocabularyEntry(
        "rook_pawn",
        "predicate",
        (PIECE,),
        rook_pawn,
        words=Saying("{0} is a rook pawn", "{0} is not a rook pawn"),
    ),
    VocabularyEntry(
        "in_square",
        "predicate",
        (KING, PIECE),
        in_square,
        words=Saying("{0} stands in the square of {1}", "{0} is outside the square of {1}"),
    ),
    VocabularyEntry(
        "key_square",
        "predicate",
        (KING, PIECE),
        key_square,
        words=Saying("{0} stands on a key square of {1}", "{0} is off the key squares of {1}"),
    ),
    VocabularyEntry(
        "key_square_dist",
        "feature",
        (KING, PIECE),
        key_square_dist,
        words=Measure("the way of {0} to the key squares of {1}", False, "steps"),
    ),
    VocabularyEntry(
        "guards_key_squares",
        "predicate",
        (KING, PIECE),
        guards_key_squares,
        words=Saying("{0} guards the key squares of {1}", "{0} does not guard the key squares of {1}"),
    ),
    VocabularyEntry(
        "pawn_corner",
        "predicate",
        (KING, PIECE),
        pawn_corner,
        words=Saying("{0} holds the corner of {1}", "{0} is out of the corner of {1}"),
    ),
    VocabularyEntry(
        "in_front",
        "predicate",
        (PIECE, PIECE),
        in_front,
        words=Saying("{0} stands in front of {1}", "{0} is not in front of {1}"),
    ),
    VocabularyEntry(
        "behind",
        "predicate",
        (PIECE, PIECE),
        behind,
        words=Saying("{0} stands behind {1}", "{0} is not behind {1}"),
    ),
    VocabularyEntry(
        "protected",
        "predicate",
        (PIECE,),
        protected,
        words=Saying("{0} is protected", "{0} is unprotected"),
    ),
    VocabularyEntry(
        "promoted",
        "predicate",
        (PIECE,),
        promoted,
        words=Saying("{0} has promoted safely", "{0} has not promoted"),
    ),
    VocabularyEntry(
        "has_opposition",
        "predicate",
        (KING,),
        has_opposition,
        words=Saying("{0}'s side has the opposition", "{0}'s side does not have the opposition"),
    ),
    VocabularyEntry(
        "distant_opposition",
        "predicate",
        (),
        distant_opposition,
        words=Saying("the kings stand in distant opposition", "the kings are not in distant opposition"),
    ),
    VocabularyEntry(
        "philidor",
        "predicate",
        (PIECE, PIECE),
        philidor,
        words=Saying(
            "{0} and {1} stand in Philidor's position", "{0} and {1} are not in Philidor's position"
        ),
    ),
    VocabularyEntry(
        "second_rank_defence",
        "predicate",
        (PIECE,),
        second_rank_defence,
        words=Saying("{0} holds the second-rank defence", "{0} is out of the second-rank defence"),
    ),
    VocabularyEntry(
        "third_rank_defence",
        "predicate",
        (PIECE,),
        third_rank_defence,
        words=Saying("{0} holds the third-rank defence", "{0} is out of the third-rank defence"),
    ),
    VocabularyEntry("moves", "generator", (PIECE,), moves),
    VocabularyEntry("checks", "generator", (), checks),
    VocabularyEntry("captures", "generator", (), captures),
)
"""Every family, in the order the reference lists them."""

ENTRIES = {entry.name: entry for entry in VOCABULARY}
"""The families by name."""
BASIC_ENTRIES = {entry.name: entry for entry in BASICS}
"""The basic names by name."""


def measured_on_box(family: str) -> bool:
    """Whether ``family`` is measured on its king's box (``area``)."""
    entry = ENTRIES.get(family)
    return entry is not None and entry.box


KINDS = {"feature": "F", "predicate": "P", "generator": "GEN"}
"""Each kind and the prefix of its numbers in the core (``F_DIST``)."""


def core_names(kind: str) -> tuple[str, ...]:
    """The names of ``kind`` the native core runs, numbered as it numbers
    them: the basic names first, then the families, in this list's order."""
    return tuple(e.name for e in BASICS + VOCABULARY if e.kind == kind and e.core)


def c_names() -> str:
    """``al0/core/names.h``: the core's numbers of the entries it runs and
    their names, written from this list (a test keeps the file equal to
    this; after changing the list, write it anew with ``python -c "from
    al0.lang.vocabulary.registry import c_names; print(c_names(), end='')"
    > al0/core/names.h``)."""
    lines = [
        "/* The standard vocabulary's numbers and names in the native core, written",
        " * from al0/lang/vocabulary/registry.py by its c_names(): do not edit; a",
        " * test keeps this file equal to the registry. */",
        "#ifndef AL0_NAMES_H",
        "#define AL0_NAMES_H",
    ]
    for kind, prefix in KINDS.items():
        names = core_names(kind)
        count = f"{kind.upper()}_COUNT"
        lines.append("")
        lines.append("enum {")
        lines += [f"    {prefix}_{name.upper()}," for name in names]
        lines.append(f"    {count}")
        lines.append("};")
        lines.append(f"#define {kind.upper()}_NAME_LIST \\")
        quoted = [f'    "{name}",' for name in names]
        lines += [line + " \\" for line in quoted[:-1]] + quoted[-1:]
    lines.append("")
    lines.append("#endif")
    return "\n".join(lines) + "\n"


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
