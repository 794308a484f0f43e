"""The pytest plugin: tables with an ``expect:`` block test themselves under
plain ``pytest``. Each test runs pytest on a copy of tables from
``tests/data/plugin_tables`` (which the suite itself does not collect)."""

from __future__ import annotations

import shutil
import sys
import tomllib

import pytest

# Imported here, before any inner session: pytester's in-process runs drop
# the modules they imported, and numpy (which the tablebase loads) cannot be
# imported twice in one process.
import al0.tablebase.cache  # noqa: F401  (the face is lazy: this loads numpy)
from al0 import pytest_plugin
from al0.errors import TableSyntaxError
from al0.lang.loader import load_table
from conftest import FAKE_ENGINE, PLUGIN_TABLES, POSITIONS, ROOT, TEST_TABLES

TABLES = PLUGIN_TABLES
FAKE_ENGINE = f"{sys.executable} {FAKE_ENGINE}"


def copy(pytester: pytest.Pytester, *names: str) -> None:
    for name in names:
        shutil.copy(TABLES / name, pytester.path / name)


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # -W: the test module imported the plugin, too late for assertion rewriting.
    # Hypothesis's plugin costs seconds per inner session and is not needed.
    return pytester.runpytest_inprocess(
        "-p",
        "al0.pytest_plugin",
        "-p",
        "no:hypothesispytest",
        "-W",
        "ignore::pytest.PytestAssertRewriteWarning",
        *args,
    )


def test_a_table_whose_claims_hold_passes(pytester):
    copy(pytester, "krk_holds.yaml", "krk_some.epd", "not_a_table.yaml")
    result = run(pytester, "-v")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*krk_holds.yaml::expect PASSED*"])


@pytest.mark.slow
def test_each_expect_block_is_a_test_item_of_its_own(pytester):
    copy(pytester, "krk_holds.yaml", "krk_some.epd")
    table = pytester.path / "krk_holds.yaml"
    rules = table.read_text().split("\nexpect:\n")[0]
    table.write_text(
        rules + "\nexpect:\n"
        "  - {positions: krk_some.epd, mean-moves: 1.0}\n"
        "  - {positions: krk_some.epd, defender: worst, mates-all: true}\n"
    )
    result = run(pytester, "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*krk_holds.yaml::expect[[]1[]] FAILED*", "*krk_holds.yaml::expect[[]2[]] PASSED*"]
    )
    result.stdout.fnmatch_lines(
        ["  expect mean-moves: mean * (at most 1.0 expected, against the tablebase defender)"]
    )


def test_a_broken_claim_fails_with_the_expectation_and_examples(pytester):
    copy(pytester, "krk_bratko_claims.yaml", "stalemates.epd")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "al0 verify krk_bratko_claims: 1 expectation(s) broken over 11 positions "
            "(stalemates.epd) against the tablebase defender",
            "  expect stalemates: 11 (at most 0 expected)",
            "  stalemate: 11 games, e.g.",
            "    8/8/8/8/8/8/1R6/k1K5 w - - 0 1",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_the_tables_move_is_held_to_the_files_bm_and_am(pytester):
    copy(pytester, "krk_holds.yaml")
    epd = pytester.path / "krk_some.epd"
    agreeing = '8/8/4R3/8/3K4/8/2k5/8 w - - bm Re3; id "start";\n7k/8/8/3K4/8/8/8/R7 w - - am Kd6;\n'
    epd.write_text(agreeing)
    run(pytester).assert_outcomes(passed=1)
    epd.write_text("8/8/4R3/8/3K4/8/2k5/8 w - - bm Rd6 Re2+;\n7k/8/8/3K4/8/8/8/R7 w - - am Ra7;\n")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "al0 krk_holds: 2 move(s) against the bm/am of krk_some.epd",
            "*krk_some.epd:1: at 8/8/4R3/8/3K4/8/2k5/8 w - - 0 1 the table plays Re3, the file's bm is Rd6, Re2+",
            "*krk_some.epd:2: at 7k/8/8/3K4/8/8/8/R7 w - - 0 1 the table plays Ra7, which the file's am avoids",
        ]
    )


def test_a_table_that_holds_is_checked_by_the_draws_it_keeps(pytester):
    shutil.copy(POSITIONS / "krkn_drawn.epd", pytester.path / "krkn_drawn.epd")
    text = (TEST_TABLES / "krkn_together.yaml").read_text()
    (pytester.path / "krkn_together.yaml").write_text(text + "  positions: krkn_drawn.epd\n")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "al0 verify krkn_together: 1 expectation(s) broken over 3 drawn positions (krkn_drawn.epd)",
            "  expect lost: 2 (at most 0 expected)",
            "  lost: 2 positions, e.g.",
            "    8/3R4/8/8/3n4/1k6/8/1K6 b - - 0 1  Nc2",
        ]
    )


def test_a_table_that_does_not_load_fails_with_its_location(pytester):
    copy(pytester, "unknown_predicate.yaml")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*unknown_predicate.yaml:11:*rookexposd*"])


def test_defaults_come_from_the_ini_options(pytester):
    copy(pytester, "krk_bratko_claims.yaml", "stalemates.epd")
    table = pytester.path / "krk_bratko_claims.yaml"
    table.write_text(table.read_text().replace("  positions: stalemates.epd\n", ""))
    pytester.makeini("[pytest]\nal0_positions = stalemates.epd\nal0_defender = worst\n")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*over 11 positions (stalemates.epd) against the worst defender",
            "  expect stalemates: 11 (at most 0 expected)",
        ]
    )


@pytest.mark.slow
def test_the_default_is_a_fixed_sample_against_the_tablebase(pytester):
    copy(pytester, "krk_bratko_claims.yaml")
    table = pytester.path / "krk_bratko_claims.yaml"
    # A claim no sample can keep, so the message shows what ran.
    table.write_text(table.read_text().replace("  positions: stalemates.epd\n", "  max-moves: 1\n"))
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [f"*over 100 positions ({pytest_plugin.DEFAULT_POSITIONS}) against the tablebase defender"]
    )


def test_a_defender_that_does_not_exist_is_a_table_error():
    with pytest.raises(
        TableSyntaxError,
        match=r"bad_defender.yaml:17:\d+: unknown defender "
        r"'grandmaster'",
    ):
        load_table(TABLES / "bad_defender.yaml")


def test_the_plugin_is_declared_as_a_pytest11_entry_point():
    with open(ROOT / "pyproject.toml", "rb") as handle:
        project = tomllib.load(handle)["project"]
    entry = project["entry-points"]["pytest11"]
    assert entry == {"al0.pytest_plugin": "al0.pytest_plugin"}
    assert hasattr(pytest_plugin, "pytest_collect_file")


def test_a_bad_sample_is_a_table_error(tmp_path):
    table = tmp_path / "bad_sample.yaml"
    table.write_text(
        (TABLES / "bad_defender.yaml").read_text().replace("defender: grandmaster", "positions: sample:0")
    )
    with pytest.raises(
        TableSyntaxError,
        match=r"bad_sample.yaml:17:\d+: expect positions 'sample:0': "
        r"N in sample:N must be a whole number >= 1, not 0",
    ):
        load_table(table)


# ------------------------------------------------------ what a file can start


def with_claims(pytester: pytest.Pytester, *lines: str) -> None:
    """krk_holds.yaml in pytester's folder, its claims replaced by ``lines``."""
    copy(pytester, "krk_holds.yaml", "krk_some.epd")
    table = pytester.path / "krk_holds.yaml"
    rules = table.read_text().split("\nexpect:\n")[0]
    table.write_text(rules + "\nexpect:\n" + "".join(f"  {line}\n" for line in lines))


def test_a_table_naming_an_engine_starts_nothing_under_plain_pytest(pytester):
    marker = pytester.path / "started"
    with_claims(pytester, "mates-all: true", f"defender: \"uci:touch '{marker}'\"")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*krk_holds.yaml:59:14: defender *uci:touch*: a UCI engine's "
            "command comes only from whoever runs al0, never from a "
            "file: give it as * pytest --al0-defender uci:COMMAND *"
        ]
    )
    assert not marker.exists()


def test_an_ini_file_naming_an_engine_is_a_usage_error(pytester):
    marker = pytester.path / "started"
    with_claims(pytester, "mates-all: true")
    pytester.makeini(f"[pytest]\nal0_defender = uci:touch {marker}\n")
    result = run(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*al0: the ini option al0_defender: defender 'uci:touch *': "
            "a UCI engine's command comes only from whoever runs al0*"
        ]
    )
    assert not marker.exists()


@pytest.mark.parametrize("how", ["option", "environment"])
@pytest.mark.slow
def test_the_person_running_pytest_gives_the_engine(pytester, monkeypatch, how):
    engine = f"uci:{FAKE_ENGINE}"
    with_claims(pytester, "positions: krk_some.epd", "max-moves: 1")
    if how == "environment":
        monkeypatch.setenv(pytest_plugin.DEFENDER_VARIABLE, engine)
    result = run(pytester, *(["--al0-defender", engine] if how == "option" else []))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*over 4 positions (krk_some.epd) against the uci:*fake_uci.py defender"])


def test_a_bad_defender_option_is_a_usage_error(pytester):
    with_claims(pytester, "mates-all: true")
    result = run(pytester, "--al0-defender", "grandmaster")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*al0: --al0-defender: unknown defender 'grandmaster'*"])


def test_an_ini_positions_file_outside_the_tables_folder_is_refused(pytester):
    with_claims(pytester, "mates-all: true")
    pytester.makeini("[pytest]\nal0_positions = /etc/passwd\n")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["positions file '/etc/passwd': a table reads positions only from files in its own folder*"]
    )
    assert "root:" not in result.stdout.str()
