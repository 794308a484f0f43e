"""Verify: positions, the worst-case analysis, reports, expectations, bad input."""

from __future__ import annotations

import io
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

import al0.verify.run as verify_run
from al0.cli import cli
from al0.engine.defenders import RandomDefender
from al0.engine.plan import Planner
from al0.engine.play import Ending, OurMove, play_game
from al0.lang.loader import load_table
from al0.lang.model import Expectations
from al0.lang.specs import DefenderSpec, PositionsSpec
from al0.tablebase import load_if_any
from al0.verify.game import GameRecord, play_one
from al0.verify.sources import start_positions
from al0.verify.summary import Claim
from al0.verify.tally import Report, scoped_verdict
from al0.verify.verifier import Verifier, VerifySpec
from al0.verify.worst import WorstCase
from conftest import FAKE_ENGINE, LIBRARIES, POSITIONS, TABLES, TEST_TABLES

BOOK = str(TABLES / "krk_bratko.yaml")
FAKE_ENGINE = f"{sys.executable} {FAKE_ENGINE}"


@pytest.fixture(scope="module")
def tablebase():
    return load_if_any("KRK")


@pytest.fixture(scope="module")
def everything(tablebase):
    # Made one board at a time (a four-man ending has millions): listed here.
    return list(start_positions(PositionsSpec("all"), load_table(BOOK), tablebase))


def test_all_positions_cover_every_white_to_move_position_once(everything):
    # Each class stands for its orbit under the 8 symmetries (compositions of
    # python-chess's flips); the orbits together must be exactly KRK's
    # White-to-move positions, every one of them won.
    def image(flips, square):
        bitboard = chess.BB_SQUARES[square]
        for flip in flips:
            if flip is not None:
                bitboard = flip(bitboard)
        return chess.lsb(bitboard)

    flips = (chess.flip_vertical, chess.flip_horizontal, chess.flip_diagonal)
    symmetries = [
        [image(chosen, square) for square in chess.SQUARES]
        for chosen in itertools.product(*([None, flip] for flip in flips))
    ]
    seen: set[tuple[int, int, int]] = set()
    for board in everything:
        w, b = board.king(chess.WHITE), board.king(chess.BLACK)
        r = chess.lsb(board.rooks)
        orbit = {(s[w], s[r], s[b]) for s in symmetries}
        assert not orbit & seen, board.fen()
        seen |= orbit
    assert len(everything) == 21_959 and len(seen) == 175_168


@pytest.mark.parametrize("kind", ["all", "every"])
def test_a_listings_starts_made_without_boards_are_its_boards_starts(tablebase, kind):
    """The worst case reads a tablebase's listing as positions (no board
    made or validated): the same starts as from its boards."""
    table = load_table(BOOK)
    boards = start_positions(PositionsSpec(kind), table, tablebase)
    verifier = Verifier(VerifySpec(BOOK, DefenderSpec("worst")))
    for start in (0, len(boards) // 2, len(boards) - 40):
        assert [verifier.start_at(position) for position in boards.positions(start, start + 40)] == [
            verifier.start(board) for board in boards[start : start + 40]
        ]


def test_worst_case_bounds_every_defence_and_its_line_replays(bratko, everything):
    planner = Planner(bratko)
    worst = WorstCase(planner, max_moves=50)
    for board in everything[::997]:
        record = worst.analyse(board, None)
        assert record.ending is Ending.MATE, board.fen()
        for seed in range(3):
            game = play_one(planner, board, RandomDefender(seed), 50, None)
            assert game.ending is Ending.MATE and game.moves <= record.moves
        # Replaying the worst line's replies against the loop gives the same game.
        replies = iter(chess.Move.from_uci(u) for u in record.line[1::2])
        events = list(play_game(planner, board.copy(), lambda b: next(replies)))
        ours = [e.move.uci() for e in events if isinstance(e, OurMove)]
        assert ours == list(record.line[0::2])
        assert events[-1].ending == Ending.MATE and len(ours) == record.moves


def test_worst_case_finds_an_escape(tmp_path):
    # A table that only ever shuffles its king never mates: the defender
    # can always bring a position round again.
    table = tmp_path / "shuffle.yaml"
    table.write_text(
        "name: shuffle\nmaterial: KRK\nlibrary: " + str(TABLES.parent / "library" / "krk.py") + "\n"
        "rules: [{name: r, if: true, then: [wait]}]\n"
        "advice: {wait: {better-goal: themtomove, holding-goal: not rooklost,"
        " us-moves: {0: kingdiagfirst}, them-moves: nomove}}\n"
    )
    from al0.lang.loader import load_table

    record = WorstCase(Planner(load_table(table)), 50).analyse(
        chess.Board("8/8/8/8/3k4/8/8/R3K3 w - - 0 1"), None
    )
    assert record.ending in (Ending.REPETITION, Ending.NO_PLAN, Ending.MATERIAL_LOST)
    assert record.ending is not Ending.MATE


def run(*args: str):
    return CliRunner().invoke(cli, ["verify", *args])


def worst_case_json(table: str, positions: str | Path) -> dict:
    """The JSON report of bundled ``table`` against every defence from the
    positions of an EPD file."""
    result = run(str(TABLES / table), "--positions", str(positions), "--defender", "worst", "--json", "-")
    return json.loads(result.stdout)


def test_verify_reports_and_writes_json_and_failures(tmp_path):
    out, bad = tmp_path / "r.json", tmp_path / "f.epd"
    result = run(BOOK, "--positions", "sample:40", "--json", str(out), "--failures", str(bad))
    assert result.exit_code == 0, result.output
    assert "40 of 40 positions: mate 40" in result.output
    data = json.loads(out.read_text())
    assert data["games"] == 40 and data["endings"] == {"mate": 40}
    assert data["excess"]["count"] == 40 and data["excess"]["mean"] >= 0
    assert data["moves_to_mate"]["max"] >= data["optimal"]["max"]
    assert bad.read_text() == ""


@pytest.mark.parametrize(
    "probe, pools",
    [(verify_run.PROBE_SECONDS, []), pytest.param(0.0, [1, 1], marks=pytest.mark.slow)],  # workers: slow
    ids=["cheap", "slow"],
)
def test_a_small_run_goes_to_workers_only_when_its_games_are_slow(
    tmp_path, monkeypatch, pool_sizes, probe, pools
):
    """--jobs 2 on 30 starts (fewer than a chunk): games as cheap as these
    are all judged in this process, no worker started; made to look slow
    (no time to judge here), the first is judged here and the rest go to
    two workers in chunks sized by its cost. The same games either way,
    the random defender seeded by each start's number wherever it plays."""
    one, two = tmp_path / "1.json", tmp_path / "2.json"
    assert run(BOOK, "--positions", "sample:30", "--defender", "random", "--json", str(one)).exit_code == 0
    monkeypatch.setattr(verify_run, "PROBE_SECONDS", probe)
    result = run(BOOK, "--positions", "sample:30", "--defender", "random", "--jobs", "2", "--json", str(two))
    assert result.exit_code == 0, result.output
    assert pool_sizes == pools
    varying = {"plans_searched", "plan_ms", "plans_per_second", "wall_seconds"}
    a, b = (
        {k: v for k, v in json.loads(path.read_text()).items() if k not in varying} for path in (one, two)
    )
    assert a == b and a["games"] == 30


def write_table_with(tmp_path, expect: str) -> str:
    text = (
        (TABLES / "krk_bratko.yaml")
        .read_text()
        .replace("library: ../library/krk.py", f"library: {TABLES.parent / 'library' / 'krk.py'}")
    )
    path = tmp_path / "t.yaml"
    path.write_text(text + "\nexpect:\n" + expect)
    return str(path)


def test_expectations_decide_the_exit_code(tmp_path):
    holds = write_table_with(tmp_path, "  mates-all: true\n  stalemates: 0\n  material-lost: 0\n")
    result = run(holds, "--positions", "sample:20")
    assert result.exit_code == 0 and "expect mates-all: ok" in result.output
    fails = write_table_with(tmp_path, "  mates-all: true\n  max-moves: 3\n")
    result = run(fails, "--positions", "sample:20")
    assert result.exit_code == 1
    assert "expect max-moves: FAILED" in result.output and "expect mates-all: ok" in result.output


def test_each_expect_block_is_checked_against_the_runs_it_is_about(tmp_path):
    # Claims about the worst defence bound every defence; claims about the
    # random defender apply to its runs only; a mean is decided only over the
    # positions it was claimed for.
    table = write_table_with(
        tmp_path,
        "  - defender: worst\n    mates-all: true\n"
        "  - defender: random\n    positions: sample:8\n"
        "    mean-moves: 1.5\n",
    )
    result = run(table, "--positions", "sample:8")
    assert result.exit_code == 0, result.output
    assert "expect mates-all: ok" in result.output and "mean-moves" not in result.output
    result = run(table, "--positions", "sample:8", "--defender", "random")
    assert result.exit_code == 1
    assert "expect mean-moves: FAILED (mean " in result.output
    assert "expect mates-all: ok" in result.output
    result = run(table, "--positions", "sample:4", "--defender", "random")
    assert result.exit_code == 0, result.output
    assert (
        "expect mean-moves: undecided (mean" in result.output
        and "the claim is about positions sample:8, not sample:4" in result.output
    )


@pytest.mark.parametrize(
    "holds, claimed, run, existential, verdict",
    [
        # A claim that every game does something ("at most N"): a run over more
        # positions confirms it when it holds, never refutes it ...
        (True, "sample:20", "all", False, True),
        (False, "sample:20", "all", False, None),
        (True, "all", "every", False, True),
        (True, "sample:20", "every", False, True),
        # ... a run over part of them refutes it when it fails, never confirms it.
        (False, "all", "sample:20", False, False),
        (True, "all", "sample:20", False, None),
        (False, "every", "all", False, False),
        # mates-all: false (some game fails) is the other way round.
        (False, "sample:20", "all", True, False),
        (True, "sample:20", "all", True, None),
        (True, "all", "sample:20", True, True),
        # Other positions decide nothing: another sample, another seed, a file.
        (True, "sample:20", "sample:21", False, None),
        (False, "sample:20", "sample:20 (seed 3)", False, None),
        (True, "krk.epd", "all", False, None),
        (True, "all", "krk.epd", False, None),
        # A mean is decided only over its own positions.
        (False, "sample:20", "all", None, None),
        (True, "all", "all", None, True),
        (False, "sample:20", "sample:20", None, False),
    ],
)
def test_a_claim_is_decided_only_where_the_runs_positions_imply_it(holds, claimed, run, existential, verdict):
    def spec(text):  # "sample:20 (seed 3)": the sample drawn with seed 3
        name, _, seed = text.partition(" (seed ")
        return PositionsSpec.parse(name).drawn_with(int(seed.rstrip(")") or 0))

    assert scoped_verdict(holds, spec(claimed), spec(run), existential) is verdict


def _report(*endings: str, positions: str = "all") -> Report:
    report = Report("t", DefenderSpec("tablebase"), PositionsSpec.parse(positions), len(endings))
    for ending in endings:
        report.add(GameRecord(chess.STARTING_FEN, Ending(ending), 12, 10))
    return report


@pytest.mark.parametrize(
    "endings, claim, holds, measured",
    [
        # A claim about the mates of a run with none fails: it was "ok (mean 0.00 …)".
        (("no plan", "no plan"), "mean-moves", False, "no mean: no game of 2 was mated"),
        (("no plan", "no plan"), "max-moves", False, "no game of 2 was mated, 0 games over"),
        ((), "mean-moves", False, "no mean: no game of 0 was mated"),
        ((), "max-moves", False, "no game of 0 was mated"),
        (("mate", "no plan"), "mean-moves", True, "mean 12.00 moves over 1 mated games"),
        (("mate", "no plan"), "max-moves", True, "longest mate 12 moves"),
    ],
)
def test_a_claim_over_no_mated_games_fails(endings, claim, holds, measured):
    expect = Expectations(mean_moves=20.0) if claim == "mean-moves" else Expectations(max_moves=20)
    [(name, verdict, said)] = _report(*endings).check(expect)
    assert (name, verdict) == (Claim(claim), holds) and said.startswith(measured), said
    # No mates in a sample says nothing of the whole ending (a longer mate in
    # a sample would refute a max-moves claim about it).
    [(_, verdict, _)] = _report(*endings, positions="sample:2").check(
        replace(expect, positions=PositionsSpec("all"))
    )
    assert verdict is None


def test_claims_about_other_positions_say_which_positions_they_are_about(tmp_path):
    # kqk.yaml mates every position in more than 3 moves on a sample of 20:
    # a claim about every position is refuted there, one about another
    # sample is undecided and says which positions it is about.
    text = (TABLES / "kqk.yaml").read_text().split("\nexpect:")[0]
    table = tmp_path / "kqk.yaml"
    table.write_text(
        text + "\nexpect:\n  - {positions: all, no-plan: 0, max-moves: 3}\n"
        "  - {positions: sample:21, no-plan: 0}\n"
    )
    result = run(str(table), "--positions", "sample:20")
    assert result.exit_code == 1, result.output
    assert "expect max-moves: FAILED" in result.output
    assert "expect no-plan: undecided" in result.output
    assert "the claim is about positions sample:21, not sample:20" in result.output


def test_a_run_no_expect_block_is_about_says_so(tmp_path):
    table = write_table_with(tmp_path, "  - defender: random\n    mates-all: true\n")
    result = run(table, "--positions", "sample:3")
    assert result.exit_code == 0
    assert "no expectations about the tablebase defender (the table's are about: random)" in result.output


def test_uci_defender_plays(tmp_path):
    epd = tmp_path / "p.epd"
    epd.write_text("8/8/4R3/8/3K4/8/2k5/8 w - -\n")
    result = run(BOOK, "--positions", str(epd), "--defender", f"uci:{FAKE_ENGINE}")
    assert result.exit_code == 0, result.output
    assert "1 of 1 positions: mate 1" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--defender", "strong"], "unknown defender 'strong'"),
        (["--defender", "uci:/no/such/engine"], "cannot start UCI engine"),
        (["--positions", "sample:x"], "sample:N"),
        (["--positions", "missing.epd"], "'missing.epd' is no file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(BOOK, *args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_bad_epd_lines_and_other_material(tmp_path):
    epd = tmp_path / "p.epd"
    epd.write_text("8/8/4R3/8/3K4/8/2k5/8 w - -\nnot a position\n")
    result = run(BOOK, "--positions", str(epd))
    assert result.exit_code == 2 and f"{epd}:2:" in result.output
    epd.write_text("8/8/4Q3/8/3K4/8/2k5/8 w - -\n")
    result = run(BOOK, "--positions", str(epd))
    assert result.exit_code == 2 and f"{epd}:1:" in result.output and "KQK" in result.output


@pytest.mark.parametrize(
    "clock, message",
    [
        (100, "the 50-move rule has already ended the game (half-move clock 100)"),
        (150, "the 50-move rule has already ended the game (half-move clock 150)"),
        (97, "the 50-move rule ends the game before any mate is possible (half-move clock 97)"),
    ],
)
def test_a_start_the_50_move_rule_has_ended_is_refused_with_its_line(tmp_path, clock, message):
    # It was played and counted as a 50-move failure against mates-all.
    epd = tmp_path / "p.epd"
    epd.write_text(f"8/8/4R3/8/3K4/8/2k5/8 w - -\n8/8/8/8/8/2k5/8/R3K3 w - - {clock} 80\n")
    result = run(BOOK, "--positions", str(epd))
    assert result.exit_code == 2 and f"{epd}:2: " in result.output and message in result.output


@pytest.mark.parametrize(
    "table, start, message",
    [
        # The lone king in front of the pawn with the opposition: counted as
        # the table's "no plan", against mates-all, where no table mates.
        (
            "kpk",
            "8/8/8/8/8/3k4/3P4/3K4 w - -",
            "is not won: a draw by the tablebase, so no table mates from it",
        ),
        ("krk", "8/8/8/8/8/2k5/1r6/K7 w - -", "has material KKR, but the table is for KRK"),
    ],
)
def test_a_start_that_is_not_won_is_refused_with_its_line(tmp_path, table, start, message):
    epd = tmp_path / "p.epd"
    epd.write_text(f"{start}\n")
    result = run(table, "--positions", str(epd))
    assert result.exit_code == 2 and f"{epd}:1: " in result.output and message in result.output, result.output


def test_a_dying_engine_keeps_the_results_so_far(tmp_path):
    epd = tmp_path / "p.epd"
    epd.write_text("8/8/4R3/8/3K4/8/2k5/8 w - -\n8/8/8/8/8/2k5/8/R1K5 w - -\n")
    out = tmp_path / "r.json"
    result = run(
        BOOK, "--positions", str(epd), "--defender", f"uci:{FAKE_ENGINE} --die-after 4", "--json", str(out)
    )
    assert result.exit_code == 2
    assert "stopped after" in result.output and "failed" in result.output
    data = json.loads(out.read_text())
    assert data["interrupted"] is True and data["total"] == 2


def test_play_against_the_tablebase_shows_the_optimal_distance():
    result = CliRunner().invoke(cli, ["play", BOOK, "--opponent", "tablebase", "--no-board"])
    assert result.exit_code == 0, result.output
    assert "optimal mate in 1, now mated" in result.output and "checkmate" in result.output


def test_play_against_a_uci_engine():
    result = CliRunner().invoke(cli, ["play", BOOK, "--opponent", f"uci:{FAKE_ENGINE}", "--no-board"])
    assert result.exit_code == 0, result.output
    assert "Game over: checkmate" in result.output


def test_play_rejects_an_unknown_opponent():
    result = CliRunner().invoke(cli, ["play", BOOK, "--opponent", "strong"])
    assert result.exit_code == 2 and "unknown defender 'strong'" in result.output


@pytest.mark.parametrize("table, jobs", [("krk.yaml", "2"), ("krk_fast.yaml", "1"), ("krk_std.yaml", "1")])
@pytest.mark.slow
def test_krk_table_meets_its_expectations_against_every_defence_from_every_position(table, jobs):
    """The project tables' claims, checked exactly: every symmetry class of
    KRK with White to move, the worst case over all defences. krk_std.yaml
    is the book's strategy with no Python of its own: proof that the
    standard vocabulary covers the book's ideas. One of them with two jobs
    (the workers' plans over a whole ending); the others in one process,
    which takes less CPU (20.8 s against 23.5 s for krk_fast.yaml)."""
    result = run(str(TABLES / table), "--defender", "worst", "--jobs", jobs)
    assert result.exit_code == 0, result.output
    assert "21959 of 21959 positions: mate 21959" in result.output
    assert "expect max-moves: ok" in result.output


@pytest.mark.slow
def test_krk_fast_mates_faster_than_13_moves_on_average_against_the_tablebase(tmp_path):
    """krk_fast.yaml's expect: block about the tablebase defender: every
    symmetry class of KRK is mated and the mean is at most 13.0 moves
    (optimal: 9.87). In one process: two workers would each load the
    table and the tablebase and plan some positions both (more CPU in all,
    for a suite that already runs a process per core); that jobs change no
    report is tests/verify/test_segments.py's claim."""
    out = tmp_path / "r.json"
    result = run(str(TABLES / "krk_fast.yaml"), "--jobs", "1", "--json", str(out))
    assert result.exit_code == 0, result.output
    assert "expect mean-moves: ok" in result.output
    data = json.loads(out.read_text())
    assert data["endings"] == {"mate": 21959}
    assert data["moves_to_mate"]["mean"] <= 13.0


def test_krk_fast_drives_their_king_along_the_edge_from_a_corner():
    """With our king in the corner and theirs near it, krk_fast.yaml shares
    one box with their king along the edge instead of cutting it off from
    ours: at most 21 moves against every defence (optimal 14 and 15)."""
    data = worst_case_json("krk_fast.yaml", POSITIONS / "krk_corner.epd")
    assert data["endings"] == {"mate": 2}
    assert data["moves_to_mate"]["max"] <= 21


@pytest.mark.slow
def test_krk_fast_walks_its_king_out_of_the_corner_first():
    """With our king in the corner and theirs in the middle, krk_fast.yaml
    walks ours out before cutting theirs off: at most 27 moves against every
    defence (was 29, 29 and 28; optimal 15, 16 and 16)."""
    walk = POSITIONS / "krk_corner_walk.epd"
    data = worst_case_json("krk_fast.yaml", walk)
    assert data["endings"] == {"mate": 3}
    assert data["moves_to_mate"]["max"] <= 27


@pytest.mark.slow
def test_krk_fast_cuts_their_king_off_before_walking_out_of_the_corner():
    """With our king in the corner and theirs far from it, krk_fast.yaml
    first cuts theirs off with the rook on the line next to it, then walks
    ours out: at most 23 moves against every defence (was 26, 26 and 24;
    optimal 15, 15 and 12)."""
    cut = POSITIONS / "krk_corner_cut.epd"
    data = worst_case_json("krk_fast.yaml", cut)
    assert data["endings"] == {"mate": 3}
    assert data["moves_to_mate"]["max"] <= 23


@pytest.mark.slow
def test_krk_fast_cuts_their_king_off_from_just_out_of_its_step_from_the_corner():
    """Our king in the corner, theirs next to the rook in the middle:
    krk_fast.yaml cuts it off or boxes it in with the rook just out of its
    step, takes the rook to the far edge, or steps out to guard it: at most
    25 moves against every defence (was 28, 28, 26, 26, 26 and 26; optimal
    15 and 16)."""
    far = POSITIONS / "krk_corner_far.epd"
    data = worst_case_json("krk_fast.yaml", far)
    assert data["endings"] == {"mate": 6}
    assert data["moves_to_mate"]["max"] <= 25


@pytest.mark.slow
def test_krk_fast_brings_its_king_nearer_before_putting_the_rook_between():
    """The rook cuts their king off, both kings on one side of it:
    krk_fast.yaml steps our king nearer theirs (closein) before moving the
    rook between them: at most 25 moves against every defence (was 26, 26
    and 23; optimal 15, 15 and 13)."""
    closein = POSITIONS / "krk_closein.epd"
    data = worst_case_json("krk_fast.yaml", closein)
    assert data["endings"] == {"mate": 3}
    assert data["moves_to_mate"]["max"] <= 25
    plan = Planner(load_table(TABLES / "krk_fast.yaml")).plan(chess.Board("8/8/7R/4k3/8/8/3K4/8 w - - 0 1"))
    assert (plan.rule, plan.advice) == ("else_rule", "closein")


def test_krk_fast_keeps_their_king_on_the_edge_when_it_threatens_the_rook():
    """Their king held on the edge attacks the rook, ours is in the corner:
    krk_fast.yaml runs with the rook along its line and keeps theirs on the
    edge: at most 16 moves against every defence (was 26, 25 and 25;
    optimal 11)."""
    edge = POSITIONS / "krk_corner_edge.epd"
    data = worst_case_json("krk_fast.yaml", edge)
    assert data["endings"] == {"mate": 3}
    assert data["moves_to_mate"]["max"] <= 16


def test_krk_fast_boxes_their_king_along_the_edge_just_out_of_the_corner():
    """Our king on d1 or c2, theirs near the same edge: krk_fast.yaml shuts
    both in a box along the edge with the rook out of reach, or out of
    their king's step when the kings are close, and drives theirs along
    it: 7 to 18 moves against every defence (was 21 to 26; optimal 6 to
    11)."""
    box = POSITIONS / "krk_corner_box.epd"
    data = worst_case_json("krk_fast.yaml", box)
    assert data["endings"] == {"mate": 6}
    assert data["moves_to_mate"]["max"] <= 18
    assert data["moves_to_mate"]["mean"] <= 11.5


def test_json_to_standard_output_is_the_only_thing_there():
    result = CliRunner().invoke(cli, ["verify", BOOK, "--positions", "sample:5", "--json", "-"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["games"] == 5
    assert "5 of 5 positions" in result.stderr


def test_a_table_played_as_given_is_said_to_cover_one_orientation():
    # krk_bratko.yaml is symmetric: false (the book's board-order ties).
    book = CliRunner().invoke(cli, ["verify", BOOK, "--positions", "sample:5"])
    assert "note: krk_bratko is played as the board is given" in book.output
    corrected = CliRunner().invoke(
        cli, ["verify", BOOK.replace("krk_bratko", "krk"), "--positions", "sample:5"]
    )
    assert corrected.exit_code == 0 and "note:" not in corrected.output


@pytest.mark.parametrize(
    "defender, jobs, phase",
    [
        ("tablebase", "1", "verifying"),
        pytest.param("worst", "2", "planning", marks=pytest.mark.slow),  # workers: slow
        ("worst", "1", "planning"),
    ],
)
def test_a_run_into_a_log_says_how_far_it_is(monkeypatch, defender, jobs, phase):
    """Standard error is no terminal here (no progress bar): a line says how
    far the run is, as often as PROGRESS_LINE_SECONDS allows (every time at 0).
    A worst-case run in one process counts its plans as it makes them: one
    start alone may need thousands."""
    monkeypatch.setattr("al0.cli.verify.PROGRESS_LINE_SECONDS", 0.0)
    result = CliRunner().invoke(
        cli, ["verify", BOOK, "--positions", "sample:5", "--defender", defender, "--jobs", jobs]
    )
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith(phase + ": ")]
    assert lines, result.stderr
    if phase == "verifying":
        assert [line.split(",")[0] for line in lines] == [
            f"verifying: {n} of 5 positions" for n in range(1, 6)
        ]
    elif jobs == "1":
        counts = [int(line.split()[1]) for line in lines]
        assert lines[0].startswith("planning: 1 position planned so far, ")
        assert counts == list(range(1, len(counts) + 1)) and len(counts) > 5


STALEMATES = str(POSITIONS / "krk_bratko_stalemates.epd")


@pytest.mark.parametrize(
    "table, endings",
    [
        ("krk_bratko.yaml", {"stalemate": 11}),  # the book's flaw, every class of it
        ("krk.yaml", {"mate": 11}),  # the corrected table
    ],
)
def test_the_books_stalemates_and_their_correction(table, endings):
    assert worst_case_json(table, STALEMATES)["endings"] == endings


@pytest.mark.parametrize("table, us", [("kqkr.yaml", chess.WHITE), ("kqkr_black.yaml", chess.BLACK)])
@pytest.mark.slow
def test_verify_samples_a_four_man_ending_for_either_side(tablebase_cache, table, us):
    """KQKR: won start positions of the table's side, drawn uniformly from the
    symmetry classes; the tablebase defends (the rook's side, captures
    included) and gives the optimal distance of every start."""
    result = CliRunner().invoke(
        cli,
        ["verify", str(LIBRARIES / table), "--positions", "sample:30", "--json", "-"],
        env={"AL0_CACHE_DIR": str(tablebase_cache)},
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == data["total"] == 30
    assert data["optimal"]["count"] == data["endings"].get("mate", 0)
    assert 1 <= data["optimal"].get("max", 1) <= 35
    assert set(data["endings"]) <= {ending.value for ending in Ending}
    for examples in data["failure_examples"].values():
        for example in examples:
            board = chess.Board(example["fen"])
            assert board.turn == us and board.pieces(chess.QUEEN, us)


def test_games_go_on_after_we_take_their_piece(tablebase_cache):
    """KQKR starts where we take the rook at once: the tablebase goes on
    defending the KQK that follows, and the analysis measures the capture's
    progress against the smaller table (one move off the mate, each)."""
    epd = POSITIONS / "kqkr_forks.epd"
    result = CliRunner().invoke(
        cli,
        [
            "verify",
            str(LIBRARIES / "kqkr_win_rook.yaml"),
            "--positions",
            str(epd),
            "--analysis",
            "--json",
            "-",
        ],
        env={"AL0_CACHE_DIR": str(tablebase_cache)},
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == data["total"] == 2 and not data["interrupted"]
    fork = next(row for row in data["analysis"]["advice"] if row["advice"] == "fork")
    assert (fork["moves"], fork["progress"], fork["lost"]) == (2, 2, 0)
    squeeze = next(row for row in data["analysis"]["advice"] if row["advice"] == "squeeze")
    assert squeeze["moves"] > 2  # the games went on as KQK


@pytest.mark.parametrize("defender", ["tablebase", "worst", "random"])
def test_a_game_that_takes_the_rook_goes_on_with_the_bundled_table(tablebase_cache, defender):
    """kqkr_take knows nothing of KQK: the bundled kqk table mates, every
    game counted as one (our moves across the change), the report says how
    many went on with another table and names that table's rules."""
    result = CliRunner().invoke(
        cli,
        [
            "verify",
            str(TEST_TABLES / "kqkr_take.yaml"),
            "--positions",
            str(POSITIONS / "kqkr_forks.epd"),
            "--defender",
            defender,
            "--analysis",
            "--json",
            "-",
        ],
        env={"AL0_CACHE_DIR": str(tablebase_cache)},
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["endings"] == {"mate": 2}
    assert data["handed_on"] == 2
    assert data["moves_to_mate"]["max"] > 2  # the capture, then KQK's mate
    rules = {row["rule"] for row in data["analysis"]["advice"]}
    assert "win_rook" in rules and any(rule.startswith("kqk:") for rule in rules)


def test_the_pgn_of_a_game_handed_on_names_the_table_of_each_move(tmp_path, tablebase_cache):
    pgn = tmp_path / "games.pgn"
    result = CliRunner().invoke(
        cli,
        ["verify", str(TEST_TABLES / "kqkr_take.yaml"), "--positions", str(POSITIONS / "kqkr_forks.epd")]
        + ["--pgn", str(pgn)],
        env={"AL0_CACHE_DIR": str(tablebase_cache)},
    )
    assert result.exit_code == 0, result.output
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None and game.headers["Result"] == "1-0"
    comments = [node.comment for node in game.mainline() if node.turn() == chess.BLACK]
    assert comments[0].startswith("win_rook: take") and all(c.startswith("kqk: ") for c in comments[1:-1])


@pytest.mark.parametrize(
    "positions, defender",
    [
        # More than one chunk (deal.CHUNK): the segments are read in workers.
        ("sample:220", "tablebase"),
        # The worst case's plans are searched in workers.
        (str(POSITIONS / "kqkr_forks.epd"), "worst"),
    ],
)
@pytest.mark.slow
def test_workers_plan_with_the_table_that_goes_on(tmp_path, tablebase_cache, positions, defender):
    """Two worker processes give the report one process gives for a table
    that hands its games to the bundled kqk: the successor's plans are
    made in the workers too."""
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / f"{jobs}.json"
        result = CliRunner().invoke(
            cli,
            ["verify", str(TEST_TABLES / "kqkr_take.yaml"), "--positions", positions]
            + ["--defender", defender, "--jobs", jobs, "--json", str(out)],
            env={"AL0_CACHE_DIR": str(tablebase_cache)},
        )
        assert result.exit_code == 0, result.output
        reports.append(json.loads(out.read_text()))
    varying = {"plans_searched", "plan_ms", "plans_per_second", "wall_seconds"}
    one, two = ({key: value for key, value in report.items() if key not in varying} for report in reports)
    assert one == two
    assert one["handed_on"] > 0 and one["endings"]["mate"] == one["handed_on"]


@pytest.mark.parametrize("defender", ["tablebase", "worst"])
def test_a_successor_table_that_does_not_load_stops_the_run_at_its_line(tmp_path, tablebase_cache, defender):
    """The successor is read when the first game takes the rook: its YAML
    error stops the run in one line naming the file, line and column."""
    table = tmp_path / "t.yaml"
    table.write_text((TEST_TABLES / "kqkr_take.yaml").read_text() + "successors:\n  KQK: bad.yaml\n")
    (tmp_path / "bad.yaml").write_text("name: bad\nmaterial: KQK\nrules: [\n")
    result = CliRunner().invoke(
        cli,
        ["verify", str(table), "--positions", str(POSITIONS / "kqkr_forks.epd"), "--defender", defender],
        env={"AL0_CACHE_DIR": str(tablebase_cache)},
    )
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    last = result.output.strip().splitlines()[-1]
    assert (
        last.startswith("Error: stopped after 0 of 2 positions: ")
        and f"{tmp_path / 'bad.yaml'}:4:1: bad YAML" in last
    )


def test_a_game_that_promotes_goes_on_with_the_bundled_table():
    """kpk_push promotes where the pawn runs in; the bundled kqk table mates
    and the game is one: our moves counted from the first push."""
    result = CliRunner().invoke(
        cli,
        [
            "verify",
            str(TEST_TABLES / "kpk_push.yaml"),
            "--positions",
            str(POSITIONS / "kpk_push.epd"),
            "--defender",
            "random",
            "--json",
            "-",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["endings"], data["handed_on"]) == ({"mate": 2}, 2)
    assert data["moves_to_mate"]["max"] > 4  # four pushes, then KQK's mate


def test_play_shows_the_distance_to_mate_after_a_capture(tablebase_cache):
    result = CliRunner().invoke(
        cli,
        [
            "play",
            str(LIBRARIES / "kqkr_win_rook.yaml"),
            "--fen",
            "8/8/3k4/8/4r3/8/2Q5/3K4 w - - 0 1",
            "--opponent",
            "tablebase",
            "--no-board",
            "--max-moves",
            "2",
        ],
        env={"AL0_CACHE_DIR": str(tablebase_cache)},
    )
    assert result.exit_code == 0, result.output
    assert "1. Qxe4    [win_rook / fork]  new plan  (optimal mate in 9, now mate in 8)" in result.output
    assert "   ... Kc7" in result.output  # the tablebase's longest defence of the KQK


@pytest.mark.slow
def test_kqk_table_meets_its_expectations_against_every_defence_from_every_position():
    """kqk.yaml (standard vocabulary only): every symmetry class of KQK with
    White to move, the worst case over all defences (two jobs) — all mated,
    no stalemate, the queen never lost, and its max-moves claim."""
    result = run("kqk", "--defender", "worst", "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert "18081 of 18081 positions: mate 18081" in result.output
    assert "expect mates-all: ok" in result.output and "expect max-moves: ok" in result.output


# ------------------------------------------------------------ Ctrl-C


def workers_of(process: subprocess.Popen) -> list[str]:
    """The child processes of ``process`` (Linux)."""
    path = f"/proc/{process.pid}/task/{process.pid}/children"
    with open(path) as children:
        return children.read().split()


@pytest.mark.parametrize(
    "defender, table", [("random", "krk"), ("tablebase", "krk"), ("worst", "krk_bratko")]
)
@pytest.mark.parametrize("group", [False, True], ids=["to-verify", "to-all"])
@pytest.mark.slow
def test_ctrl_c_with_workers_gives_the_partial_report(tmp_path, defender, table, group):
    # Ctrl-C reaches the whole process group from a terminal, or only verify
    # (kill -INT): either way the workers stop at their next position, the
    # chunks they cut short count, and verify reports, no traceback, no hang
    # (a worker killed while it sent a chunk's answer left verify waiting).
    out = tmp_path / "report.json"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "al0",
            "verify",
            table,
            "--defender",
            defender,
            "--jobs",
            "2",
            "--positions",
            "sample:5000",
            "--json",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # Ctrl-C as a terminal gives it, whatever this process does with it
        # (a process that ignores SIGINT passes that on).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        while process.poll() is None and len(workers_of(process)) < 2:
            time.sleep(0.05)
        (os.killpg if group else os.kill)(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 2 and "Traceback" not in err, err
    assert "Error: stopped after" in err.splitlines()[-1] and err.endswith("interrupted\n"), err
    data = json.loads(out.read_text())
    assert data["interrupted"] and data["games"] < data["total"] == 5000


LOCKS_AND_INTERRUPTS = (
    "import runpy, sys\n"
    "from concurrent.futures import _base\n"
    "def enter(self):\n"
    "    first = min(self.futures, key=id)\n"
    "    first._condition.acquire()\n"
    "    raise KeyboardInterrupt\n"
    "_base._AcquireFutures.__enter__ = enter\n"
    "sys.argv[0] = 'al0'\n"
    "runpy.run_module('al0', run_name='__main__')\n"
)
"""A Ctrl-C at the worst moment of ``concurrent.futures.wait`` and
``as_completed``, each time they are called: once they have locked the
first task of those they wait for. Raised there, it left that task locked
for good; the executor's thread then waited forever to set its result, and
verify (its stop path, or Python at exit) for that thread."""


@pytest.mark.parametrize(
    "defender, table", [("random", "krk"), ("tablebase", "krk"), ("worst", "krk_bratko")]
)
@pytest.mark.slow
def test_workers_answers_are_awaited_where_a_ctrl_c_leaves_no_lock(defender, table):
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            LOCKS_AND_INTERRUPTS,
            "verify",
            str(TABLES / f"{table}.yaml"),
            "--defender",
            defender,
            "--jobs",
            "2",
            "--positions",
            "sample:300",
            "--json",
            "-",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )  # seconds; the hang it guards was forever
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    data = json.loads(done.stdout)
    assert not data["interrupted"] and data["games"] == data["total"] == 300


@pytest.mark.slow
def test_ctrl_c_while_the_commands_load_is_one_line():
    # A command's imports take half a second (seconds on a busy machine),
    # made when it runs: a Ctrl-C there gave a traceback of the import
    # machinery.
    interrupt = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'al0.cli.verify':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "from al0.cli import cli\n"
        "cli(['verify', '--help'], prog_name='al0')\n"
    )
    done = subprocess.run([sys.executable, "-c", interrupt], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "\nAborted!\n")
