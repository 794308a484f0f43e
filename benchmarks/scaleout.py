"""How verify's work scales out over worker processes (issue 27, targets 2 and 3).

Runs ``al0 verify TABLE --positions SPEC --jobs N --json`` for each N given,
``--runs`` times each, and prints per run the plans searched (a count: the
same on a quiet machine or a loaded one), the wall time, the CPU time of the
run with its workers (user + system, from ``wait4``) and the load average
before it; then the medians, and the plans and wall time of each N against
the first. A second part measures a worker's start-up: the time a fresh
worker process takes to make its verifier (the table, its library, the
tablebase) before its first position.

    python benchmarks/scaleout.py kbbk sample:3000 --jobs 1 8 --runs 3
    python benchmarks/scaleout.py kbbk all --jobs 1 2 --runs 1

Run it from the checkout to measure (it puts that checkout first on the
path of the runs); ``--tree DIR`` measures another checkout (e.g. an older
commit, exported with ``git archive``) the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from al0.verify.verifier import VerifySpec


def one_run(tree: Path, table: str, positions: str, jobs: int, defender: str) -> dict[str, float]:
    """One verify run: its plans, wall seconds, CPU seconds and the load before it."""
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [sys.executable, "-m", "al0", "verify", table, "--positions", positions,
                   "--defender", defender, "--jobs", str(jobs), "--json", str(report)]
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        if status:
            raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read()}")  # type: ignore[union-attr]
        data = json.loads(report.read_text())
    return {"plans": data["plans_searched"], "wall": wall,
            "cpu": usage.ru_utime + usage.ru_stime, "load": load}


def startup_seconds(tree: Path, table: str) -> tuple[float, float]:
    """Wall and CPU seconds a fresh worker process takes to make its verifier."""
    sys.path.insert(0, str(tree))
    from al0.bundled import table_path
    from al0.lang.specs import DefenderSpec
    from al0.verify.verifier import VerifySpec

    spec = VerifySpec(os.path.abspath(table_path(table)), DefenderSpec("tablebase"))
    with ProcessPoolExecutor(1) as pool:
        return pool.submit(_make_verifier, spec).result()


def _make_verifier(spec: VerifySpec) -> tuple[float, float]:
    from al0.verify.verifier import Verifier
    wall, cpu = time.perf_counter(), time.process_time()
    Verifier(spec)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table")
    parser.add_argument("positions")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--defender", default="tablebase")
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    arguments = parser.parse_args()
    medians = {}
    for jobs in arguments.jobs:
        runs = []
        for _ in range(arguments.runs):
            run = one_run(arguments.tree, arguments.table, arguments.positions, jobs,
                          arguments.defender)
            runs.append(run)
            print(f"--jobs {jobs}: {run['plans']} plans, {run['wall']:.1f} s wall, "
                  f"{run['cpu']:.1f} s CPU, load {run['load']:.1f}", flush=True)
        medians[jobs] = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    first = arguments.jobs[0]
    for jobs, median in medians.items():
        print(f"median --jobs {jobs}: {median['plans']:.0f} plans "
              f"({median['plans'] / medians[first]['plans']:.3f}x), "
              f"{median['wall']:.1f} s wall ({median['wall'] / medians[first]['wall']:.2f}x), "
              f"{median['cpu']:.1f} s CPU, load {median['load']:.1f}")
    wall, cpu = startup_seconds(arguments.tree, arguments.table)
    print(f"worker start-up ({arguments.table}): {wall:.2f} s wall, {cpu:.2f} s CPU")


if __name__ == "__main__":
    main()
