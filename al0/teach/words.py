"""Chess words for the vocabulary: what a feature measures and what a
predicate says, for a student who reads the board, not the table.

The words are the registry's (:mod:`al0.lang.vocabulary.registry`: one
entry per family of the vocabulary and per standard predicate), never a
table's: a table's goal is explained by the words of the names it uses.
A name with no entry there (a Python library's own) is told by its
docstring's first line, which is the library author's words.
"""

from __future__ import annotations

import chess

from al0.lang.vocabulary.binding import split_call
from al0.lang.vocabulary.registry import BASIC_ENTRIES, ENTRIES, Measure, Saying, VocabularyEntry

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


SILENT = frozenset({"themtomove", "ustomove"})
"""Predicates not worth telling: whose move it is."""


def _entry(family: str) -> VocabularyEntry | None:
    """The registry's entry of a family or basic name, or None."""
    return ENTRIES.get(family) or BASIC_ENTRIES.get(family)


def measure_words(
    name: str, board: chess.Board | None = None, us: chess.Color = chess.WHITE
) -> tuple[str, Measure] | None:
    """The noun phrase of feature ``name`` (``dist(K, k)``) and its measure;
    None for a feature of no vocabulary family."""
    family, args = split_call(name)
    entry = _entry(family)
    measure = entry.words if entry is not None else None
    if not isinstance(measure, Measure):
        return None
    if not args and entry is not None and entry.default is not None:
        args = (entry.default,)
    return measure.noun.format(*(piece_words(a, board, us) for a in args), "", ""), measure


def saying(
    name: str, holds: bool, board: chess.Board | None = None, us: chess.Color = chess.WHITE
) -> str | None:
    """What predicate ``name`` says when it ``holds`` (or not), in words;
    None for one of no vocabulary family or one not worth telling."""
    family, args = split_call(name)
    entry = _entry(family)
    words = entry.words if entry is not None else None
    if family in SILENT or not isinstance(words, Saying):
        return None
    text = words.holds if holds else words.fails
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
