# mypy: disallow-untyped-calls=False
# (distributed's LocalCluster carries no annotations.)
"""Who is busy when in a verify run (issue 45): the main process's phases
and, per worker, when it started, how long it judged, its CPU while
judging and the gaps between its chunks, for ``al0 verify TABLE
--positions SPEC`` with ``--jobs N`` or on a local Dask cluster of N
single-thread workers (``--dask N``, started before the run and not
timed).

    python benchmarks/timeline.py kbbk all --jobs 2
    python benchmarks/timeline.py kbbk all --dask 2

Each worker's chunks are timed where they are judged (wall clock, shared
by the processes, and the judging thread's CPU), so a loaded machine shows
as CPU below the wall, and a worker waiting on its next chunk as gaps.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import tempfile
import time
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import al0.verify.worker as worker

FOLDER = os.environ.setdefault("AL0_TIMELINE", tempfile.mkdtemp(prefix="al0-timeline-"))
"""Where each worker writes its chunks' times (a line each), read at the end."""

T0 = float(os.environ.setdefault("AL0_TIMELINE_T0", str(time.time())))
"""The run's start, the same in every process (workers started later read it)."""


def _timed_judge(judge: Any) -> Any:
    def timed(self: worker.StartsWorker, chunk: worker.StartsChunk) -> worker.StartsResult:
        started, cpu, process = time.time(), time.thread_time(), time.process_time()
        result: worker.StartsResult = judge(self, chunk)
        line = [started - T0, time.time() - T0, time.thread_time() - cpu, time.process_time() - process]
        with open(Path(FOLDER, f"worker-{os.getpid()}"), "a") as out:
            out.write(json.dumps(line + [chunk.stop - chunk.first]) + "\n")
        return result

    timed.timed = True  # type: ignore[attr-defined]
    return timed


# At import, here and in every process that imports this file: a Dask
# worker started by "spawn" runs it again as its main module.
if not getattr(worker.StartsWorker.judge, "timed", False):
    worker.StartsWorker.judge = _timed_judge(worker.StartsWorker.judge)  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table")
    parser.add_argument("positions")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dask", type=int, default=0, help="workers of a local Dask cluster instead")
    parser.add_argument(
        "--dask-defaults", action="store_true", help="the cluster with Dask's default settings"
    )
    args = parser.parse_args()
    import al0.cli.verify as verify_command
    from al0.cli import cli
    from al0.verify.tally import Report

    phases: list[tuple[str, float, float]] = []

    def phase(name: str, function: Any) -> Any:
        def timed(*call: Any, **named: Any) -> Any:
            started = time.time() - T0
            try:
                return function(*call, **named)
            finally:
                phases.append((name, started, time.time() - T0))

        return timed

    verify_command.run_with_progress = phase("run", verify_command.run_with_progress)
    Report.summary = phase("summary", Report.summary)  # type: ignore[method-assign]
    command = ["verify", args.table, "--positions", args.positions]
    cluster = None
    if args.dask:
        # The scheduler in a process of its own, as `dask scheduler` runs
        # it: a LocalCluster's lives in the process that makes it, where its
        # threads would take this one's CPU and GIL.
        context = multiprocessing.get_context("fork")
        addresses: multiprocessing.Queue[str] = context.Queue()
        stop = context.Event()
        cluster = context.Process(target=_cluster, args=(args.dask, addresses, stop, not args.dask_defaults))
        cluster.start()
        command += ["--scheduler", addresses.get()]
    else:
        command += ["--jobs", str(args.jobs)]
    started, cpu = time.time() - T0, time.process_time()
    try:
        cli.main(command, standalone_mode=False)
    except SystemExit:
        pass
    ended = time.time() - T0
    print(f"\nmain: {started:.2f}-{ended:.2f} s, {time.process_time() - cpu:.2f} s of CPU (all its threads)")
    for name, begun, done in phases:
        print(f"  {name}: {begun:.2f}-{done:.2f} s")
    for path in sorted(Path(FOLDER).glob("worker-*")):
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        gaps = [rows[i][0] - rows[i - 1][1] for i in range(1, len(rows))]
        print(
            f"{path.name}: {len(rows)} chunks, {rows[0][0]:.2f}-{rows[-1][1]:.2f} s, judging "
            f"{sum(r[1] - r[0] for r in rows):.2f} s (CPU {sum(r[2] for r in rows):.2f} s of its thread, "
            f"{sum(r[3] for r in rows):.2f} s of its process), idle between chunks {sum(gaps):.2f} s "
            f"(largest {max(gaps, default=0):.3f} s)"
        )
    if cluster is not None:
        stop.set()
        cluster.join()


def _cluster(workers: int, addresses: multiprocessing.Queue[str], stop: Event, lean: bool) -> None:
    """A local Dask cluster of ``workers`` single-thread workers (with
    ``scaleout.LEAN_WORKERS``' settings when ``lean``), its address put in
    ``addresses``, until ``stop``."""
    import dask.config
    from distributed import LocalCluster
    from scaleout import LEAN_WORKERS

    with (
        dask.config.set(LEAN_WORKERS if lean else {}),
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
    ):
        addresses.put(cluster.scheduler_address)
        stop.wait()


if __name__ == "__main__":
    main()
