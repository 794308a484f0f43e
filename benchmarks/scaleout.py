# mypy: disallow-untyped-calls=False
# (distributed's LocalCluster and Client carry no annotations.)
"""How verify's work scales out over worker processes (issue 27, targets 2 and 3).

Runs verify's games (as ``al0 verify TABLE --positions SPEC --jobs N`` does,
but past the command line's cap of two workers per CPU) for each N given,
and (``--dask N``, as ``al0 verify --scheduler`` does) on a local Dask
cluster of N single-thread worker processes that it starts for each run on
127.0.0.1, ``--runs`` times each, and prints per run the plans searched (a
count: the same on a quiet machine or a loaded one), the wall time, the CPU
time of the run with its workers (user + system; the main process's part
too, ``main cpu``, or on Dask the client's, the workers' and the
scheduler's during the run), the peak memory of the main process and of
the largest worker, and the load average before it; then the
medians, and the plans and wall time of each mode against the first. A
second part measures a worker's start-up: the time a fresh worker process
takes to make its verifier (the table, its library, the tablebase) before
its first position, in a process pool and (with ``--dask``) on each worker
of a fresh cluster.

    python benchmarks/scaleout.py kbbk sample:3000 --jobs 1 8 --dask 8 --runs 3
    python benchmarks/scaleout.py kbbk all --jobs 1 2 --runs 1

Run it from the checkout to measure (it puts that checkout first on the
path of the runs); ``--tree DIR`` measures another checkout (e.g. an older
commit, exported with ``git archive``) the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import logging
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from al0.verify.verifier import VerifySpec


RUN = """
import json, os, resource, sys
from al0.bundled import table_path
from al0.lang.specs import DefenderSpec, PositionsSpec
from al0.verify.run import run
from al0.verify.tally import Report
from al0.verify.sources import start_positions
from al0.verify.verifier import Verifier, VerifySpec
table, positions, defender, jobs, scheduler = sys.argv[1:]
spec = VerifySpec(os.path.abspath(table_path(table)), DefenderSpec.parse(defender, ("tablebase", "worst")))
verifier = Verifier(spec)
positions = PositionsSpec.parse(positions)
boards = start_positions(positions, verifier.table, verifier.tablebase)
report = Report(verifier.table.name, spec.defender, positions, len(boards))
stopped = run(spec, verifier, boards, int(jobs), report, scheduler or None)
if stopped:
    sys.exit(stopped)
usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
main, workers = (u.ru_utime + u.ru_stime for u in usage)
main_mb, worker_mb = (u.ru_maxrss / 1024 for u in usage)
print(json.dumps({"games": len(report.records), "plans": len(report.plan_seconds), "main": main, "workers": workers, "main_mb": main_mb, "worker_mb": worker_mb}))
"""
"""A verify run without the command line, whose --jobs cap (two workers
per CPU) would not let 8 workers run on 2 cores."""


LEAN_WORKERS = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "5s",
}
"""Dask's settings for the local clusters measured here, as docs/verify.md
gives them for ``dask worker``: its sampling profiler off, its event-loop
tick and monitors slowed. Beside a task that holds the GIL, a worker's
own threads took a third of the judging thread's CPU with Dask's
defaults, 18 % with these (``timeline.py kbbk sample:20000 --dask 2``,
the two side by side); ``--dask-defaults`` measures Dask's own."""


def one_run(
    tree: Path, table: str, positions: str, jobs: int, defender: str, scheduler: str = ""
) -> dict[str, float]:
    """One verify run (on the cluster of ``scheduler``, if given): its
    plans, wall seconds, CPU seconds (the run's, with its worker processes;
    the main process's and the workers' apart) and the load before it."""
    load = os.getloadavg()[0]
    command = [sys.executable, "-c", RUN, table, positions, defender, str(jobs), scheduler]
    started = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    output, errors = process.communicate()
    wall = time.perf_counter() - started
    if process.returncode:
        raise SystemExit(f"the run failed: {errors}")
    data = json.loads(output)
    cpu = data["main"] + data["workers"]
    return {
        "plans": data["plans"],
        "wall": wall,
        "cpu": cpu,
        "main cpu": data["main"],
        "load": load,
        "main MB": data["main_mb"],
        "worker MB": data["worker_mb"],
    }


def dask_run(
    tree: Path, table: str, positions: str, workers: int, defender: str, lean: bool = True
) -> dict[str, float]:
    """One verify run on a local Dask cluster of ``workers`` single-thread
    worker processes, started for it (not timed) and closed after it: as
    :func:`one_run`, its CPU time the client's, the workers' and the
    scheduler's (in this process) during the run."""
    with local_cluster(workers, lean) as (cluster, client):
        before = sum(client.run(_cpu_seconds).values()), time.process_time()
        run = one_run(tree, table, positions, 1, defender, cluster.scheduler_address)
        after = sum(client.run(_cpu_seconds).values()), time.process_time()
        peaks = client.run(_peak_mb).values()
    run["client cpu"] = run.pop("main cpu")
    run["worker MB"] = max(peaks)
    run["workers cpu"] = after[0] - before[0]
    run["scheduler cpu"] = after[1] - before[1]
    run["cpu"] += run["workers cpu"] + run["scheduler cpu"]
    return run


@contextlib.contextmanager
def local_cluster(workers: int, lean: bool = True) -> Iterator[tuple[Any, Any]]:
    """A fresh local Dask cluster of ``workers`` single-threaded worker
    processes, all started (with :data:`LEAN_WORKERS`' settings, or else
    Dask's defaults), and its client."""
    import dask.config
    from distributed import Client, LocalCluster

    with (
        dask.config.set(LEAN_WORKERS if lean else {}),
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=logging.ERROR,
        ) as cluster,
        Client(cluster) as client,
    ):
        client.wait_for_workers(workers)
        yield cluster, client


def _peak_mb() -> float:
    """The peak resident memory of the process it runs in (a Dask worker), in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_seconds() -> float:
    """The CPU seconds of the process it runs in (a Dask worker)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def dask_startup_seconds(tree: Path, table: str, workers: int) -> list[tuple[float, float, float, float]]:
    """For each worker of a fresh local Dask cluster of ``workers``: the
    wall and CPU seconds it takes to import al0's verifier (as al0's check
    of the workers does, before a run), then to make its verifier."""
    spec = _spec(tree, table)
    with local_cluster(workers) as (_, client):
        imports = client.run(_import_al0)
        verifiers = client.run(_make_verifier, spec)
        return [imports[worker] + verifiers[worker] for worker in imports]


def _import_al0() -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    import al0.verify.verifier  # noqa: F401

    return time.perf_counter() - wall, time.process_time() - cpu


def _spec(tree: Path, table: str) -> VerifySpec:
    sys.path.insert(0, str(tree))
    from al0.bundled import table_path
    from al0.lang.specs import DefenderSpec
    from al0.verify.verifier import VerifySpec

    return VerifySpec(os.path.abspath(table_path(table)), DefenderSpec("tablebase"))


def startup_seconds(tree: Path, table: str) -> tuple[float, float]:
    """Wall and CPU seconds a fresh worker process takes to make its verifier."""
    spec = _spec(tree, table)
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
    parser.add_argument("--jobs", type=int, nargs="*", default=[1, 2])
    parser.add_argument(
        "--dask",
        type=int,
        nargs="*",
        default=[],
        help="worker processes of a local Dask cluster, for each run started afresh (on 127.0.0.1)",
    )
    parser.add_argument(
        "--dask-defaults", action="store_true", help="the Dask clusters with Dask's default settings"
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--defender", default="tablebase")
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    arguments = parser.parse_args()
    if not arguments.jobs and not arguments.dask:
        parser.error("give at least one --jobs N or --dask N")
    # The workers of a Dask cluster are started afresh: they import al0 from the tree.
    os.environ["PYTHONPATH"] = str(arguments.tree)
    modes = [(f"--jobs {jobs}", functools.partial(one_run, jobs=jobs)) for jobs in arguments.jobs]
    modes += [
        (f"--dask {workers}", functools.partial(dask_run, workers=workers, lean=not arguments.dask_defaults))
        for workers in arguments.dask
    ]
    medians = {}
    for name, mode in modes:
        runs = []
        for _ in range(arguments.runs):
            run = mode(arguments.tree, arguments.table, arguments.positions, defender=arguments.defender)
            runs.append(run)
            parts = ", ".join(f"{key} {run[key]:.1f} s" for key in run if key.endswith(" cpu"))
            memory = (
                f", peak memory: main {run['main MB']:.0f} MB, the largest worker {run['worker MB']:.0f} MB"
                if "worker MB" in run
                else ""
            )
            print(
                f"{name}: {run['plans']} plans, {run['wall']:.1f} s wall, "
                f"{run['cpu']:.1f} s CPU{f' ({parts})' if parts else ''}, "
                f"load {run['load']:.1f}{memory}",
                flush=True,
            )
        medians[name] = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    first = medians[modes[0][0]]
    for name, median in medians.items():
        print(
            f"median {name}: {median['plans']:.0f} plans "
            f"({median['plans'] / first['plans']:.3f}x), "
            f"{median['wall']:.1f} s wall ({median['wall'] / first['wall']:.2f}x), "
            f"{median['cpu']:.1f} s CPU, load {median['load']:.1f}"
        )
    wall, cpu = startup_seconds(arguments.tree, arguments.table)
    print(f"worker start-up ({arguments.table}): {wall:.2f} s wall, {cpu:.2f} s CPU")
    for workers in arguments.dask:
        times = dask_startup_seconds(arguments.tree, arguments.table, workers)
        import_wall, import_cpu, wall, cpu = (max(column) for column in zip(*times))
        print(
            f"Dask worker start-up ({arguments.table}, {workers} workers, the slowest): "
            f"importing al0 {import_wall:.2f} s wall, {import_cpu:.2f} s CPU; "
            f"then its verifier {wall:.2f} s wall, {cpu:.2f} s CPU"
        )


if __name__ == "__main__":
    main()
