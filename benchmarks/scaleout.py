"""How verify's work scales out over worker processes (issue 27, targets 2 and 3).

Runs verify's games (as ``al0 verify TABLE --positions SPEC --jobs N`` does,
but past the command line's cap of two workers per CPU) for each N given,
``--runs`` times each, and prints per run the plans searched (a count: the
same on a quiet machine or a loaded one), the wall time, the CPU time of the
run with its workers (user + system) and the load average before it; then the medians, and the plans and wall time of each N against
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
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from al0.verify.verifier import VerifySpec


RUN = """
import json, os, sys
from al0.bundled import table_path
from al0.lang.specs import DefenderSpec
from al0.verify.run import judge_all
from al0.verify.verifier import Report, Verifier, VerifySpec, start_positions
table, positions, defender, jobs = sys.argv[1:]
spec = VerifySpec(os.path.abspath(table_path(table)), DefenderSpec.parse(defender, ("tablebase", "worst")))
verifier = Verifier(spec)
boards = start_positions(positions, verifier.table, verifier.tablebase)
report = Report(verifier.table.name, defender, positions, len(boards))
games = sum(1 for _ in judge_all(spec, verifier, boards, int(jobs), report))
print(json.dumps({"games": games, "plans": len(report.plan_seconds)}))
"""
"""A verify run without the command line, whose --jobs cap (two workers
per CPU) would not let 8 workers run on 2 cores."""


def one_run(tree: Path, table: str, positions: str, jobs: int, defender: str) -> dict[str, float]:
    """One verify run: its plans, wall seconds, CPU seconds and the load before it."""
    load = os.getloadavg()[0]
    command = [sys.executable, "-c", RUN, table, positions, defender, str(jobs)]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    output, errors = process.communicate()
    wall = time.perf_counter() - started
    if process.returncode:
        raise SystemExit(f"the run failed: {errors}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime - _cpu_before(usage)
    data = json.loads(output)
    return {"plans": data["plans"], "wall": wall, "cpu": cpu, "load": load}


_CPU_SO_FAR = [0.0]


def _cpu_before(usage: resource.struct_rusage) -> float:
    """The children's CPU seconds counted before this run (and note the new total)."""
    before, _CPU_SO_FAR[0] = _CPU_SO_FAR[0], usage.ru_utime + usage.ru_stime
    return before


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
