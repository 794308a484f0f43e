"""Games against the tablebase defender read off chains of shared segments
are the games the play loop plays, and workers that share the segments
search no more plans than one process."""

from __future__ import annotations

import gc
import json

import chess
import pytest
from click.testing import CliRunner

from al0.board.position import from_board
from al0.cli import cli
from al0.lang.specs import DefenderSpec, PositionsSpec
from al0.verify.api import Verification
from al0.verify.game import play_one
from al0.verify.segments import pack, unpack
from al0.verify.sources import start_positions
from al0.verify.verifier import Verifier, VerifySpec
from conftest import LIBRARIES, TABLES, TEST_TABLES


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/2k5/8/K6R w - - 0 1",
        "7k/8/5K2/8/8/8/8/1q6 b - - 0 1",
        "8/8/3k4/8/4r3/8/2Q5/3K4 w - - 0 1",
        "8/8/8/8/8/8/8/KBBk4 b - - 0 1",
        "N7/8/8/B7/7k/8/8/3K4 w - - 0 1",
        "8/8/8/8/4k3/8/4P3/4K3 w - - 0 1",
        "8/8/8/2k5/3pP3/8/8/4K3 b - e3 0 1",
        "8/8/8/2k5/Pp6/8/8/4K3 b - a3 0 1",
        "8/1P6/8/8/8/8/6p1/K6k w - - 0 1",
    ],
)
def test_a_packed_position_unpacks_to_itself(fen):
    position = from_board(chess.Board(fen))
    assert unpack(pack(position)) == position


@pytest.mark.parametrize(
    "table, positions, max_moves, endings",
    [
        # Repeats and finds no plan; with the move counters below, the 50-move
        # rule ends games that would repeat later.
        (
            TEST_TABLES / "krk_shuffle.yaml",
            "sample:60",
            60,
            {"threefold repetition", "no plan", "50-move rule"},
        ),
        (TABLES / "krk.yaml", "sample:60", 50, {"mate", "50-move rule"}),
        (TABLES / "kbbk.yaml", "sample:8", 10, {"move limit", "mate"}),
        # Takes their rook and plays on: the capture starts the counts again.
        (
            LIBRARIES / "kqkr_win_rook.yaml",
            "sample:20",
            50,
            {"material lost", "threefold repetition", "mate", "no plan"},
        ),
        # Takes their rook and goes on with the bundled kqk table.
        (TEST_TABLES / "kqkr_take.yaml", "sample:40", 60, {"mate", "no plan"}),
    ],
)
@pytest.mark.slow
def test_games_read_off_the_segments_are_the_play_loops(table, positions, max_moves, endings):
    spec = VerifySpec(str(table), DefenderSpec("tablebase"), max_moves)
    chains, loop = Verifier(spec), Verifier(spec)
    assert chains.segments is not None and loop.fixed is not None
    seen = set()
    starts = start_positions(PositionsSpec.parse(positions), chains.table, chains.tablebase)
    for index, board in enumerate(starts):
        # Starts on in their 50 moves (and at other move numbers), as an EPD file may give.
        board.halfmove_clock, board.fullmove_number = (index * 7) % 101, 1 + index % 3
        record = chains.judge(index, board)
        assert record == play_one(
            loop.planner, board, loop.fixed, max_moves, loop.optimal(board), loop.tablebase
        ), board.fen()
        seen.add(record.ending.value)
    assert endings <= seen
    if "rook" in table.name:
        assert any(segment.resets and segment.ending is None for segment in chains.segments.values())


def _report(tmp_path, jobs):
    out = tmp_path / f"{jobs}.json"
    result = CliRunner().invoke(
        cli, ["verify", "kqk", "--positions", "sample:400", "--jobs", jobs, "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


@pytest.mark.slow
def test_two_workers_search_few_more_plans_than_one_process_and_two_and_eight_report_the_same(tmp_path):
    one, two = _report(tmp_path, "1"), _report(tmp_path, "2")
    # Eight workers, more than the command line starts on a small machine
    # (two a CPU): each of them is dealt a few chunks of ten.
    # What the answers brought is kept out of this process's collections
    # while the run goes on (gc.freeze), and given back at its end.
    # (Asked at the first game and the last alone: the count walks every
    # frozen object, and a test worker's were most of its heap: asked at
    # every game, this test took 117 s of CPU in the suite.)
    frozen: list[int] = []
    games: list[None] = []

    def progress() -> None:
        games.append(None)
        if len(games) in (1, 400):
            frozen.append(gc.get_freeze_count())

    with Verification("kqk", "sample:400") as verification:
        report = verification.run(8, progress=progress)
        eight = json.loads(json.dumps(report.to_json()))
    assert len(frozen) == 2 and frozen[0] == 0 < frozen[-1] and gc.get_freeze_count() == 0
    assert two["plans_searched"] <= 1.15 * one["plans_searched"]
    varying = {"plans_searched", "plan_ms", "plans_per_second", "wall_seconds"}
    kept = {key: value for key, value in one.items() if key not in varying}
    assert kept == {key: value for key, value in two.items() if key not in varying}
    # The command adds the table's expectations; the rest is the same.
    assert kept == {
        **{key: value for key, value in eight.items() if key not in varying},
        "expectations": kept["expectations"],
    }


@pytest.mark.slow
def test_a_spent_budget_ends_the_same_games_in_one_process_and_two_workers(tmp_path):
    # A worker's failed search is kept with its segment and ends each game
    # that needs it (a search limit), as in one process; the run goes on.
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / f"{jobs}.json"
        result = CliRunner().invoke(
            cli,
            [
                "verify",
                str(TABLES / "krk_bratko.yaml"),
                "--positions",
                "sample:100",
                "--budget",
                "300",
                "--jobs",
                jobs,
                "--json",
                str(out),
            ],
        )
        assert result.exit_code == 0, result.output
        assert "node budget of 300" in result.output
        reports.append(json.loads(out.read_text()))
    one, two = reports
    assert not one["interrupted"] and one["games"] == 100 and one["endings"]["search limit"] == 1
    assert one["endings"] == two["endings"] and one["moves_to_mate"] == two["moves_to_mate"]
    assert one["failure_examples"] == two["failure_examples"]
