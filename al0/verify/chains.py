"""Games against the tablebase defender judged from segments that workers
make: the worker processes of ``--jobs N`` (:mod:`al0.verify.run`) or the
workers of a Dask cluster (:mod:`al0.verify.cluster`), the same way.

Games from different starts join (see :mod:`al0.verify.segments`), and
workers judging different starts would each plan the games' common parts
again; so the workers make segments, each worker those of its region (a
:class:`~al0.verify.deal.Deal`), and this process reads the games off their
chains."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Callable, Generator

import chess

from al0.verify.deal import PLAN_CHUNK, Deal
from al0.verify.game import GameRecord
from al0.verify.segments import Key, Segment, unpack
from al0.verify.sources import ChainStart, chain_starts
from al0.verify.tally import Report
from al0.verify.verifier import Verifier

SegmentsAnswers = Generator[tuple[list[Key], tuple[list[Segment], list[float]]], None, None]
"""What the workers answer, chunk by chunk: the positions asked, their
segments in order (fewer when the worker was asked to stop) and the search
times of the plans made for them."""

Workers = Callable[[Deal[Key]], SegmentsAnswers]
"""Has workers make the segments of the chunks a deal gives (asking it for
more as they are answered) and yields the answers as they come."""


def judge_chains(
    verifier: Verifier, boards: Sequence[chess.Board], report: Report, jobs: int, workers: Workers
) -> Generator[GameRecord, None, None]:
    """The games from ``boards`` against the tablebase defender, the
    segments made by ``jobs`` ``workers``: this process asks for the segment
    of every start and, as segments come in, of where each game goes on; it
    reads each game off its chain, start by start and in order, as soon as
    the chain is all there, exactly as one process does, adding each record
    (and the plans' times) to ``report`` before it yields it."""
    segments = verifier.segments
    assert segments is not None  # the tablebase defender's
    starts: list[ChainStart] = []
    judged = 0

    def read() -> list[Key]:
        read = chain_starts(boards, len(starts), len(starts) + PLAN_CHUNK)
        starts.extend(read)
        return [key for key, _, _ in read]

    # Starts are read as the workers need them and a game's next segment
    # goes first: a game is judged as soon as it can be, not at the end.
    deal = Deal(jobs, unpack, read, read_ahead=False)
    with contextlib.closing(workers(deal)) as answers:
        for chunk, (made, seconds) in answers:
            report.plan_seconds += seconds
            if len(made) < len(chunk):
                raise KeyboardInterrupt  # the worker had a Ctrl-C of its own
            for key, segment in zip(chunk, made):
                segments[key] = segment
                if segment.keys and segment.ending is None:
                    deal.ask(segment.keys[-1], first=True)  # a new plan there
            while judged < len(starts):
                try:
                    record = verifier.chain_record(starts[judged], segments.__getitem__)
                except KeyError:  # its chain is not all there yet
                    break
                judged += 1
                report.add(record)
                yield record
