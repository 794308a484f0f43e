"""A plan whose search reaches a limit ends its own game as a search limit,
named and counted, in every way verify judges games; the run goes on. Any
other error of a plan still stops the run."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from al0.board.position import Position, from_board
from al0.board.position import fen as position_fen
from al0.cli import cli
from al0.engine.play import Ending
from al0.engine.search import search_stopped
from al0.errors import PredicateError
from al0.lang.model import Expectations
from al0.lang.specs import DefenderSpec, PositionsSpec
from al0.pytest_plugin import describe
from al0.verify.game import GameRecord
from al0.verify.summary import Claim
from al0.verify.tally import Report
from al0.verify.verifier import Verifier, VerifySpec
from conftest import TABLES

BOOK = str(TABLES / "krk_bratko.yaml")
START = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"


def failing_after_the_start(verifier: Verifier, limit: bool) -> None:
    """Make every plan but the start's fail: its search reaching a limit,
    or (not ``limit``) a predicate raising."""
    plan_position = verifier.planner.plan_position
    start = from_board(chess.Board(START))

    def plan(position: Position, *args, **kwargs):  # type: ignore[no-untyped-def]
        if position == start:
            return plan_position(position, *args, **kwargs)
        if limit:
            raise search_stopped("advice 'x': node budget of 7 spent", position)
        raise PredicateError("a predicate raised")

    verifier.planner.plan_position = plan  # type: ignore[method-assign]


@pytest.mark.parametrize("defender", ["tablebase", "random", "worst"])
def test_a_search_limit_ends_the_game_where_it_is_met(defender: str) -> None:
    # The chains of segments (tablebase), the play loop (random) and the
    # worst case's graph each end the game at its second plan, naming it.
    verifier = Verifier(VerifySpec(BOOK, DefenderSpec(defender)))
    failing_after_the_start(verifier, limit=True)
    record = verifier.judge(0, chess.Board(START))
    assert record.ending is Ending.SEARCH_LIMIT and record.moves >= 1 and not record.mated
    board = chess.Board(START)
    if defender == "worst":  # the worst defence steers to the failure: its line ends there
        for uci in record.line:
            board.push_uci(uci)
        assert record.failure.endswith(f"searching from {position_fen(from_board(board))}")
    assert record.failure.startswith("advice 'x': node budget of 7 spent searching from ")
    assert not record.failure.endswith(START)


@pytest.mark.parametrize("defender", ["tablebase", "random", "worst"])
def test_another_error_of_a_plan_still_stops_the_run(defender: str) -> None:
    verifier = Verifier(VerifySpec(BOOK, DefenderSpec(defender)))
    failing_after_the_start(verifier, limit=False)
    with pytest.raises(PredicateError):
        verifier.judge(0, chess.Board(START))


def test_a_search_limit_is_counted_and_claimed_about() -> None:
    report = Report("t", DefenderSpec("tablebase"), PositionsSpec.parse("all"), 2)
    report.add(GameRecord(START, Ending.MATE, 9, 9))
    report.add(GameRecord(START, Ending.SEARCH_LIMIT, 3, 9, failure="advice 'x': node budget of 7 spent"))
    [limit, mates] = report.check(Expectations(mates_all=True, max_search_limit=0))[::-1]
    assert limit.claim is Claim.SEARCH_LIMIT and limit.holds is False and limit.measured.startswith("1 ")
    assert mates.holds is False
    summary = report.summary()
    [(ending, [example])] = summary.failure_examples
    assert ending is Ending.SEARCH_LIMIT and summary.count(Ending.SEARCH_LIMIT) == 1
    assert summary.to_json()["failure_examples"]["search limit"][0]["failure"] == example.failure
    shown = describe(summary, [limit])
    assert "  expect search-limit: 1 (at most 0 expected)" in shown
    assert shown[-2:] == [f"    {START}", "      advice 'x': node budget of 7 spent"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_with_a_small_budget_goes_on_past_the_game_that_spends_it(tmp_path, jobs):
    # With 300 nodes one start's plan cannot be searched: that game is a
    # search limit, the other 99 are played (in one process and with two),
    # and the table's claim that none is fails.
    table = tmp_path / "krk_bratko.yaml"
    library = str(TABLES.parent / "library" / "krk.py")
    table.write_text(
        Path(BOOK).read_text().replace("../library/krk.py", library) + "\nexpect:\n  search-limit: 0\n"
    )
    out, bad = tmp_path / "r.json", tmp_path / "bad.epd"
    result = CliRunner().invoke(
        cli,
        ["verify", str(table), "--positions", "sample:100", "--budget", "300", "--jobs", jobs]
        + ["--json", str(out), "--failures", str(bad)],
    )
    assert result.exit_code == 1, result.output
    assert "100 of 100 positions: mate 99, search limit 1" in result.output
    assert "expect search-limit: FAILED (1 (at most 0 expected))" in result.output
    data = json.loads(out.read_text())
    assert not data["interrupted"] and data["endings"] == {"mate": 99, "search limit": 1}
    [example] = data["failure_examples"]["search limit"]
    assert (
        example["failure"]
        == f"advice 'divide_in_2': node budget of 300 spent searching from {example['fen']}"
    )
    assert f"    {example['failure']}" in result.output.splitlines()
    [line] = bad.read_text().splitlines()
    board, opcodes = chess.Board.from_epd(line)
    assert board.fen() == example["fen"] and opcodes == {"c0": "search limit", "c1": example["failure"]}
