"""The move graph of an ending where their side has a piece (KQKR): our
capture that wins the piece into a still-won position counts as lower than
every value, as mate does; their capture of our piece as a failure, whether
or not we could take back."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from al0.progress.minmax import depths
from al0.tablebase import load
from al0.tablebase.graph import MoveGraph

pytestmark = pytest.mark.slow
"""A build: KQKR's move graph, some 7 s of CPU of the quick tier's 129 (one process)."""


@pytest.fixture(scope="module")
def graph() -> MoveGraph:
    """KQKR's move graph, built once for the module (a few seconds)."""
    return MoveGraph(load("KQKR"))


@pytest.mark.parametrize(
    "fen, wins",
    [
        ("8/8/3k4/8/1r6/8/8/1Q2K3 w - - 0 1", True),  # the loose rook taken
        ("8/8/3k4/3r4/8/8/8/3QK3 w - - 0 1", False),  # the rook defended: Qxd5 Kxd5
        ("8/8/3k4/3r4/8/8/3K4/3Q4 w - - 0 1", False),  # the same, our king too far to help
        ("8/8/3k4/3r4/4K3/8/8/3Q4 w - - 0 1", True),  # our king defends the queen: Qxd5+ wins
        ("8/8/8/8/8/1k6/8/Kr5Q w - - 0 1", True),  # in check: Kxb1 or Qxb1, the rook taken either way
    ],
)
def test_a_capture_wins_their_piece_only_into_a_won_position(graph, fen, wins):
    assert bool(graph.wins[graph.index(chess.Board(fen))]) is wins


@pytest.mark.parametrize(
    "fen, capture",
    [
        ("8/8/3k4/8/8/8/3r4/3QK3 b - - 0 1", True),  # Rxd1 Kxd1: still the queen lost
        ("8/8/3k4/8/8/8/8/r2QK3 b - - 0 1", True),  # along the first rank
        ("3k4/8/8/8/8/8/3r4/4K2Q b - - 0 1", False),  # nothing attacks the queen
    ],
)
def test_their_capture_of_our_piece_is_found_defended_or_not(graph, fen, capture):
    assert bool(graph.capture[graph.index(chess.Board(fen))]) is capture


def test_a_winning_capture_is_a_fall_of_every_value(graph):
    """Where a capture wins the rook, any potential falls in one move; where
    none does and the value is least everywhere, none."""
    flat = np.zeros(graph.size, dtype=np.int64)
    found = depths(graph, flat, 1)
    assert (found[graph.wins] == 1).all()
    assert (found[graph.roots[~graph.wins[graph.roots] & ~graph.won[graph.roots]]] == 0).all()
