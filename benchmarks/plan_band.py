"""Plan a band of positions ranked by plan time: the driver to run under callgrind.

    python benchmarks/plan_band.py rank [TABLE] [--count 1000] [--seed 2026] > ranks.txt
    python benchmarks/plan_band.py plan [TABLE] --ranks ranks.txt --band 0.45 0.55
    python benchmarks/plan_band.py plan [TABLE] --ranks ranks.txt --band 0.45 0.55 --none

The positions are those of ``benchmarks/prolog_vs_al0.py`` by default (the
book's KRK table on seeded random KRK positions). ``rank`` prints each
position's index, ordered by CPU time per plan (best of ``--repeat``), so
that later runs can pick the same positions whatever the code they time.
``plan`` plans the positions whose rank lies in the band (fractions of the
positions, e.g. 0.45-0.55 around the median, 0.93-0.97 around p95) once
each with a planner without a cache, as the harness does; with ``--none``
it does all the same setup and plans nothing. Under ``valgrind
--tool=callgrind`` the difference of the two runs' instruction counts,
divided by the positions planned (printed), is the instructions per plan
of the band: deterministic, unlike time on a shared machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from al0.board.sampling import random_positions  # noqa: E402
from al0.engine.plan import Planner  # noqa: E402
from al0.lang.loader import load_table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("rank", "plan"))
    parser.add_argument("table", nargs="?", default=str(ROOT / "advice_tables" / "krk_bratko.yaml"))
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--ranks", type=Path, help="the output of rank")
    parser.add_argument("--band", type=float, nargs=2, default=(0.45, 0.55))
    parser.add_argument("--none", action="store_true", help="set up, plan nothing")
    parser.add_argument("--times", type=int, default=1, help="plan the band this many times")
    args = parser.parse_args()

    table = load_table(args.table)
    boards = random_positions(table.material, args.count, args.seed, table.us)
    planner = Planner(table, cache=False)
    if args.mode == "rank":
        times = []
        for index, board in enumerate(boards):
            best = float("inf")
            for _ in range(args.repeat):
                started = time.process_time()
                planner.plan(board)
                best = min(best, time.process_time() - started)
            times.append((best, index))
        for best, index in sorted(times):
            print(index, f"{best * 1000:.4f}")
        return
    if args.ranks is None:
        parser.error("plan needs --ranks")
    ranked = [int(line.split()[0]) for line in args.ranks.read_text().splitlines() if line]
    lo, hi = (int(fraction * len(ranked)) for fraction in args.band)
    band = [boards[index] for index in ranked[lo:hi]]
    if not args.none:
        for _ in range(args.times):
            for board in band:
                planner.plan(board)
    print(
        f"{len(band)} positions x {args.times}, ranks {lo}-{hi} of {len(ranked)}"
        f"{' (none planned)' if args.none else ''}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
