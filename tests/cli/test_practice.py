"""``al0 practice``: a person plays the winning side against the
tablebase's defence, each move with a verdict, hints and the goal in the
table's words, retry at every point, exercise sets, a PGN and a progress
record; driven through click's runner with typed input."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import signal
from pathlib import Path

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

from al0 import tablebase
from al0.cli import cli
from al0.cli.process import Terminated
from al0.engine.plan import Planner
from al0.lang.loader import load_table
from al0.teach import Grade, Practice, hint_lines, why_lines
from al0.teach.exercises import Level, level_starts
from conftest import POSITIONS, ROOT, TEST_TABLES, files_in

KRK_FEN = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
"""The bundled krk table's start: the tablebase mates in 8."""
STARTS = int(os.environ.get("AL0_STUDENT_STARTS", "20"))
"""Seeded starts per ending for the scripted student: the teaching claim is
made over 20 each (about 8 s of CPU for the three endings; the test is
slow-marked), and ``AL0_STUDENT_STARTS=200`` tries it wider."""


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A progress record of the test's own (the suite's tablebase cache is shared)."""
    monkeypatch.setenv("AL0_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def practise(*args: str, input: str | bytes):
    return CliRunner().invoke(cli, ["practice", *args], input=input)


def typed(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines)


def identifiers(name: str) -> re.Pattern[str]:
    """The table's rule and advice names as whole words, and node counts:
    what the student's view never shows."""
    table = load_table(name)
    names = {rule.name for rule in table.rules} | set(table.advice)
    return re.compile(r"\b(" + "|".join(sorted(map(re.escape, names))) + r")\b|\bnodes\b")


def hinted_game(game: Practice, check: re.Pattern[str] | None = None) -> list[str]:
    """Play ``game`` taking every hint; the moves in SAN. Every hint and
    ``why`` is checked against ``check``, every verdict to be no slip."""
    moves = []
    while game.ending() is None:
        if check is not None:
            for line in [*hint_lines(game), *why_lines(game)]:
                assert not check.search(line), line
        move = game.hint().move
        assert move is not None
        moves.append(game.board.san(move))
        turn = game.play(move)
        assert turn.verdict.grade not in (Grade.MISTAKE, Grade.BLUNDER), turn.verdict
    return moves


# ---------------------------------------------------------- the student


@pytest.mark.parametrize("name", ["krk", "kqk", "kbbk"])
@pytest.mark.slow
def test_a_student_who_takes_every_hint_mates_with_no_slip_told_in_words(name, tablebase_cache):
    """From seeded starts (1 to 30 moves from mate), every hint and why in
    words (no rule or advice name, no node count), no mistake or blunder,
    and a mate; the first start also played at the terminal."""
    table = load_table(name)
    endgame = tablebase.load(table.material.name, tablebase_cache)
    planner = Planner(table)
    check = identifiers(name)
    starts = level_starts(endgame, Level(1, 30), STARTS, seed=37)
    for board in starts:
        game = Practice(endgame, board.copy(), planner)
        hinted_game(game, check)
        assert game.solved()
    first = starts[0]
    moves = hinted_game(Practice(endgame, first.copy(), planner))
    lines = [line for move in moves for line in ("hint", "why", move)]
    result = practise(name, "--fen", first.fen(), input=typed(*lines))
    assert result.exit_code == 0, result.output
    out = result.output
    assert not check.search(out)
    assert out.count("hint: play ") == len(moves) and "goal: " in out
    assert "MISTAKE" not in out and "BLUNDER" not in out
    assert out.rstrip().splitlines()[-1].startswith("Game over: retry, undo, next or quit")
    assert "You mated in " in out


KPK_WON = "4k3/8/8/8/8/4K3/4P3/8 w - - 0 1"
"""Mate in 18: the king leads its pawn to the eighth rank."""


def test_a_kpk_student_who_takes_every_hint_queens_and_mates(tablebase_cache):
    """One game through the promotion: kpk's hints bring the pawn home, the
    queen's table (kqk) hints on to mate, no move a slip."""
    endgame = tablebase.load("KPK", tablebase_cache)
    game = Practice(endgame, chess.Board(KPK_WON), Planner(load_table("kpk")))
    moves = hinted_game(game)
    assert "e8=Q" in moves and game.solved()
    result = practise("kpk", "--fen", KPK_WON, "--no-board", input=typed(*moves))
    assert result.exit_code == 0, result.output
    assert f"You mated in {len(moves)} moves; the fastest mate from the start takes 18" in result.output


def test_the_lone_king_holds_kpk_with_kpk_holds_hints():
    """The defending side of KPK: the student has Black's king, the
    tablebase attacks, kpk_hold's hint names the move and its reason."""
    result = practise(
        "kpk_hold", "--fen", "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1", "--no-board", input=typed("hint", "quit")
    )
    assert result.exit_code == 0, result.output
    assert "You hold the draw with Black (KKP) against the tablebase's most testing attack" in result.output
    assert "hint: play K" in result.output


# --------------------------------------------------- the terminal's view


def test_hints_why_undo_flip_and_bad_input_in_the_tables_words():
    result = practise(
        "krk",
        input=typed(
            "hint",
            "why",
            "flip",
            "Kd3",
            "",
            "moves",
            "undo",
            "flip",
            "Kc4",
            "undo",
            "Re3",
            "Ke4",
            "Kd4",
            "retry",
            "best",
            "hint",
            "Rd3",
            "quit",
        ),
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "the fastest mate takes 8 moves" in out.splitlines()[0]
    assert (
        "hint: play Re3 — Squeeze: shrink the box the rook keeps their king in, the rook kept safe."
    ) in out
    # why: the situation and goal in the table's words, the move's effect in numbers.
    assert "situation: Drive their king towards the edge with rook and king together." in out
    assert "goal: Squeeze: shrink the box the rook keeps their king in" in out
    assert "  Re3: the box their king is held in shrinks from 14 to 8 squares" in out
    assert "rule" not in out and "nodes" not in out
    # The board in chess symbols, then seen from Black's side.
    assert "4 · · · ♔ · · · ·\n" in out and "4 · · · · ♔ · · ·\n" in out
    assert "'Kd3' is not a legal move here; legal moves: Kc4, Kc5" in out
    assert "nothing to undo" in out
    assert "1. Kc4  Kd2        mate in 8 → mate in 7  fastest: the fastest way" in out
    assert "1. Re3  Kd2        mate in 8 → mate in 9  method: Squeeze" in out
    assert (
        "3. Kd4  Kd2        mate in 8 → mate in 9  MISTAKE: mate in 9 after it instead of 7: "
        "2 moves slower; the plan was: Squeeze"
    ) in out
    assert "  best was Rd3, Kf3 (mate in 7 after it)\n  the method's move was Rd3 too" in out
    assert "taken back: your move again" in out
    assert "best: Kf3, Rd3 (mate in 8)" in out or "best: Rd3, Kf3 (mate in 8)" in out
    assert "3. Rd3  Kb2" in out
    assert out.splitlines()[-1].endswith(
        "): Stopped after 3 of your moves; from the start the tablebase mates in 8."
    )


def test_verbose_shows_the_identifiers_and_the_search():
    result = practise("krk", "--verbose", input=typed("hint", "why", "Re3", "quit"))
    out = result.output
    assert result.exit_code == 0, out
    assert "      (rule else_rule, advice squeeze)" in out
    assert "advice:   squeeze — forcing tree of depth 1" in out and " nodes searched" in out
    assert "[squeeze: newroomsmaller: yes, not rookexposed: yes" in out


def test_a_blunder_is_told_then_retried_and_the_exercise_goes_on():
    # Re3+?? puts the rook beside their king, undefended: Kxe3.
    fen = "8/8/8/8/8/3k4/8/K3R3 w - - 0 1"
    result = practise("krk", "--fen", fen, input=typed("Re3+", "hint", "retry", "Rb1", "quit"))
    out = result.output
    assert result.exit_code == 0, out
    assert (
        "1. Re3+  Kxe3      mate in 14 → no forced mate  BLUNDER: Kxe3: the rook on e3 was undefended" in out
    )
    assert "Game over: material lost: KK instead of KRK (1/2-1/2) after 1 of your moves" in out
    assert "the game is over: retry or undo to take your last move back" in out
    assert "taken back: your move again" in out
    assert "1. Rb1  " in out and "method: Regroup in two moves" in out


def test_a_stalemate_and_a_queen_given_away_are_blunders_and_undo_reaches_them():
    result = practise("kqk", "--fen", "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", input=typed("Qc7", "undo", "Qc8#"))
    out = result.output
    assert result.exit_code == 0, out
    assert "BLUNDER: stalemate: their king on a8 has no square and no other move" in out
    assert "Game over: stalemate: a draw (1/2-1/2)" in out
    assert "1. Qc8#" in out and "You mated in 1 move: the fastest mate there is." in out
    result = practise("kqk", input=typed("Qd4+", "retry", "quit"))
    assert "BLUNDER: Kxd4: the queen on d4 was undefended" in result.output
    assert "taken back: your move again" in result.output


def test_where_the_tables_own_move_throws_the_win_away_hint_and_why_say_so():
    # The book's table stalemates from 11 classes (tests/data/positions).
    epd = str(POSITIONS / "krk_bratko_stalemates.epd")
    result = practise(
        str(ROOT / "advice_tables" / "krk_bratko.yaml"),
        "--epd",
        epd,
        "--no-board",
        input=typed("hint", "why", "quit"),
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "      careful: the table errs here, this move throws the win away (see why)" in out
    assert (
        "  careful: the table errs here, Kc2 is a blunder (stalemate: their king on a1 has "
        "no square and no other move); the tablebase wins with Rb3"
    ) in out


def test_a_line_that_is_not_utf8_is_refused_and_the_game_goes_on():
    result = practise("krk", input=b"\xff\xfe\nquit\n")
    assert result.exit_code == 0, result.output
    assert "that line is not utf-8 text" in result.output


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--fen", "8/8/8/8/8/8/2Rk4/K7 b - - 0 1"], "cannot force mate here"),
        (["--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"], "KRK"),
        (["--fen", "not a fen"], "not a fen"),
        (["--fen", "k7/1R6/1K6/8/8/8/8/8 b - - 0 1"], "already over (stalemate: a draw)"),
        (["--fen", "8/8/8/8/8/8/2R5/K6k w - - 100 1"], "already over (50 moves without capture"),
        (["--level", "1-5"], "is not a level"),
        (["--level", "40..50"], "found 0 of 5 positions mating in 40..50"),
    ],
)
def test_a_start_with_nothing_to_practise_is_one_line_and_exit_2(args, fragment):
    result = practise("krk", *args, input="")
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith("Error: ") and fragment in line


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["KQKR"], "KQKR has no table: give --level A..B, --epd FILE or --fen FEN"),
        (["krk", "--level", "1..3", "--fen", KRK_FEN], "give one of --fen and --level"),
        ([], "name a TABLE"),
        (
            ["krkn"],
            "cannot read table: No such file or directory (to practise KRKN with the "
            "tablebase alone, name it in capitals: al0 practice KRKN)",
        ),
    ],
)
def test_exercises_named_twice_or_not_at_all_are_a_usage_error(args, fragment):
    result = practise(*args, input="")
    assert result.exit_code == 2, result.output
    assert fragment in result.output and "Traceback" not in result.output


def _refusals(tmp: Path) -> list[tuple[list[str], str]]:
    """Command lines refused before the first exercise, with what the one
    line says: a file the session would overwrite or could not write, a
    progress record it could not count into, an option that would change
    nothing, exercises that are none."""
    table = tmp / "mine.yaml"
    table.write_text((ROOT / "advice_tables" / "kqk.yaml").read_text())
    epd = tmp / "set.epd"
    epd.write_text("8/8/8/8/8/k7/2K5/6Q1 w - -\n")
    (tmp / "blank.epd").write_text("\n# only a comment\n")
    (tmp / "folder").mkdir()
    # A table with a library of its own (a copy: were the check to fail, the
    # test would overwrite that file, not the repository's).
    (tmp / "lib.py").write_text((ROOT / "library" / "krk.py").read_text())
    (tmp / "with_library.yaml").write_text(
        (ROOT / "advice_tables" / "krk.yaml").read_text().replace("../library/krk.py", "lib.py")
    )
    record = tmp / "data" / "progress.json"
    record.parent.mkdir()
    return [
        ([str(table), "--pgn", str(table)], "would overwrite TABLE"),
        ([str(table), "--epd", str(epd), "--pgn", str(epd)], "would overwrite --epd"),
        ([str(table), "--pgn", str(record)], "would overwrite the progress record"),
        (
            [str(tmp / "with_library.yaml"), "--pgn", str(tmp / "lib.py")],
            "would overwrite the table's library",
        ),
        (["krk", "--pgn", str(tmp / "none" / "x.pgn")], "cannot write PGN"),
        (["krk", "--pgn", str(tmp / "folder")], "is a folder"),
        (["krk", "--pgn", "-"], "cannot go to standard output"),
        (["krk", "--random", "3"], "--random needs --level"),
        (["krk", "--seed", "3"], "--seed needs --level"),
        (["--progress", "--fen", KRK_FEN], "--progress shows the record and stops"),
        (["--progress", "--flip", "--budget", "9"], "give it without --flip, --budget"),
        (["krk", "--epd", str(tmp / "blank.epd")], "no positions in it"),
        (["--lessons", "--flip"], "--lessons shows the lessons and stops: give it without --flip"),
        (["--json"], "--json needs --lessons"),
        (["--lesson", "kqk-1", "--fen", KRK_FEN], "--lesson names its own exercises: give it without --fen"),
        (["krk", "--lesson", "kqk-1"], "--lesson names its own exercises: give it without a TABLE"),
        (["--review", "--level", "3"], "--review names its own exercises: give it without --level"),
        (["--lesson", "kxk-9"], "'kxk-9' is not a lesson: the lessons are kqk-1,"),
    ]


@pytest.mark.parametrize("case", range(18))
def test_what_would_lose_or_clobber_work_is_refused_before_the_first_exercise(case, tmp_path):
    args, fragment = _refusals(tmp_path)[case]
    kept = files_in(tmp_path)
    result = practise(*args, input="Qg3\nquit\n")
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith("Error: ") and fragment in line, line
    assert files_in(tmp_path) == kept


@pytest.mark.parametrize(
    "record",
    [
        '{"version": 1, "endings": {"KRK": 5}}',
        '{"version": true, "endings": {}}',
        "[1",
    ],
)
def test_a_broken_progress_record_stops_practice_before_the_first_move(record, folders):
    folders.mkdir()
    (folders / "progress.json").write_text(record)
    for args in (["krk"], ["--progress"]):
        result = practise(*args, input="Rb6\nquit\n")
        assert result.exit_code == 2, result.output
        (line,) = result.output.strip().splitlines()
        assert "progress.json" in line and "Traceback" not in line
    assert (folders / "progress.json").read_text() == record


@pytest.mark.parametrize(
    "name, fragment",
    [
        ("K" + "R" * 5000 + "K", "there is none for KRRR"),  # once a traceback: name too long
        ("k" + "r" * 5000 + "k", "RRRK)"),  # ... name it in capitals: al0 practice KRR...K)
    ],
)
def test_a_material_too_long_to_be_a_file_name_is_one_line(name, fragment):
    result = practise(name, "--level", "1", input="")
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith("Error: ") and fragment in line


def test_a_material_in_capitals_is_one_even_beside_a_folder_of_that_name(tmp_path, monkeypatch):
    (tmp_path / "KRK").mkdir()
    monkeypatch.chdir(tmp_path)
    result = practise("KRK", "--level", "2", "--random", "1", "--no-board", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "the tablebase advises" in result.output


def test_the_defence_moves_first_when_the_start_is_its_turn():
    result = practise("krk", "--fen", "8/8/4R3/8/3K4/8/2k5/8 b - - 0 1", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "the defence opens: " in result.output


def test_where_the_table_has_no_plan_the_hint_is_the_tablebases_fastest():
    first_draft = str(ROOT / "docs" / "my_kqk.yaml")
    fen = "8/8/8/8/6Q1/8/3K4/5k2 w - - 0 1"
    result = practise(first_draft, "--fen", fen, input=typed("hint", "Ke3", "quit"))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "hint: play Ke3 (the table has no plan here; the tablebase's fastest move)" in out
    assert "1. Ke3" in out and "fastest: the fastest way" in out
    verbose = practise(first_draft, "--fen", fen, "--verbose", input=typed("hint", "quit"))
    assert (
        "(no plan: rule drive: no advice gives a move to play (tried mate_in_1, squeeze, approach))"
    ) in verbose.output


# ------------------------------------------ exercise sets and the record


def scripted(endgame, starts: list[chess.Board], planner: Planner | None) -> str:
    """The input of a student who takes every hint in each exercise, then next."""
    lines = []
    for board in starts:
        lines += hinted_game(Practice(endgame, board.copy(), planner)) + ["next"]
    return typed(*lines)


@pytest.mark.slow
def test_a_material_with_no_table_from_a_level_band_into_the_record_and_a_pgn(tablebase_cache, tmp_path):
    kqkr = tablebase.load("KQKR", tablebase_cache)
    starts = level_starts(kqkr, Level(1, 5), 2, seed=3)
    pgn = tmp_path / "games.pgn"
    result = practise(
        "KQKR",
        "--level",
        "1..5",
        "--random",
        "2",
        "--seed",
        "3",
        "--pgn",
        str(pgn),
        input=scripted(kqkr, starts, None) + "hint\n",
    )
    out = result.output
    assert result.exit_code == 0, out
    assert f"Exercise 1 of 2: {starts[0].fen()}" in out and "Exercise 2 of 2" in out
    assert "the tablebase advises" in out and out.count("You mated in ") == 2
    assert "MISTAKE" not in out and "BLUNDER" not in out
    assert f"PGN written to {pgn}" in out
    games = []
    with pgn.open() as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    assert [game.headers["FEN"] for game in games] == [board.fen() for board in starts]
    assert all(game.headers["Result"] == "1-0" for game in games)
    first = games[0].next()
    assert first is not None and "fastest: " in first.comment
    progress = practise("KQKR", "--progress", input="")
    assert progress.output == (
        "KQKR: 2 of 2 exercises solved, 0.0 moves over the optimum a mate; 0 hints, 0 mistakes, 0 blunders\n"
    )


def test_an_epd_exercise_file_a_pgn_with_arrows_and_the_record(tablebase_cache, tmp_path):
    epd = tmp_path / "lesson.epd"
    epd.write_text('8/8/8/8/8/3k4/8/K3R3 w - - id "rook";\n8/8/4R3/8/3K4/8/2k5/8 w - -\n')
    pgn = tmp_path / "lesson.pgn"
    # The first exercise: a blunder, retried, then a slow move; then stop.
    result = practise(
        "krk",
        "--epd",
        str(epd),
        "--pgn",
        str(pgn),
        input=typed("Re3+", "retry", "Kb2", "hint", "next", "quit"),
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "Exercise 1 of 2" in out and "Exercise 2 of 2" in out
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None and game.headers["FEN"].startswith("8/8/8/8/8/3k4/8/K3R3 w")
    move = game.next()
    assert move is not None and move.move == chess.Move.from_uci("a1b2")
    assert "fastest: " in move.comment and move.eval() is not None
    # The blunder taken back stays beside it, with its verdict and its square in red.
    slip = game.variations[1]
    assert slip.move == chess.Move.from_uci("e1e3")
    assert "blunder: Kxe3: the rook on e3 was undefended" in slip.comment
    assert (chess.E3, chess.E3, "red") in [(a.tail, a.head, a.color) for a in slip.arrows()]
    assert "[%csl Re3]" in pgn.read_text()
    record = practise("krk", "--progress", input="").output
    # The second exercise, left untouched, is not counted; the blunder's
    # position waits in the review queue, due in a day.
    assert record.splitlines()[:2] == [
        "KRK: 0 of 1 exercises solved; 1 hints, 0 mistakes, 1 blunders",
        "review queue: 0 of 1 positions due now",
    ]
    assert record.splitlines()[2].startswith("  the next due in 1 day (")


def test_a_mistake_in_the_pgn_has_the_methods_arrow_and_the_eval(tmp_path):
    pgn = tmp_path / "slip.pgn"
    result = practise("krk", "--pgn", str(pgn), input=typed("Re3", "Ke4", "Kd4", "quit"))
    assert result.exit_code == 0, result.output
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None
    nodes = list(game.mainline())
    slip = nodes[4]
    assert slip.san() == "Kd4" and "mistake: mate in 9 after it instead of 7" in slip.comment
    assert slip.eval() is not None and slip.eval().white().mate() == 9
    arrows = [(chess.square_name(a.tail), chess.square_name(a.head), a.color) for a in slip.arrows()]
    assert [arrow for arrow in arrows if arrow[2] != "yellow"] == [
        ("e3", "d3", "green"),
        ("e4", "f3", "blue"),
    ]
    # Their king's box after the move, in yellow: the rook's box of 8 squares.
    box = sorted(tail for tail, head, colour in arrows if colour == "yellow")
    assert box == ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2"]
    assert "[%cal Ge3d3,Be4f3]" in pgn.read_text()


def test_a_mate_taken_back_and_not_replayed_ends_the_pgn_a_mate_played_over_is_a_variation(tmp_path):
    fen = "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1"
    for moves, mainline, result in [
        (("Qc8#", "undo", "quit"), ["Qc8#"], "1-0"),
        (("Qc8#", "undo", "Qc7", "quit"), ["Qc7"], "1/2-1/2"),
    ]:
        pgn = tmp_path / "mate.pgn"
        assert practise("kqk", "--fen", fen, "--pgn", str(pgn), input=typed(*moves)).exit_code == 0
        game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
        assert game is not None
        assert [node.san() for node in game.mainline()] == mainline
        assert game.headers["Result"] == result
        assert ("( 1. Qc8#" in pgn.read_text()) is (mainline != ["Qc8#"])


def test_a_blunder_that_loses_says_black_wins_and_counts_as_the_verdict_does():
    result = practise("KQKR", "--fen", "8/8/8/8/4rQ2/1k6/8/1K6 w - - 0 1", input=typed("Qe3+", "quit"))
    assert result.exit_code == 0, result.output
    assert (
        "1. Qe3+  Rxe3      mate in 5 → Black mates in 2  BLUNDER: Rxe3: the queen on e3 was undefended; Black wins"
        in result.output
    )
    # The best move's mate counted after the move, as the verdict and the arrow count.
    assert "  best was Qxe4 (mate in 4 after it)" in result.output


@pytest.mark.parametrize(
    "material, fen, first",
    [
        # A material with pawns is one too: KPK read as a table's name, 'cannot read table'.
        ("KPK", "8/4P3/8/8/8/8/8/K5k1 w - - 0 1", "1. e8=Q "),
        ("KKP", "8/8/k7/8/8/2K5/1p6/8 b - - 0 1", "1... b1=Q "),
    ],
)
def test_a_material_with_pawns_is_practised_with_the_tablebase_alone(material, fen, first):
    result = practise(material, "--fen", fen, "--no-board", input=typed(first.split()[-1], "quit"))
    assert result.exit_code == 0, result.output
    assert "the tablebase advises" in result.output and first in result.output


def test_why_says_measures_with_the_same_numbers_once():
    result = practise("kbbk", "--no-board", input=typed("why", "quit"))
    out = result.output
    assert "Bd2: the box their king is held in shrinks from 35 to 32 squares, as do the room" in out
    assert out.count("from 35 to 32") == 1, out


def test_an_epd_sets_id_names_the_exercise_and_its_bm_and_am_speak_after_the_first_move(tmp_path):
    epd = tmp_path / "set.epd"
    epd.write_text(f'{KRK_FEN.removesuffix(" 0 1")} bm Rd6; am Kc4; id "krk.1";\n')
    result = practise(
        "krk", "--epd", str(epd), "--no-board", input=typed("Re3", "retry", "Kc4", "Kd4", "quit")
    )
    out = result.output
    assert result.exit_code == 0, out
    assert f"Exercise 1 of 1 (krk.1): {KRK_FEN}" in out
    assert (
        out.count("  the exercise's move (bm) was Rd6") == 2
    )  # after Re3 and Kc4, not after the second move
    assert out.count("  the exercise warns against Kc4 (am)") == 1


def test_an_arrow_keys_codes_are_not_read_as_a_move():
    result = practise("kqk", "--no-board", input=typed("\x1b[A", "Qc3", "quit"))
    assert result.exit_code == 0, result.output
    assert "that line holds a key's codes (an arrow key?), not a move" in result.output
    assert "is not a legal move" not in result.output and "1. Qc3" in result.output


# ---------------------------------------------------------- lessons, review


def test_the_lessons_are_listed_by_ending_as_text_and_json():
    listed = practise("--lessons", input="")
    assert listed.exit_code == 0, listed.output
    assert "KQKR (the tablebase alone):\n  kqkr-1   Mate in one: mate in at most" in listed.output
    rows = json.loads(practise("KRK", "--lessons", "--json", input="").output)["lessons"]
    assert [row["name"] for row in rows] == ["krk-1", "krk-2", "krk-3"]
    assert rows[2]["level"] == "6..16" and rows[2]["table"] == "krk"


def test_a_lesson_states_its_goal_first_judges_it_and_a_miss_comes_back_for_review(folders):
    mated = practise("--lesson", "kqk-1", "--random", "1", "--no-board", input=typed("Qa8"))
    assert mated.exit_code == 0, mated.output
    goal = "Lesson kqk-1, Mate in one. Your goal: Mate in at most 1 move.\nYou play White (KQK)"
    assert goal in mated.output
    assert "Goal met: you mated in 1 move (at most 1)." in mated.output
    missed = practise("--lesson", "kqk-1", "--random", "1", "--no-board", input=typed("Qb4", "quit"))
    assert "1. Qb4" in missed.output and "MISTAKE" in missed.output
    assert "Goal not met: no mate (the goal: within 1 move)." in missed.output
    assert "nothing to review now\n  the next due in 1 day (" in practise("--review", input="").output
    # A day later (the record's clock moved back a day): due, replayed
    # cleanly, and on to the next interval, 3 days.
    path = folders / "progress.json"
    data = json.loads(path.read_text())
    (fen,) = data["review"]
    data["review"][fen]["due"] -= 86_400_000
    path.write_text(json.dumps(data))
    assert "review queue: 1 of 1 positions due now (1 KQK)" in practise("--progress", input="").output
    replayed = practise("--review", "--no-board", input=typed("Qa8"))
    assert f"start: {fen}" in replayed.output and "You mated in 1 move" in replayed.output
    assert (
        "Review: a position you missed (interval 1 of 5); mate with no mistake and it comes back in 3 days."
        in (replayed.output)
    )
    assert json.loads(path.read_text())["review"][fen]["step"] == 1
    assert "the next due in 3 days (" in practise("--progress", input="").output


def test_progress_with_no_record_yet_says_so():
    result = practise("--progress", input="")
    assert result.exit_code == 0, result.output
    assert result.output == "no exercises recorded yet\n"


# ------------------------------------------------- the teachers' page

TEACHING = ROOT / "docs" / "teaching.md"
TEXT_BLOCK = re.compile(r"^```text\n(\$ al0 practice.*?)^```", re.S | re.M)
PROMPTS = ("help, quit): ", "next or quit: ")
"""How the prompts end: what follows on their line is what was typed."""


def transcript_pattern(expected: str) -> re.Pattern[str]:
    """The page's output as a pattern: a line ``…`` stands for any lines,
    ``…`` in a line for any text; trailing spaces are not compared."""
    parts = []
    for line in expected.splitlines():
        if line == "…":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(map(re.escape, line.rstrip().split("…"))) + "\n")
    return re.compile("".join(parts))


@pytest.mark.slow
def test_the_teachers_page_prints_what_it_shows(tmp_path, monkeypatch):
    """Each ``$ al0 practice`` transcript of docs/teaching.md, typed in in
    order in one folder (one lesson, one progress record), prints what the
    page shows."""
    monkeypatch.chdir(tmp_path)
    commands = []
    for block in TEXT_BLOCK.findall(TEACHING.read_text(encoding="utf-8")):
        for text in re.split(r"^(?=\$ al0 )", block, flags=re.M):
            if text:
                command, _, expected = text.partition("\n")
                commands.append((command[2:], expected))
    assert len(commands) >= 4
    for command, expected in commands:
        typed_in = [
            line.split(prompt, 1)[1] for line in expected.splitlines() for prompt in PROMPTS if prompt in line
        ]
        if typed_in and not typed_in[-1]:
            typed_in.pop()  # the end of input
        result = CliRunner(echo_stdin=True).invoke(cli, shlex.split(command)[1:], input=typed(*typed_in))
        assert result.exit_code == 0, result.output
        shown = "".join(line.rstrip() + "\n" for line in result.output.splitlines())
        assert transcript_pattern(expected).fullmatch(shown), (
            f"docs/teaching.md: `{command}` now prints:\n{shown}"
        )
    # The game record the page shows is the one the lesson wrote.
    written = (tmp_path / "lesson.pgn").read_text(encoding="utf-8")
    [movetext] = re.findall(r"^```text\n(1\. .*?)\n```", TEACHING.read_text(encoding="utf-8"), re.S | re.M)
    assert movetext in written.splitlines()


@pytest.mark.parametrize(
    "stop, code", [(KeyboardInterrupt, 130), (Terminated(signal.SIGTERM), 143)], ids=["ctrl-c", "sigterm"]
)
def test_a_session_stopped_mid_exercise_keeps_its_moves_in_the_pgn_and_the_record(
    tmp_path, monkeypatch, stop, code
):
    # Ctrl-C or SIGTERM mid-exercise lost the game played so far: no PGN, no record.
    import al0.cli.practice

    lines = iter(["Kb2", "hint"])

    def typed_line(question: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise stop from None

    monkeypatch.setattr(al0.cli.practice, "typed_line", typed_line)
    pgn = tmp_path / "stopped.pgn"
    result = practise("krk", "--fen", "8/8/8/8/8/3k4/8/K3R3 w - -", "--pgn", str(pgn), input="")
    assert result.exit_code == code, result.output
    assert f"PGN written to {pgn}" in result.output
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None and game.headers["Result"] == "*"
    assert [move.uci() for move in game.mainline_moves()][0] == "a1b2"
    record = practise("krk", "--progress", input="").output
    assert record == "KRK: 0 of 1 exercises solved; 1 hints, 0 mistakes, 0 blunders\n"


def test_practice_goes_on_with_the_table_of_the_new_material(tablebase_cache):
    """The student takes the rook: the hints come from the bundled kqk table
    from then on, named, and its goals explain the moves."""
    result = practise(
        str(TEST_TABLES / "kqkr_take.yaml"),
        "--fen",
        "8/8/3k4/8/4r3/8/2Q5/3K4 w - - 0 1",
        input=typed("hint", "Qxe4", "hint", "quit"),
    )
    assert result.exit_code == 0, result.output
    assert "hint: play Qxe4 — Take the rook now." in result.output
    assert "hint: play Qd5 — kqk: Squeeze hard: a queen move that halves their king's box" in result.output
