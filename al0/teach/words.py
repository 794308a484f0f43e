"""Chess words for the vocabulary: what a feature measures and what a
predicate says, for a student who reads the board, not the table.

One entry per family of :mod:`al0.lang.vocabulary` (and the standard
predicates), never per table: a table's goal is explained by the words of
the names it uses. A name with no entry here (a Python library's own) is
told by its docstring's first line, which is the library author's words.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from al0.lang.vocabulary.binding import split_call

PIECE_WORDS = {
    "K": "our king",
    "k": "their king",
    "Q": "the queen",
    "R": "the rook",
    "B": "the bishop",
    "N": "the knight",
    "q": "their queen",
    "r": "their rook",
    "b": "their bishop",
    "n": "their knight",
}
"""A piece name of the vocabulary in words (B1, B2: "the bishop", told apart by square)."""


def piece_words(name: str, board: chess.Board | None = None, us: chess.Color = chess.WHITE) -> str:
    """``K`` -> "our king"; ``B1`` -> "the bishop on c1" when the board shows where."""
    base = PIECE_WORDS.get(name.rstrip("12"), name)
    if name[-1:] in ("1", "2") and board is not None:
        letter = name[0]
        colour = us if letter.isupper() else not us
        squares = sorted(board.pieces(chess.PIECE_SYMBOLS.index(letter.lower()), colour))
        index = int(name[-1]) - 1
        if index < len(squares):
            return f"{base} on {chess.square_name(squares[index])}"
    return base


@dataclass(frozen=True)
class Measure:
    """What a numeric feature measures: a noun phrase with ``{0}``, ``{1}``
    … for its pieces, whether smaller is a size or a distance, and its unit."""

    noun: str
    size: bool
    """True: shrinks/grows (a box, a count); False: falls/rises (a distance)."""
    unit: str = ""
    plural: bool = False
    """The noun is plural (``the squares …``): shrink, grow, stay."""


MEASURES: dict[str, Measure] = {
    "dist": Measure("the distance from {0} to {1}", False, "steps"),
    "mdist": Measure("the files-plus-ranks distance from {0} to {1}", False, "squares"),
    "edge_dist": Measure("the distance from {0} to the edge", False, "steps"),
    "centre_side_dist": Measure("the way of {0} to the centre side of {1}", False, "steps"),
    "corner_dist": Measure("the distance from {0} to the nearest corner", False, "steps"),
    "room": Measure("the room the pieces leave {0}", True, "squares"),
    "area": Measure("the box {0} is held in", True, "squares"),
    "least_area": Measure("the smallest box {0} can step into", True, "squares"),
    "area_corner_dist": Measure("the distance from {0}'s box to the corner", False, "steps"),
    "corner_triangle": Measure("the corner triangle that holds {0}'s box", True),
    "diagonal_area": Measure("how far {0}'s box reaches from the corner", True),
    "wrong_way": Measure("how far {0} can still run the wrong way", True),
    "triangle_corner_dist": Measure("the way of {0} to the corner of {1}'s triangle", False, "steps"),
    "area_dist": Measure("the way of {0} to {1}'s box", False, "steps"),
    "mobility": Measure("the squares {0} can step to", True, plural=True),
    "inward": Measure("the squares {0} can step to away from the edge", True, plural=True),
    "critical_mdist": Measure("the way of {0} to the critical square beside {1}", False, "squares"),
    "hanging": Measure("our pieces left hanging", True, plural=True),
}
"""Feature families, in words; default arguments as the vocabulary's (``room``: their king)."""

DEFAULTS = {
    "room": ("k",),
    "area": ("k",),
    "least_area": ("k",),
    "area_corner_dist": ("k",),
    "corner_triangle": ("k",),
    "diagonal_area": ("k",),
    "mobility": ("k",),
    "inward": ("k",),
}

SAYINGS: dict[str, tuple[str, str]] = {
    "mate": ("checkmate", "no mate"),
    "stalemate": ("stalemate", "no stalemate"),
    "check": ("check", "no check"),
    "en_prise": ("{0} is attacked and undefended", "{0} is safe"),
    "threatened": ("{0} is within reach of their king, undefended", "{0} is out of reach"),
    "attacked": ("{0} is attacked", "{0} is not attacked"),
    "lost": ("{0} is lost", "{0} is still on the board"),
    "divides": ("{0} stands between the kings", "{0} does not stand between the kings"),
    "cut_off": ("{0} is cut off from its king", "{0} is not cut off from its king"),
    "edge": ("{0} is on the edge", "{0} is off the edge"),
    "corner": ("{0} is in a corner", "{0} is not in a corner"),
    "opposition": ("the kings stand in opposition", "the kings are not in opposition"),
}
"""Predicates in words: what holds, what does not (``themtomove``,
``ustomove`` say whose move it is and are not worth telling)."""

SILENT = frozenset({"themtomove", "ustomove"})


def measure_words(
    name: str, board: chess.Board | None = None, us: chess.Color = chess.WHITE
) -> tuple[str, Measure] | None:
    """The noun phrase of feature ``name`` (``dist(K, k)``) and its measure;
    None for a feature of no vocabulary family."""
    family, args = split_call(name)
    measure = MEASURES.get(family)
    if measure is None:
        return None
    args = args or DEFAULTS.get(family, ())
    return measure.noun.format(*(piece_words(a, board, us) for a in args), "", ""), measure


def saying(
    name: str, holds: bool, board: chess.Board | None = None, us: chess.Color = chess.WHITE
) -> str | None:
    """What predicate ``name`` says when it ``holds`` (or not), in words;
    None for one of no vocabulary family or one not worth telling."""
    family, args = split_call(name)
    if family in SILENT or family not in SAYINGS:
        return None
    text = SAYINGS[family][0 if holds else 1]
    return text.format(*(piece_words(a, board, us) for a in args), "")


def change_words(noun: str, measure: Measure, before: int | None, after: int | None) -> str:
    """``the box their king is held in shrinks from 12 to 9 squares``."""
    # The unit reads with the last number: 1 square, 2 squares.
    unit = f" {measure.unit}" if measure.unit else ""
    if after == 1 and unit.endswith("s"):
        unit = unit[:-1]
    if before is None or after is None:
        return (
            f"{noun}: {before if before is not None else 'none'} → {after if after is not None else 'none'}"
        )
    s = "" if measure.plural else "s"
    if before == after:
        return f"{noun} stay{s} at {after}{unit}"
    down, up = ("shrink", "grow") if measure.size else ("fall", "rise")
    return f"{noun} {down if after < before else up}{s} from {before} to {after}{unit}"
