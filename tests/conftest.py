"""Shared fixtures: the bundled tables, loaded once per session."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

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


def forks_of(pid: int) -> list[int]:
    """The child processes of ``pid`` forked from it (the same command line:
    verify's pool workers), read from /proc (Linux)."""
    def command(process: int) -> bytes:
        try:
            with open(f"/proc/{process}/cmdline", "rb") as line:
                return line.read()
        except OSError:  # it has just ended
            return b""
    children: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listed:
            children += [int(child) for child in listed.read().split()]
    return [child for child in children if command(child) == command(pid)]


@pytest.fixture
def stop_at_first_progress(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``stop(number)`` makes an in-process ``al0 verify`` send signal
    ``number`` to itself and its workers (as ``timeout`` or systemd do to
    the whole group) the first time it reports progress or plans: a run
    stopped midway, at a moment that does not depend on the machine's speed."""
    import al0.cli.verify

    def stop(number: int) -> None:
        sent: list[int] = []

        def send() -> None:
            if not sent:
                sent.append(number)
                for worker in forks_of(os.getpid()):
                    os.kill(worker, number)
                os.kill(os.getpid(), number)

        monkeypatch.setattr(al0.cli.verify, "progress_lines",
                            lambda total: (send, lambda planned, known: send()))
    return stop
