"""The ``al0`` command line: summaries, plans, games, and one clean line with
exit code 2 for every bad input (never a traceback)."""

from __future__ import annotations

import io
import json
import re

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

from al0.cli import cli
from conftest import BROKEN_TABLES, ROOT

BRATKO = str(ROOT / "advice_tables" / "krk_bratko.yaml")
BROKEN = sorted(BROKEN_TABLES.glob("*.yaml"))
BOOK_FEN = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
ADVICE = {"mate_in_2", "squeeze", "approach", "keeproom", "divide_in_2", "divide_in_3"}


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def assert_user_error(result, *fragments: str) -> str:
    """Exit code 2 with one line ``Error: …`` and no traceback; returns the line."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


# ------------------------------------------------------------- check


def test_check_summarises_the_book_table():
    result = run("check", BRATKO)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "ok — table 'krk_bratko', KRK, plays White" in out
    assert "rules (2):" in out and "advice (6):" in out
    assert "symmetric: no — played as the board is given" in out
    assert "symmetric: yes" in run("check", str(BRATKO).replace("krk_bratko", "krk")).output
    assert "edge_rule: if their_king_edge and kings_close then mate_in_2, squeeze" in out
    assert "else_rule: if true then squeeze, approach" in out
    assert out.index("edge_rule:") < out.index("else_rule:")
    for name in ADVICE:
        assert f"  {name}:\n" in out
    assert "    us-moves: depth = 0: legal; depth = 2: checkmove" in out
    # The table's words beside its identifiers, in the text and the JSON.
    assert "    description: Squeeze: shrink the box the rook keeps their king in" in out
    assert "    description: Drive their king towards the edge" in out
    data = json.loads(run("check", BRATKO, "--json").output)
    assert data["advice"]["squeeze"]["description"].startswith("Squeeze: shrink the box")
    assert data["rules"][1]["description"].startswith("Drive their king")
    predicates = out[out.index("predicates used:") : out.index("move generators used:")]
    for name in (
        "rooklost",
        "rookexposed",
        "rookdivides",
        "newroomsmaller",
        "lpatt",
        "okapproachedcsquare",
        "okorndle",
        "mate",
        "stalemate",
    ):
        assert f"\n  {name}: " in predicates
    # A docstring's summary wrapped over two lines is shown whole.
    assert "critical square is smaller at the node than at the root" in predicates
    generators = out[out.index("move generators used:") :]
    for name in ("legal", "checkmove", "rookmove", "kingdiagfirst", "nomove"):
        assert f"\n  {name}: " in generators


@pytest.mark.parametrize("table", BROKEN, ids=[path.name for path in BROKEN])
def test_check_broken_table(table):
    line = assert_user_error(run("check", str(table)))
    assert re.match(rf"Error: {re.escape(str(table))}:\d+:\d+: \S", line), line


def test_check_missing_table(tmp_path):
    missing = str(tmp_path / "missing.yaml")
    line = assert_user_error(run("check", missing), missing, "cannot read table")
    assert "bundled" not in line


@pytest.mark.parametrize("command", [["check"], ["verify"], ["play", "--opponent", "random"], ["uci"]])
def test_an_empty_table_path_is_named_empty_not_a_folder(command):
    assert_user_error(run(command[0], "", *command[1:]), "an empty table path")


def test_a_missing_path_named_like_a_bundled_table_names_it(tmp_path):
    # The README's `al0 play advice_tables/krk.yaml`, typed in another folder.
    missing = str(tmp_path / "advice_tables" / "krk.yaml")
    assert_user_error(run("check", missing), missing, "the bundled table of that name is `krk`")


def test_check_warns_and_fails_only_when_strict(tmp_path):
    draft = (ROOT / "docs" / "my_kqk.yaml").read_text(encoding="utf-8")
    path = tmp_path / "t.yaml"
    path.write_text(draft.replace("< root.dist(K, k)", "< root.dist(K, K)"), encoding="utf-8")
    warning = (
        f"{path}:23:18: warning: advice 'approach' better-goal: dist(K, K) is the distance from K to itself"
    )
    lenient = CliRunner().invoke(cli, ["check", str(path)])
    assert lenient.exit_code == 0 and warning in lenient.stderr and warning not in lenient.stdout
    strict = CliRunner().invoke(cli, ["check", str(path), "--strict", "--json"])
    assert strict.exit_code == 1 and json.loads(strict.stdout)["warnings"][0].startswith(warning)
    assert run("check", "kqk", "--strict").exit_code == 0


# -------------------------------------------------------------- plan


def test_plan_text():
    result = run("plan", BRATKO, "--fen", BOOK_FEN)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"position: {BOOK_FEN}"
    # Each identifier with the table's description of it.
    assert lines[1] == (
        "rule:     else_rule (Drive their king towards the edge with rook and king together.)"
    )
    assert lines[2].startswith("advice:   squeeze — forcing tree of depth 1")
    assert lines[3] == (
        "          (Squeeze: shrink the box the rook keeps their king in, the rook kept safe.)"
    )
    assert "Re3" in lines[4]


NO_PLAN = "8/8/8/8/6Q1/8/3K4/5k2 w - - 0 1"
"""Where the tutorial's first draft has no plan (docs/authoring.md)."""


def test_plan_why_names_the_failing_conjunct_after_each_move():
    draft = str(ROOT / "docs" / "my_kqk.yaml")
    result = run("plan", draft, "--fen", NO_PLAN, "--why")
    assert result.exit_code == 0, result.output
    assert "          after Qg3: better-goal: not stalemate fails" in result.output.splitlines()
    assert "          after Ke3: better-goal: dist(K, k) < root.dist(K, k) fails" in result.output
    data = json.loads(run("plan", draft, "--fen", NO_PLAN, "--why", "--json").output)
    squeeze = next(entry for entry in data["passed_over"] if entry["advice"] == "squeeze")
    assert {"line": ["Qg3"], "goal": "better-goal", "failed": ["not stalemate"], "moves_left": 0} in squeeze[
        "refutations"
    ]
    assert len(squeeze["refutations"]) == 29  # every legal move of the queen and our king: none squeezes
    assert_user_error(run("plan", draft, "--fen", NO_PLAN, "--why", "--format", "dot"), "--why")


def test_plan_why_follows_the_refuting_reply():
    result = run("plan", "kqk", "--fen", "8/8/8/8/8/8/4Q3/K1k5 w - - 0 1", "--why", "--json")
    mate_in_2 = json.loads(result.output)["passed_over"][1]
    assert mate_in_2["advice"] == "mate_in_2"
    # Qe7 lets their king out to d2; no check of ours mates there.
    assert {"line": ["Qe7", "Kd2"], "goal": "better-goal", "failed": ["mate"], "moves_left": 8} in mate_in_2[
        "refutations"
    ]
    assert {
        "line": ["Qd3"],
        "goal": "holding-goal",
        "failed": ["not stalemate"],
        "moves_left": 0,
    } in mate_in_2["refutations"]


def test_plan_json_flag_and_another_format_conflict():
    assert_user_error(
        run("plan", BRATKO, "--fen", BOOK_FEN, "--format", "dot", "--json"),
        "--json is --format json",
        "--format dot",
    )


def test_plan_json_of_the_book_position():
    result = run("plan", BRATKO, "--fen", BOOK_FEN, "--json")
    assert result.exit_code == 0, result.output
    [line] = result.output.splitlines()
    plan = json.loads(line)
    assert {"fen", "rule", "advice", "tried", "tree"} <= set(plan)
    assert (plan["fen"], plan["rule"], plan["advice"], plan["tried"]) == (
        BOOK_FEN,
        "else_rule",
        "squeeze",
        [],
    )
    assert plan["advice_description"].startswith("Squeeze: shrink the box")
    assert plan["rule_description"].startswith("Drive their king towards the edge")
    # squeeze is a one-move tree: a rook move, then the better-goal holds.
    [first] = plan["tree"]["moves"]
    move = chess.Move.from_uci(first["uci"])
    board = chess.Board(BOOK_FEN)
    assert board.piece_at(move.from_square) == chess.Piece(chess.ROOK, chess.WHITE)
    assert first["san"] == board.san(move)
    assert first["tree"]["moves"] == []


def test_plan_json_lists_the_advice_tried():
    fens = ["4K3/8/8/8/8/8/R7/1k6 w - - 0 1", "8/8/7k/8/6K1/R7/8/8 w - - 0 1"]
    result = run("plan", BRATKO, "--fen", fens[0], "--fen", fens[1], "--json")
    assert result.exit_code == 0, result.output
    plans = [json.loads(line) for line in result.output.splitlines()]
    assert [(p["fen"], p["rule"], p["advice"], p["tried"]) for p in plans] == [
        (fens[0], "else_rule", "divide_in_2", ["squeeze", "approach", "keeproom"]),
        (fens[1], "edge_rule", "squeeze", ["mate_in_2"]),
    ]


def test_plan_epd(tmp_path):
    epd = tmp_path / "suite.epd"
    epd.write_text(
        "# three KRK positions\n"
        f'{BOOK_FEN.rsplit(" ", 2)[0]} id "book";\n'
        "\n"
        "k7/8/1K6/8/8/8/8/7R w - - 0 1\n"  # a full FEN is fine too
        "8/8/8/4k3/8/8/8/R3K3 w - - bm Ra4;\n"
    )
    result = run("plan", BRATKO, "--epd", str(epd), "--json")
    assert result.exit_code == 0, result.output
    plans = [json.loads(line) for line in result.output.splitlines()]
    assert [p["fen"] for p in plans] == [
        BOOK_FEN,
        "k7/8/1K6/8/8/8/8/7R w - - 0 1",
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    ]
    assert plans[1]["rule"] == "edge_rule" and plans[1]["advice"] == "mate_in_2"
    assert plans[1]["tree"]["moves"][0]["san"] == "Rh8#"
    assert all(p["advice"] in ADVICE for p in plans)


@pytest.mark.parametrize(
    "bad_line, fragments",
    [
        ("8/8/4R3/8/3K4/8/2k6/8 w - -", ["bad EPD line"]),  # unparsable
        ("8/8/8/8/3Kk3/8/8/R7 w - -", ["illegal position"]),  # kings adjacent
        ("8/8/4Q3/8/3K4/8/2k5/8 w - -", ["material KQK", "for KRK"]),  # other material
        ("8/8/4R3/8/3K4/8/2k5/8 b - -", ["not the table's side to move"]),
        ("4k3/8/8/8/8/8/8/R3K3 w Q -", ["without castling rights"]),
        ("8/8/8/8/8/2k5/8/R3K3 w - - 100 80", ["50-move rule has already ended the game"]),
        ("8/8/8/8/8/2k5/8/R3K3 w - - 98 80", ["50-move rule ends the game before any mate"]),
    ],
    ids=["unparsable", "illegal", "material", "side-to-move", "castling", "clock-100", "clock-98"],
)
def test_plan_epd_bad_line(tmp_path, bad_line, fragments):
    epd = tmp_path / "bad.epd"
    epd.write_text(f"{BOOK_FEN}\n# a comment\n{bad_line}\n")
    result = run("plan", BRATKO, "--epd", str(epd), "--json")
    # Every position is checked before any is planned: no partial output.
    assert_user_error(result, f"{epd}:3: ", *fragments)


@pytest.mark.parametrize(
    "fen, fragments",
    [
        ("8/8/4Q3/8/3K4/8/2k5/8 w - - 0 1", ["has material KQK", "the table is for KRK"]),
        ("8/8/8/8/3Kk3/8/8/R7 w - - 0 1", ["illegal position", "3Kk3"]),
        ("not a fen", ["bad FEN 'not a fen'"]),
        ("8/8/4R3/8/3K4/8/2k5/8 b - - 0 1", ["not the table's side to move"]),
    ],
    ids=["KQK", "kings-adjacent", "unparsable", "side-to-move"],
)
def test_plan_bad_fen(fen, fragments):
    assert_user_error(run("plan", BRATKO, "--fen", fen), *fragments)


def test_plan_needs_a_position():
    result = run("plan", BRATKO)
    assert result.exit_code == 2
    assert "--fen" in result.output and "Traceback" not in result.output


# -------------------------------------------------------------- play


def test_play_random_to_mate():
    result = run("play", BRATKO, "--opponent", "random", "--seed", "1", "--no-board")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith("Game over: checkmate")
    assert "[else_rule / squeeze]" in result.output


def test_play_goes_on_with_the_table_of_the_new_material(tmp_path, tablebase_cache):
    """kqkr_take takes the rook; the bundled kqk table mates: the output says
    so once and names kqk at each of its moves, the PGN's comments too."""
    pgn = tmp_path / "game.pgn"
    table = str(ROOT / "tests" / "data" / "tables" / "kqkr_take.yaml")
    result = run("play", table, "--opponent", "tablebase", "--no-board", "--pgn", str(pgn))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].startswith("1. Qxe4    [win_rook / take]  new plan")
    assert lines[3].startswith("the game goes on with kqk (KQK): King and Queen vs King")
    assert lines[4].startswith("2. Qd5     [kqk: drive / squeeze_half]  new plan")
    assert lines[-2].startswith("Game over: checkmate") and "the game goes on" not in "".join(lines[4:])
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None and game.headers["Result"] == "1-0"
    comments = [node.comment for node in game.mainline() if node.turn() == chess.BLACK]
    assert comments[0].startswith("win_rook: take") and all(c.startswith("kqk: ") for c in comments[1:])


def test_play_writes_pgn_with_advice_comments(tmp_path):
    pgn = tmp_path / "game.pgn"
    result = run("play", BRATKO, "--opponent", "random", "--seed", "1", "--no-board", "--pgn", str(pgn))
    assert result.exit_code == 0, result.output
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None and not game.errors
    assert game.board().fen() == BOOK_FEN
    assert game.headers["Result"] == "1-0"
    nodes = list(game.mainline())
    assert nodes[-1].board().is_checkmate()
    ours = [node for node in nodes if node.turn() == chess.BLACK]  # White just moved
    assert ours and all(node.comment for node in ours)
    # The advice is the comment's text; the distance to mate is python-chess's eval.
    texts = [
        " ".join(re.sub(r"\s*\[%eval [^\]]*\]", "", node.comment).split()) for node in ours
    ]  # the file's lines wrap a long comment
    for text in texts:
        rule, advice = text.split(" (")[0].split(": ")
        assert rule in ("edge_rule", "else_rule") and advice in ADVICE
    # Each with the advice's description.
    assert (
        texts[0]
        == ("else_rule: squeeze (Squeeze: shrink the box the rook keeps their king in, the rook kept safe.)")
        and ours[0].eval().white().mate() > 0
    )
    assert texts[-1] == (
        "edge_rule: mate_in_2 (Mate in two: their king is on the edge, finish "
        "it off there.); checkmate: they are mated"
    )


def test_play_human():
    # Illegal, garbage and null moves are re-prompted; SAN and UCI are accepted.
    moves = ["Kc3", "garbage", "--", "0000", "Kb2", "b2a2", "quit"]
    result = run(
        "play", BRATKO, "--opponent", "human", "--no-board", input="".join(f"{move}\n" for move in moves)
    )
    assert result.exit_code == 0, result.output
    assert result.exception is None
    out = result.output
    for bad in ("Kc3", "garbage", "--", "0000"):
        assert f"{bad!r} is not a legal move here; legal moves: Kb1, Kb2" in out
    assert "   ... Kb2\n" in out and "   ... Ka2\n" in out
    assert out.count("   ... ") == 2  # no null move slipped through
    assert out.splitlines()[-1].endswith("Game over: the opponent quit (*)")


def test_play_human_end_of_input():
    result = run("play", BRATKO, "--opponent", "human", "--no-board", input="Kb2\n")
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert "   ... Kb2\n" in result.output
    assert result.output.splitlines()[-1] == "Game over: the opponent quit (*)"


def test_play_missing_table(tmp_path):
    missing = str(tmp_path / "missing.yaml")
    assert_user_error(run("play", missing, "--opponent", "random"), missing)


def test_play_without_a_start_position_says_how_to_give_one(tmp_path):
    table = tmp_path / "no_start.yaml"
    text = (ROOT / "advice_tables" / "kqk.yaml").read_text()
    table.write_text("\n".join(line for line in text.splitlines() if not line.startswith("start:")))
    assert_user_error(run("play", str(table), "--opponent", "random"), "no start position", "--fen", "start:")


def test_play_refuses_castling_rights_before_showing_a_board():
    assert_user_error(
        run("play", BRATKO, "--fen", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "--opponent", "random"),
        "without castling rights",
        "R3K3 w Q",
    )


def test_play_other_material():
    assert_user_error(
        run("play", BRATKO, "--fen", "8/8/4Q3/8/3K4/8/2k5/8 w - - 0 1", "--opponent", "random"),
        "material KQK",
    )


def test_play_stops_at_a_successor_table_that_does_not_load(tmp_path, tablebase_cache):
    """The successor is read when the game takes the rook: the capture is
    shown, then its YAML error in one line naming the file, line and column."""
    table = tmp_path / "t.yaml"
    text = (ROOT / "tests" / "data" / "tables" / "kqkr_take.yaml").read_text()
    table.write_text(text + "successors:\n  KQK: bad.yaml\n")
    (tmp_path / "bad.yaml").write_text("name: bad\nmaterial: KQK\nrules: [\n")
    result = run("play", str(table), "--opponent", "tablebase", "--no-board")
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    lines = result.output.strip().splitlines()
    assert lines[1].startswith("1. Qxe4    [win_rook / take]")
    assert lines[-1].startswith(f"Error: {tmp_path / 'bad.yaml'}:4:1: bad YAML")


def test_check_loads_the_successor_tables_and_names_a_broken_ones_place(tmp_path):
    """The same broken successor as above: check says so before any game."""
    table = tmp_path / "t.yaml"
    text = (ROOT / "tests" / "data" / "tables" / "kqkr_take.yaml").read_text()
    table.write_text(text + "successors:\n  KQK: bad.yaml\n")
    (tmp_path / "bad.yaml").write_text("name: bad\nmaterial: KQK\nrules: [\n")
    assert_user_error(run("check", str(table)), f"{tmp_path / 'bad.yaml'}:4:1: bad YAML")


def test_check_lists_the_tables_a_game_may_go_on_with():
    table = ROOT / "tests" / "data" / "libraries" / "kqkr_win_rook.yaml"
    result = run("check", str(table))
    assert result.exit_code == 0, result.output
    assert f"successors: KQK → {table.resolve()} — a game that reaches the material goes on" in result.output
    data = json.loads(run("check", str(table), "--json").output)
    assert data["successors"] == {"KQK": str(table.resolve())}
