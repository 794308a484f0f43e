"""verify's worker processes: how many are started, and that a signal or the
death of their parent never leaves them running or the report unwritten."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import chess
import pytest
from click.testing import CliRunner

import al0.cli.process as process
import al0.verify.api
import al0.verify.run as verify_run
from al0.cli import cli
from al0.verify.merge import remove_stale_folders
from al0.verify.run import CHUNK, JOBS_PER_CPU, chunk_for, useful_jobs
from conftest import TABLES, forks_of

BOOK = str(TABLES / "krk_bratko.yaml")


# ------------------------------------------------------------ --jobs


@pytest.mark.parametrize(
    "jobs, positions, by_plans, cpus, useful, why",
    [
        (2, 5000, False, 2, 2, ""),
        (4, 5000, False, 2, 4, ""),
        (100_000, 5000, False, 2, 2 * JOBS_PER_CPU, "2 CPUs, at most 2 workers each"),
        (100_000, 5000, False, 1, JOBS_PER_CPU, "1 CPU, at most 2 workers each"),
        # A run of one chunk is not lowered for its size (its first games,
        # judged here, tell whether workers are worth it), but to a worker a
        # start; a larger one to a worker a chunk.
        (8, CHUNK, False, 16, 8, ""),
        (8, 5, False, 16, 5, "5 positions"),
        (8, 1, False, 16, 1, "1 position"),
        (8, 2 * CHUNK + 1, False, 16, 3, f"{2 * CHUNK + 1} positions make 3 chunks of at most {CHUNK}"),
        (8, 2 * CHUNK + 1, False, 1, 2, "1 CPU, at most 2 workers each"),
        # The worst case shares out plans, the tablebase defender's games their
        # segments, not starts: even one start may need thousands.
        (4, 1, True, 2, 4, ""),
        (100_000, 1, True, 3, 3 * JOBS_PER_CPU, "3 CPUs, at most 2 workers each"),
    ],
)
def test_useful_jobs(jobs, positions, by_plans, cpus, useful, why):
    assert useful_jobs(jobs, positions, by_plans, cpus) == (useful, why)


@pytest.mark.parametrize(
    "seconds, judged, left, jobs, size",
    [
        (4.0, 1, 149, 2, 1),  # KBNK: seconds a game, a start a chunk
        (2.0, 20, 180, 2, 5),  # 0.1 s a game: half a second's worth
        (2.0, 100, 100, 2, 12),  # at most a quarter of a worker's share
        (2.0, 150, 5, 2, 1),
    ],
)
def test_a_small_runs_chunks_are_sized_by_what_its_first_games_cost(seconds, judged, left, jobs, size):
    assert chunk_for(seconds, judged, left, jobs) == size


@pytest.mark.slow
def test_jobs_over_the_cpus_are_lowered_with_a_note(monkeypatch, pool_sizes):
    # --jobs 100000 started 100 workers of ~67 MB each on 2 cores.
    monkeypatch.setattr(verify_run, "CHUNK", 10)  # 4 chunks of few positions: a fast run
    monkeypatch.setattr(al0.verify.api, "usable_cpus", lambda: 1)
    result = CliRunner().invoke(
        cli, ["verify", BOOK, "--positions", "sample:31", "--jobs", "100000", "--defender", "random"]
    )
    assert result.exit_code == 0, result.output
    assert "note: --jobs 100000 lowered to 2: 1 CPU, at most 2 workers each\n" in result.stderr
    assert pool_sizes == [1, 1]  # a pool of one process a worker


# ------------------------------------------------------------ signals

MODES = {
    "jobs-1": ("--positions", "sample:5"),
    "jobs-2": ("--positions", "sample:40", "--jobs", "2"),  # 4 chunks of 10
    "worst-jobs-1": ("--positions", "sample:3", "--defender", "worst"),
    "worst-jobs-2": ("--positions", "sample:3", "--defender", "worst", "--jobs", "2"),
}


def assert_partial_report(result, out) -> dict:
    """What Ctrl-C gives verify: exit 2 after a one-line reason, the JSON
    report written and marked interrupted, every expectation undecided."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    last = result.stderr.splitlines()[-1]
    assert last.startswith("Error: stopped after ") and last.endswith(": interrupted"), last
    data = json.loads(out.read_text())
    assert data["interrupted"] and data["games"] < data["total"]
    assert data["expectations"] and all(check["holds"] is None for check in data["expectations"])
    assert "expect mates-all: undecided" in result.output
    return data


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
@pytest.mark.slow
def test_sigterm_and_sighup_give_the_partial_report(
    tmp_path, monkeypatch, stop_at_first_progress, mode, number
):
    # They ended verify without a report (and left its workers running).
    monkeypatch.setattr(verify_run, "CHUNK", 10)
    stop_at_first_progress(number)
    handlers = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGHUP)}
    out = tmp_path / "report.json"
    result = CliRunner().invoke(cli, ["verify", "krk", *MODES[mode], "--json", str(out)])
    assert_partial_report(result, out)
    # The handlers are the caller's again, and no worker is left.
    assert {number: signal.getsignal(number) for number in handlers} == handlers
    assert forks_of(os.getpid()) == []


PLAY_UNTIL_SIGNAL = """
import signal, sys

# Started as a shell starts al0: the stop signals at their defaults and let
# through. A child keeps the mask and the ignored signals of the thread
# that started it, and what a test runner's worker holds is not under test;
# if it held any, it is said on stderr.
stops = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
held = stops & signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
handlers = {number: signal.getsignal(number) for number in stops}
if held or handlers != {**dict.fromkeys(stops, signal.SIG_DFL), signal.SIGINT: signal.default_int_handler}:
    print(f"inherited: blocked {sorted(held)}, handlers {handlers}", file=sys.stderr)
signal.signal(signal.SIGINT, signal.default_int_handler)
for number in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(number, signal.SIG_DFL)

import al0.cli.play

shown = []

def board_text(board):
    shown.append(board.fen())
    if len(shown) == 2:  # after our first move, to this (the main) thread
        signal.raise_signal(int(sys.argv[1]))
    return ""

al0.cli.play.board_text = board_text
from al0.cli import cli

cli(["play", sys.argv[2], "--opponent", "random"], prog_name="al0")
"""
"""``al0 play`` in a process of its own that signals itself after its first move."""


@pytest.mark.parametrize("number, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)])
@pytest.mark.slow
def test_a_signal_stops_play_with_its_exit_code(number, code):
    # Ctrl-C gave click's exit 1, SIGTERM and SIGHUP no line at all. In a
    # process of its own, as al0 runs: played inside the suite's worker, the
    # SIGINT case sometimes went on to mate through its signal, and once did
    # so in a child too, which took the worker's signal state until it set
    # its own (cause not found; only in whole-suite runs).
    result = subprocess.run(
        [sys.executable, "-c", PLAY_UNTIL_SIGNAL, str(int(number)), str(BOOK)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == code, result.stdout + result.stderr
    name = "" if number == signal.SIGINT else f" ({signal.Signals(number).name})"
    assert result.stderr.endswith(f"\nAborted{name}!\n") and "Traceback" not in result.stderr
    assert "1. " in result.stdout and "2. " not in result.stdout


@pytest.mark.parametrize("raised_at", [0, 1])
def test_a_signal_handled_while_the_mask_changes_leaves_the_mask_as_it_was(monkeypatch, raised_at):
    """``pthread_sigmask`` runs the handlers of signals that came before it
    returns: a Ctrl-C raised there (``raised_at``: the nth call) ran where
    the mask to restore was lost, and left Ctrl-C blocked in the thread for
    the rest of the process; the flake of the test above (a later ``al0
    play`` ran to mate through its SIGINT) came from it, when a run's
    signal was handled there, as the machine's load decided."""
    real = signal.pthread_sigmask
    calls: list[int] = []

    def handled_there(how: int, mask: object) -> set[signal.Signals]:
        previous = real(how, mask)
        calls.append(how)
        if len(calls) == raised_at + 1:
            raise KeyboardInterrupt
        return previous

    before = real(signal.SIG_BLOCK, ())
    monkeypatch.setattr(signal, "pthread_sigmask", handled_there)
    with pytest.raises(KeyboardInterrupt):
        with verify_run._holding_stop_signals():
            pytest.fail("the block ran")
    assert real(signal.SIG_BLOCK, ()) == before


@pytest.mark.parametrize("raised_at", [0, 1, 2, 3])
def test_a_signal_handled_while_the_handlers_change_leaves_them_as_they_were(monkeypatch, raised_at):
    """``signal.signal`` runs the handlers of signals already come before
    it sets its own: a Ctrl-C raised there (``raised_at``: the nth call, as
    a command starts or ends) left SIGTERM's handler set for the rest of
    the process; now every handler is set, then the Ctrl-C raised."""
    real = signal.signal
    calls: list[int] = []

    def handled_first(number: int, handler: Any) -> Any:
        calls.append(number)
        if len(calls) == raised_at + 1:
            raise KeyboardInterrupt
        return real(number, handler)

    before = {number: signal.getsignal(number) for number in process.TERMINATING}
    monkeypatch.setattr(signal, "signal", handled_first)
    with pytest.raises(KeyboardInterrupt):
        with process.terminating_as_interrupt():
            assert {signal.getsignal(number) for number in process.TERMINATING} == {process._terminate}
            raise KeyboardInterrupt  # the block's own, where the interrupt came at its end
    assert {number: signal.getsignal(number) for number in process.TERMINATING} == before


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
@pytest.mark.slow
def test_a_signal_to_the_whole_group_gives_the_partial_report(tmp_path, number):
    # As `timeout`, systemd or a dropped ssh session send it: to verify and
    # its workers at once. A worker killed by it made verify report "a worker
    # process died" at best.
    out = tmp_path / "report.json"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "al0",
            "verify",
            "krk",
            "--jobs",
            "2",
            "--positions",
            "sample:5000",
            "--json",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        while process.poll() is None and len(forks_of(process.pid)) < 2:
            time.sleep(0.05)
        os.killpg(process.pid, number)
        printed, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 2 and "Traceback" not in err, err
    assert err.endswith("interrupted\n") and "expect mates-all: undecided" in printed, err
    data = json.loads(out.read_text())
    assert data["interrupted"] and data["games"] < data["total"] == 5000


# ------------------------------------------------------------ a dead parent


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):
        return False


@pytest.mark.parametrize("defender", ["tablebase", "worst"])
@pytest.mark.slow
def test_workers_end_when_verify_is_killed(tmp_path, defender):
    # SIGKILL leaves verify no way to stop its workers: they were re-parented
    # and idled for minutes holding its pipes, and a reader of those waited.
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "al0",
            "verify",
            "krk",
            "--jobs",
            "2",
            "--defender",
            defender,
            "--positions",
            "sample:5000",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        while process.poll() is None and len(workers := forks_of(process.pid)) < 2:
            time.sleep(0.05)
        process.kill()
        process.communicate(timeout=30)  # the pipes close: no worker holds them
    finally:
        process.kill()
    deadline = time.monotonic() + 10
    while any(running(worker) for worker in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [worker for worker in workers if running(worker)]
    for worker in left:  # a failing test leaves no process behind
        os.kill(worker, signal.SIGKILL)
    assert len(workers) == 2 and not left


PARENT = """
import os, sys, time
import al0.verify.parent_watch as watch
if sys.argv[1] == "poll":
    watch._kill_on_parent_death = lambda: False  # as where the kernel cannot be asked
import threading
main = threading.main_thread().ident
if os.fork() == 0:
    watch.exit_with_parent(os.getppid(), main)
    print(os.getpid(), flush=True)
    time.sleep(120)
    os._exit(0)
time.sleep(120)
"""


@pytest.mark.parametrize("how", ["kernel", "poll"])
@pytest.mark.slow
def test_a_watched_worker_ends_with_its_parent(how):
    process = subprocess.Popen(
        [sys.executable, "-c", PARENT, how], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        worker = int(process.stdout.readline())
        assert running(worker)
        process.kill()
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        while running(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not running(worker)
    finally:
        with contextlib.suppress(ProcessLookupError):  # all gone, as they should be
            os.killpg(process.pid, signal.SIGKILL)
        process.stdout.close()


def test_a_worker_forked_by_a_thread_that_ends_lives_on():
    # The kernel's parent-death signal watches the thread that forked a
    # worker, not its process: a worker forked by a thread that then ended
    # was killed with the run still going ("stopped after 0 of 5 positions:
    # interrupted", or "a worker process died").
    from al0.verify.run import _pools

    with _pools(1, 1, []) as [executor]:
        forked: list[tuple[int, int]] = []

        def fork() -> None:
            forked.append((executor.submit(os.getpid).result(), threading.get_native_id()))

        thread = threading.Thread(target=fork)
        thread.start()
        thread.join()
        [(worker, native)] = forked
        # Gone from the kernel too (join returns a little before): any signal
        # its end sends has been sent.
        while os.path.exists(f"/proc/self/task/{native}"):
            time.sleep(0.01)
        assert executor.submit(os.getpid).result(timeout=60) == worker
        assert running(worker)


def test_the_workers_folders_of_killed_runs_go_and_a_live_runs_stay(tmp_path):
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    killed = tmp_path / f"al0-verify-{ended.pid}-x1"
    live = tmp_path / f"al0-verify-{os.getpid()}-x2"
    other = tmp_path / f"al0-other-{ended.pid}-x3"
    for folder in (killed, live, other):
        folder.mkdir()
        (folder / "1-1").write_bytes(b"segments")
    remove_stale_folders(tmp_path)
    assert not killed.exists() and live.exists() and other.exists()
