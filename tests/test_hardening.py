"""Regression tests for hostile input: each one broke al0 once (a traceback,
a hang or a silently wrong result) and must stay a clean one-line error."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from al0.cli import cli
from conftest import FIXTURES, TABLES

BOOK = str(TABLES / "krk_bratko.yaml")
FAKE_ENGINE = f"{sys.executable} {FIXTURES / 'fake_uci.py'}"


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
    line = one_line_error(run("verify", BOOK, "--positions", "sample:2", option, missing),
                          missing, "No such file or directory")
    assert "positions" not in line  # nothing was verified first


def test_play_pgn_typo_fails_before_the_game(tmp_path):
    missing = str(tmp_path / "no-such-dir" / "game.pgn")
    one_line_error(run("play", BOOK, "--opponent", "random", "--no-board", "--pgn", missing),
                   missing, "cannot write PGN")


def test_verify_json_through_a_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("{}")
    link = tmp_path / "report.json"
    link.symlink_to(real)
    result = run("verify", BOOK, "--positions", "sample:3", "--json", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and json.loads(real.read_text())["games"] == 3
