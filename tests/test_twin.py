"""The Python search is the native core's reference twin. Where the core
runs, the rest of the suite searches on it; here the engine's and the
board's quick tests run once more on the twin (``AL0_CORE=python``, in a
child pytest), so one run of the README's test command proves both."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from al0.core import native
from conftest import ROOT


@pytest.mark.slow
@pytest.mark.skipif(native() is None, reason="the twin runs already: the native core is not running")
def test_the_engine_and_board_tests_pass_on_the_python_twin() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "not slow",
            "tests/engine",
            "tests/board",
        ],
        cwd=ROOT,
        env={**os.environ, "AL0_CORE": "python"},
        capture_output=True,
        text=True,
        timeout=900,
    )  # seconds: a bound on a hang, not a speed goal (about 10 s quiet)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]
