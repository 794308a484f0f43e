"""The Python search is the native core's reference twin. Where the core
runs, the rest of the suite searches on it; here the engine's quick tests,
the board's that plan (tests/board/test_symmetry.py: the others never ask
which core runs, and would run the same code twice), and a representative
few of the folders above them (:data:`ABOVE`: a table's definitions
searched, a coach's verdicts, a verify run of each kind, the UCI engine
planning and playing), run once more on the twin (``AL0_CORE=python``, in
a child pytest), so one run of the README's test command proves both."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from al0.core import native
from al0.tablebase import load
from conftest import ROOT, RUN_CACHE

ABOVE = [
    "tests/lang/test_definitions.py",
    "tests/teach/test_verdict.py",
    "tests/verify/test_verify_api.py::test_verify_reports_what_the_command_line_reports",
    "tests/uci/test_uci.py::test_keeps_the_tree_while_the_gui_stays_in_it",
    "tests/uci/test_uci.py::test_a_position_the_gui_changed_gets_a_new_plan",
    "tests/uci/test_uci.py::test_go_nodes_bounds_the_plan_as_the_budget_does",
    "tests/uci/test_uci.py::test_engine_mates_the_tablebase_defender_as_al0_play_does",
]
"""The quick tests of lang, teach, verify and uci run on the twin too: about
6 s of CPU (their whole quick tier is some 50 s on the twin, the whole
suite's quick tier 140 s with the run's tablebases shared, against 120 s on
the core: measured with -n 2 on a loaded machine); KBBK's verdicts are
left out."""

TABLEBASES = ("KRK", "KQK", "KQKR")
"""The tablebases those tests play against, built on the core into the
run's cache before the child starts, which shares it (:data:`RUN_CACHE`):
the twin's build is the tablebase tests' claim, not these, and building
them on the twin was 11 of the child's 27 s of CPU."""


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
            "-k",
            "not (test_verdicts and kbbk)",
            "tests/engine",
            "tests/board/test_symmetry.py",
            *ABOVE,
        ],
        cwd=ROOT,
        env={**os.environ, "AL0_CORE": "python", RUN_CACHE: str(tablebase_cache)},
        capture_output=True,
        text=True,
        timeout=900,
    )  # seconds: a bound on a hang, not a speed goal (about 16 s of CPU)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]
