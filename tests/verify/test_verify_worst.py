"""The worst-case analysis with plans made by worker processes
(``verify --defender worst --jobs N``): the same records as with one job."""

from __future__ import annotations

import json

import chess
import pytest
from click.testing import CliRunner

from al0.board.position import from_board
from al0.cli import cli
from al0.core import native
from al0.engine.plan import Planner
from al0.engine.play import Ending, OurMove, play_game
from al0.lang.loader import load_table
from al0.lang.specs import DefenderSpec, PositionsSpec
from al0.tablebase import load_if_any
from al0.verify.deal import region
from al0.verify.sources import mirror_images, start_positions
from al0.verify.verifier import VerifySpec
from al0.verify.worker import decode_plan, decode_tree, encode_plan, encode_tree, plan_chunk
from al0.verify.worst import WorstCase
from conftest import POSITIONS, TABLES, TEST_TABLES

BOOK = str(TABLES / "krk_bratko.yaml")
SHUFFLE = str(TEST_TABLES / "krk_shuffle.yaml")
"""Never mates: its worst case meets cycles (threefold repetition)."""
STALEMATES = str(POSITIONS / "krk_bratko_stalemates.epd")


def starts(table: str, count: int) -> list[chess.Board]:
    loaded = load_table(table)
    return list(start_positions(PositionsSpec.sample(count), loaded, load_if_any(loaded.material.name)))


def closure(worst: WorstCase, positions: list) -> set:
    """The starts and every position their plans' replans reach."""
    seen, todo = set(positions), list(positions)
    while todo:
        for position in worst.replans(todo.pop()):
            if position not in seen:
                seen.add(position)
                todo.append(position)
    return seen


@pytest.mark.parametrize("table", [BOOK, SHUFFLE])
@pytest.mark.slow
def test_plans_made_elsewhere_give_the_records_of_plans_made_on_demand(table):
    boards = starts(table, 12) + (
        [
            chess.Board(line.split(" w ")[0] + " w - - 0 1")
            for line in open(STALEMATES)
            if not line.startswith("#")
        ]
        if table == BOOK
        else []
    )
    positions = [from_board(board) for board in boards]
    here = WorstCase(Planner(load_table(table)), 50)
    expected = [here.analyse(board, None) for board in boards]
    assert any(record.ending is not Ending.MATE for record in expected)
    # Replans find exactly the positions the analysis plans at.
    elsewhere = WorstCase(Planner(load_table(table)), 50)
    needed = closure(elsewhere, positions)
    assert needed == set(here.plan_steps)
    # A worker's plans, as steps, give the same records.
    spec = VerifySpec(table, DefenderSpec("worst"))
    order = sorted(needed)
    result = plan_chunk(spec, order)
    assert len(result.answers) == len(result.plans) == len(order)
    assert len(result.seconds) <= len(order)
    judged = WorstCase(Planner(load_table(table)), 50)
    ids = [0]
    judged.learn_steps(result.steps, ids)
    assert len(ids) == result.first_step + len(result.steps) == len(here.steps)
    for position, (step, replans), plan in zip(order, result.answers, result.plans):
        assert set(replans) <= needed  # each reported once, at most
        judged.learn(position, ids[step])
        mine, theirs = decode_plan(position, plan), here.planner.plan_position(position)
        assert (mine.rule, mine.advice, mine.tree) == (theirs.rule, theirs.advice, theirs.tree)
    assert [judged.analyse(board, None) for board in boards] == expected
    assert not judged.planner.search_seconds  # every plan came from the worker


def test_a_plan_crosses_processes_unchanged(bratko):
    planner = Planner(bratko)
    for board in starts(BOOK, 30):
        plan = planner.plan(board)
        assert plan.tree is not None
        assert decode_tree(encode_tree(plan.tree)) == plan.tree
        assert decode_plan(plan.position, encode_plan(plan)) == plan


def verify_json(tmp_path, *args: str) -> tuple[dict, str]:
    out = tmp_path / f"report{len(list(tmp_path.iterdir()))}.json"
    result = CliRunner().invoke(cli, ["verify", *args, "--defender", "worst", "--json", str(out)])
    data = json.loads(out.read_text())
    for timing in ("wall_seconds", "plan_ms", "plans_per_second", "plans_searched"):
        del data[timing]
    return data, result.output.splitlines()[-1]


@pytest.mark.parametrize(
    "table, positions, ending",
    [
        (BOOK, STALEMATES, "stalemate"),
        (BOOK, "sample:30", "mate"),
        (SHUFFLE, "sample:8", "threefold repetition"),
    ],
)
@pytest.mark.slow
def test_jobs_do_not_change_a_worst_case_report(tmp_path, table, positions, ending):
    one, _ = verify_json(tmp_path, table, "--positions", positions)
    two, _ = verify_json(tmp_path, table, "--positions", positions, "--jobs", "2")
    assert one == two and one["games"] == one["total"] and ending in one["endings"]


@pytest.mark.slow
def test_a_plan_over_budget_ends_the_same_games_with_two_jobs_as_with_one(tmp_path):
    # With a budget of 300 nodes some plan fails: in one job the analysis
    # meets the failure as it plans, with two the worker's failure is kept
    # until the analysis needs that plan; either way it is an escape, a
    # search limit, and the run goes on.
    one, _ = verify_json(tmp_path, BOOK, "--positions", "sample:100", "--budget", "300")
    two, _ = verify_json(tmp_path, BOOK, "--positions", "sample:100", "--budget", "300", "--jobs", "2")
    assert not one["interrupted"] and one["games"] == 100 and one["endings"]["search limit"] == 1
    assert one == two
    [example] = one["failure_examples"]["search limit"]
    assert "node budget of 300" in example["failure"]


@pytest.mark.slow
def test_a_table_that_wanders_hundreds_of_moves_gets_its_report(tmp_path):
    # Its worst defence walks our king round the edge for 600 moves before a
    # position comes round again: deeper than Python's stack, were the
    # analysis to recurse once per move (it raised RecursionError).
    table = str(TEST_TABLES / "krk_edge_walk.yaml")
    walk = str(POSITIONS / "krk_edge_walk.epd")
    one, last = verify_json(tmp_path, table, "--positions", walk)
    assert one["endings"] == {"threefold repetition": 1} and not one["interrupted"]
    [example] = one["failure_examples"]["threefold repetition"]
    assert example["moves"] == 600 and len(example["line"]) == 1200
    assert example["line"][:4] == ["b1a2", "c5d6", "a2b1", "d6e7"]
    for jobs in ("2", "3"):  # each worker plans a region: two thirds of a region for a third
        more, _ = verify_json(tmp_path, table, "--positions", walk, "--jobs", jobs)
        assert more == one


@pytest.mark.parametrize("regions", [1, 2, 3, 8, 16])
def test_workers_regions_keep_mirror_images_together_and_use_every_worker(regions):
    # A position's mirror images are planned once, in one orientation: a
    # worker given one of them plans it for all of them.
    used = set()
    for theirs in chess.SQUARES:
        for ours in chess.SQUARES:
            if chess.square_distance(theirs, ours) < 2:
                continue
            for turn in chess.COLORS:
                board = chess.Board(None)
                board.set_piece_at(theirs, chess.Piece(chess.KING, not turn))
                board.set_piece_at(ours, chess.Piece(chess.KING, turn))
                board.turn = turn
                position = from_board(board)
                found = {region(image, regions) for image in mirror_images(position)}
                assert len(found) == 1 and 0 <= min(found) < regions
                used |= found
    assert used == set(range(regions))


@pytest.mark.parametrize(
    "table, cheap",
    [
        ("krk_std", True),  # planned whole on the core, a few dozen nodes a plan
        ("krk_bratko", False),  # a Python library: planned in Python
        ("kbnk", False),  # on the core, but thousands of nodes a plan
    ],
)
def test_the_worst_case_of_cheap_plans_runs_in_one_process(table, cheap):
    from al0.verify import Verification
    from al0.verify.run import plans_are_cheap

    with Verification(table, PositionsSpec.sample(300, 0), DefenderSpec("worst")) as verification:
        # On the Python twin no plan is cheap: a plan is whole on the core only.
        expected = cheap and native() is not None
        assert plans_are_cheap(verification.verifier, verification.boards) is expected


KPK = str(TABLES / "kpk.yaml")
OPPOSITION = "8/8/8/k7/8/8/K3P3/8 w - -"
"""Won by the opposition, Ka3; the worst defence keeps the pawn from moving
for 20 half-moves at most, and the game lasts 32 moves to mate, through
the promotion (the queen's mate goes on with kqk)."""
EDGE = "2k5/8/8/8/8/8/8/R3K3 w - -"
"""Mated in 28 moves at worst: 54 half-moves without a capture or a pawn move
before the mate."""


@pytest.fixture(scope="module")
def worst_cases():
    """One worst case per table, shared by the cases: its memo serves each
    count of the same start."""
    return {table: WorstCase(Planner(load_table(table)), 50) for table in (KPK, BOOK)}


@pytest.mark.parametrize(
    "table, fen, clock, ending, moves",
    [
        (KPK, OPPOSITION, 0, Ending.MATE, 32),
        # 79 + 64 half-moves to mate, but each pawn move starts the count again
        (KPK, OPPOSITION, 79, Ending.MATE, 32),
        (KPK, OPPOSITION, 80, Ending.FIFTY_MOVES, 10),
        (BOOK, EDGE, 0, Ending.MATE, 28),
        # no capture, no pawn: the count runs on from the start's
        (BOOK, EDGE, 45, Ending.MATE, 28),
        (BOOK, EDGE, 46, Ending.FIFTY_MOVES, 27),
    ],
)
def test_the_worst_case_counts_the_50_move_rule_as_the_laws_do(worst_cases, table, fen, clock, ending, moves):
    board = chess.Board(f"{fen} {clock} 1")
    worst = worst_cases[table]
    record = worst.record(board.fen(), from_board(board), None)
    assert (record.ending, record.moves) == (ending, moves)
    # The play loop, met with the same replies, ends the game alike.
    replies = iter(chess.Move.from_uci(uci) for uci in record.line[1::2])
    events = list(play_game(worst.planner, board, lambda _: next(replies, None), 50, notation=False))
    assert (events[-1].ending, sum(isinstance(event, OurMove) for event in events)) == (ending, moves)
