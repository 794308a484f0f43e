"""CPU time per plan of a table on seeded random positions.

    python benchmarks/plan_cpu.py TABLE [--count 200] [--seed 1] [--repeat 3]

Like ``al0 bench`` (same positions, same planner without a cache, each
position's best of ``--repeat`` plans) but in CPU time of this process, not
wall-clock time: on a machine shared with other work the wall clock measures
the other work too. Prints median, p95 and max in ms, and the nodes per plan.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from al0.board.sampling import random_positions  # noqa: E402
from al0.engine.plan import Planner  # noqa: E402
from al0.lang.loader import load_table  # noqa: E402
from al0.verify.tally import percentile  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("table", help="an advice table (file or bundled name)")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    table = load_table(args.table)
    planner = Planner(table, cache=False)
    boards = random_positions(table.material, args.count, args.seed, table.us)
    ms: list[float] = []
    nodes: list[int] = []
    for board in boards:
        best = float("inf")
        for _ in range(args.repeat):
            started = time.process_time()
            plan = planner.plan(board)
            best = min(best, time.process_time() - started)
        ms.append(best * 1000)
        nodes.append(plan.nodes)
    ordered = sorted(ms)
    print(
        f"{table.name}: {args.count} positions (seed {args.seed}), best of {args.repeat}, "
        f"CPU ms per plan: median {statistics.median(ordered):.2f}, "
        f"p95 {percentile(ordered, 0.95):.2f}, max {ordered[-1]:.2f}; "
        f"nodes median {statistics.median(nodes)}, p95 {percentile(sorted(nodes), 0.95)}"
    )


if __name__ == "__main__":
    main()
