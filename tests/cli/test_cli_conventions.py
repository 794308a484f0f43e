"""Defaults and conventions every command keeps: --jobs, the note before a
run over a million positions, tablebase builds that say how they go, Ctrl-C,
SAN in verify's lines, --json for tables and check, help that works after an
install, --no-board."""

from __future__ import annotations

import ast
import io
import json
import re
import sys

import chess
import chess.pgn
import pytest
from click.testing import CliRunner

import al0.cli.play
import al0.cli.practice
import al0.cli.verify
import al0.verify.estimate
from al0.board import Material
from al0.cli import cli
from al0.cli.terminal import LONGEST_TYPED, prepare_tablebase, typed_line
from al0.cli.uci import command_lines
from al0.cli.verify import san_line
from al0.lang.loader import load_table
from al0.uci import UciEngine
from al0.verify.estimate import duration
from al0.verify.run import default_jobs
from conftest import ROOT


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.mark.parametrize(
    "kind, scheduler, positions, jobs, cheap",
    [
        ("tablebase", None, 18_081, 4, False),
        ("worst", None, 18_081, 4, False),
        ("worst", None, 18_081, 1, True),  # the workers would only plan, in microseconds
        ("tablebase", None, 18_081, 4, True),  # they play the defender's games too
        ("random", None, 2_001, 4, False),
        ("random", None, 2_000, 1, False),  # a small run: workers would cost more than they save
        ("tablebase", None, 200, 1, False),
        ("worst", None, 201, 4, False),  # its workers share plans: worth it past one chunk
        ("worst", None, 100, 1, False),
        ("uci", None, 18_081, 1, False),  # one engine per run
        ("tablebase", "tcp://host:8786", 18_081, 1, False),
    ],
)
def test_jobs_default_to_the_usable_cpus(kind, scheduler, positions, jobs, cheap):
    assert default_jobs(kind, scheduler, positions, cpus=4, cheap_plans=cheap) == jobs


def test_a_uci_defender_without_jobs_is_not_refused():
    """--jobs defaults to the CPU count, which a UCI defender cannot use: the
    default is one for it, not the usage error an explicit --jobs 2 gets."""
    result = run("verify", "krk", "--defender", "uci:no-such-engine-al0", "--positions", "sample:1")
    assert "--jobs 1" not in result.output
    assert run("verify", "krk", "--defender", "uci:x", "--jobs", "2").exit_code == 2


@pytest.mark.parametrize(
    "seconds, text",
    [
        (0.4, "0 s"),
        (41, "41 s"),
        (89, "89 s"),
        (90, "2 min"),
        (3000, "50 min"),
        (5400, "1.5 h"),
        (27_720, "7.7 h"),
    ],
)
def test_durations_read_as_a_person_says_them(seconds, text):
    assert duration(seconds) == text


def test_a_long_run_first_says_how_long_by_a_model_of_its_work(monkeypatch):
    """A run of more than SMALL_RUN positions times a seeded pilot of its
    games first and, when the model makes it long (as if any run were,
    here), says how long it will take, its plans and how to sample, on
    stderr, before it starts. The plans are a count, not a clock: KQK's
    18,081 starts need 18,086, and the model is held within 2x of that."""
    monkeypatch.setattr(al0.verify.estimate, "SHOWN_FROM_SECONDS", 0.0)
    started = []
    monkeypatch.setattr(
        al0.cli.verify, "run_with_progress", lambda *args: started.append(args) or "stopped by the test"
    )
    result = run("verify", "kqk", "--jobs", "2")
    note = re.fullmatch(
        r"note: 18,081 positions to judge: about \S+ (s|min) with 2 processes \(some ([\d,]+) plans, "
        r"\S+ (s|min) of CPU by a model of the work\); --positions sample:1000 judges a seeded "
        r"sample of 1,000 in about \S+ (s|min)",
        result.output.splitlines()[0],
    )
    assert note, result.output
    assert 18_086 / 2 <= int(note[2].replace(",", "")) <= 18_086 * 2
    assert started  # the note came before the run
    # A small run is not timed first; the worst case's analysis is not modelled.
    assert "note:" not in run("verify", "kqk", "--positions", "sample:3").output
    monkeypatch.setattr(al0.cli.verify, "LARGE_RUN", 10_000)
    result = run("verify", "kqk", "--defender", "worst")
    assert result.output.splitlines()[0] == (
        "note: 18,081 positions to judge: this may take hours; --positions sample:1000 "
        "judges a seeded sample of 1,000"
    )


def test_a_tablebase_not_built_yet_is_built_with_its_progress(tmp_path, monkeypatch):
    monkeypatch.setenv("AL0_CACHE_DIR", str(tmp_path))
    heard: list[str] = []
    prepare_tablebase(Material.parse("KBK"), None)  # no one to tell (not a terminal): left to the command
    assert not (tmp_path / "KBK.dtm").exists()
    prepare_tablebase(Material.parse("KBK"), heard.append)
    assert heard[0] == f"building the KBK tablebase, once: it is kept in {tmp_path}"
    assert any(line.startswith("KBK: ") for line in heard)
    assert (tmp_path / "KBK.dtm").exists()
    heard.clear()
    prepare_tablebase(Material.parse("KBK"), heard.append)  # cached: nothing to say
    prepare_tablebase(Material.parse("KRRRK"), heard.append)  # five men: no tablebase, nothing to build
    assert heard == []


def test_uci_sends_a_tablebase_builds_progress_as_info_string(tmp_path, monkeypatch):
    """The engine builds a tablebase it needs on first use: the GUI hears
    how it goes in `info string` lines, then the move."""
    monkeypatch.setenv("AL0_CACHE_DIR", str(tmp_path))
    sent: list[str] = []
    engine = UciEngine(sent.append, load_table("krk"), table_spec="krk")
    engine.handle("position fen 8/8/4R3/8/3K4/8/2k5/8 w - - 0 1")
    engine.handle("go depth 1")
    assert engine.search is not None
    engine.search.wait()
    # "KRK: building 81,920 indices on the native core", or the twin's steps
    assert any(line.startswith("info string KRK: ") and "81,920 indices" in line for line in sent)
    assert sent[-1].startswith("bestmove ")
    assert (tmp_path / "KRK.dtm").exists()


@pytest.mark.parametrize("command, module", [("play", al0.cli.play), ("practice", al0.cli.practice)])
def test_ctrl_c_exits_130(command, module, monkeypatch):
    def interrupted(question: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "typed_line", interrupted)
    args = ["--opponent", "human"] if command == "play" else []
    result = run(command, "krk", *args)
    assert result.exit_code == 130, result.output
    assert result.output.endswith("\nAborted!\n")


def test_ctrl_c_in_play_writes_the_game_so_far(tmp_path, monkeypatch):
    # The game was lost: --pgn was written only when the game ended.
    typed = iter(["Kd2"])

    def person(question: str) -> str:
        move = next(typed, None)
        if move is None:
            raise KeyboardInterrupt
        return move

    monkeypatch.setattr(al0.cli.play, "typed_line", person)
    pgn = tmp_path / "game.pgn"
    result = run("play", "krk", "--opponent", "human", "--pgn", str(pgn))
    assert result.exit_code == 130, result.output
    assert f"PGN of the game so far written to {pgn}" in result.output
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None and not game.errors
    assert [move.uci() for move in game.mainline_moves()] == ["e6e3", "c2d2", "d4e4"]
    assert (game.headers["Result"], game.headers["Termination"]) == ("*", "unterminated")
    assert game.headers["Al0Ending"] == "interrupted"


def test_verify_shows_lines_in_san():
    assert san_line("8/8/8/7Q/8/2K5/5k2/8 w - - 0 1", ["h5g5", "f2e2", "g5f5"]) == "1. Qg5 Ke2 2. Qf5"
    assert san_line("8/8/8/7Q/8/2K5/5k2/8 w - - 0 1", []) == ""


def test_tables_json_lists_the_bundled_tables_and_libraries():
    result = run("tables", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    by_name = {table["name"]: table for table in data["tables"]}
    assert by_name["krk"]["material"] == "KRK" and by_name["krk"]["library"] == "krk"
    assert by_name["kqk"]["library"] is None and by_name["kqk"]["path"].endswith("kqk.yaml")
    bundled = {library["name"]: library for library in data["libraries"] if library["source"] == "bundled"}
    assert bundled["krk"]["path"].endswith("krk.py")


def test_check_json_says_what_the_text_says():
    result = run("check", "kqk", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["name"], data["material"], data["plays"], data["library"], data["symmetric"]) == (
        "kqk",
        "KQK",
        "white",
        None,
        True,
    )
    assert data["rules"][0] == {
        "name": "rescue",
        "if": "en_prise(Q)",
        "then": ["mate_in_1", "escape"],
        "description": "The queen is attacked: mate at once if we can, else take her out of reach.",
    }
    assert data["advice"]["escape"]["better-goal"] == "not en_prise(Q) and not stalemate"
    assert "area" in data["features"] and "checks" in data["generators"]
    text = run("check", "kqk").output
    for name, meaning in data["predicates"].items():
        assert f"  {name}: {meaning}\n" in text


def test_check_json_of_a_broken_table_is_the_one_line_error(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: x\nmaterial: KQK\nrules: [\n", encoding="utf-8")
    result = run("check", str(broken), "--json")
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: {broken}:")


@pytest.mark.parametrize("command", [None, *sorted(cli.lazy)])
def test_help_examples_name_tables_as_an_installed_al0_finds_them(command):
    """After a pip install there is no advice_tables/ folder in the user's
    directory: the help's examples name bundled tables (`al0 play krk`)."""
    result = run(*([command] if command else []), "--help")
    assert result.exit_code == 0
    assert "advice_tables/" not in result.output


def test_no_board_prints_no_board_at_all():
    result = run("play", "krk", "--no-board", "--max-moves", "1")
    assert result.exit_code == 0, result.output
    assert "a b c d e f g h" not in result.output
    assert not any(line.startswith("8 ") for line in result.output.splitlines())
    assert "a b c d e f g h" in run("play", "krk", "--max-moves", "1").output


def test_a_command_collects_garbage_less_often_and_gives_the_thresholds_back(monkeypatch):
    # Raised for the run alone, the table's loading and the report still
    # collected at CPython's pace: 0.4 s of krk_std's 2.1 s worst case.
    import gc

    import al0.cli.tables
    from al0.collection import THRESHOLDS

    during = []
    listing = al0.cli.tables.listing
    monkeypatch.setattr(al0.cli.tables, "listing", lambda: during.append(gc.get_threshold()) or listing())
    before = gc.get_threshold()
    assert run("tables", "--json").exit_code == 0
    assert during == [THRESHOLDS] and gc.get_threshold() == before


def test_verify_leaves_what_its_run_made_out_of_the_collections_after_it(monkeypatch):
    # All of KBBK with two workers: a collection of 0.3 s after the run,
    # while the workers' cores stood idle, went through the records again.
    import gc

    from al0.verify import Report

    frozen = []
    summary = Report.summary
    monkeypatch.setattr(
        Report, "summary", lambda *a, **k: frozen.append(gc.get_freeze_count()) or summary(*a, **k)
    )
    assert run("verify", "kqk", "--positions", "sample:3").exit_code == 0
    assert frozen[0] > 0 and gc.get_freeze_count() == 0


def test_a_command_module_holds_no_function_longer_than_80_lines() -> None:
    """A command parses, calls the library and prints: a longer function is
    library work (or words a coach says) left in the front end."""
    long = set()
    for path in sorted((ROOT / "al0" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.end_lineno is not None:
                if node.end_lineno - node.lineno + 1 > 80:
                    long.add((path.name, node.name))
    assert not long, sorted(long)


@pytest.mark.parametrize(
    "message, joined, escaped",
    [
        ("t.yaml:3:5: bad\n  goal", "t.yaml:3:5: bad goal", "t.yaml:3:5: bad\\n  goal"),
        (ValueError("a\r\nb"), "a b", None),
        ("one line", "one line", "one line"),
    ],
)
def test_an_error_on_one_line_is_joined_or_escaped(message, joined, escaped):  # type: ignore[no-untyped-def]
    from al0.cli.messages import escape_line_ends
    from al0.errors import one_line

    assert one_line(message) == joined
    if escaped is not None:
        assert escape_line_ends(message) == escaped


@pytest.mark.parametrize("text", [False, True])  # a binary standard input, and a text one only
def test_a_line_longer_than_any_typed_ends_the_input(text, monkeypatch, capsys):
    """A stream with no line end (``< /dev/zero``) was read into memory
    whole, until the system killed the process: a line past
    ``LONGEST_TYPED`` ends the input, unread beyond it."""
    data = b"x" * (LONGEST_TYPED + 5000) + b"\nKd5\n"
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(data.decode()) if text else stream)
    assert typed_line("move: ") is None
    assert f"a line of more than {LONGEST_TYPED:,} characters is not typed" in capsys.readouterr().out


def test_a_uci_line_longer_than_any_command_is_read_past_unkept(monkeypatch):
    """``al0 uci`` read a line with no end (``< /dev/zero``) whole into memory."""
    monkeypatch.setattr("al0.cli.uci.LONGEST_COMMAND", 10)
    said: list[str] = []
    lines = command_lines(io.StringIO("isready\n" + "x" * 35 + "\nuci\n" + "y" * 11), said.append)
    assert list(lines) == ["isready\n", "uci\n"]
    assert said == ["info string ignored a line of more than 10 characters"] * 2
