"""One formatter and one import order for the whole tree (ruff, set in
pyproject.toml), checked like the types: a change that is not formatted,
or whose imports are out of order, fails the suite. ``ruff format .`` and
``ruff check --fix .`` mend it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT


@pytest.mark.parametrize("command", [["format", "--check"], ["check"]], ids=["format", "import-order"])
def test_the_tree_is_formatted_and_its_imports_in_order(command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *command, "."], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
