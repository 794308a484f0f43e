"""Seeded samples of a material: legal, pawns on ranks 2 to 7, counted right."""

from __future__ import annotations

import chess
import pytest

from al0.board import Material, random_positions
from al0.board.sampling import placement_count


@pytest.mark.parametrize(
    "material, count",
    [
        ("KRK", 64 * 63 * 62),
        ("KBBK", 64 * 63 * 62 * 61 // 2),
        ("KPK", 48 * 63 * 62),
        ("KPPK", 48 * 47 // 2 * 62 * 61),
        ("KPKP", 48 * 47 * 62 * 61),
        ("KQKP", 48 * 63 * 62 * 61),
    ],
)
def test_placements_put_pawns_on_ranks_two_to_seven(material, count):
    assert placement_count(Material.parse(material)) == count


@pytest.mark.parametrize("material", ["KPK", "KPKP", "KRPK", "KKP"])
def test_a_sample_with_pawns_is_legal_and_of_its_material(material):
    men = Material.parse(material)
    boards = random_positions(men, 40, seed=46, us=chess.BLACK)
    assert len({board.fen() for board in boards}) == 40
    for board in boards:
        assert board.is_valid() and board.turn == chess.BLACK, board.fen()
        assert Material.of(board, chess.BLACK) == men
        assert not board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8)
