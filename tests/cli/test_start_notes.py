"""A start the table is not for: ``al0 play`` says so in one line and
plays on; ``al0 check`` warns of a table whose ``start:`` is not its
side's win (for a table that holds: a position already lost) or whose
half-move clock leaves no mate possible, exit 0."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from al0.cli import cli
from conftest import TABLES

DRAWN = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"
"""The lone king in front of the pawn with the opposition: a draw."""

CLOCK_RUN_OUT = "8/8/8/4k3/8/8/8/4K2Q w - - 99 80"
"""Won by the tablebase, but one half-move before the 50-move rule with no
mate in one: no mate is possible, as verify says of such a start."""
NO_MATE_POSSIBLE = f"'{CLOCK_RUN_OUT}': the 50-move rule ends the game before any mate is possible"


@pytest.mark.parametrize(
    "table, fen, note",
    [
        ("kpk", DRAWN, "note: the tablebase says this position is a draw, not a win for White: kpk plays"),
        ("kpk", "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", None),  # won
        ("kpk_hold", "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1", None),  # drawn
        ("kpk_hold", "8/8/8/8/8/4K3/4P3/4k3 b - - 0 1", "note: the tablebase says White wins here"),
        ("kqk", CLOCK_RUN_OUT, f"note: {NO_MATE_POSSIBLE} (half-move clock 99): kqk plays it all the same"),
        ("kpk_hold", "8/8/8/4k3/8/8/4P3/4K3 b - - 99 80", None),  # the draw is a holding table's
        # A game already over is not "played all the same": Game over follows.
        (
            "kpk",
            "8/8/8/8/8/8/4P3/K6k w - - 100 1",
            "note: '8/8/8/8/8/8/4P3/K6k w - - 100 1': the 50-move rule "
            "has already ended the game (half-move clock 100)\n",
        ),
        (
            "krk",
            "k7/1R6/1K6/8/8/8/8/8 b - - 0 1",
            "note: 'k7/1R6/1K6/8/8/8/8/8 b - - 0 1': the game is already over\n",
        ),
    ],
)
def test_play_says_when_its_start_is_not_what_the_table_is_for(table, fen, note, tablebase_cache):
    result = CliRunner().invoke(cli, ["play", table, "--fen", fen, "--no-board", "--max-moves", "1"])
    assert result.exit_code == 0, result.output
    second = result.output.splitlines(keepends=True)[1]
    assert second.startswith(note) if note else not second.startswith("note:")
    assert "Game over" in result.output  # played all the same


@pytest.mark.parametrize(
    "table, start, warning",
    [
        (
            "kpk.yaml",
            DRAWN,
            ":38:8: warning: start is a draw by the tablebase, not a win for the table's side",
        ),
        ("kpk.yaml", "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", None),
        (
            "kpk_hold.yaml",
            "8/8/8/8/8/4K3/4P3/4k3 b - - 0 1",
            "warning: start is a win for White by the tablebase",
        ),
        ("kqk.yaml", CLOCK_RUN_OUT, f"warning: start: {NO_MATE_POSSIBLE}"),
    ],
)
def test_check_warns_of_a_start_the_table_is_not_for(tmp_path, table, start, warning, tablebase_cache):
    text = (TABLES / table).read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / table
    path.write_text("".join(f"start: {start}\n" if line.startswith("start:") else line for line in text))
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert (warning in result.stderr) if warning else "warning" not in result.stderr
