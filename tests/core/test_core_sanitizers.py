"""The native core under AddressSanitizer and UndefinedBehaviorSanitizer:
built with ``-fsanitize=address,undefined`` in a temporary folder, then
the core's own tests, a choice of the differential tests and the seeded
fuzz of its Python face (tests/core/test_core_boundary.py) run on that
build (tests/core/with_core.py), in a child process that preloads the
compiler's libasan. Any bad read, write or undefined operation aborts the
child: the test fails with the sanitizer's report. Skipped, saying why,
where the compiler has no sanitizers (or the platform is not one where
preloading works)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import ROOT

CORE = ROOT / "al0" / "core"
TESTS = [
    "tests/core/test_core_boundary.py",
    "tests/core/test_core_moves.py",
    "tests/core/test_core_symmetry.py",
    "tests/engine/test_native.py",
    "tests/tablebase/test_probe.py",
]
CHOSEN = (
    "boundary or legal_moves or canonical or orients or feature_and_predicate or goal_and_move_constraint"
    " or excluding or planner_on_the_core or without_a_rule or stopped_by_a_limit or polls or memory_limit"
    " or more_men or three_men or malformed_tables or pawn_moves or not_applied or twins_promotion"
)
"""The tests run under the sanitizers: every one of the core's own, and the
differential tests that reach each C file (search, plan, memo, tree,
probe), not the whole-ending or verify runs, so the pass stays within a
minute of the suite's time."""
FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-O1", "-g1"]
"""``-g1``: line tables alone, all a sanitizer's stack needs to name the
core's line (full debug information made the build 5.5 s of CPU, not 4.1)."""


def _compiler() -> str | None:
    """The C compiler that builds extensions here (gcc or clang), if any."""
    configured = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(configured) or shutil.which("gcc")


def _libasan(compiler: str) -> Path | None:
    """The compiler's AddressSanitizer runtime, which the child preloads (a
    program not linked with it, Python, must load it before anything)."""
    found = subprocess.run([compiler, "-print-file-name=libasan.so"], capture_output=True, text=True)
    path = Path(found.stdout.strip())
    return path if found.returncode == 0 and path.is_absolute() and path.exists() else None


def _build(compiler: str, folder: Path) -> Path:
    """The core built with the sanitizers in ``folder``; skips the test
    where the compiler cannot (a probe file first, so that an error in the
    core's own code fails the test rather than skipping it)."""
    probe = folder / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    tried = subprocess.run(
        [compiler, *FLAGS, str(probe), "-o", str(folder / "probe")], capture_output=True, text=True
    )
    if tried.returncode:
        pytest.skip(
            f"{compiler} cannot build with -fsanitize=address,undefined: {tried.stderr.strip()[:200]}"
        )
    target = folder / f"_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    built = subprocess.run(
        [
            compiler,
            "-shared",
            "-fPIC",
            *FLAGS,
            f"-I{include}",
            *sorted(map(str, CORE.glob("*.c"))),
            "-o",
            str(target),
        ],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    return target


def _findings(stderr: str) -> str:
    """The sanitizer's report from its first finding on (the stack's top
    frames name the core's line), else the end of the child's errors."""
    starts = [at for at in (stderr.find("runtime error:"), stderr.find("ERROR: AddressSanitizer")) if at >= 0]
    return stderr[max(0, min(starts) - 200) :][:3000] if starts else stderr[-3000:]


@pytest.mark.slow
@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the sanitizer runtime is preloaded as on Linux"
)
def test_the_core_is_clean_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    compiler = _compiler()
    if compiler is None:
        pytest.skip("no C compiler")
    libasan = _libasan(compiler)
    if libasan is None:
        pytest.skip(f"{compiler} has no AddressSanitizer runtime (libasan.so)")
    built = _build(compiler, tmp_path)
    # Not an xdist worker's, nor this run's pytest state: the child is a run of its own.
    inherited = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")}
    env = dict(
        inherited,
        LD_PRELOAD=str(libasan),
        # Python's own allocations live until exit: leaks are not the core's.
        ASAN_OPTIONS="detect_leaks=0",
        UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1",
        AL0_CORE="native",
    )
    run = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("with_core.py")), str(built)]
        # -s: a sanitizer's report goes to the test's standard error, which
        # pytest would capture and lose when the sanitizer ends the process.
        + ["-q", "-s", "-n", "0", "-p", "no:cacheprovider", "-m", "not slow", "-k", CHOSEN, *TESTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = run.stdout[-2000:] + _findings(run.stderr)
    assert run.returncode == 0, report
    assert " passed" in run.stdout and "skipped" not in run.stdout.splitlines()[-1], report
