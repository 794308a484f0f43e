"""The check of a table that holds (the weaker side's): its move from each
drawn position, judged against the tablebase; the claims it decides; the
command line's report of it."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.errors import PositionError
from al0.lang.loader import load_table
from al0.lang.model import Expectations
from al0.lang.specs import PositionsSpec
from al0.verify import AttackEnd, HoldCheck, HoldReport, HoldVerdict, verify, verify_hold
from al0.verify.run import SMALL_RUN
from al0.verify.summary import Claim
from conftest import POSITIONS, TEST_TABLES

TOGETHER = TEST_TABLES / "krkn_together.yaml"
"""Knight kept by its king, nothing more: loses two positions of DRAWN."""
DRAWN = POSITIONS / "krkn_drawn.epd"


def test_the_check_finds_the_moves_that_lose_a_draw():
    report = verify_hold(TOGETHER, str(DRAWN))
    assert report.counts == Counter({HoldVerdict.LOST: 2, HoldVerdict.HELD: 1})
    lost = [(record.fen.split()[0], record.move, record.mated_in) for record in report.failures]
    assert lost == [("8/3R4/8/8/3n4/1k6/8/1K6", "Nc2", 13), ("8/8/8/4k3/8/2RK4/4n3/8", "Nd4", 13)]
    # The moves that hold, from the tablebase: the rook taken among them.
    assert "Nxc3" in report.failures[1].holding and "Nd4" not in report.failures[1].holding
    assert report.failures[0].epd().startswith('8/3R4/8/8/3n4/1k6/8/1K6 b - - c0 "lost"; c1 "Nc2 (')


def test_a_sample_is_of_drawn_positions_with_the_tables_side_to_move():
    check = HoldCheck(load_table(TOGETHER), "sample:40", seed=3)
    assert len(check.boards) == 40
    for board in check.boards:
        assert board.turn == check.table.us
        assert check.tablebase.result(board).winner is None
    report = check.run()
    assert report.judged == 40 and sum(report.counts.values()) == 40
    assert report.positions == PositionsSpec.sample(40, seed=3)


def test_an_epd_position_that_is_not_drawn_is_refused(tmp_path):
    epd = tmp_path / "won.epd"
    epd.write_text("8/3R4/8/8/3n4/1k6/8/1K6 b - -\n8/8/8/8/3n4/8/R7/K1k5 b - -\n")
    with pytest.raises(PositionError, match=r"won.epd:2: .* is not drawn: the side to move mates in 1"):
        HoldCheck(load_table(TOGETHER), str(epd))


@pytest.mark.parametrize(
    "lost, claimed, run, holds",
    [
        (0, None, "all", True),
        (2, None, "sample:9", False),
        (0, "sample:9", "sample:9", True),
        # A claim about every position: a sample can refute it, not prove it.
        (1, "all", "sample:9", False),
        (0, "all", "sample:9", None),
        # A claim about a sample: every position proves it.
        (0, "sample:9", "all", True),
    ],
)
def test_lost_is_checked_over_the_positions_it_is_about(lost, claimed, run, holds):
    report = HoldReport(
        "t", PositionsSpec.parse(run), 9, Counter({HoldVerdict.LOST: lost, HoldVerdict.HELD: 9})
    )
    expect = Expectations(max_lost=0, positions=None if claimed is None else PositionsSpec.parse(claimed))
    (check,) = report.check(expect)
    assert (check.claim, check.holds) == (Claim.LOST, holds)


def test_verify_reports_a_table_that_holds(tmp_path):
    failures = tmp_path / "lost.epd"
    result = CliRunner().invoke(
        cli, ["verify", str(TOGETHER), "--positions", str(DRAWN), "--json", "-", "--failures", str(failures)]
    )
    assert result.exit_code == 1, result.output  # expect lost: 0 fails
    data = json.loads(result.stdout)
    assert data["check"] == "holds" and data["verdicts"]["lost"] == 2 and data["verdicts"]["held"] == 1
    assert data["expectations"] == [{"name": "lost", "holds": False, "measured": "2 (at most 0 expected)"}]
    assert "3 of 3 drawn positions, the table's side to move: held 1, lost 2" in result.stderr
    assert [line.split(" c0 ")[0] for line in failures.read_text().splitlines()] == [
        "8/3R4/8/8/3n4/1k6/8/1K6 b - -",
        "8/8/8/4k3/8/2RK4/4n3/8 b - -",
    ]


def test_verify_refuses_what_needs_games_for_a_table_that_holds():
    result = CliRunner().invoke(
        cli, ["verify", str(TOGETHER), "--positions", str(DRAWN), "--defender", "worst"]
    )
    assert result.exit_code == 2
    assert "krkn_together holds (the weaker side's table)" in result.output
    assert "--defender cannot be used" in result.output


def test_the_games_api_points_a_table_that_holds_to_its_check():
    with pytest.raises(PositionError, match="krkn_together holds .* with al0.verify.verify_hold"):
        verify(TOGETHER, str(DRAWN))


@pytest.mark.parametrize(
    "total, jobs, stretches",
    [
        (9, 1, [(0, 3), (3, 6), (6, 9)]),
        (9, 2, [(0, 2), (2, 4), (4, 6), (6, 8), (8, 9)]),
        # At most a CHUNK each, however few the jobs.
        (2500, 1, [(0, 625), (625, 1250), (1250, 1875), (1875, 2500)]),
        (9000, 1, [(0, 1000), *[(first, first + 1000) for first in range(1000, 9000, 1000)]]),
    ],
)
def test_the_listing_is_cut_in_stretches_for_the_jobs(total, jobs, stretches, monkeypatch):
    check = HoldCheck(load_table(TOGETHER), str(DRAWN))
    monkeypatch.setattr(check, "boards", [None] * total)
    assert check.stretches(jobs) == stretches


def test_a_long_check_is_timed_on_a_pilot_of_its_positions(monkeypatch):
    # The three drawn positions over and over: a check too long to start unsaid.
    check = HoldCheck(load_table(TOGETHER), str(DRAWN))
    monkeypatch.setattr(check, "boards", list(check.boards) * (SMALL_RUN // 3 + 1))
    estimate = check.estimate(2)
    assert estimate is not None
    assert (estimate.positions, estimate.plans, estimate.processes) == (len(check.boards),) * 2 + (2,)
    assert estimate.cpu_seconds > 0 and estimate.seconds >= estimate.cpu_seconds / 2
    monkeypatch.setattr(check, "boards", check.boards[:SMALL_RUN])
    assert check.estimate(2) is None  # a short check says nothing


@pytest.mark.slow
def test_workers_judge_stretches_and_the_report_is_the_same_as_in_one_process():
    check = HoldCheck(load_table(TOGETHER), "sample:300", seed=5)
    alone, shared = check.run(jobs=1), check.run(jobs=2)
    assert (alone.jobs, shared.jobs) == (1, 2)
    assert alone.counts == shared.counts and alone.counts[HoldVerdict.LOST] > 5
    assert [record.fen for record in alone.failures] == [record.fen for record in shared.failures]
    assert shared.to_json().keys() == alone.to_json().keys()
    assert shared.cpu_seconds > 0 and not shared.interrupted


def test_a_game_against_the_most_testing_attacker_ends_where_the_table_loses():
    check = HoldCheck(load_table(TOGETHER), str(DRAWN))
    games = check.play_games(3)
    first, held, third = games.games
    # The table's first move loses in the first and third position (Nc2?, Nd4?).
    assert (first.end, first.moves, first.last) == (AttackEnd.LOST, 1, first.start)
    assert third.end is AttackEnd.LOST and third.start.startswith("8/8/8/4k3/8/2RK4/4n3/8 b")
    # The second: the knight takes the rook (Nxd4), and too little is left to mate.
    assert (held.end, held.moves, held.last) == (AttackEnd.HELD, 1, "")
    assert games.to_json()["ends"] == {"held": 1, "lost": 2, "no plan": 0}


def test_verify_plays_games_only_for_a_table_that_holds():
    result = CliRunner().invoke(
        cli, ["verify", "krkn_hold", "--positions", "sample:12", "--games", "3", "--json", "-"]
    )
    assert result.exit_code == 0, result.output
    games = json.loads(result.stdout)["attacker_games"]
    assert games["games"] == 3 and sum(games["ends"].values()) == 3
    assert "games against the most testing attacker (3, to the 50-move rule):" in result.stderr
    refused = CliRunner().invoke(cli, ["verify", "krk", "--positions", "sample:3", "--games", "3"])
    assert refused.exit_code == 2 and "--games plays a table that holds" in refused.output
