"""The KPK tables, kpk.yaml (the pawn's side) and kpk_hold.yaml (the lone
king's): their plans at hand-worked positions of the key squares, the
opposition, the square of the pawn and the rook pawn's corner, and the
KPK tablebase they are judged by, found for either side's material."""

from __future__ import annotations

import chess
import pytest

from al0.board import Material
from al0.engine.defenders import TablebaseDefender
from al0.engine.plan import Planner
from al0.engine.play import GameEnd, OurMove, play_game
from al0.engine.tablebases import Tablebases
from al0.lang.loader import load_table


@pytest.mark.parametrize("material", ["KPK", "KKP"])
def test_the_kpk_tablebase_answers_for_either_sides_material(material):
    table = Tablebases().get(Material.parse(material))
    assert table is not None and table.name == "KPK"


@pytest.fixture(scope="module")
def kpk() -> Planner:
    return Planner(load_table("kpk"))


@pytest.fixture(scope="module")
def kpk_hold() -> Planner:
    return Planner(load_table("kpk_hold"))


@pytest.mark.parametrize(
    "fen, rule, advice, move",
    [
        # their king outside the square of the pawn: it runs
        ("8/8/8/6k1/P7/8/8/4K3 w - - 0 1", "run", "run", "a5"),
        # a queen would stalemate (Ka6 has no square): a rook
        ("8/1P6/k7/8/1K6/8/8/8 w - - 0 1", "queen", "queen_now", "b8=R"),
        # our king on a key square (d6 for e5) leads; the pawn follows
        ("4k3/8/3K4/4P3/8/8/8/8 w - - 0 1", "escort", "escort_3", None),
        # one step from promoting, the new queen safe
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "queen", "queen_now", "e8=Q"),
        # the king goes for the key squares
        ("4k3/8/8/8/8/8/3P4/K7 w - - 0 1", "reach", "reach_3", None),
        # no line to a key square in sight: keep the opposition (Kb3? Kb5 draws) ...
        ("8/8/8/k7/8/8/K3P3/8 w - - 0 1", "reach", "oppose", "Ka3"),
        # ... the nearest one (Kc7?, the distant one, lets their king to the pawn)
        ("8/8/1K6/8/8/2k5/7P/8 w - - 0 1", "reach", "oppose", "Kc5"),
        # past its fourth rank the pawn needs its king (Ka5? is a draw)
        ("8/k7/8/3P4/K7/8/8/8 w - - 0 1", "reach", "approach", "Kb5"),
        # round the pawn's own side, not into their king (Kd2? Ke4 draws)
        ("8/8/8/8/1P3k2/8/8/2K5 w - - 0 1", "reach", "approach", "Kb2"),
    ],
)
def test_kpk_plans_as_a_coach_explains(kpk, fen, rule, advice, move):
    board = chess.Board(fen)
    plan = kpk.plan(board)
    assert plan.tree is not None and plan.rule == rule
    assert advice is None or plan.advice == advice
    assert move is None or board.san(plan.tree.branches[0][0]) == move


@pytest.mark.parametrize(
    "fen, rule, advice",
    [
        ("8/8/8/3k4/4P3/8/8/K7 b - - 0 1", "take", "take_pawn"),  # take it
        ("7k/8/6K1/7P/8/8/8/8 b - - 0 1", "corner", "stay_in_corner"),  # the rook pawn's corner
        ("8/4k3/8/8/4K3/4P3/8/8 b - - 0 1", "keep", None),  # in front: take the opposition
        ("8/8/k7/8/8/8/K1P5/8 b - - 0 1", "keep", "keep_distance"),  # Kb6: Ka5? Kb3 loses
        ("K7/8/P1k5/8/8/8/8/8 b - - 0 1", "rook_pawn", "to_guard"),  # Kc7 shuts their king in
        # the rook pawn's key squares guarded from c8: Kd7; Kd5? Kb6 and Kb7
        ("8/8/4k3/K7/8/8/P7/8 b - - 0 1", "rook_pawn", "to_guard"),
        ("8/8/8/8/K7/2k5/P7/8 b - - 0 1", "rook_pawn", "to_guard"),  # Kc4; Kb2? a3 runs
        ("8/2K5/8/8/3k4/8/P7/8 b - - 0 1", "rook_pawn", "win_pawn_far"),  # Kc5 and Kb4
        # in the race to the key squares, the opposition: Kg5; Kf5? Kf3
        ("8/8/6k1/8/8/6K1/1P6/8 b - - 0 1", "keep", "keep_race"),
        ("8/5k2/8/1P6/4K3/8/8/8 b - - 0 1", "keep", "keep_race"),  # Ke6 shoulders; Ke8? Kd5
        # not by a step away along the edge: Kc6; Ka6? loses the race
        ("8/1k6/8/8/K7/8/5P2/8 b - - 0 1", "keep", "keep_approaching"),
        ("8/k7/1PK5/8/8/8/8/8 b - - 0 1", "keep", "keep_key"),  # Ka8: Kc7 stalemates; Kb8? b7
    ],
)
def test_kpk_hold_plans_as_a_coach_explains(kpk_hold, fen, rule, advice):
    board = chess.Board(fen)
    plan = kpk_hold.plan(board)
    assert plan.tree is not None and plan.rule == rule
    assert advice is None or plan.advice == advice
    probe = Tablebases().get(Material.parse("KPK"))
    assert probe is not None
    board.push(plan.tree.branches[0][0])
    assert not board.pawns or probe.result(board).winner is None  # the move keeps the draw


@pytest.mark.parametrize(
    "fen, optimum",
    [
        ("8/8/8/k7/8/8/K3P3/8 w - - 0 1", 25),  # the opposition, then the key squares
        ("8/8/8/8/1P3k2/8/8/2K5 w - - 0 1", 23),  # round the pawn's own side
        ("8/8/1K6/8/8/2k5/7P/8 w - - 0 1", 16),  # back to the rook pawn, shouldering
    ],
)
def test_kpk_mates_where_its_first_draft_drew(kpk, fen, optimum):
    # Against the tablebase's longest defence, through the promotion and
    # the queen's (bundled kqk's) mate: within 1.5 times the optimum.
    defender = TablebaseDefender("KPK")
    events = list(play_game(kpk, chess.Board(fen), defender, max_moves=50))
    end = events[-1]
    moves = [event for event in events if isinstance(event, OurMove)]
    assert isinstance(end, GameEnd) and end.ending.value == "mate", end.detail
    assert len(moves) <= 1.5 * optimum
