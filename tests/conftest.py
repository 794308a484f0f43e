"""Shared fixtures: the bundled tables, loaded once per session."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from al0.lang.loader import load_table
from al0.lang.model import AdviceTable

# pytester runs pytest inside the tests of the pytest plugin.
pytest_plugins = ["pytester"]
# Every YAML file under tests/ is test data, never a test item of al0's own
# pytest plugin (installed with al0, it would run verify on each table with
# an expect: block, and some are broken on purpose); the plugin's tests
# collect their tables inside their own pytest runs. (fnmatch's * crosses
# folders, so this covers tests/tables/, tests/plugin_tables/ and the rest.)
collect_ignore_glob = ["*.yaml", "*.yml"]

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "advice_tables"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
POSITIONS = Path(__file__).resolve().parent / "positions"


def mates(board: chess.Board, move: chess.Move) -> bool:
    """``move`` mates on ``board`` (python-chess, the oracle); the board is left as it was."""
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


@pytest.fixture(scope="session")
def bratko() -> AdviceTable:
    """The book's KRK table."""
    return load_table(TABLES / "krk_bratko.yaml")


@pytest.fixture(scope="session")
def tablebase_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One tablebase cache for the session, so each table is built once."""
    return tmp_path_factory.mktemp("tablebase-cache")
