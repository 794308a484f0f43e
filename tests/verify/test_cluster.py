"""Verify on a Dask cluster: the same report as a local run, and every way a
cluster fails (a worker that cannot load the library, dies, or kills every
worker its chunk goes to; the scheduler gone or never there) ends the run
with a clear message and the partial report."""

from __future__ import annotations

import contextlib
import gc
import json
import pickle
import shutil
import signal
import socket
import sys
import threading
from collections.abc import Iterator

import chess
import dask
import pytest
from click.testing import CliRunner
from distributed import LocalCluster

from al0.board import Material
from al0.board.position import from_board
from al0.board.sampling import random_positions
from al0.cli import cli
from al0.lang.specs import DefenderSpec, PositionsSpec
from al0.verify.cluster import judge_on_cluster, starts_on_worker
from al0.verify.scheduler import ClusterError, connect
from al0.verify.segments import pack
from al0.verify.tally import Report
from al0.verify.verifier import Verifier, VerifySpec
from al0.verify.worker import StartsChunk
from conftest import LIBRARIES, POSITIONS, TABLES

CLUSTER_EPD = str(POSITIONS / "krk_cluster.epd")

TIMINGS = ("plans_searched", "plan_ms", "plans_per_second", "wall_seconds")
"""What a report may change with how the work ran: times, and the plans
searched (a few positions are planned by two workers)."""


def start_cluster(workers: int = 2) -> LocalCluster:
    """``workers`` worker processes of one thread each, as ``dask worker``
    starts them; ``AL0_TEST_WORKER`` lets the test library know it runs on a
    worker. A chunk is given up after a second worker dies on it (Dask
    allows three)."""
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env={"AL0_TEST_WORKER": "1"},
        )


@pytest.fixture(scope="module")
def local_cluster():
    """The module's cluster: every test that starts one is in the slow tier
    (its two workers are processes to start, some 3 s of CPU)."""
    with start_cluster() as local:
        yield local


@pytest.fixture
def scheduler(local_cluster):
    """The module's cluster, shared by the tests that leave its workers alive."""
    return local_cluster.scheduler_address


@pytest.fixture
def own_cluster(request):
    """A cluster for one test that kills workers or the scheduler: a loaded
    machine may not restart a killed worker in time for the next test. Its
    closing gives up on a gone scheduler in 2 s, not 30. Two workers, or as
    many as the test asks (:data:`ONE_WORKER`)."""
    with (
        dask.config.set({"distributed.comm.timeouts.connect": "2s"}),
        start_cluster(getattr(request, "param", 2)) as local,
    ):
        yield local


ONE_WORKER = pytest.mark.parametrize("own_cluster", [1], ids=["one worker"], indirect=True)
"""For a test that takes the scheduler or every worker away: one worker
shows it as well as two, and each worker is a process to start (the
three tests took 15.7 s of CPU with two workers each, 10.6 s with one)."""


@pytest.fixture
def own_scheduler(own_cluster):
    return own_cluster.scheduler_address


def run(*args: str):
    return CliRunner().invoke(cli, ["verify", *args])


def table_in(tmp_path, table: str = "krk_bratko.yaml", *markers: str) -> str:
    """``table`` in ``tmp_path``, with the test library and ``markers`` beside it."""
    shutil.copy(LIBRARIES / "cluster_krk.py", tmp_path / "cluster_krk.py")
    for marker in markers:
        (tmp_path / marker).touch()
    text = (TABLES / table).read_text().replace("library: ../library/krk.py", "library: cluster_krk.py")
    (tmp_path / table).write_text(text)
    return str(tmp_path / table)


def verify_both_ways(tmp_path, scheduler: str, *args: str) -> list[tuple[dict, str, list[str]]]:
    """For a ``--jobs 1`` run, then a run on the cluster: the JSON report
    less its timings, the failures file and the summary less its timings."""
    return [report for report, _ in verify_both_ways_with_plans(tmp_path, scheduler, *args)]


def verify_both_ways_with_plans(
    tmp_path, scheduler: str, *args: str
) -> list[tuple[tuple[dict, str, list[str]], int]]:
    """:func:`verify_both_ways`, each with the plans its run searched."""
    reports = []
    for name, how in (("local", ("--jobs", "1")), ("cluster", ("--scheduler", scheduler))):
        out, bad = tmp_path / f"{name}.json", tmp_path / f"{name}.epd"
        result = run(*args, *how, "--json", str(out), "--failures", str(bad))
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text())
        plans = data["plans_searched"]
        for key in TIMINGS:
            del data[key]
        # The timings, and the progress lines a slow run prints (a loaded machine).
        timed = ("plans:", "wall time:", "verifying:")
        lines = [line for line in result.output.splitlines() if not line.startswith(timed)]
        reports.append(((data, bad.read_text(), lines), plans))
    return reports


@pytest.mark.parametrize(
    "positions, defender",
    [
        (CLUSTER_EPD, "tablebase"),  # 11 stalemates among 60: the examples' order shows
        ("sample:40", "random"),  # seeded per position, whichever worker plays it
    ],
)
@pytest.mark.slow
def test_cluster_and_one_job_give_the_same_report(tmp_path, scheduler, positions, defender):
    local, remote = verify_both_ways(
        tmp_path, scheduler, table_in(tmp_path), "--positions", positions, "--defender", defender
    )
    assert remote == local
    data, failures, _ = remote
    assert data["games"] == data["total"] == (60 if positions == CLUSTER_EPD else 40)
    if defender == "tablebase":
        assert data["endings"] == {"mate": 49, "stalemate": 11}
        assert failures.count("stalemate") == 11


@pytest.mark.slow
def test_a_worker_that_dies_has_its_chunk_run_again(tmp_path, own_scheduler):
    table = table_in(tmp_path, "krk_bratko.yaml", "die-once")
    local, remote = verify_both_ways(tmp_path, own_scheduler, table, "--positions", CLUSTER_EPD)
    assert (tmp_path / "died").exists()  # a worker did die
    assert remote == local


@pytest.mark.slow
def test_a_chunk_that_kills_its_workers_stops_the_run_with_its_report(tmp_path, own_scheduler):
    out = tmp_path / "r.json"
    result = run(
        table_in(tmp_path, "krk_bratko.yaml", "die-always"),
        "--positions",
        CLUSTER_EPD,
        "--scheduler",
        own_scheduler,
        "--json",
        str(out),
    )
    assert result.exit_code == 2
    assert "Error: stopped after 0 of 60 positions: positions " in result.output
    assert "were lost" in result.output and "Traceback" not in result.output
    data = json.loads(out.read_text())
    assert data["interrupted"] and data["games"] == 0 and data["total"] == 60


@pytest.mark.slow
def test_a_library_a_worker_cannot_import_names_the_worker(tmp_path, scheduler):
    result = run(
        table_in(tmp_path, "krk_bratko.yaml", "fail-import"),
        "--positions",
        CLUSTER_EPD,
        "--scheduler",
        scheduler,
    )
    assert result.exit_code == 2
    message = result.output.strip().splitlines()[-1]
    assert message.startswith("Error: worker tcp://127.0.0.1:")
    assert "No module named 'krk_extras' on this worker" in message
    assert message.count("worker tcp://") == 2  # both workers named


@pytest.mark.slow
def test_the_segments_a_worker_sends_name_positions_as_they_are_named_here(tmp_path, scheduler):
    # A game replans where a segment's tree leads back to a position it has
    # seen after a move of ours, found by hash (Segment.ours): a Dask worker
    # is not forked from this process, so a Position's hash (hash(None)'s
    # address before Python 3.12) differed there and games went otherwise.
    spec = VerifySpec(table_in(tmp_path), DefenderSpec.parse("tablebase"))
    start = pack(from_board(chess.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")))
    with connect(scheduler) as client:
        answer = client.submit(
            starts_on_worker, spec, "segments", StartsChunk(0, 1, starts=((start, 0, None),))
        )
        sent, _ = pickle.loads(answer.result().made)
    here = Verifier(spec)
    segments = {key: pickle.loads(segment) for key, segment in sent.items()}
    assert len(segments) > 5 and any(segment.ours for segment in segments.values())
    assert segments == {key: here.segment(key) for key in segments}


@ONE_WORKER
@pytest.mark.slow
def test_a_scheduler_that_goes_away_stops_the_run_with_its_report(tmp_path, own_scheduler):
    out = tmp_path / "r.json"
    result = run(
        table_in(tmp_path, "krk_bratko.yaml", "shutdown"),
        "--positions",
        CLUSTER_EPD,
        "--scheduler",
        own_scheduler,
        "--json",
        str(out),
    )
    assert result.exit_code == 2
    data = json.loads(out.read_text())
    assert data["interrupted"] and data["games"] < data["total"] == 60
    # A worker may have sent a chunk back before the scheduler went;
    # the client hears of it as cancelled futures (Dask's older or newer
    # kind) or as a closed connection, whichever comes first.
    stopped = f"Error: stopped after {data['games']} of 60 positions: lost the scheduler at {own_scheduler} ("
    assert any(
        stopped + kind + ")" in result.output
        for kind in ("FuturesCancelledError", "FutureCancelledError", "CommClosedError")
    ), result.output


@pytest.mark.slow
def test_a_cluster_plans_about_what_one_process_plans(tmp_path, scheduler):
    # Games from different starts join: the workers send one another the
    # segments and the plans they make, so few positions are planned twice;
    # but each worker's chunks are judged before it hears of what the other
    # made meanwhile (without sharing, each worker planned what its games
    # met: 1.23 times one process's plans here).
    (local, local_plans), (remote, remote_plans) = verify_both_ways_with_plans(
        tmp_path, scheduler, table_in(tmp_path), "--positions", "sample:300"
    )
    assert remote == local
    assert local_plans <= remote_plans <= 1.15 * local_plans


@pytest.mark.slow
def test_closing_the_stream_cancels_the_rest_and_keeps_what_came_back(tmp_path, scheduler):
    # What Ctrl-C does: run_with_progress closes the generator.
    boards = [
        chess.Board(line.split(" w ")[0] + " w - - 0 1")
        for line in open(CLUSTER_EPD)
        if not line.startswith("#")
    ]
    report = Report("krk_bratko", DefenderSpec("tablebase"), PositionsSpec.parse(CLUSTER_EPD), len(boards))
    spec = VerifySpec(table_in(tmp_path), DefenderSpec.parse("tablebase"))
    judged = judge_on_cluster(scheduler, Verifier(spec), boards, report)
    first = next(judged)
    judged.close()
    # The records judged before the stop, in the order of the positions.
    assert first <= len(report.records) < len(boards)
    numbers = {board.fen(): number for number, board in enumerate(boards)}
    order = [numbers[record.fen] for record in report.records]
    assert order == sorted(order)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
@pytest.mark.slow
def test_sigterm_and_sighup_give_the_partial_report(tmp_path, scheduler, stop_at_first_progress, number):
    # What Ctrl-C gives (test_processes has the local runs): the report
    # written, the expectations undecided, exit 2, the work cancelled.
    stop_at_first_progress(number)
    out = tmp_path / "report.json"
    result = run(
        table_in(tmp_path, "krk.yaml"),
        "--positions",
        CLUSTER_EPD,
        "--scheduler",
        scheduler,
        "--json",
        str(out),
    )
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1].endswith(": interrupted"), result.output
    data = json.loads(out.read_text())
    assert data["interrupted"] and 0 < data["games"] < data["total"]
    assert data["expectations"] and all(check["holds"] is None for check in data["expectations"])


@ONE_WORKER
@pytest.mark.slow
def test_a_cluster_left_without_workers_stops_the_run(tmp_path, own_cluster, own_scheduler):
    # 300 rounds of the positions: far more work than is done when the
    # workers go (with 30, two workers sometimes finished all of it first).
    boards = 300 * [
        chess.Board(line.split(" w ")[0] + " w - - 0 1")
        for line in open(CLUSTER_EPD)
        if not line.startswith("#")
    ]
    report = Report("krk_bratko", DefenderSpec("random"), PositionsSpec.parse(CLUSTER_EPD), len(boards))
    spec = VerifySpec(table_in(tmp_path), DefenderSpec.parse("random"))
    records = judge_on_cluster(own_scheduler, Verifier(spec), boards, report, no_worker_seconds=1)
    next(records)
    own_cluster.scale(0)
    # Whichever Dask sees first stops the run: no worker left for a second,
    # or a chunk whose workers all went while it ran (Dask's KilledWorker).
    with pytest.raises(
        ClusterError,
        match=f"no worker left on the scheduler at {own_scheduler} for 1 s|were lost: KilledWorker",
    ):
        list(records)
    assert 1 <= len(report.records) < len(boards)


@ONE_WORKER
@pytest.mark.slow
def test_a_cluster_left_without_workers_stops_a_run_of_segments(tmp_path, own_cluster, own_scheduler):
    # The tablebase defender's games, read off segments the workers share:
    # slow plans ("slow": a fifth of a millisecond a predicate) from 600
    # starts are seconds of work, and the workers go after one.
    boards = random_positions(Material.parse("KRK"), 600, seed=5)
    report = Report("krk_bratko", DefenderSpec("tablebase"), PositionsSpec.sample(600), len(boards))
    verifier = Verifier(
        VerifySpec(table_in(tmp_path, "krk_bratko.yaml", "slow"), DefenderSpec.parse("tablebase"))
    )
    assert verifier.segments is not None
    records = judge_on_cluster(own_scheduler, verifier, boards, report, no_worker_seconds=1)
    leaving = threading.Timer(1.0, own_cluster.scale, (0,))
    leaving.start()
    try:
        with pytest.raises(
            ClusterError,
            match=f"no worker left on the scheduler at {own_scheduler} for 1 s|were lost: KilledWorker",
        ):
            list(records)
    finally:
        leaving.join()
    assert len(report.records) < len(boards)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    "args, message",
    [
        (("--scheduler", "localhost:8786"), "'localhost:8786': give the scheduler as tcp://HOST:PORT"),
        (
            ("--scheduler", "tcp://127.0.0.1:8786", "--defender", "worst"),
            "--defender worst explores one game graph",
        ),
        (("--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"), "without --jobs"),
    ],
)
def test_bad_scheduler_options_are_one_line_errors(args, message):
    result = run(str(TABLES / "krk.yaml"), "--positions", "sample:5", *args)
    assert result.exit_code == 2 and message in result.output, result.output


def test_no_scheduler_at_the_address_is_an_error():
    address = f"tcp://127.0.0.1:{free_port()}"
    with pytest.raises(ClusterError, match=f"no Dask scheduler at {address}"):
        connect(address, connect_seconds=1.0)


@contextlib.contextmanager
def impostor(answer: bytes | None) -> Iterator[str]:
    """The address of a TCP server on 127.0.0.1 that accepts every
    connection and sends ``answer`` (nothing: it stays silent; None: it
    echoes what it is sent, which passes Dask's handshake), not a
    scheduler."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def echo(connection: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := connection.recv(65536):
                connection.sendall(data)

    def serve() -> None:
        with contextlib.suppress(OSError):  # closed at the end
            while True:
                connection, _ = server.accept()
                accepted.append(connection)
                if answer is None:
                    threading.Thread(target=echo, args=(connection,), daemon=True).start()
                else:
                    connection.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for connection in accepted:
            connection.close()


@pytest.mark.parametrize(
    "answer, message",
    [
        (
            b"",
            "accepted the connection but gave no Dask handshake within 0.5 s: is it a Dask scheduler?",
        ),  # once a hang of minutes
        (
            b"HTTP/1.1 200 OK\r\n\r\n" * 10,
            "is not a Dask scheduler: it answered the handshake with something else",
        ),  # once a traceback after 21 s
    ],
    ids=["silent", "junk"],
)
def test_a_program_that_is_not_a_scheduler_is_named_so(answer, message):
    with impostor(answer) as address:
        with pytest.raises(ClusterError) as caught:
            connect(address, connect_seconds=0.5)
    assert str(caught.value).startswith(f"{address} {message}"), caught.value


@pytest.mark.slow
def test_a_program_that_echoes_is_named_and_its_client_put_away_at_once(monkeypatch):
    # The right error, then 20 s later a traceback from the client's finaliser.
    unraised: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", unraised.append)
    with impostor(None) as address:
        with pytest.raises(ClusterError) as caught:
            connect(address, connect_seconds=0.5)
        gc.collect()
    assert str(caught.value).startswith(
        f"{address} is not a Dask scheduler: it answered the client with something else"
    ), caught.value
    assert unraised == []
