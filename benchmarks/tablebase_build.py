"""Wall and CPU time of building tablebases from an empty cache.

    python benchmarks/tablebase_build.py [MATERIAL ...] [--runs 5] [--core native|python] [--alone]

Each run is a fresh interpreter with a fresh, empty cache folder, timing
``al0.tablebase.load(MATERIAL)`` alone (the smaller tables its captures
lead to are built too, as a user's first load builds them; the import of
al0 is not counted). Prints, per material, the least and the median wall
time of the runs and the least CPU time (every thread of the process: the
core's build shares its passes among the processors the process may use).
On a machine shared with other work the wall clock measures that work too:
the CPU time is the comparable figure, the least wall the nearest to a
quiet machine's. ``--core python`` times the numpy twin (``AL0_CORE=python``).
``--alone`` times the table's own build: the smaller tables are built into
the fresh cache first, untimed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONE_RUN = """
import json, sys, time
from al0 import tablebase
from al0.core import status
from al0.tablebase.material import exits, parse_material
if sys.argv[3] == "alone":
    for _, _, _, smaller, _, _ in exits(parse_material(sys.argv[1])):
        tablebase.load(smaller.name, sys.argv[2])
wall, cpu = time.perf_counter(), time.process_time()
tablebase.load(sys.argv[1], sys.argv[2])
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "core": status()}))
"""


def one_run(material: str, core: str, alone: bool = False) -> dict[str, float | str]:
    """One build of ``material`` into an empty cache: with its smaller
    tables, or (``alone``) after them."""
    with tempfile.TemporaryDirectory() as cache:
        done = subprocess.run(
            [sys.executable, "-c", ONE_RUN, material, cache, "alone" if alone else "all"],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={**os.environ, "AL0_CORE": core},
        )
    result: dict[str, float | str] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("materials", nargs="*", default=["KQKR", "KRKN", "KBNK"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--core", choices=["native", "python"], default="native")
    parser.add_argument("--alone", action="store_true", help="time the table's own build only")
    args = parser.parse_args()
    for material in args.materials:
        runs = [one_run(material, args.core, args.alone) for _ in range(args.runs)]
        walls = [float(run["wall"]) for run in runs]
        cpus = [float(run["cpu"]) for run in runs]
        print(
            f"{material}: wall min {min(walls):.2f} s, median {statistics.median(walls):.2f} s; "
            f"CPU min {min(cpus):.2f} s ({args.runs} runs; core: {runs[0]['core']})",
            flush=True,
        )
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
