"""Running verify's games: in this process, in a pool of worker processes
or on a Dask cluster, and stopping cleanly on an interruption.

The command line (:mod:`al0.cli.verify`) only chooses the positions, shows
progress and prints the report; the work and its failures are here.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Generator

import chess

from al0.errors import AL0Error
from al0.verify import ChunkResult, GameRecord, Report, Verifier, VerifySpec, judge_chunk


CHUNK = 200
"""Positions a worker judges per task: small enough for steady progress,
large enough that sending them costs little."""


def judge_all(spec: VerifySpec, verifier: Verifier, boards: Sequence[chess.Board],
              jobs: int, report: Report) -> Generator[GameRecord, None, None]:
    """Judge every board, in this process or in ``jobs`` worker processes,
    adding records and plan times to ``report`` as they arrive."""
    if jobs == 1 or len(boards) <= CHUNK:  # one chunk: no work to share
        for index, board in enumerate(boards):
            record = verifier.judge(index, board)
            report.add(record)
            report.plan_seconds += verifier.new_plan_seconds()
            yield record
        return
    items = [(index, board.fen()) for index, board in enumerate(boards)]
    chunks = [items[i:i + CHUNK] for i in range(0, len(items), CHUNK)]
    # A process pool that notices a dead worker (multiprocessing.Pool waits
    # forever for the chunk a killed worker held), with no more workers than
    # chunks: an idle one only costs its start.
    executor = ProcessPoolExecutor(min(jobs, len(chunks)), mp_context=multiprocessing.get_context(),
                                   initializer=_ignore_interrupts)
    finished = False
    try:
        futures = [executor.submit(judge_chunk, spec, chunk) for chunk in chunks]
        for future in as_completed(futures):
            records, seconds = _chunk_result(future)
            report.plan_seconds += seconds
            for record in records:
                report.add(record)
                yield record
        finished = True
    finally:
        if finished:
            executor.shutdown()
        else:
            # On an interruption or error the chunks in flight are abandoned
            # (the report keeps every record that arrived): stop the workers
            # now rather than after the chunk each is judging. The executor
            # has no call for that before Python 3.14 (terminate_workers), so
            # its processes are taken from its table before shutdown clears it.
            workers = list((executor._processes or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
                worker.join()


class WorkerError(AL0Error):
    """A worker process of ``verify --jobs N`` died or stopped abnormally."""


def _chunk_result(future: Future[ChunkResult]) -> ChunkResult:
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
        raise WorkerError("a worker process died (it was killed, or library code "
                          "ended it with os._exit)") from None
    except BaseException as error:  # from the worker, pickled back: not our Ctrl-C
        detail = f": {error}" if str(error) else ""
        raise WorkerError(f"a worker process stopped: library code raised "
                          f"{type(error).__name__}{detail}") from None


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops them and reports."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(spec: VerifySpec, verifier: Verifier, boards: Sequence[chess.Board], jobs: int,
        report: Report, scheduler: str | None = None,
        progress: Callable[[], None] = lambda: None) -> str:
    """Judge every board, locally (``jobs`` worker processes) or on the Dask
    cluster of ``scheduler``, calling ``progress`` after each. Returns why
    the run stopped early ('' when it did not): Ctrl-C, a dead engine or
    worker, a broken library, a spent budget. The report keeps all it got
    and is marked interrupted when the run stopped early.

    :raises ModuleNotFoundError: for ``scheduler`` without Dask installed.
    """
    started = time.perf_counter()
    if scheduler:
        from al0.cluster import judge_on_cluster  # lazily: Dask is slow to import, an extra
        records = judge_on_cluster(scheduler, spec, boards, report)
    else:
        records = judge_all(spec, verifier, boards, jobs, report)
    try:
        for _ in records:
            progress()
        return ""
    except KeyboardInterrupt:
        report.interrupted = True
        return "interrupted"
    except AL0Error as error:  # a dead engine, a broken library, a spent budget
        report.interrupted = True
        return str(error)
    except SystemExit as error:  # library code called sys.exit() in this process
        report.interrupted = True
        return f"library code called sys.exit({error.code!r})"
    finally:
        records.close()  # stops the worker processes, if any are still running
        report.wall_seconds = time.perf_counter() - started
