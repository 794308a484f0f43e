"""The Python search is the native core's reference twin. Where the core
runs, the rest of the suite searches on it; here the quick tests of the
files whose outcome depends on the search (:data:`ON_THE_TWIN`) run once
more on the twin (``AL0_CORE=python``, in a child pytest), so one run
of the README's test command proves both."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from al0.core import native
from al0.tablebase import load
from conftest import ROOT, RUN_CACHE

ON_THE_TWIN = [
    "tests/engine",
    "tests/board/test_symmetry.py",
    "tests/teach/test_verdict.py",
    "tests/uci",
    "tests/serve",
    "tests/verify/test_verify_api.py",
    "tests/verify/test_analysis.py",
]
"""The quick tests whose outcome depends on the search, chosen by measure:
a run that recorded which quick tests call into the core found them in
tests/engine, the board's symmetry, the coach's verdicts, the UCI engine,
the page's API and the verify command's reports; this list runs all of
those files on the twin (about 15 s of CPU in the child, against 11 s for
the seven hand-picked tests and folders it replaces: measured back to back
on a loaded machine, the tablebases shared).

Left out, with what each costs on the twin (seconds of CPU, one process,
the quick tier, loaded machine): tests/lang (6 s), whose 456 quick tests
never call the core, and the rest of tests/teach (4 s) likewise: the same
code twice; the bundled tables' claims, the commands and the measures
(tests/bundled 21 s, tests/cli 15 s, tests/progress 15 s, tests/tablebase
9 s, tests/report 3 s: the two searches over every bundled table are held
equal by tests/engine/test_native.py); the rest of tests/verify (50 s:
test_hold 12 s, test_segments 10 s, test_verify 10 s, test_verify_worst
9 s, test_processes 6 s, test_cluster's Dask workers 3 s). The whole quick
tier on the twin is 156 s, against 129 s on the core: more than the suite
has room for. tests/core and the other differential tests skip themselves
on the twin."""

NOT_ON_THE_TWIN = [
    "tests/engine/test_successors.py::test_the_rook_taken_the_bundled_kqk_table_mates",
    "tests/serve/test_api.py::test_a_practice_game_of_a_table_that_holds",
]
"""Whole games in those files, left to the core: what they test of the
game (one game, several tables; a practice game's turns) is the same code
on either twin, and their searches are the ones the differential tests
hold equal (tests/engine/test_native.py). On the twin they took 10 s and
5 s of the child's 25 s of CPU."""

TABLEBASES = ("KRK", "KQK", "KQKR", "KBBK", "KBNK", "KPK", "KRKB", "KRKN")
"""The tablebases those tests play against, built on the core into the
run's cache before the child starts, which shares it (:data:`RUN_CACHE`):
the twin's build is the tablebase tests' claim, not these (the child
building them on the twin took about 16 s more of CPU)."""


@pytest.mark.slow
@pytest.mark.skipif(native() is None, reason="the twin runs already: the native core is not running")
def test_the_quick_tests_pass_on_the_python_twin(tablebase_cache: Path) -> None:
    for material in TABLEBASES:
        load(material)
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
            *(f"--deselect={test}" for test in NOT_ON_THE_TWIN),
            *ON_THE_TWIN,
        ],
        cwd=ROOT,
        env={**os.environ, "AL0_CORE": "python", RUN_CACHE: str(tablebase_cache)},
        capture_output=True,
        text=True,
        timeout=900,
    )  # seconds: a bound on a hang, not a speed goal (about 15 s of CPU)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]
