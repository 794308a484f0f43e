"""A run's start positions judged by workers: the worker processes of
``--jobs N`` (:mod:`al0.verify.run`) or the workers of a Dask cluster
(:mod:`al0.verify.cluster`), the same way.

The workers do the work: each is dealt a stretch of consecutive starts
(:class:`~al0.verify.deal.StartsDeal`), packed (one int a start, against
the tablebase defender) or listed by the worker itself from the run's
spec (where a start needs a board: every mirror image, another
defender's games) or as FENs (a sample's, a file's), plays or walks their
games and
sends back their records as columns. Against the tablebase defender games
from different starts join (see :mod:`al0.verify.segments`): a worker sends
the segments it made as one pickled blob, which the other workers are
given with their next chunk, unread (a cluster's through Dask; a process
pool's workers leave theirs in files, and this process passes on their
names), so a chain is mostly made once in all. This process only merges:
it puts the records into the report in the order of the starts, whoever
judged them."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Callable, Generator

import chess

from al0.lang.specs import PositionsSpec
from al0.verify.deal import LARGEST_CHUNK, StartsDeal
from al0.verify.game import GameRecord, unpack_records
from al0.verify.sources import LazyBoards
from al0.verify.sums import Sums
from al0.verify.tally import Report
from al0.verify.worker import StartsChunk, StartsResult

Answers = Generator[tuple[int, StartsChunk, StartsResult], None, None]
"""What the workers answer, chunk by chunk as they finish: the worker, the
chunk and its result."""

Workers = Callable[[StartsDeal], Answers]
"""Has workers judge the chunks a deal gives (asking it for more as they
are answered) and yields the answers as they come."""


def judge_starts(
    boards: Sequence[chess.Board],
    positions: PositionsSpec,
    report: Report,
    jobs: int,
    workers: Workers,
    chains: bool,
    local: bool = False,
    first: int = 0,
    size: int | None = None,
    largest: int = LARGEST_CHUNK,
) -> Generator[int, None, None]:
    """Judge every start of ``boards`` (the run's, of ``positions``) from
    ``first`` on (those before are judged already) with ``jobs``
    ``workers`` (``chains``: reading the games off segments; ``local``:
    processes of this machine, which leave what they make for one another
    in a temporary folder; ``size``: the starts of a chunk, else by the
    run's size, up to ``largest``), adding the records to ``report`` in the order of the
    starts as soon as those before them are in (and, on a stop, all that
    came back); yields the number of games judged, answer by answer."""
    # The starts of a tablebase's classes (all, a sample) travel as the
    # classes' squares, a worker making their positions (listing the whole
    # ending there would cost each worker 1.4 s of CPU for KBBK); every
    # orientation of them the workers list from the spec.
    listed = isinstance(boards, LazyBoards) and positions.kind == "every"
    listing = positions if listed else None
    exchange = _exchange_folder() if local and chains else contextlib.nullcontext("")
    with exchange as folder:
        deal = StartsDeal(boards, listing, jobs, chains, folder, first, size, largest)
        yield from _merged(deal, report, workers, first)


EXCHANGE_PREFIX = "al0-verify-"
"""The start of the name of a run's folder where its workers leave what
they make for one another, then the run's process id and a dash."""


def _exchange_folder() -> tempfile.TemporaryDirectory[str]:
    """A new folder for a run's workers to leave what they make in, the
    folders of runs that were killed (SIGKILL: nothing of theirs could
    remove them) removed first."""
    remove_stale_folders(Path(tempfile.gettempdir()))
    return tempfile.TemporaryDirectory(prefix=f"{EXCHANGE_PREFIX}{os.getpid()}-", ignore_cleanup_errors=True)


def remove_stale_folders(folder: Path) -> None:
    """Remove the workers' folders (see :data:`EXCHANGE_PREFIX`) in ``folder``
    of runs whose process has ended."""
    for path in folder.glob(f"{EXCHANGE_PREFIX}*-*"):
        pid = path.name[len(EXCHANGE_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists (someone else's too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's
        pass
    return True


def _merged(deal: StartsDeal, report: Report, workers: Workers, first: int) -> Generator[int, None, None]:
    """The records of the chunks ``deal`` deals to ``workers`` added to
    ``report`` (see :func:`judge_starts`), from start ``first`` on."""
    waiting: dict[int, tuple[int, list[GameRecord], Sums]] = {}
    """Records come back, by their first start: their stop, records and counts."""
    following = first
    """The next start whose record goes into the report."""
    try:
        with contextlib.closing(workers(deal)) as answers:
            for worker, chunk, result in answers:
                for read in deal.answered(worker, result.made):
                    if isinstance(read, str):  # a file every worker has read
                        with contextlib.suppress(OSError):
                            os.unlink(read)
                report.plan_seconds += result.seconds
                records = unpack_records(result.records)
                waiting[chunk.first] = chunk.stop, records, result.sums
                while following in waiting:
                    following, ready, sums = waiting.pop(following)
                    report.extend(ready, sums)
                if len(records) < chunk.stop - chunk.first:
                    raise KeyboardInterrupt  # the worker had a Ctrl-C of its own
                yield len(records)
    finally:
        # Stopped early: what came back still counts.
        for first in sorted(waiting):
            report.extend(*waiting[first][1:])
