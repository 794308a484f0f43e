"""The one Material: read from text once, or from a board, named, and put
stronger side first for the tablebase."""

from __future__ import annotations

import chess
import pytest

from al0.board import Material
from al0.errors import PositionError
from al0.tablebase.material import parse_material


@pytest.mark.parametrize(
    "text, name, stronger, sides",
    [
        ("KRK", "KRK", "KRK", ("KR", "K")),
        ("KNBK", "KBNK", "KBNK", ("KBN", "K")),
        ("KNKR", "KNKR", "KRKN", ("KN", "KR")),
        ("KKQ", "KKQ", "KQK", ("K", "KQ")),
        ("KRKR", "KRKR", "KRKR", ("KR", "KR")),
        ("KPK", "KPK", "KPK", ("KP", "K")),
        ("KKP", "KKP", "KPK", ("K", "KP")),
        ("KPRK", "KRPK", "KRPK", ("KRP", "K")),
        ("KPKQ", "KPKQ", "KQKP", ("KP", "KQ")),
        ("KPKP", "KPKP", "KPKP", ("KP", "KP")),
    ],
)
def test_a_material_keeps_its_sides_as_written_and_knows_the_stronger(text, name, stronger, sides):
    material = Material.parse(text)
    assert (material.name, material.stronger_first().name, material.side_names) == (name, stronger, sides)
    assert material.counts() == tuple(name[: len(sides[0])].count(letter) for letter in "PNBRQK")


@pytest.mark.parametrize(
    "text, message",
    [
        ("KRXK", "material must look like KRK, KQKR or KPK, not 'KRXK'"),
        ("krk", "not 'krk'"),
        ("KR", "not 'KR'"),
        ("", "not ''"),
    ],
)
def test_anything_else_is_no_material(text, message):
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Material.parse(text)


def test_a_boards_material_names_its_pawns_last_and_the_tablebases_is_at_most_four_men():
    board = chess.Board("8/8/8/4k3/8/8/1P6/R3K3 w - - 0 1")
    assert Material.of(board, chess.WHITE).name == "KRPK"
    assert Material.of(board, chess.BLACK).name == "KKRP"
    assert parse_material("KNKR") == Material.parse("KRKN")
    with pytest.raises(PositionError, match="unsupported material 'KRRKR'"):
        parse_material("KRRKR")
