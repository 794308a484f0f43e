"""The vocabulary in chess words: one entry per family, as a table of cases."""

from __future__ import annotations

import chess
import pytest

from al0.lang.vocabulary.registry import BASICS, VOCABULARY, VocabularyEntry
from al0.teach.words import SILENT, change_words, measure_words, piece_words, saying

KBBK = chess.Board("8/8/8/3k4/8/8/8/2BBK3 w - - 0 1")


@pytest.mark.parametrize(
    "name, before, after, words",
    [
        ("area", 12, 9, "the box their king is held in shrinks from 12 to 9 squares"),
        ("room(k)", 20, 20, "the room the pieces leave their king stays at 20 squares"),
        ("area", 1, 1, "the box their king is held in stays at 1 square"),
        (
            "critical_mdist(K, Q, k)",
            4,
            3,
            "the way of our king to the critical square beside the queen falls from 4 to 3 squares",
        ),
        ("dist(K, k)", 2, 3, "the distance from our king to their king rises from 2 to 3 steps"),
        ("knight_dist(N, K)", 4, 1, "the way from the knight to our king falls from 4 to 1 knight move"),
        ("mobility", 8, 6, "the squares their king can step to shrink from 8 to 6"),
        ("corner_triangle", 9, None, "the corner triangle that holds their king's box: 9 → none"),
    ],
)
def test_a_measure_before_and_after_in_words(name, before, after, words):
    said = measure_words(name)
    assert said is not None
    noun, measure = said
    assert change_words(noun, measure, before, after) == words


@pytest.mark.parametrize(
    "name, holds, words",
    [
        ("stalemate", False, "no stalemate"),
        ("mate", True, "checkmate"),
        ("en_prise(Q)", True, "the queen is attacked and undefended"),
        ("threatened(B2)", False, "the bishop on d1 is out of reach"),
        ("divides(R)", True, "the rook stands between the kings"),
        ("cut_off(B1)", False, "the bishop on c1 is not cut off from its king"),
        ("themtomove", True, None),  # whose move it is: not worth telling
        ("rookdivides", True, None),  # a library's own: the table's description tells it
    ],
)
def test_a_predicate_in_words(name, holds, words):
    assert saying(name, holds, KBBK) == words


def test_a_numbered_piece_is_named_by_its_square_and_an_unknown_family_has_no_words():
    assert (piece_words("B1", KBBK), piece_words("B2", KBBK)) == ("the bishop on c1", "the bishop on d1")
    assert piece_words("B1") == "the bishop"
    assert measure_words("newroom") is None


@pytest.mark.parametrize(
    "entry", [e for e in BASICS + VOCABULARY if e.kind != "generator"], ids=lambda entry: entry.name
)
def test_every_feature_and_predicate_of_the_registry_has_the_coachs_words(entry: VocabularyEntry) -> None:
    call = (
        entry.name
        if not entry.params or entry.optional
        else f"{entry.name}({', '.join(['K'] * len(entry.params))})"
    )
    if entry.kind == "feature":
        assert measure_words(call) is not None, f"{entry.name}: give its words=Measure(...) in the registry"
    elif entry.name not in SILENT:
        assert saying(call, True) and saying(call, False), (
            f"{entry.name}: give its words=Saying(...) in the registry"
        )
    assert entry.words is not None
