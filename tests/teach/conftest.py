"""Fixtures of the teaching tests: tablebases from the session's cache
folder (never the user's), and a progress record in a temporary folder."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from al0 import tablebase
from al0.tablebase import Tablebase


@pytest.fixture
def endgame(tablebase_cache: Path) -> Callable[[str], Tablebase]:
    """The tablebase of a material, built once per session in the test cache."""
    return lambda material: tablebase.load(material, tablebase_cache)


@pytest.fixture(autouse=True)
def own_folders(tablebase_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The tablebase cache and the progress record in the test's folders."""
    monkeypatch.setenv("AL0_CACHE_DIR", str(tablebase_cache))
    monkeypatch.setenv("AL0_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"
