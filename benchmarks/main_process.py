"""Where a verify run's main process spends its CPU, by phase: its set-up
(the table, the tablebase, the listing), the run (dealing the chunks and
merging the answers while the workers work: all its threads, and its main
thread apart), and the summary at the end; beside the workers' CPU. Whether
the main process keeps up with ``--jobs N`` workers is the run's CPU per
game against the workers' per game over N (issue 45).

    python benchmarks/main_process.py kbbk all --jobs 8

CPU times, by ``time.process_time``, ``time.thread_time`` and
``resource.getrusage``: comparable on a loaded machine, as walls are not.
"""

from __future__ import annotations

import argparse
import os
import resource
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table")
    parser.add_argument("positions")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.process_time()
    from al0.bundled import table_path
    from al0.lang.specs import DefenderSpec, PositionsSpec
    from al0.verify.run import run
    from al0.verify.sources import start_positions
    from al0.verify.tally import Report
    from al0.verify.verifier import Verifier, VerifySpec

    load = os.getloadavg()[0]
    spec = VerifySpec(os.path.abspath(table_path(args.table)), DefenderSpec("tablebase"))
    verifier = Verifier(spec)
    positions = PositionsSpec.parse(args.positions)
    boards = start_positions(positions, verifier.table, verifier.tablebase)
    report = Report(verifier.table.name, spec.defender, positions, len(boards))
    set_up, thread = time.process_time(), time.thread_time()
    run(spec, verifier, boards, args.jobs, report, None)
    ran, thread = time.process_time(), time.thread_time() - thread
    report.summary()
    summed = time.process_time()
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    games = len(report.records)
    print(
        f"{args.table} {args.positions} --jobs {args.jobs}: {games:,} games, "
        f"{len(report.plan_seconds):,} plans, load {load:.1f} before\n"
        f"main process: set-up {set_up - started:.2f} s, run {ran - set_up:.2f} s "
        f"({1e6 * (ran - set_up) / max(1, games):.1f} µs a game; its main thread {thread:.2f} s), "
        f"summary {summed - ran:.2f} s\n"
        f"workers: {workers.ru_utime + workers.ru_stime:.1f} s "
        f"({1e6 * (workers.ru_utime + workers.ru_stime) / max(1, games):.0f} µs a game in all)"
    )


if __name__ == "__main__":
    main()
