"""Regression tests for hostile input: each one broke al0 once (a traceback,
a hang or a silently wrong result) and must stay a clean one-line error."""

from __future__ import annotations

import json
import logging
import math
import os
import sys
import threading

import click
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from al0.board import Material
from al0.board.sampling import placement_count
from al0.cli import cli
from al0.cli.messages import LONGEST_ERROR
from al0.engine import defenders
from al0.engine.defenders import RandomDefender, make_defender, not_a_closed_loop_notice
from al0.lang import library_import
from al0.lang.specs import MADE_KINDS, DefenderError, DefenderSpec
from al0.verify.verifier import Verifier, VerifySpec
from conftest import FAKE_ENGINE, LIBRARIES, TABLES

BOOK = str(TABLES / "krk_bratko.yaml")
FAKE_ENGINE = f"{sys.executable} {FAKE_ENGINE}"


def run(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def one_line_error(result, *fragments: str) -> str:
    """Exit code 2, one line ``Error: …`` naming ``fragments``, no traceback."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# ------------------------------------------------- item 1: output files


@pytest.mark.parametrize("option", ["--json", "--failures"])
def test_verify_output_typo_fails_before_the_run(tmp_path, option):
    missing = str(tmp_path / "no-such-dir" / "out")
    line = one_line_error(
        run("verify", BOOK, "--positions", "sample:2", option, missing), missing, "No such file or directory"
    )
    assert "positions" not in line  # nothing was verified first


def test_play_pgn_typo_fails_before_the_game(tmp_path):
    missing = str(tmp_path / "no-such-dir" / "game.pgn")
    one_line_error(
        run("play", BOOK, "--opponent", "random", "--no-board", "--pgn", missing), missing, "cannot write PGN"
    )


def test_a_sample_larger_than_the_ending_is_refused():
    # KRK has 21,959 won classes with White to move: a larger sample would
    # silently be all of them.
    one_line_error(
        run("verify", BOOK, "--positions", "sample:30000"),
        "'sample:30000'",
        "there are only 21,959 won KRK start positions",
        "use all",
    )


def test_a_bench_count_larger_than_the_ending_is_refused():
    # KRK has 175,168 positions with White to move: 200,000 distinct ones
    # were looked for, for hours.
    one_line_error(
        run("bench", "krk", "--count", "200000"),
        "--count 200000",
        "there are only 175,168 KRK positions with KR to move",
    )


@pytest.mark.parametrize(
    "material, placements",
    [
        ("KK", 64 * 63),
        ("KRK", 64 * 63 * 62),
        ("KBBK", 64 * 63 * 62 * 61 // 2),
        ("KBKB", 64 * 63 * 62 * 61),
        ("KNNK", 64 * 63 * 62 * 61 // 2),
    ],
)
def test_placement_count_bounds_the_sampler(material, placements):
    assert placement_count(Material.parse(material)) == placements


def test_verify_json_through_a_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("{}")
    link = tmp_path / "report.json"
    link.symlink_to(real)
    result = run("verify", BOOK, "--positions", "sample:3", "--json", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and json.loads(real.read_text())["games"] == 3


# ------------------------------------------------- item 2: a library that exits

EXITING = str(LIBRARIES / "exiting.yaml")
MATE_IN_1 = "2k5/8/2K5/8/8/8/8/7R w - - 0 1"


@pytest.mark.parametrize("how, raised", [("import", "SystemExit: 0"), ("library", "SystemExit: 0")])
def test_check_reports_a_library_that_exits_on_import(monkeypatch, how, raised):
    monkeypatch.setenv("AL0_TEST_EXIT", how)
    one_line_error(run("check", EXITING), "exiting.yaml:4:10", "exiting.py", raised)


@pytest.mark.parametrize("how", ["loop", "library-loop"])
@pytest.mark.parametrize("command", ["check", "play"])
def test_a_library_that_loops_for_ever_is_stopped_and_named(monkeypatch, how, command):
    # It hung check and play with no word (Ctrl-C was the way out). The
    # budget is shortened here: the library never ends, so it is always over.
    monkeypatch.setenv("AL0_TEST_EXIT", how)
    monkeypatch.setattr(library_import, "LIBRARY_SECONDS", 0.1)
    result = run(command, EXITING, *(["--fen", MATE_IN_1, "--no-board"] if command == "play" else []))
    one_line_error(
        result, "exiting.yaml:4:10", "exiting.py", "ran over 0.1 s and were stopped (a loop without end?)"
    )


def test_ctrl_c_while_a_library_loads_stops_al0(monkeypatch):
    # A real Ctrl-C (or SIGTERM) in a slow import was "library raised
    # KeyboardInterrupt" (or "Terminated: SIGTERM"), exit 2: the library blamed.
    monkeypatch.setenv("AL0_TEST_EXIT", "interrupt")
    result = run("check", EXITING)
    assert result.exit_code == 130, result.output
    assert result.output.endswith("\nAborted!\n")


def test_play_reports_a_predicate_that_exits(monkeypatch):
    monkeypatch.setenv("AL0_TEST_EXIT", "predicate")
    result = run("play", EXITING, "--fen", MATE_IN_1, "--opponent", "random", "--no-board")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1].startswith("Error: ")
    assert "sys.exit(3)" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    "how, jobs, message, games",
    [
        # sys.exit() in a predicate is the predicate's failure, located (al0/lang/failures.py).
        ("predicate", 1, "predicate 'doomed' called sys.exit(3) at ", (249, 249)),
        # Which chunks arrive before the pool breaks depends on the workers' timing.
        ("predicate", 2, "predicate 'doomed' called sys.exit(3) at ", (0, 499)),
        ("predicate-hard", 2, "a worker process died", (0, 499)),
    ],
)
@pytest.mark.slow
def test_verify_ends_with_the_partial_report_when_library_code_exits(
    monkeypatch, tmp_path, how, jobs, message, games
):
    # With --jobs 2 and multiprocessing.Pool, a dead worker made verify hang forever.
    monkeypatch.setenv("AL0_TEST_EXIT", how)
    monkeypatch.setenv("AL0_TEST_EXIT_AT", "250")
    out = tmp_path / "report.json"
    result = run("verify", EXITING, "--positions", "sample:500", "--jobs", str(jobs), "--json", str(out))
    assert result.exit_code == 2, result.output
    last = result.output.splitlines()[-1]
    assert last.startswith("Error: stopped after") and message in last, last
    data = json.loads(out.read_text())
    assert data["interrupted"] and data["total"] == 500
    assert games[0] <= data["games"] <= games[1]


# ------------------------------------------------- item 3: engines that misbehave

TWO_POSITIONS = "8/8/4R3/8/3K4/8/2k5/8 w - -\n8/8/8/8/8/2k5/8/R1K5 w - -\n"


def test_an_engine_is_given_its_grace_past_each_move_not_the_starts_wait():
    # python-chess waits each call its engine's timeout past the move's time;
    # the start's 20 s there made a hung engine's "0.1 s + 3 s" take 20 s.
    with defenders.UciDefender(tuple(FAKE_ENGINE.split())) as engine:
        assert engine.engine.timeout == defenders.ENGINE_GRACE_SECONDS < defenders.ENGINE_START_SECONDS


@pytest.mark.slow
def test_an_engine_that_never_answers_go_ends_verify_with_the_report(tmp_path, monkeypatch):
    # The engine never answers: the outcome is the same for any wait.
    monkeypatch.setattr(defenders, "ENGINE_GRACE_SECONDS", 0.5)
    epd = tmp_path / "p.epd"
    epd.write_text(TWO_POSITIONS)
    out = tmp_path / "r.json"
    result = run(
        "verify",
        BOOK,
        "--positions",
        str(epd),
        "--json",
        str(out),
        "--defender",
        f"uci:{FAKE_ENGINE} --hang-after 2",
    )
    assert result.exit_code == 2, result.output
    last = result.output.splitlines()[-1]
    assert last.startswith("Error: stopped after 0 of 2 positions") and "did not answer 'go'" in last
    data = json.loads(out.read_text())
    assert data["interrupted"] is True and data["games"] == 0


@pytest.mark.slow
def test_an_engine_that_never_answers_go_ends_play_with_one_line(monkeypatch):
    monkeypatch.setattr(defenders, "ENGINE_GRACE_SECONDS", 0.5)
    result = run("play", BOOK, "--no-board", "--opponent", f"uci:{FAKE_ENGINE} --hang-after 1")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1].startswith("Error: UCI engine")
    assert "did not answer 'go'" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    "command, option, message",
    [
        ("play", "--opponent", 'bad engine command "\'x": No closing quotation'),
        ("verify", "--defender", 'bad engine command "\'x": No closing quotation'),
    ],
)
def test_an_unclosed_quote_in_an_engine_command_is_one_line(command, option, message):
    one_line_error(run(command, BOOK, option, "uci:'x"), message)


@pytest.mark.slow
def test_a_program_that_is_not_a_uci_engine_is_named_so(monkeypatch):
    # cat never answers: the outcome is the same for any wait, so a short one.
    monkeypatch.setattr(defenders, "ENGINE_START_SECONDS", 0.5)
    one_line_error(
        run("play", BOOK, "--opponent", "uci:cat"), "'cat' is not a UCI engine", "'uciok' within 0.5 s"
    )


@pytest.mark.parametrize(
    "message, shown",
    [
        # python-chess closes its event loop on giving up an engine that never
        # answered 'uci'; the engine, killed, ends after it and asyncio's child
        # watcher said so: a second stderr line after al0's one.
        ("Loop <_UnixSelectorEventLoop closed=True> that handles pid 16641 is closed", False),
        ("Unknown child process pid 16641, will report returncode 255", True),
        ("Task was destroyed but it is pending!", True),
    ],
)
def test_only_asyncios_closed_loop_notice_is_kept_off_stderr(message, shown):
    record = logging.LogRecord("asyncio", logging.WARNING, __file__, 1, message, None, None)
    assert not_a_closed_loop_notice(record) is shown


# ------------------------------------------------- item 7: one defender spec


@pytest.mark.parametrize(
    "text, allowed, expected",
    [
        ("random", MADE_KINDS, DefenderSpec("random")),
        ("uci:stockfish -x 'a b'", MADE_KINDS, DefenderSpec("uci", ("stockfish", "-x", "a b"))),
        ("worst", ("random", "worst"), DefenderSpec("worst")),
        ("worst", MADE_KINDS, DefenderError),
        ("human", MADE_KINDS, DefenderError),
        ("strong", MADE_KINDS, DefenderError),
        ("uci:  ", MADE_KINDS, DefenderError),
        ("Random", MADE_KINDS, DefenderError),
    ],
)
def test_a_defender_spec_is_parsed_once(text, allowed, expected):
    if isinstance(expected, type):
        with pytest.raises(expected):
            DefenderSpec.parse(text, allowed)
    else:
        spec = DefenderSpec.parse(text, allowed)
        assert spec == expected and DefenderSpec.parse(spec.name, allowed) == spec


def test_verify_refuses_a_defender_it_cannot_use():
    # Verifier used to fall through to random play for any name it did not handle.
    with pytest.raises(DefenderError, match="'human'"):
        Verifier(VerifySpec(BOOK, DefenderSpec("human")))


def test_the_factory_makes_each_kind_and_refuses_the_others():
    assert isinstance(make_defender(DefenderSpec("random"), Material.parse("KRK")), RandomDefender)
    with pytest.raises(DefenderError, match="no tablebase for KBNKQ"):
        make_defender(DefenderSpec("tablebase"), Material.parse("KBNKQ"))
    for kind in ("worst", "human"):
        with pytest.raises(DefenderError):
            make_defender(DefenderSpec(kind), Material.parse("KRK"))


# ------------------------------------------------- item 9: smaller things


@pytest.mark.parametrize(
    "args, message",
    [
        (["plya"], "No such command 'plya'"),
        (["verify"], "Missing argument 'TABLE'"),
        (["play", BOOK, "--opponent", "strong"], "unknown defender 'strong'"),
        (["plan", BOOK, "--budget", "0"], "Invalid value for '--budget'"),
        (
            ["bench", BOOK, "--repeat", "999999999999999999"],
            "Invalid value for '--repeat': it must be a whole number from 1 to 100",
        ),
    ],
)
def test_usage_errors_are_one_line(args, message):
    one_line_error(run(*args), message)


def test_bare_al0_prints_the_help():
    # click 8.4+ raises NoArgsIsHelpError, a usage error that needs its
    # context to print: the one-line usage errors once dropped it (a traceback).
    result = run()
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert result.output.startswith("Usage: ") and "Commands:" in result.output
    assert "verify" in result.output and "Traceback" not in result.output


def test_a_cache_warning_is_one_line_without_python_source(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("AL0_CACHE_DIR", str(blocker / "cache"))
    result = CliRunner().invoke(cli, ["tablebase", "KRK"])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "warning" in line.lower()]
    assert len(warnings) == 1 and warnings[0].startswith("warning: cannot cache tablebase at")
    assert "RuntimeWarning" not in result.stderr and "tb.load" not in result.stderr


def test_an_empty_epd_file_is_named(tmp_path):
    epd = tmp_path / "empty.epd"
    epd.write_text("# nothing here\n\n")
    one_line_error(run("plan", BOOK, "--epd", str(epd)), str(epd), "no positions in it")


def test_a_byte_order_mark_in_an_epd_file_is_accepted(tmp_path):
    epd = tmp_path / "bom.epd"
    epd.write_bytes(b"\xef\xbb\xbf8/8/4R3/8/3K4/8/2k5/8 w - -\n")
    result = run("plan", BOOK, "--epd", str(epd), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["fen"] == "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"


def test_an_interrupted_run_leaves_its_expectations_undecided(tmp_path):
    # The partial set used to be judged as if it were all: "mates-all: ok".
    epd = tmp_path / "p.epd"
    epd.write_text(TWO_POSITIONS)
    out = tmp_path / "r.json"
    result = run(
        "verify",
        str(TABLES / "krk.yaml"),
        "--positions",
        str(epd),
        "--json",
        str(out),
        "--defender",
        f"uci:{FAKE_ENGINE} --die-after 4",
    )
    assert result.exit_code == 2, result.output
    data = json.loads(out.read_text())
    assert data["interrupted"] and data["expectations"]
    assert all(check["holds"] is None for check in data["expectations"])
    assert "expect mates-all: undecided" in result.output
    assert "expect mates-all: ok" not in result.output


@pytest.mark.parametrize("positions, workers", [("sample:5", None), ("sample:201", 2)])
@pytest.mark.slow
def test_jobs_are_capped_at_the_work_available(pool_sizes, positions, workers):
    result = run("verify", BOOK, "--positions", positions, "--jobs", "8", "--defender", "random")
    assert result.exit_code == 0, result.output
    assert pool_sizes == ([] if workers is None else [1] * workers)  # a pool of one process a worker


def test_a_line_that_is_not_utf8_on_standard_input_is_re_prompted():
    result = run("play", BOOK, "--opponent", "human", "--no-board", input=b"\xff\xfeK\nKb2\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert "that line is not utf-8 text" in result.output
    assert "   ... Kb2\n" in result.output


# ------------------------------------------------- issue 25, item 6: seconds


@pytest.mark.parametrize(
    "command",
    [
        ["verify", BOOK, "--defender", f"uci:{FAKE_ENGINE}"],
        ["play", BOOK, "--opponent", f"uci:{FAKE_ENGINE}"],
    ],
)
@pytest.mark.parametrize(
    "seconds, why",
    [
        ("inf", "a decimal number such as 0.05, not 'inf'"),
        ("nan", "not 'nan'"),
        ("1e999", "not '1e999'"),
        ("-1", "from 0.001 to 3600 s, not -1"),
        ("0", "not 0"),
        ("99999999", "from 0.001 to 3600 s"),
        ("\u0661", "not '\u0661'"),
    ],
)
def test_engine_time_is_finite_and_bounded(command, seconds, why):
    # inf once reached the engine's clock: an asyncio traceback, and no exit.
    one_line_error(run(*command, "--engine-time", seconds), "'--engine-time'", why)


@given(st.text(max_size=25))
def test_a_number_of_seconds_is_a_bounded_decimal_or_a_usage_error(text):
    from al0.cli.params import ENGINE_SECONDS, MAX_ENGINE_SECONDS

    try:
        seconds = ENGINE_SECONDS.convert(text, None, None)
    except click.BadParameter as error:
        assert len(error.format_message()) < 300
    else:
        assert math.isfinite(seconds) and 0.001 <= seconds <= MAX_ENGINE_SECONDS


# ------------------------------------------------- inputs that are not files


def finished(*args: str):
    """``run(*args)`` in a thread, failing (not hanging) if it blocks."""
    results = []
    thread = threading.Thread(target=lambda: results.append(run(*args)), daemon=True)
    thread.start()
    thread.join(timeout=60)
    assert results, f"al0 {' '.join(args)} blocked"
    return results[0]


@pytest.mark.parametrize(
    "args",
    [
        ["check", "{input}"],
        ["play", "{input}"],
        ["plan", BOOK, "--epd", "{input}"],
        ["verify", BOOK, "--positions", "{input}"],
    ],
)
def test_a_fifo_as_an_input_is_refused_at_once(tmp_path, args):
    # A FIFO nobody writes blocked the open for ever (and /dev/zero, refused
    # the same way, filled the memory: tests/test_files.py).
    path = str(tmp_path / "input.yaml")
    os.mkfifo(path)
    result = finished(*(arg.format(input=path) for arg in args))
    one_line_error(result, path, "not a regular file")


@pytest.mark.parametrize("spec", ["ALL", "sampel:5", "", "missing.epd"])
def test_positions_that_name_no_file_say_what_is_taken(spec):
    # 'ALL: cannot read: No such file or directory', after loading the table.
    one_line_error(
        run("verify", BOOK, "--positions", spec),
        "Invalid value for '--positions'",
        f"{spec!r} is no file: give all, every, sample:N or an EPD file",
    )


def test_an_error_quoting_a_huge_value_is_cut(tmp_path):
    # The 3 MB start: line came back twice in one 6 MB error line.
    table = tmp_path / "long.yaml"
    table.write_text((TABLES / "kqk.yaml").read_text().replace("start: ", "start: " + "y" * 200_000 + " ", 1))
    line = one_line_error(run("check", str(table)), f"{table}:", "start is not a valid FEN")
    assert len(line) <= len("Error: ") + LONGEST_ERROR and "characters cut) … " in line


@pytest.mark.parametrize(
    "args, reason",
    [
        # What is wrong comes last: a cut keeps the end of the message too.
        (["progress", "KRK", "dist(K, k)+" * 3000 + "(", "--depth", "1"], "is never closed"),
        (["progress", "KRK", "[" + "not " * 5000 + "mate", "--depth", "1"], "is never closed"),
        (["practice", "krk", "--level", "1" * 5000 + "..x"], "write N or A..B"),
        # ... or between the values it quotes, each cut on its own.
        (["progress", "KRK", "(" * 500 + "room(k)" + ")" * 500], ":1: expected [N*]feature, found '((("),
        (
            ["progress", "KRK", "[" + "(" * 3000 + "room(k)" + ")" * 3000 + " < 3]"],
            "nested more than 40 levels",
        ),
        (["progress", "KRK", "[" * 3000 + "room(k) < 2" + "]" * 3000], ":1: unexpected character '['"),
    ],
)
def test_an_error_cut_for_length_keeps_what_is_wrong(args, reason):
    result = run(*args)
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().splitlines()
    # click puts "Invalid value for '--level': " before a parameter's message.
    assert len(line) <= len("Error: Invalid value for '--level': ") + LONGEST_ERROR
    assert "characters cut) … " in line and reason in line
