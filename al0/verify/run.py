"""Running verify's games: in this process, in a pool of worker processes
or on a Dask cluster, and stopping cleanly on an interruption.

The command line (:mod:`al0.cli.verify`) only chooses the positions, shows
progress and prints the report; the work and its failures are here.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Collection, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from itertools import repeat
from typing import Any, Callable, Generator, Protocol, TypeVar

import chess

from al0.board.position import Position
from al0.collection import fewer_collections, settling
from al0.engine.plan import Planner
from al0.errors import AL0Error
from al0.verify.deal import CHUNK, PLAN_CHUNK, Deal
from al0.verify.game import GameRecord
from al0.verify.merge import judge_starts
from al0.verify.parent_watch import exit_with_parent
from al0.verify.sources import LazyBoards
from al0.verify.tally import Report
from al0.verify.verifier import Verifier, VerifySpec
from al0.verify.worker import StopRequest, decode_plan, plan_chunk
from al0.verify.worker import judge_starts as starts_task
from al0.verify.worst import Start

_Result = TypeVar("_Result")
_Chunk = TypeVar("_Chunk")
_Spec = TypeVar("_Spec")
_Dealt = TypeVar("_Dealt", covariant=True)


JOBS_PER_CPU = 2
"""Worker processes per CPU at most: more only take turns on the same
cores, each holding its own table, planner and tablebase (tens of MB)."""

GRACE_SECONDS = 3.0
"""How long an interrupted run waits for its workers to stop at their next
position (a game or a plan: a fraction of a second, as a rule) before it
kills them."""

Planning = Callable[[int, int | None], None]
"""Told, as the plans of a worst-case run come in, how many positions are
planned and how many are known to need a plan so far (None in one process,
where the analysis makes each plan as it needs it)."""


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13
    if count is not None:
        return int(count() or 1)
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


CHEAP_PLAN_NODES = 200
"""Search nodes a plan, on average, below which the worst case runs in one
process: the native core searches them in microseconds, less than handing
a plan to a worker and back (``krk_std --defender worst``: 2.1 s in one
process, 2.7 s with two; ``kbbk --positions sample:3000 --defender worst``:
4.9 s against 8.0 s)."""

PILOT_PLANS = 50
"""Starts planned, spread over the run's, to tell whether its plans are cheap."""


def plans_are_cheap(verifier: Verifier, boards: Sequence[chess.Board]) -> bool:
    """Whether ``verifier``'s table plans on the native core whole (rules,
    advice and searches in one call) and in fewer than
    :data:`CHEAP_PLAN_NODES` nodes on average at :data:`PILOT_PLANS` of
    ``boards`` (planned by a planner of their own, so the run's plans and
    figures are its own). Node counts, not times: the same answer on a
    loaded machine; the pilot stops as soon as its nodes tell."""
    if verifier.planner.core is None or not boards:
        return False
    step = max(1, len(boards) // PILOT_PLANS)
    starts = [boards[index] for index in range(0, len(boards), step)][:PILOT_PLANS]
    allowed = CHEAP_PLAN_NODES * len(starts)
    pilot = Planner(verifier.table, allowed, cache=False)
    nodes = 0
    for board in starts:
        try:
            nodes += pilot.plan(board).nodes
        except AL0Error:  # a search past all the pilot's nodes (or no plan: the run reports it)
            return False
        if nodes >= allowed:
            return False
    return True


def useful_jobs(jobs: int, positions: int, by_plans: bool, cpus: int) -> tuple[int, str]:
    """How many of ``jobs`` worker processes are worth starting for
    ``positions`` start positions on ``cpus`` CPUs, and why fewer ('' when
    not): no more than :data:`JOBS_PER_CPU` per CPU, and, unless the work is
    shared out ``by_plans`` (the worst case's plans, the tablebase
    defender's segments: a few starts may need thousands), no more than the
    chunks of :data:`CHUNK` positions, or for a run of one chunk the
    positions: whether that is worth any worker is told as it runs (its
    first :data:`PROBE_SECONDS` are judged here, see :func:`judge_all`)."""
    useful, why = jobs, ""
    if not by_plans:
        chunks = -(-positions // CHUNK)
        if chunks == 1 and positions < useful:
            useful, why = positions, _count(positions, "position")
        elif 1 < chunks < useful:
            useful = chunks
            why = f"{_count(positions, 'position')} make {_count(chunks, 'chunk')} of at most {CHUNK}"
    if JOBS_PER_CPU * cpus < useful:
        useful = JOBS_PER_CPU * cpus
        why = f"{_count(cpus, 'CPU')}, at most {JOBS_PER_CPU} workers each"
    return useful, why


SMALL_RUN = 2000
"""Positions up to which a run goes in one process unless ``--jobs`` says
otherwise, and is not timed first: a few seconds at most, less than
workers cost to start and fill."""


def default_jobs(
    kind: str, scheduler: str | None, positions: int, cpus: int, cheap_plans: bool = False
) -> int:
    """The worker processes for ``positions`` starts against a defender of
    ``kind`` when ``--jobs`` is not given: one per CPU (no more than
    :func:`useful_jobs` finds worth starting), but one process for a UCI
    defender (one engine a run), on a cluster (its workers do the work),
    for a run of at most :data:`SMALL_RUN` positions (:data:`CHUNK` for the
    worst case, whose workers share plans, not starts), and for the worst
    case of a table whose plans are cheap (:func:`plans_are_cheap`: its
    workers would only plan)."""
    if kind == "uci" or scheduler or positions <= CHUNK:
        return 1
    if kind == "worst":
        return 1 if cheap_plans else useful_jobs(cpus, positions, True, cpus)[0]
    return 1 if positions <= SMALL_RUN else useful_jobs(cpus, positions, False, cpus)[0]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def judge_all(
    spec: VerifySpec,
    verifier: Verifier,
    boards: Sequence[chess.Board],
    jobs: int,
    report: Report,
    planning: Planning = lambda planned, known: None,
) -> Generator[int, None, None]:
    """Judge every board, in this process or in ``jobs`` worker processes,
    adding records and plan times to ``report`` as they arrive; yields how
    many games each step judged."""
    if jobs > 1 and verifier.worst is not None:
        # Even one start may need thousands of plans: the workers share them.
        for _ in _judge_worst(spec, verifier, boards, jobs, report, planning):
            yield 1
        return
    if jobs > 1:
        first, size = 0, None
        if len(boards) <= CHUNK:
            # A small run: judged here while it is cheap, its cost measured.
            started = time.process_time()
            for record in _judge_here(verifier, boards):
                report.add(record)
                report.plan_seconds += verifier.new_plan_seconds()
                first += 1
                yield 1
                if first < len(boards) and time.process_time() - started >= PROBE_SECONDS:
                    break
            if first == len(boards):
                return
            size = chunk_for(time.process_time() - started, first, len(boards) - first, jobs)
        workers = functools.partial(_dealt, spec, starts_task)
        yield from judge_starts(
            boards,
            report.positions,
            report,
            jobs,
            workers,
            verifier.segments is not None,
            local=True,
            first=first,
            size=size,
        )
        return
    if verifier.worst is not None:
        verifier.worst.on_plan = lambda planned: planning(planned, None)
    for record in _judge_here(verifier, boards):
        report.add(record)
        report.plan_seconds += verifier.new_plan_seconds()
        yield 1


def _judge_here(verifier: Verifier, boards: Sequence[chess.Board]) -> Iterator[GameRecord]:
    """The record of every board, judged in this process, in order. The
    starts of a tablebase's listing against the tablebase defender or in
    the worst case are read as compact positions, a chunk at a time: no
    board is made and validated per start."""
    if not isinstance(boards, LazyBoards) or (verifier.worst is None and verifier.segments is None):
        for index, board in enumerate(boards):
            yield verifier.judge(index, board)
        return
    for first in range(0, len(boards), CHUNK):
        if verifier.worst is not None:
            for index, position in enumerate(boards.positions(first, first + CHUNK), first):
                yield verifier.judge_start(
                    verifier.start_at(position), functools.partial(boards.__getitem__, index)
                )
        else:
            for start in boards.chain_starts(first, first + CHUNK):
                yield verifier.chain_record(start, verifier.segment)


PROBE_SECONDS = 2.0
"""CPU seconds a run of at most :data:`CHUNK` positions with ``--jobs N``
is judged in this process before the rest goes to workers: a run done by
then (a few seconds) starts none, whose start and first chunks would cost
more than they save; one whose games take seconds (KBNK's) is shared out
after a game or two."""

CHUNK_SECONDS = 0.5
"""CPU seconds of games a chunk of a small run's starts is sized to, by the
cost of the games judged here first: long enough that a task's cost (about
a millisecond) is nothing, short enough that no worker is left alone with
the last chunks for long."""


def chunk_for(seconds: float, judged: int, left: int, jobs: int) -> int:
    """The starts of a chunk for the ``left`` starts of a run whose
    ``judged`` first games took ``seconds`` of CPU here, on ``jobs``
    workers: :data:`CHUNK_SECONDS` of games, at least one start and at
    most a quarter of a worker's share (so the shares end together)."""
    per_game = seconds / max(1, judged)
    largest = max(1, left // (4 * jobs))
    return max(1, min(largest, round(CHUNK_SECONDS / per_game) if per_game > 0 else largest))


class Dealer(Protocol[_Dealt]):
    """What deals a run's work to its workers: :class:`~al0.verify.deal.Deal`
    or :class:`~al0.verify.deal.StartsDeal`."""

    jobs: int
    read_ahead: bool
    read_all: bool

    def chunk(self, worker: int) -> _Dealt | None: ...

    def read_more(self) -> None: ...


def _dealt(
    spec: _Spec, task: Callable[[_Spec, _Chunk], _Result], deal: Dealer[_Chunk]
) -> Generator[tuple[int, _Chunk, _Result], None, None]:
    """Run ``task(spec, chunk)`` over the chunks of ``deal`` on
    ``deal.jobs`` worker processes (a verify run's games or plans, a hold
    check's stretches: :mod:`al0.verify.hold`), two chunks at a time per worker (one to
    work on, one ready for when it is done), and yield each chunk with its
    worker and answer: a worker's answers in the order it was sent them.
    Items the caller asks for between answers are dealt too; while the
    workers work, the start positions are read (with ``deal.read_ahead``)."""
    jobs = deal.jobs
    sent: dict[Future[_Result], tuple[int, _Chunk]] = {}
    # In the order they are done, which is the order sent for each worker
    # (a pool of one process).
    answered: queue.SimpleQueue[Future[_Result]] = queue.SimpleQueue()
    tasks = [0] * jobs  # per worker: tasks sent, not answered
    with _pools(jobs, 1, sent.keys()) as executors:
        while True:
            for worker, executor in enumerate(executors):
                while tasks[worker] < 2:
                    chunk = deal.chunk(worker)
                    if not chunk:
                        break
                    sent[_submit(executor, answered.put, task, spec, chunk)] = worker, chunk
                    tasks[worker] += 1
            if not sent:
                return
            try:
                future = answered.get(block=not deal.read_ahead or deal.read_all)
            except queue.Empty:
                deal.read_more()
                continue
            worker, chunk = sent.pop(future)
            tasks[worker] -= 1
            yield worker, chunk, _chunk_result(future)


def _judge_worst(
    spec: VerifySpec,
    verifier: Verifier,
    boards: Sequence[chess.Board],
    jobs: int,
    report: Report,
    planning: Planning,
) -> Generator[GameRecord, None, None]:
    """The worst case of every board with ``jobs`` worker processes, split
    by plans, not by start positions: worst lines from any start reach
    nearly every position, so workers judging different starts would each
    plan almost every position again.

    First the workers make every plan the analysis needs (the positions to
    plan are the starts and, from each plan, where following it needs new
    ones: :meth:`~al0.verify.worst.WorstCase.replans`), each worker those of its
    :func:`region`, while this process reads the starts; then this process
    runs the analysis over those plans (sent as steps), start by start,
    exactly as with one job."""
    worst = verifier.worst
    assert worst is not None
    starts: list[Start] = []

    def read() -> list[Position]:
        """Read the next chunk of start positions, for their plans."""
        stop = len(starts) + PLAN_CHUNK
        # A tablebase's listing gives positions without boards (a board costs
        # more than the rest of what a start needs).
        read = (
            [verifier.start_at(position) for position in boards.positions(len(starts), stop)]
            if isinstance(boards, LazyBoards)
            else [verifier.start(board) for board in boards[len(starts) : stop]]
        )
        starts.extend(read)
        return [start[1] for start in read]

    deal = Deal(jobs, lambda position: position, read, read_ahead=True)
    planned = 0
    step_ids: dict[int, list[int]] = {}  # per worker: its step ids -> ours
    with contextlib.closing(_dealt(spec, plan_chunk, deal)) as answers:
        for _, chunk, result in answers:
            report.plan_seconds += result.seconds
            if len(result.answers) < len(chunk):
                raise KeyboardInterrupt  # the worker had a Ctrl-C of its own
            ids = step_ids.setdefault(result.worker, [0])
            assert result.first_step == len(ids)  # none missed, none twice
            worst.learn_steps(result.steps, ids)
            plans = result.plans or repeat(None)
            for position, (step, replans), plan in zip(chunk, result.answers, plans):
                worst.learn(
                    position,
                    step if isinstance(step, AL0Error) else ids[step],
                    None if plan is None else decode_plan(position, plan),
                )
                for replan in replans:
                    deal.ask(replan)
            planned += len(chunk)
            planning(planned, len(deal.asked))
    for index, start in enumerate(starts):
        record = verifier.judge_start(start, lambda: boards[index])
        report.add(record)
        report.plan_seconds += verifier.new_plan_seconds()
        yield record


@contextlib.contextmanager
def _pools(pools: int, workers: int, tasks: Collection[Future[Any]]) -> Iterator[list[ProcessPoolExecutor]]:
    """``pools`` pools of ``workers`` processes each, shut down when done:
    one pool shares out its tasks itself, pools of one process each let the
    caller choose which process does what. A process pool notices a dead
    worker (multiprocessing.Pool waits forever for the task a killed worker
    held).

    ``tasks`` are the tasks sent (kept up to date by the caller). On an
    interruption or error the tasks not started are cancelled and every
    worker is asked to stop (:class:`~al0.verify.worker.StopRequest`): the tasks
    running, and those queued for a worker, answer at once with what they
    have. Workers that do not, within :data:`GRACE_SECONDS` (library code
    that never returns), are killed."""
    main_thread = threading.main_thread().ident
    assert main_thread is not None  # it has started: this code runs in a thread
    executors = [
        ProcessPoolExecutor(
            workers,
            mp_context=multiprocessing.get_context(),
            initializer=_start_worker,
            initargs=(os.getpid(), main_thread),
        )
        for _ in range(pools)
    ]
    finished = False
    try:
        yield executors
        finished = True
    finally:
        if finished:
            for executor in executors:
                executor.shutdown()
        else:
            with _holding_stop_signals():  # a second Ctrl-C waits until the workers are gone
                _stop(executors, tasks)


def _stop(executors: list[ProcessPoolExecutor], tasks: Collection[Future[Any]]) -> None:
    """Stop the workers of ``executors`` (see :func:`_pools`)."""
    # An executor has no call to stop its workers before Python
    # 3.14 (terminate_workers), so its processes (and the thread
    # that reads their answers) are taken from it before shutdown
    # clears them.
    processes = [process for executor in executors for process in (executor._processes or {}).values()]
    threads = [getattr(executor, "_executor_manager_thread", None) for executor in executors]
    for process in processes:
        # Only a worker not yet reaped: its number cannot have been given to
        # another process since (one of a later run, which would stop short).
        if process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):  # it has just ended
                os.kill(process.pid, signal.SIGINT)  # type: ignore[arg-type]
    for executor in executors:
        executor.shutdown(wait=False, cancel_futures=True)
    # Cancelled here, not later by the executor's thread, and left
    # out: a task cancelled before it started is never "done" to
    # wait(), which then waited the whole grace on every stop.
    running = [task for task in tasks if not task.cancel()]
    wait(running, timeout=GRACE_SECONDS)
    if not all(task.done() for task in tasks):
        for process in processes:
            process.terminate()
            process.join()
    # Each executor's thread ends once its workers have: waited for
    # here, or at exit Python may wake it through the pipe it is
    # closing (an "Exception ignored ... Bad file descriptor").
    for thread in threads:
        if thread is not None:
            thread.join()


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
"""What asks a run to stop: Ctrl-C, and what ``timeout``, CI cancellation,
systemd or a dropped ssh session send, often to every process of the group,
the workers included."""


@contextlib.contextmanager
def _holding_stop_signals() -> Iterator[None]:
    """Ctrl-C (and the other :data:`STOP_SIGNALS`) held back while the block
    runs; one that came meanwhile is raised as the block ends.

    ``pthread_sigmask`` runs the Python handlers of signals already come
    once it has changed the mask: one that raised there (a Ctrl-C just
    before a chunk was sent) lost the mask to restore, and left the thread
    deaf to Ctrl-C, SIGTERM and SIGHUP for the rest of the process (a later
    ``al0 play`` in the same test process ran to mate through a SIGINT).
    So the mask is read first, changing nothing, and blocked inside the
    ``try`` that restores it."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _submit(
    executor: ProcessPoolExecutor,
    done: Callable[[Future[_Result]], None],
    task: Callable[..., _Result],
    *args: Any,
) -> Future[_Result]:
    """``executor.submit``, ``done`` called with the task once it is done
    (from the executor's thread), with Ctrl-C held back until it returns.

    The first submit forks the workers, and a Ctrl-C that arrives during a
    fork is raised in Python's at-fork hooks, which swallow it: the run went
    on, its workers never answered, and it waited forever. And the caller
    waits for answers through ``done`` (a ``queue.SimpleQueue.put``), never
    through ``concurrent.futures.wait`` or ``as_completed``: a Ctrl-C raised
    while those lock the tasks one by one left a task locked, the executor's
    thread then waited forever to set its result, and the run with it."""
    with _holding_stop_signals():
        future = executor.submit(task, *args)
        future.add_done_callback(done)
        return future


class WorkerError(AL0Error):
    """A worker process of ``verify --jobs N`` died or stopped abnormally."""


def _chunk_result(future: Future[_Result]) -> _Result:
    """The result of a finished chunk.

    :raises WorkerError: when its worker died (killed, or library code called
        ``os._exit``) or library code raised ``SystemExit`` or another
        ``BaseException`` there; an :class:`AL0Error` passes unchanged.
    """
    try:
        return future.result()
    except AL0Error:
        raise
    except BrokenProcessPool:
        raise WorkerError(
            "a worker process died (it was killed, or library code ended it with os._exit)"
        ) from None
    except BaseException as error:  # from the worker, pickled back: not our Ctrl-C
        detail = f": {error}" if str(error) else ""
        raise WorkerError(
            f"a worker process stopped: library code raised {type(error).__name__}{detail}"
        ) from None


def _start_worker(creator: int, main_thread: int) -> None:
    """A worker ends with the process that started it (``creator``, whose
    main thread is ``main_thread``), however that dies, and only then
    (:func:`~al0.verify.parent_watch.exit_with_parent`).

    It takes Ctrl-C (from the terminal, or sent by the main process when it
    stops), SIGTERM and SIGHUP (sent to the whole group) as a request to
    stop at its next position: killed by one, it could die while it sends
    an answer. They are let through only now: the worker was forked while
    :func:`_submit` held them back, and a process inherits that."""
    exit_with_parent(creator, main_thread)
    request = StopRequest()
    for number in STOP_SIGNALS:
        signal.signal(number, request)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


INTERRUPTED = "interrupted"
"""Why :func:`run` stopped when Ctrl-C (or SIGTERM, SIGHUP) stopped it."""


def run(
    spec: VerifySpec,
    verifier: Verifier,
    boards: Sequence[chess.Board],
    jobs: int,
    report: Report,
    scheduler: str | None = None,
    progress: Callable[[], None] = lambda: None,
    planning: Planning = lambda planned, known: None,
) -> str:
    """Judge every board, locally (``jobs`` worker processes) or on the Dask
    cluster of ``scheduler``, calling ``progress`` after each (and, while the
    workers of a worst-case run make its plans, ``planning``). Returns why
    the run stopped early ('' when it did not): Ctrl-C, a dead engine or
    worker, a broken library (a spent budget ends only its game: see
    :func:`al0.verify.game.limit_reached`). The report keeps all it got
    and is marked interrupted when the run stopped early.

    :raises ModuleNotFoundError: for ``scheduler`` without Dask installed.
    """
    with fewer_collections():
        return _run(spec, verifier, boards, jobs, report, scheduler, progress, planning)


def _run(
    spec: VerifySpec,
    verifier: Verifier,
    boards: Sequence[chess.Board],
    jobs: int,
    report: Report,
    scheduler: str | None,
    progress: Callable[[], None],
    planning: Planning,
) -> str:
    """:func:`run`, its collections as they are."""
    started = time.perf_counter()
    if scheduler:
        from al0.verify.cluster import judge_on_cluster  # lazily: Dask is slow to import, an extra

        records = judge_on_cluster(scheduler, verifier, boards, report)
    else:
        records = judge_all(spec, verifier, boards, jobs, report, planning)
    merged = jobs > 1 or scheduler is not None
    try:
        with settling() as settle:
            for judged in records:
                for _ in range(judged):
                    progress()
                if merged:
                    # What the answers brought stays to the run's end: this
                    # process's collections go through what came since the
                    # last one alone (all of KBBK: one of 0.35 s as the run
                    # ended, while both workers' cores stood idle).
                    settle()
        return ""
    except KeyboardInterrupt:
        report.interrupted = True
        return INTERRUPTED
    except AL0Error as error:  # a dead engine, a broken library
        report.interrupted = True
        return str(error)
    except SystemExit as error:  # library code called sys.exit() in this process
        report.interrupted = True
        return f"library code called sys.exit({error.code!r})"
    finally:
        records.close()  # stops the worker processes, if any are still running
        report.wall_seconds = time.perf_counter() - started
