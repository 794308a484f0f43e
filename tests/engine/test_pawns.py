"""A table with pawns plans: on the Python search, while the native core
does not make pawn moves (the Planner is the one place that chooses)."""

from __future__ import annotations

import chess
from click.testing import CliRunner

from al0.board.position import from_board
from al0.cli import cli
from al0.engine.plan import Planner
from al0.lang.loader import load_table
from conftest import TEST_TABLES

ESCORT = TEST_TABLES / "kpk_escort.yaml"


def test_al0_plan_of_a_kpk_table_plans_king_and_pawn_moves():
    result = CliRunner().invoke(
        cli,
        [
            "plan",
            str(ESCORT),
            "--fen",
            "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1",
            "--fen",
            "7k/8/8/8/8/8/4P3/K7 w - - 0 1",
        ],
    )
    assert result.exit_code == 0, result.output
    first, second = result.output.split("position: ")[1:]
    # The king walks up to the pawn, whatever Black replies.
    assert "advice:   near — forcing tree of depth 3" in first and "2. Ke3  (goal)" in first
    # Too far from it to come next to it in two moves: the pawn steps.
    assert "tried:    near — no forcing tree with a move" in second
    assert "advice:   push — forcing tree of depth 1" in second and "1. e3  (goal)" in second


def test_a_table_with_pawns_plans_on_the_python_search():
    planner = Planner(load_table(ESCORT))
    assert planner.core is None and planner.native == {}
    board = chess.Board("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1")
    plan = planner.plan(board)
    assert (plan.rule, plan.advice) == ("escort", "near")
    assert plan.tree is not None and plan.tree.branches[0][0] == chess.Move.from_uci("e1d2")
    assert plan.position == from_board(board)
