"""The tables that hold, krkb_hold.yaml, krkn_hold.yaml and kpk_hold.yaml
(standard vocabulary, the weaker side's): on a fixed sample of drawn
positions, how many their move loses, so a change that loses more (or,
better, fewer) is seen. Every position is a documented command
(docs/results/holds.md, docs/results/kpk.md): some ten minutes of CPU a
table. kpk_hold's sample is smaller (its plans cost ten times the rook
endings' tables'; over all 35,210 drawn classes it loses none)."""

from __future__ import annotations

import chess
import pytest

from al0 import tablebase
from al0.engine import OurMove, Planner, TheirMove, play_game
from al0.lang import load_table
from al0.verify import HoldVerdict, verify_hold


def test_a_table_that_holds_plans_afresh_at_each_move(tablebase_cache):
    """Stockfish's Kc4 and Kc5 against kpk_hold: following its seven-ply
    tree from the start, the lone king went Kb8, Kc8, Kd7 and lost (mated
    in 16); planned afresh at each move, as the check proves them, every
    move keeps the draw."""
    replies = iter(["b4c4", "c4c5", "c5d5"])
    board = chess.Board("k7/8/8/8/1K2P3/8/8/8 b - - 0 1")
    events = list(
        play_game(Planner(load_table("kpk_hold")), board, lambda _: chess.Move.from_uci(next(replies)), 3)
    )
    ours = [event for event in events if isinstance(event, OurMove)]
    assert len(ours) == 3 and all(move.new_plan for move in ours)
    kpk = tablebase.load("KPK")
    replay = chess.Board("k7/8/8/8/1K2P3/8/8/8 b - - 0 1")
    for event in events:
        if isinstance(event, (OurMove, TheirMove)):
            replay.push(event.move)
            assert kpk.result(replay).winner is None, replay.fen()


def test_a_table_that_holds_may_come_back_to_a_position(tablebase_cache):
    """Against Stockfish, krkb_hold at this position avoided Kb8, which had
    come before, and played Ka6: mated in 15. A repetition is the draw it
    plays for: with the game's history it plays what the check judged,
    planned without one."""
    board = chess.Board("8/k2R4/2K5/8/8/8/8/4b3 b - - 0 1")
    for move in ("a7b8", "d7d6", "b8a7", "d6d7"):
        board.push_uci(move)
    plan = Planner(load_table("krkb_hold")).plan(board)
    assert plan.tree is not None and plan.tree.branches[0][0] == chess.Move.from_uci("a7b8")


@pytest.mark.slow
@pytest.mark.parametrize(
    "table, size, lost", [("krkb_hold", 1000, 1), ("krkn_hold", 300, 7), ("kpk_hold", 300, 0)]
)
def test_a_holding_table_keeps_what_it_kept(table, size, lost):
    report = verify_hold(table, f"sample:{size}")
    assert (report.judged, report.counts[HoldVerdict.LOST], report.counts[HoldVerdict.NO_PLAN]) == (
        size,
        lost,
        0,
    )
    for record in report.failures:
        assert record.move and record.move not in record.holding and record.holding
