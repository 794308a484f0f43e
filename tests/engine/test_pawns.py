"""A table with pawns plans: king moves, pawn steps and promotions, on the
native core as on the Python twin."""

from __future__ import annotations

import chess
import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.core import native
from al0.engine.plan import Planner
from al0.lang.loader import load_table
from conftest import TEST_TABLES

ESCORT = TEST_TABLES / "kpk_escort.yaml"

FENS = {
    "8/1P2k3/8/8/8/8/8/K7 w - - 0 1": ("promote", "b7b8n"),  # moves(P) lists N, B, R, Q
    # Planned in the mirror image (our king on the files a-d), mapped back.
    "8/1P2k3/8/8/8/8/8/7K w - - 0 1": ("promote", "b7b8n"),
    "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1": ("near", "e1d2"),
    "7k/8/8/8/8/8/4P3/K7 w - - 0 1": ("push", "e2e3"),  # too far to come next to it
}


def test_al0_plan_of_a_kpk_table_plans_king_and_pawn_moves_and_promotions():
    arguments = ["plan", str(ESCORT)]
    for fen in FENS:
        arguments += ["--fen", fen]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 0, result.output
    promote, mirrored, near, push = result.output.split("position: ")[1:]
    assert "advice:   promote — forcing tree of depth 1" in promote and "1. b8=N  (goal)" in promote
    assert "1. b8=N  (goal)" in mirrored
    # The king walks up to the pawn, whatever Black replies.
    assert "advice:   near — forcing tree of depth 3" in near and "2. Ke3  (goal)" in near
    assert "tried:    near — no forcing tree with a move" in push and "1. e3  (goal)" in push


@pytest.mark.parametrize("core", ["native", "python"])
def test_a_table_with_pawns_plans_on_either_core(core, monkeypatch):
    monkeypatch.setenv("AL0_CORE", core)
    table = load_table(ESCORT)
    planner = Planner(table)
    assert table.symmetric and (planner.core is not None) == (core == "native" and native() is not None)
    for fen, (advice, move) in FENS.items():
        plan = planner.plan(chess.Board(fen))
        assert plan.advice == advice and plan.tree is not None, fen
        assert plan.tree.branches[0][0] == chess.Move.from_uci(move), fen
