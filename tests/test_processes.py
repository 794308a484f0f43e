"""verify's worker processes: how many are started, and that a signal or the
death of their parent never leaves them running or the report unwritten."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import al0.cli.verify
import al0.verify.run as verify_run
from al0.cli import cli
from al0.verify.run import CHUNK, JOBS_PER_CPU, useful_jobs
from conftest import TABLES

BOOK = str(TABLES / "krk_bratko.yaml")


# ------------------------------------------------------------ --jobs

@pytest.mark.parametrize("jobs, positions, worst, cpus, useful, why", [
    (2, 5000, False, 2, 2, ""),
    (4, 5000, False, 2, 4, ""),
    (100_000, 5000, False, 2, 2 * JOBS_PER_CPU, "2 CPUs, at most 2 workers each"),
    (100_000, 5000, False, 1, JOBS_PER_CPU, "1 CPU, at most 2 workers each"),
    (8, CHUNK, False, 16, 1, f"{CHUNK} positions make 1 chunk of at most {CHUNK}"),
    (8, 1, False, 16, 1, f"1 position makes 1 chunk of at most {CHUNK}"),
    (8, 2 * CHUNK + 1, False, 16, 3, f"{2 * CHUNK + 1} positions make 3 chunks of at most {CHUNK}"),
    (8, 2 * CHUNK + 1, False, 1, 2, "1 CPU, at most 2 workers each"),
    # The worst case shares out plans, not starts: even one start has thousands.
    (4, 1, True, 2, 4, ""),
    (100_000, 1, True, 3, 3 * JOBS_PER_CPU, "3 CPUs, at most 2 workers each"),
])
def test_useful_jobs(jobs, positions, worst, cpus, useful, why):
    assert useful_jobs(jobs, positions, worst, cpus) == (useful, why)


def test_jobs_over_the_cpus_are_lowered_with_a_note(monkeypatch):
    # --jobs 100000 started 100 workers of ~67 MB each on 2 cores.
    made: list[int] = []

    class Recording(verify_run.ProcessPoolExecutor):
        def __init__(self, max_workers: int, **kwargs):
            made.append(max_workers)
            super().__init__(max_workers, **kwargs)

    monkeypatch.setattr(verify_run, "ProcessPoolExecutor", Recording)
    monkeypatch.setattr(verify_run, "CHUNK", 10)  # 4 chunks of few positions: a fast run
    monkeypatch.setattr(al0.cli.verify, "usable_cpus", lambda: 1)
    result = CliRunner().invoke(cli, ["verify", BOOK, "--positions", "sample:31", "--jobs",
                                      "100000", "--defender", "random"])
    assert result.exit_code == 0, result.output
    assert "note: --jobs 100000 lowered to 2: 1 CPU, at most 2 workers each\n" in result.stderr
    assert made == [2]
