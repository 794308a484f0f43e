"""What a Dask worker's own threads spend beside a task that holds the GIL.

    python benchmarks/dask_threads.py --seconds 10

On a fresh local cluster of two single-thread workers, for Dask's default
settings and then for :data:`scaleout.LEAN_WORKERS` (those docs/verify.md
gives for ``dask worker``): each worker runs a task that spins in Python
for ``--seconds``; prints the task threads' CPU and the rest of the worker
processes' CPU over the same time (its profiler, event loop, monitors).
"""

from __future__ import annotations

import argparse
import resource
import time

from scaleout import local_cluster


def spin(seconds: float) -> float:
    """Hold the GIL for ``seconds`` of wall time; the thread's CPU seconds."""
    started, cpu = time.perf_counter(), time.thread_time()
    total = 0
    while time.perf_counter() - started < seconds:
        for number in range(10_000):
            total += number
    return time.thread_time() - cpu


def process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    arguments = parser.parse_args()
    for name, lean in (("Dask's defaults", False), ("LEAN_WORKERS", True)):
        with local_cluster(2, lean) as (_, client):
            time.sleep(2)  # past the workers' start
            before = client.run(process_cpu)
            futures = [client.submit(spin, arguments.seconds, pure=False, workers=[w]) for w in before]
            spun = sum(client.gather(futures))
            after = client.run(process_cpu)
            rest = sum(after[w] - before[w] for w in before) - spun
            print(
                f"{name}: task threads {spun:.2f} s of CPU, the workers' other threads {rest:.2f} s "
                f"({100 * rest / spun:.1f} %) over {arguments.seconds:g} s"
            )


if __name__ == "__main__":
    main()
