"""Shared fixtures: the bundled tables, loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from al0.loader import load_table
from al0.model import AdviceTable

# pytester runs pytest inside the tests of the pytest plugin.
pytest_plugins = ["pytester"]
# Tables for the pytest plugin's tests, some failing on purpose: they are
# collected only inside those tests' own pytest runs.
collect_ignore = ["plugin_tables"]

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "advice_tables"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
POSITIONS = Path(__file__).resolve().parent / "positions"


@pytest.fixture(scope="session")
def bratko() -> AdviceTable:
    """The book's KRK table."""
    return load_table(TABLES / "krk_bratko.yaml")


@pytest.fixture(scope="session")
def tablebase_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One tablebase cache for the session, so each table is built once."""
    return tmp_path_factory.mktemp("tablebase-cache")
