"""The native core's symmetries against the Python twin
(al0/board/symmetry.py): the same canonical orientation of a position's
class, for either side, on seeded random positions of every pawnless
material up to four men, and on symmetric positions, where two symmetries
give the least squares and the first is taken. Skipped where the core was
not built."""

from __future__ import annotations

import chess
import pytest
from core.test_core_moves import MATERIALS

from al0.board import Material
from al0.board.position import from_board
from al0.board.sampling import random_positions
from al0.board.symmetry import canonical_symmetry, transform_position
from al0.core import native
from al0.engine.plan import Planner
from al0.lang.loader import load_table
from conftest import TABLES

core = native()
pytestmark = pytest.mark.skipif(core is None, reason="the native core is not running")


@pytest.mark.parametrize("material", MATERIALS)
def test_the_canonical_orientation_is_the_twins(material: str) -> None:
    for board in random_positions(Material.parse(material), 12, seed=7):
        position = from_board(board)
        for us in chess.COLORS:
            symmetry = canonical_symmetry(position, us)
            assert core.canonical(position, us) == (symmetry, transform_position(position, symmetry)), (
                board.fen(),
                us,
            )


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/8/1k6/K6R w - - 0 1",  # our king on a1, on the long diagonal
        "7k/8/8/8/8/8/8/K6R w - - 0 1",
        "8/8/8/8/3k4/8/8/K2R4 w - - 0 1",
        "8/8/8/8/3K4/8/1k6/7R b - - 0 1",  # our king on d4
        "k7/8/8/8/8/8/8/K7 w - - 0 1",  # the position is its own mirror image
    ],
)
def test_a_planner_orients_symmetric_positions_as_the_twin(fen: str) -> None:
    table = load_table(TABLES / "krk_std.yaml")
    planner = Planner(table)
    assert planner.core is not None
    position = from_board(chess.Board(fen))
    symmetry = canonical_symmetry(position, table.us)
    assert planner.core.canonical(position) == (symmetry, transform_position(position, symmetry))
