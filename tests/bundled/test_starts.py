"""Every bundled table's start (the position ``al0 play NAME``, the page
and ``al0 uci`` begin from when given none) is one its side wins, or, for a
table that holds, a draw: the tablebase says so. kpk's first start was a
draw, and ``al0 play kpk`` ended in "no plan"."""

from __future__ import annotations

import re
from pathlib import Path

import chess
import pytest

from al0.bundled import bundled_tables
from al0.engine.tablebases import Tablebases
from al0.lang.loader import load_table

STARTED = [path for path in bundled_tables() if re.search(r"^start\s*:", path.read_text(), re.M)]
"""The bundled tables with a top-level ``start:`` (read as text: every
worker of a run collects this file, and loading every table here cost
each of them more than a second of CPU); the test loads each."""


@pytest.mark.parametrize("path", STARTED, ids=[path.stem for path in STARTED])
def test_a_bundled_tables_start_is_its_sides_win_or_its_draw(path: Path, tablebase_cache: Path) -> None:
    table = load_table(str(path))
    assert table.start_fen is not None
    board = chess.Board(table.start_fen)
    endgame = Tablebases().get(table.material)
    assert endgame is not None
    winner = endgame.result(board).winner
    assert winner == (None if table.holds else table.us), f"{path.name}: start {table.start_fen}"
