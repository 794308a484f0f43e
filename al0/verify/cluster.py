# mypy: disallow-untyped-calls=False
# (distributed's Client, Future and wait carry no annotations.)
"""Verify's work on a Dask cluster (``al0 verify --scheduler``).

The start positions are dealt as to local worker processes
(:mod:`al0.verify.merge`): each worker a stretch of its own, a chunk at a
time, listed on the worker from the run's spec where it can; against the
tablebase defender the segments a worker makes go on to the others, so the
plans the workers search together are about those of one process. Every
worker process builds one :class:`~al0.verify.worker.StartsWorker` per run
(the table, its library and the tablebase, read from the worker's own
cache or built there) and keeps it for all the chunks of the run it is
given. Answers are taken as they complete, and the records go into the
report in the order of the positions, so a report is the same whichever
way the work ran.

Dask re-runs the chunk of a worker that dies on another worker (a region
whose worker has gone goes to any worker); everything it cannot finish (a
chunk that keeps killing its workers, the scheduler gone, no worker left)
becomes a :class:`~al0.verify.scheduler.ClusterError` naming what failed, which ends the run with
the partial report, as a dead engine does locally.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import threading
import time
import uuid
from asyncio import CancelledError as TaskCancelled
from collections.abc import Collection, Sequence
from concurrent.futures import CancelledError as FutureCancelled
from typing import TYPE_CHECKING, Any, Callable, Generator

import chess
import distributed

from al0.collection import fewer_collections
from al0.verify.deal import StartsDeal
from al0.verify.merge import Answers, judge_starts
from al0.verify.scheduler import (
    CONNECT_SECONDS,
    NO_WORKER_SECONDS,
    ClusterError,
    check_workers,
    connect,
    describe,
    quiet_dask,
)
from al0.verify.tally import Report
from al0.verify.verifier import Verifier, VerifySpec
from al0.verify.worker import Made, StartsChunk, StartsResult, StartsWorker

POLL_SECONDS = 1.0
"""How often a run waiting for results looks whether the cluster still has workers."""

LOST_SCHEDULER = (FutureCancelled, TaskCancelled, OSError)
"""What waiting on the cluster raises when the scheduler goes: the run's
futures cancelled (Dask's kinds of that, ``FuturesCancelledError`` and the
newer ``FutureCancelledError``, are both futures' ``CancelledError``), the
client's own task cancelled, or the connection closed."""

IN_FLIGHT = 2
"""Chunks of starts sent to a worker and not yet answered, at most: one
to work on, one ready for when it is done, as for a local worker. Few are
queued on a worker, so Dask's work stealing (which moves queued tasks to
idle workers, to plan them afresh) has few to move."""


LARGEST_CHUNK = 4000
"""Starts a cluster's worker judges per task at most, four times a local
worker's (:data:`al0.verify.deal.LARGEST_CHUNK`): a Dask task costs more
(the client's submit and fetch, the scheduler's round trip, the other
workers' answers fetched before it runs, each on event loops that wait for
the GIL the judging thread holds). Timed on all of KBBK with two workers
in chunks of 1,000 (load 8): each worker idle 10–11 s between its 160
tasks, against 4 s for a pool's."""

_ONE_CHUNK_AT_A_TIME = threading.Lock()
"""A worker runs tasks on a pool of threads, but its one verifier is not
thread-safe and Python threads do not judge positions in parallel anyway:
chunks on one worker process are judged one after the other."""

if TYPE_CHECKING:  # older distributed's Future is not subscriptable at run time
    _Future = distributed.Future[Any]

_Task = Callable[[VerifySpec, str, StartsChunk, tuple[Any, ...]], StartsResult]
"""A task of a run on a worker: given the run's spec, its id, a chunk and
the answers of other workers whose segments it hears of."""


def judge_on_cluster(
    address: str,
    verifier: Verifier,
    boards: Sequence[chess.Board],
    report: Report,
    no_worker_seconds: float = NO_WORKER_SECONDS,
    connect_seconds: float = CONNECT_SECONDS,
) -> Generator[int, None, None]:
    """Judge every board with ``verifier``'s spec on the Dask cluster at
    ``address``, adding the records to ``report`` in the order of
    ``boards`` (with their plan times) and yielding how many games each
    answer judged, like :func:`al0.verify.run.judge_all`.

    The scheduler is reached and every worker checked here, before any work
    is sent; failures during the work are raised from the generator. Closing
    the generator (Ctrl-C, an error) cancels the work still out and adds the
    records already back to ``report``.

    :raises ClusterError: no scheduler at ``address``, no worker, or a worker
        that cannot import al0 or load the table.
    """
    client = connect(address, no_worker_seconds, connect_seconds)
    try:
        check_workers(client, verifier.spec)
        workers = sorted(client.ncores())
    except BaseException:
        client.close()
        raise
    tasks = _Tasks(client, address, verifier.spec, no_worker_seconds)
    judged = judge_starts(
        boards,
        report.positions,
        report,
        len(workers),
        lambda deal: _dealt(tasks, workers, deal),
        verifier.segments is not None,
        largest=LARGEST_CHUNK,
    )
    return _closing(tasks, judged)


@functools.lru_cache(maxsize=1)
def _run_worker(spec: VerifySpec, run: str) -> StartsWorker:
    """The state of one run on a worker process, made at its first chunk
    and kept for the others. Workers outlive runs: keyed by the run, not
    only the spec, so a table edited between two runs is read again."""
    return StartsWorker(spec)


def starts_on_worker(
    spec: VerifySpec, run: str, chunk: StartsChunk, heard: tuple[StartsResult, ...] = ()
) -> StartsResult:
    """A Dask task: :meth:`~al0.verify.worker.StartsWorker.judge` of
    ``chunk`` with the segments of the other workers' answers ``heard``
    (fetched from those workers, see :class:`_Tasks`), on this worker, its
    failures named by the worker's address.

    :raises ClusterError: whatever judging raised, with the worker's address.
    """
    if heard:
        chunk = dataclasses.replace(chunk, shared=chunk.shared + tuple(answer.made for answer in heard))
    # A pool's workers are forked inside the run's fewer_collections and keep
    # it; a Dask worker is a process of its own, which collected at
    # CPython's pace through the segments and tails it holds.
    with _ONE_CHUNK_AT_A_TIME, fewer_collections():
        try:
            return _run_worker(spec, run).judge(chunk)
        except Exception as error:  # crossing to the client: keep the worker's name and the cause
            raise ClusterError(f"worker {distributed.get_worker().address}: {describe(error)}") from None


class _Tasks:
    """The tasks of one run on the cluster: sent, waited for together, their
    failures made :class:`ClusterError` s, and what is still out cancelled
    at the end.

    The segments a worker made (its answer's blob) go to the others as the
    answer itself, left on its worker: a later task of another worker names
    it, and Dask fetches it worker to worker. So a blob leaves its worker
    once for the client (the client reads answers straight from the workers,
    see :func:`~al0.verify.scheduler.connect`) and once for each other
    worker, never through the scheduler; sent with the chunks, each went
    client, scheduler, worker (all of ``kbbk``: 14 s of the scheduler's CPU)."""

    def __init__(self, client: distributed.Client, address: str, spec: VerifySpec, no_worker_seconds: float):
        self.client = client
        self.address = address
        self.spec = spec
        self.run = uuid.uuid4().hex
        self.no_worker_seconds = no_worker_seconds
        self.waiting: dict[_Future, str] = {}
        """The tasks sent and not answered, each with what it judges (for messages)."""
        self.workerless_since: float | None = None
        self.holding: dict[int, tuple[Made, _Future]] = {}
        """The answers whose blobs of segments some worker has not heard
        yet, by the blob's id (the blob kept, so the id stays its own)."""

    def forget(self, unheard: Collection[Made]) -> None:
        """Let the cluster drop the answers whose blobs are not among
        ``unheard`` (every worker has them)."""
        live = {id(blob) for blob in unheard}
        for gone in [key for key in self.holding if key not in live]:
            self.holding.pop(gone)[1].release()

    def submit(self, task: _Task, chunk: StartsChunk, what: str, worker: str | None = None) -> _Future:
        """Send ``task`` of ``chunk`` (``what`` it judges, for messages),
        to ``worker`` when it is there (or else any worker)."""
        place: dict[str, Any] = {} if worker is None else {"workers": [worker], "allow_other_workers": True}
        heard = tuple(self.holding[id(blob)][1] for blob in chunk.shared)
        chunk = dataclasses.replace(chunk, shared=())
        future = self.client.submit(task, self.spec, self.run, chunk, heard, pure=False, **place)
        self.waiting[future] = what
        return future

    def answered(self) -> list[tuple[_Future, Any]]:
        """The tasks answered within :data:`POLL_SECONDS`, with their
        answers; maybe none.

        :raises ClusterError: a task failed, the scheduler is gone, or it
            has had no worker for ``no_worker_seconds``.
        """
        done = _wait(self.client, self.address, set(self.waiting))
        if not done:
            self.workerless_since = _check_workers_left(
                self.client, self.address, self.workerless_since, self.no_worker_seconds
            )
            return []
        self.workerless_since = None
        answers = []
        for future in done:
            answer = _result(future, self.address, self.waiting[future])
            if answer is None:
                continue  # its result went with its worker: computed again, or never
            del self.waiting[future]
            if answer.made:  # held for the other workers (see forget)
                self.holding[id(answer.made)] = answer.made, future
            else:
                future.release()  # the cluster may forget the result now
            answers.append((future, answer))
        return answers

    def close(self) -> None:
        """Cancel the tasks still out and close the client."""
        with contextlib.suppress(Exception):
            self.client.cancel(list(self.waiting))
        with contextlib.suppress(Exception):
            self.client.close(timeout=CONNECT_SECONDS)


def _closing(tasks: _Tasks, judged: Generator[int, None, None]) -> Generator[int, None, None]:
    """``judged``, with Dask kept quiet meanwhile, and ``tasks`` closed
    once they are all out or the caller stops."""
    with quiet_dask():
        try:
            yield from judged
        finally:
            judged.close()  # first: it adds what came back to the report
            tasks.close()


def _dealt(tasks: _Tasks, workers: list[str], deal: StartsDeal) -> Answers:
    """The chunks ``deal`` gives, judged on the cluster: each worker's
    chunks sent to it (``workers[worker]``, or any worker once it has gone),
    at most :data:`IN_FLIGHT` at a time, and yielded with their answers as
    they complete."""
    sent: dict[_Future, tuple[int, StartsChunk]] = {}
    out = [0] * len(workers)  # per worker: chunks sent, not answered
    while True:
        for worker, address in enumerate(workers):
            while out[worker] < IN_FLIGHT:
                chunk = deal.chunk(worker)
                if chunk is None:
                    break
                what = f"positions {chunk.first + 1}-{chunk.stop}"
                sent[tasks.submit(starts_on_worker, chunk, what, address)] = worker, chunk
                out[worker] += 1
        if not sent:
            return
        for future, answer in tasks.answered():
            worker, chunk = sent.pop(future)
            out[worker] -= 1
            yield worker, chunk, answer
        tasks.forget([blob for _, blob in deal.made])


def _wait(client: distributed.Client, address: str, waiting: set[_Future]) -> set[_Future]:
    """The futures of ``waiting`` done (with a result or an error) within
    :data:`POLL_SECONDS`; maybe none.

    :raises ClusterError: the scheduler is gone.
    """
    try:
        with client.as_current():  # distributed.wait asks for "the current client"
            done, _ = distributed.wait(list(waiting), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
    except TimeoutError:
        return set()
    except LOST_SCHEDULER as error:
        raise _lost_scheduler(address, error) from None
    return set(done)


def _check_workers_left(
    client: distributed.Client, address: str, since: float | None, no_worker_seconds: float
) -> float | None:
    """When the cluster has no worker: since when (``since`` or now).

    :raises ClusterError: the scheduler is gone, or has had no worker for
        ``no_worker_seconds``.
    """
    try:
        workers = len(client.ncores())
    except (*LOST_SCHEDULER, TimeoutError) as error:
        raise _lost_scheduler(address, error) from None
    if workers:
        return None
    now = time.monotonic()
    if since is not None and now - since >= no_worker_seconds:
        raise ClusterError(f"no worker left on the scheduler at {address} for {no_worker_seconds:g} s")
    return now if since is None else since


def _result(future: _Future, address: str, what: str) -> Any:
    """The answer of a finished task that judged ``what``; None when it is
    no longer there (held by a worker that has gone since: the scheduler
    computes it again if a worker is left, and the run's wait for workers
    decides otherwise), so that a run never blocks on it.

    :raises ClusterError: the task failed, naming the worker or the cause.
    """
    try:
        return future.result(timeout=POLL_SECONDS)
    except TimeoutError:
        return None
    except ClusterError:
        raise
    except distributed.KilledWorker as error:
        raise ClusterError(f"{what} were lost: {describe(error)}") from None
    except LOST_SCHEDULER as error:
        raise _lost_scheduler(address, error) from None
    except Exception as error:  # Dask's own: the task never ran on a worker
        raise ClusterError(
            f"{what} could not be judged on the cluster at {address}: "
            f"{describe(error)} (the scheduler and every worker need the "
            f"same al0 installed)"
        ) from None


def _lost_scheduler(address: str, error: BaseException) -> ClusterError:
    # Dask's message lists every task cancelled: the kind of error is enough.
    return ClusterError(f"lost the scheduler at {address} ({type(error).__name__})")
