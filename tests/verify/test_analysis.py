"""The per-advice analysis: moves played against tablebase progress, on real games."""

from __future__ import annotations

import dataclasses
import json
import pickle
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from al0.board.fen import read_epd
from al0.cli import cli
from al0.engine.defenders import RandomDefender, TablebaseDefender
from al0.engine.plan import Planner
from al0.engine.play import Ending, OurMove, TheirMove, play_game
from al0.lang.specs import DefenderSpec
from al0.tablebase import load_if_any
from al0.verify.analysis import AdviceUse, analysis, analysis_lines, most_wasteful_line
from al0.verify.game import GameRecord, play_one, unpack_records
from al0.verify.segments import unpack
from al0.verify.sources import chain_starts
from al0.verify.sums import Sums
from al0.verify.verifier import Verifier, VerifySpec
from al0.verify.worker import StartsChunk, StartsWorker, judge_starts
from conftest import FAKE_ENGINE, POSITIONS, TABLES

BOOK = str(TABLES / "krk_bratko.yaml")
STARTS = POSITIONS / "krk_analysis.epd"
STALEMATES = POSITIONS / "krk_bratko_stalemates.epd"


def starts(path=STARTS) -> list[chess.Board]:
    return [board for _, board in read_epd(str(path))]


@pytest.fixture(scope="module")
def tablebase():
    return load_if_any("KRK")


@pytest.fixture(scope="module")
def games(bratko, tablebase) -> list[GameRecord]:
    """The book's table from each start against the tablebase defender."""
    planner, defender = Planner(bratko), TablebaseDefender("KRK")
    return [play_one(planner, board, defender, 50, tablebase.dtm(board), tablebase) for board in starts()]


def test_the_advice_breakdown_adds_up_to_the_game(games):
    for game in games:
        uses = game.advice_uses
        assert game.ending is Ending.MATE and uses, game.fen
        assert sum(use.moves for use in uses) == game.moves
        # The last position is mate (DTM 0): the progress of all advice is
        # the start's distance to mate, and their waste the game's excess.
        assert sum(use.progress for use in uses) == game.optimal
        assert sum(use.moves - use.progress for use in uses) == game.moves - game.optimal
        for use in uses:
            assert use.stalled + use.lost <= use.moves and use.lost == 0
            # The tablebase defender resists best: no move takes off more than one.
            assert use.progress <= use.moves - use.stalled


def test_the_tally_matches_the_tablebase_move_by_move(bratko, tablebase):
    # Recomputed here from the events: DTM at each of our turns, grouped by advice.
    board = starts()[0]
    planner, defender = Planner(bratko), TablebaseDefender("KRK")
    game, dtm_at_turn, chosen = board.copy(), [tablebase.dtm(board)], []
    for event in play_game(planner, game, defender, 50, notation=False):
        if isinstance(event, OurMove):
            chosen.append((event.plan.rule, event.plan.advice))
        elif isinstance(event, TheirMove):
            dtm_at_turn.append(tablebase.dtm(game))
    dtm_at_turn.append(0)  # our last move mated
    expected: dict[tuple[str, str], list[int]] = {}
    for key, before, after in zip(chosen, dtm_at_turn, dtm_at_turn[1:]):
        row = expected.setdefault(key, [0, 0, 0])
        row[0] += 1
        row[1] += before - after
        row[2] += after >= before
    record = play_one(planner, board, defender, 50, dtm_at_turn[0], tablebase)
    assert {(u.rule, u.advice): [u.moves, u.progress, u.stalled] for u in record.advice_uses} == expected


def test_a_stalemating_move_is_counted_as_losing_the_win(bratko, tablebase):
    planner = Planner(bratko)
    for board in starts(STALEMATES):
        record = play_one(planner, board, TablebaseDefender("KRK"), 50, tablebase.dtm(board), tablebase)
        assert record.ending is Ending.STALEMATE
        assert record.advice_uses[-1].lost == 1 and sum(u.lost for u in record.advice_uses) == 1
        assert record.advice_uses[-1].advice in ("keeproom", "divide_in_2")


def test_the_worst_games_are_ordered_and_the_first_is_the_largest_excess(games):
    data = analysis(games, Sums.of(games), worst=3)
    worst = data["worst"]
    excesses = [game["excess"] for game in worst]
    assert len(worst) == 3 and excesses == sorted(excesses, reverse=True)
    assert excesses[0] == max(g.moves - g.optimal for g in games)
    by_fen = {g.fen: g for g in games}
    for entry in worst:
        uses = by_fen[entry["fen"]].advice_uses
        assert entry["most_wasted"]["wasted"] == max(u.moves - u.progress for u in uses)
        assert sum(use["wasted"] for use in entry["advice"]) == entry["excess"]
    # The run's totals are the games' breakdowns summed.
    rows = data["advice"]
    assert sum(row["moves"] for row in rows) == sum(g.moves for g in games)
    assert [row["wasted"] for row in rows] == sorted((row["wasted"] for row in rows), reverse=True)


def test_no_tablebase_means_no_analysis_and_says_so():
    unmeasured = [GameRecord("8/8/8/8/8/8/8/8 w - - 0 1", Ending.MATE, 3, None)]
    assert analysis(unmeasured, Sums.of(unmeasured)) is None
    assert "needs a tablebase" in next(analysis_lines(None))


@pytest.mark.slow
def test_the_worst_defender_breakdown_replays_its_line(tablebase):
    verifier = Verifier(VerifySpec(BOOK, DefenderSpec("worst")))
    for index, board in enumerate(starts()[:3]):
        record = verifier.judge(index, board)
        assert record.ending is Ending.MATE and record.line
        assert sum(use.moves for use in record.advice_uses) == record.moves
        assert sum(use.progress for use in record.advice_uses) == tablebase.dtm(board)


def test_the_random_defender_is_measured_too(bratko, tablebase):
    planner = Planner(bratko)
    for seed, board in enumerate(starts()):
        record = play_one(planner, board, RandomDefender(seed), 50, tablebase.dtm(board), tablebase)
        assert sum(use.moves for use in record.advice_uses) == record.moves
        if record.ending is Ending.MATE:
            assert sum(use.progress for use in record.advice_uses) == record.optimal


def test_records_from_a_worker_process_carry_the_breakdown():
    spec = VerifySpec(BOOK, DefenderSpec("tablebase"))
    boards = starts()
    chunk = StartsChunk(0, len(boards), starts=tuple(chain_starts(boards, 0, len(boards))))
    with ProcessPoolExecutor(1) as pool:
        result = pool.submit(judge_starts, spec, chunk).result()
    records = unpack_records(result.records)
    local = Verifier(spec)
    assert records == [local.judge(index, board) for index, board in enumerate(boards)]
    assert all(r.advice_uses for r in records)
    assert isinstance(records[0].advice_uses[0], AdviceUse)
    # The segments it made travel too, for the other workers, with each
    # plan it searched (in the class's orientation, not its mirror images').
    segments, plans = pickle.loads(result.made)
    assert set(segments) == set(local.segments or ())
    assert all(pickle.loads(data) == (local.segments or {})[key] for key, data in segments.items())
    assert len(plans) == len(local.planner.search_seconds)
    cache = local.planner.cache or {}
    assert all(
        plan[:3] == (cache[unpack(key)].rule, cache[unpack(key)].advice, cache[unpack(key)].tried)
        for key, plan in plans.items()
    )


def test_a_worker_plans_no_class_another_worker_sent_the_plan_of():
    # The second worker judges the mirror images of the first's starts:
    # their segments differ (the defender breaks ties by the moves' order),
    # the plans of their classes are the first's, read when needed.
    spec = VerifySpec(BOOK, DefenderSpec("tablebase"))
    boards = starts()
    mirrored = [board.transform(chess.flip_vertical) for board in boards]
    chunk = StartsChunk(0, len(boards), starts=tuple(chain_starts(mirrored, 0, len(boards))))
    made = (
        StartsWorker(spec)
        .judge(StartsChunk(0, len(boards), starts=tuple(chain_starts(boards, 0, len(boards)))))
        .made
    )
    plans = pickle.loads(made)[1]
    second, alone = StartsWorker(spec), StartsWorker(spec)
    told = second.judge(dataclasses.replace(chunk, shared=(pickle.dumps(({}, plans)),)))
    searched = pickle.loads(told.made)[1]
    assert searched.keys().isdisjoint(plans)
    assert len(searched) + len(plans) >= len(pickle.loads(alone.judge(chunk).made)[1]) > len(searched)
    assert unpack_records(told.records) == [
        Verifier(spec).judge(index, board) for index, board in enumerate(mirrored)
    ]


def test_workers_of_one_machine_leave_what_they_made_in_a_file(tmp_path):
    # Given the file's name, a second worker judging the same starts reads
    # every segment and plan of the first's, and makes none of its own.
    spec = VerifySpec(BOOK, DefenderSpec("tablebase"))
    boards = starts()
    chunk = StartsChunk(
        0, len(boards), starts=tuple(chain_starts(boards, 0, len(boards))), exchange=str(tmp_path)
    )
    first = StartsWorker(spec).judge(chunk)
    assert isinstance(first.made, str) and Path(first.made).parent == tmp_path
    second = StartsWorker(spec).judge(dataclasses.replace(chunk, shared=(first.made,)))
    assert second.made == b""
    assert unpack_records(second.records) == unpack_records(first.records)


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def test_json_and_text_agree(tmp_path):
    out = tmp_path / "r.json"
    result = CliRunner().invoke(
        cli, ["verify", BOOK, "--positions", str(STARTS), "--analysis", "--worst", "2", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())["analysis"]
    lines = result.output.splitlines()
    header = next(i for i, line in enumerate(lines) if line.strip().startswith("rule/advice"))
    table = [line.split() for line in lines[header + 1 : header + 1 + len(data["advice"])]]
    assert [
        [
            f"{row['rule']}/{row['advice']}",
            row["games"],
            row["moves"],
            row["progress"],
            row["stalled"],
            row["lost"],
            row["progress_per_move"],
            row["wasted"],
        ]
        for row in data["advice"]
    ] == [[cells[0], *map(_number, cells[1:])] for cells in table]
    assert len(data["worst"]) == 2
    for game in data["worst"]:
        assert (
            f"  +{game['excess']}: {game['moves']} moves, optimal {game['optimal']}: {game['fen']}"
        ) in lines
        most = game["most_wasted"]
        marked = [line for line in lines if line.endswith("<- most wasted")]
        assert any(line.split()[0] == f"{most['rule']}/{most['advice']}" for line in marked)


def test_without_analysis_the_summary_names_the_most_wasteful_advice():
    result = CliRunner().invoke(cli, ["verify", BOOK, "--positions", str(STARTS), "--json", "-"])
    assert result.exit_code == 0
    top = json.loads(result.stdout)["analysis"]["advice"][0]
    assert f"most moves wasted: {top['rule']}/{top['advice']}, {top['wasted']} in its" in result.stderr


def test_tally_ignores_a_start_that_is_not_won(bratko):
    # The tally only starts from a won position's DTM; play_one keeps none without it.
    record = play_one(Planner(bratko), starts()[3], TablebaseDefender("KRK"), 50, None, load_if_any("KRK"))
    assert record.advice_uses == () and record.ending is Ending.MATE


def test_a_uci_defender_is_measured_too():
    engine = f"{sys.executable} {FAKE_ENGINE}"
    result = CliRunner().invoke(
        cli, ["verify", BOOK, "--positions", str(STARTS), "--defender", f"uci:{engine}", "--json", "-"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["endings"] == {"mate": len(starts())}
    played = sum(int(moves) * games for moves, games in data["moves_to_mate"]["histogram"].items())
    rows = data["analysis"]["advice"]
    assert sum(row["moves"] for row in rows) == played
    assert sum(row["progress"] for row in rows) == round(data["optimal"]["mean"] * len(starts()))


def test_the_summary_says_when_advice_put_the_mate_further_away():
    # Advice whose moves let the distance to mate grow wastes more moves
    # than it played: the line says so rather than "159 of its 95 moves".
    row = {
        "rule": "all",
        "advice": "keep",
        "games": 20,
        "moves": 95,
        "progress": -64,
        "stalled": 84,
        "lost": 0,
        "wasted": 159,
        "progress_per_move": -0.674,
    }
    line = most_wasteful_line({"advice": [row]})
    assert line == (
        "most moves wasted: all/keep, 159 in its 95 moves (84 made no progress; "
        "together they put the mate 64 moves further away)"
    )
    row.update(progress=80, wasted=15, stalled=10)
    assert (
        most_wasteful_line({"advice": [row]})
        == "most moves wasted: all/keep, 15 in its 95 moves (10 made no progress)"
    )
