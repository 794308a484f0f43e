"""Dealing verify's work to workers, one dealer for the worker processes of
``--jobs N`` (:mod:`al0.verify.run`) and the workers of a Dask cluster
(:mod:`al0.verify.cluster`): the worst case's plans by region of the
endgame (:class:`Deal`), the games' start positions by stretches of the
run's (:class:`StartsDeal`)."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from typing import Callable, Generic, TypeVar

import chess

from al0.board.position import Position
from al0.board.symmetry import SQUARE_MAPS
from al0.lang.specs import PositionsSpec
from al0.verify.sources import LazyBoards, chain_starts
from al0.verify.worker import Made, StartsChunk

Item = TypeVar("Item")

PLAN_CHUNK = 250
"""Positions a worker plans per task at most: with ``--defender worst`` a
plan takes a fraction of a millisecond, so a task takes about a tenth of a
second."""


class Deal(Generic[Item]):
    """Work for worker processes (local ones or a Dask cluster's), each
    item asked for once and dealt by region (:func:`region`): the positions
    whose plans a worker makes lie near one another, with their mirror
    images, so its plans and search memos serve one another and, but where
    an idle worker helps another, no plan is made by two workers."""

    def __init__(
        self,
        jobs: int,
        position: Callable[[Item], Position],
        read: Callable[[], list[Item]],
        read_ahead: bool,
    ):
        self.jobs = jobs
        self.position = position
        """The position of an item, whose region decides its worker."""
        self.read = read
        """Reads the next start positions and gives their items; an empty
        list once every start is read."""
        self.read_ahead = read_ahead
        """Whether to read start positions while the workers work, before
        they are needed: when nothing can be done with the answers before
        they are all in."""
        self.read_all = False
        self.asked: set[Item] = set()
        self.queues: list[deque[Item]] = [deque() for _ in range(jobs)]
        """Per worker, the items of its region asked for, not yet sent."""

    def ask(self, item: Item, first: bool = False) -> None:
        """Ask for ``item``, unless it was asked for before; ``first``:
        before the items waiting (e.g. the rest of a game under way)."""
        if item not in self.asked:
            self.asked.add(item)
            queue = self.queues[region(self.position(item), self.jobs)]
            if first:
                queue.appendleft(item)
            else:
                queue.append(item)

    def read_more(self) -> None:
        """Ask for the items of the next start positions."""
        items = self.read()
        self.read_all = not items
        for item in items:
            self.ask(item)

    def chunk(self, worker: int) -> list[Item]:
        """The next items for ``worker`` (none: nothing left to send now)."""
        queue = self.queues[worker]
        while not queue and not self.read_all:
            self.read_more()
        if not queue:  # an idle worker helps another with its region
            queue = max(self.queues, key=len)
        # Near the end, smaller chunks keep every worker busy.
        size = min(PLAN_CHUNK, -(-len(queue) // 2))
        return [queue.popleft() for _ in range(size)]


CHUNK = 200
"""Start positions of a run below which it goes to no worker, and the
unit of :func:`~al0.verify.run.useful_jobs`."""

LARGEST_CHUNK = 1000
"""Start positions a worker judges per task at most: small enough for
steady progress, large enough that a task costs little. Each task costs
the main process and the worker about a millisecond of CPU (sent,
answered, the others' segments read), whatever its size: all of KBBK
with eight workers in chunks of 200 cost the main process 4.4 s while
the workers worked, in chunks of 1,000 2.8 s (the workers less too),
and 0.7 % more plans."""

CHUNKS_PER_WORKER = 32
"""Chunks of its own each worker gets at least, below :data:`LARGEST_CHUNK` a
chunk: enough that the segments made early reach the others while they
still need them, and that the last chunks leave no worker idle for long.
A worker hears what the others made about two of its chunks later (one
in hand, one waiting), while every worker judges as many: with 32 chunks
a worker, a sixteenth of the run (eight workers on ``kbbk sample:3000``
searched 1.40 times one process's plans with 8 chunks a worker, 1.15
with 32)."""

MIN_CHUNK = 10
"""Fewer starts than this a chunk would cost more to send than to judge."""


class StartsDeal:
    """A run's start positions dealt to workers: each worker a stretch of
    consecutive starts of its own (in a tablebase's listing, neighbours,
    whose games meet one another's soonest), a chunk at a time from its
    front, the first chunks small (:data:`MIN_CHUNK`, then twice as many
    each time, up to the run's size: until the workers hear from one
    another, each makes what games meet near their end for itself); a
    worker done with its own takes from the back of the longest stretch
    left. With each chunk go the segments the other workers made since the
    worker last heard from them (:meth:`answered`).

    The run's first chunk goes to one worker alone, the others' first
    chunks once it is answered: games from any start end through the same
    few segments near mate, which every worker made for itself otherwise
    (eight workers on ``kbbk sample:3000``: 10,600 plans against 10,910;
    one process searches 9,490). It costs the others one small chunk's
    wait, :data:`MIN_CHUNK` games."""

    read_ahead = False
    """Answers are merged as they come: nothing to read meanwhile."""
    read_all = True

    def __init__(
        self,
        boards: Sequence[chess.Board],
        listing: PositionsSpec | None,
        jobs: int,
        chains: bool = False,
        exchange: str = "",
        first: int = 0,
        size: int | None = None,
        largest: int = LARGEST_CHUNK,
    ):
        count = len(boards)
        self.boards = boards
        self.listing = listing
        """The positions spec a worker lists the starts from itself (None:
        the starts travel)."""
        self.chains = chains
        """Whether the games are read off segments: their starts travel
        compact (:data:`~al0.verify.sources.ChainStart`), not as FENs."""
        self.jobs = jobs
        self.exchange = exchange
        """Where the workers leave what they make (see :attr:`StartsChunk.exchange`)."""
        left = count - first
        self.size = size or max(MIN_CHUNK, min(largest, math.ceil(left / (jobs * CHUNKS_PER_WORKER))))
        """The starts of a chunk once the first are dealt: ``size`` where
        the caller measured what a game costs, else by the run's size, up
        to ``largest`` (a cluster's tasks cost more than a pool's)."""
        self.left = [
            [first + worker * left // jobs, first + (worker + 1) * left // jobs] for worker in range(jobs)
        ]
        """Per worker, the first and stop of its stretch not yet dealt."""
        self.sizes = [min(MIN_CHUNK, self.size)] * jobs
        """Per worker, the size of its next chunk."""
        self.made: list[tuple[int, Made]] = []
        """The segments each answer brought (its worker, the blob), from
        :attr:`heard_by_all` on."""
        self.heard_by_all = 0
        """The answers whose segments every worker has read (or made)."""
        self.heard = [0] * jobs
        """Per worker, the answers whose segments it has been sent (or made)."""
        self.carried: list[deque[int]] = [deque() for _ in range(jobs)]
        """Per worker, its chunks not answered yet: what :attr:`heard` was once each was dealt."""
        self.read = [0] * jobs
        """Per worker, the answers whose segments it has read: those of its last chunk answered."""
        self.first_sent = self.heard_first = first > 0
        """Whether the run's first chunk has been sent, and answered (or
        the first games judged by the caller, whose segments the workers,
        forked from it, have)."""

    def chunk(self, worker: int) -> StartsChunk | None:
        """The next starts for ``worker`` (None: none left)."""
        if self.first_sent and not self.heard_first:
            return None  # the others start from what the first chunk made
        self.first_sent = True
        span = self.left[worker]
        size = self.sizes[worker]
        self.sizes[worker] = min(self.size, 2 * size)
        if span[0] < span[1]:
            first = span[0]
            stop = span[0] = min(span[1], first + size)
        else:
            span = max(self.left, key=lambda span: span[1] - span[0])
            left = span[1] - span[0]
            if not left:
                return None
            stop = span[1]
            first = span[1] = stop - min(size, math.ceil(left / 2))
        heard = self.heard[worker] - self.heard_by_all
        shared = tuple(blob for source, blob in self.made[heard:] if source != worker)
        self.heard[worker] = self.heard_by_all + len(self.made)
        self.carried[worker].append(self.heard[worker])
        exchange = self.exchange
        part = self.boards.part(first, stop) if isinstance(self.boards, LazyBoards) else None
        if part is not None:
            return StartsChunk(first, stop, part, shared=shared, exchange=exchange)
        if self.listing:
            return StartsChunk(first, stop, listing=self.listing, shared=shared, exchange=exchange)
        if self.chains:
            starts = tuple(chain_starts(self.boards, first, stop))
            return StartsChunk(first, stop, starts=starts, shared=shared, exchange=exchange)
        fens = tuple(board.fen() for board in self.boards[first:stop])
        return StartsChunk(first, stop, fens=fens, shared=shared, exchange=exchange)

    def read_more(self) -> None:
        """Nothing to read here: the starts are listed, and read where they are judged."""

    def answered(self, worker: int, made: Made) -> list[Made]:
        """Note the segments ``worker`` made (pickled, or the file it left
        them in), for the others; returns those every worker has now read
        (it reads them as it starts a chunk), which are forgotten here: a
        file of them can go. All of KBBK with two workers leaves about 150
        MB in 330 files, which took the run 0.45 s to remove at its end."""
        self.heard_first = True
        if self.carried[worker]:
            self.read[worker] = self.carried[worker].popleft()
        if made:
            self.made.append((worker, made))
        forget = min(self.read) - self.heard_by_all
        if forget <= 0:
            return []
        forgotten = [blob for _, blob in self.made[:forget]]
        del self.made[:forget]
        self.heard_by_all += forget
        return forgotten


_ORBIT_RANK = {
    least: rank
    for rank, least in enumerate(
        sorted(set(min(square_map[square] for square_map in SQUARE_MAPS) for square in chess.SQUARES))
    )
}
"""The rank of each orbit of a square under the board's 8 symmetries (by
its least square: a1, b1, c1, d1, b2, …, d4): ten in all."""

_ORBIT = tuple(_ORBIT_RANK[min(square_map[square] for square_map in SQUARE_MAPS)] for square in chess.SQUARES)
"""The rank of each square's orbit."""

_PLACES = len(_ORBIT_RANK) * 8
"""The places :func:`region` tells apart: their king's orbit and the
distance of the kings (1 to 7)."""


def region(position: Position, regions: int) -> int:
    """Which of ``regions`` parts of the endgame ``position`` belongs to:
    by the orbit of their king's square (the side not to move) under the
    board's symmetries, then the distance between the kings. A worker
    given the positions of one region shares most of its search memos
    between them (a plan's search meets positions with their king nearby);
    and a position and its mirror images, whose plans are made once in one
    orientation (see :mod:`al0.board.symmetry`), are in the same region."""
    kings = position.kings
    theirs = (kings & (position.black if position.turn else position.white)).bit_length() - 1
    ours = (kings & (position.white if position.turn else position.black)).bit_length() - 1
    place = _ORBIT[theirs] * 8 + chess.square_distance(theirs, ours)
    return place * regions // _PLACES
