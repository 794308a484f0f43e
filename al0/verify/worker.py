"""What a worker process runs for a verify run (a process pool's or a Dask
cluster's): the chunks of start positions it judges, with its verifier
made once per process and the segments it shares with the others; the
plans it makes for the worst case, encoded compactly for the trip back;
and how it is asked to stop."""

from __future__ import annotations

import functools
import os
import pickle
import signal
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import chess

from al0.board.position import Position, code_move, move_code
from al0.engine.plan import Plan, Planner
from al0.engine.tree import LEAF, ForcingTree
from al0.errors import AL0Error
from al0.lang.loader import load_table
from al0.lang.specs import PositionsSpec
from al0.verify.game import PackedRecords, pack_records
from al0.verify.plans import RunPlans
from al0.verify.segments import Key, Segment
from al0.verify.sources import ChainStart, LazyBoards, chain_starts, start_positions
from al0.verify.sums import Sums
from al0.verify.verifier import Verifier, VerifySpec
from al0.verify.worst import SentStep, WorstCase

if TYPE_CHECKING:
    from types import FrameType


Made = bytes | str
"""What a worker made for the others (:attr:`StartsResult.made`): as bytes,
or the name of the file it left them in; empty: nothing."""


@dataclass(frozen=True)
class StartsChunk:
    """Start positions ``first`` to ``stop`` of a run, as they travel to a
    worker: for a run over a tablebase's classes (``all``, a sample) the
    classes' squares (``part``), the worker making the positions; over
    every orientation (``listing``: ``every``) their numbers alone, the
    worker listing them itself; for any other run the compact starts of
    games read off segments (``starts``) or else their FENs. With them,
    what the run's other workers made since this one last heard from them
    (:attr:`StartsResult.made`), as they sent it."""

    first: int
    stop: int
    part: LazyBoards | None = None
    listing: PositionsSpec | None = None
    fens: tuple[str, ...] = ()
    starts: tuple[ChainStart, ...] = ()
    shared: tuple[Made, ...] = ()
    exchange: str = ""
    """The folder where the workers of a run on one machine leave what they
    make for one another, each answer in a file of its own ('': in the
    answer, as a cluster's workers send it). Sent through the main
    process, each answer's segments were copied to every other worker
    there: a cost of the main process's that grew with the workers."""


@dataclass(frozen=True)
class StartsResult:
    """A worker's answer for a :class:`StartsChunk`."""

    records: PackedRecords
    """The records of its starts, in order (fewer when it was asked to stop)."""
    seconds: array[float]
    """The search times of the plans it made."""
    made: Made
    """The segments it made for them, each pickled, and the plans it
    searched (pickled once, here: the main process passes them on to the
    other workers without reading them), or the file it left them in (see
    :attr:`StartsChunk.exchange`)."""
    sums: Sums
    """The counts of its records, for the summary (see :mod:`al0.verify.sums`)."""


class StartsWorker:
    """What a worker process keeps between the chunks of starts it judges:
    its verifier (the planner, the segments and tails of its games), the
    start positions of the run's listing, and the segments it made and has
    not sent yet. Workers judge different starts and send one another the
    segments they make, so a game's chain is mostly made once in all."""

    def __init__(self, spec: VerifySpec):
        self.verifier = Verifier(spec)
        self.listing: tuple[PositionsSpec, Sequence[chess.Board]] | None = None
        self.made: dict[Key, Segment] = {}
        self.left = 0
        """Files this worker has left for the others (see :attr:`StartsChunk.exchange`)."""
        self.unread: dict[Key, bytes] = {}
        """The segments the other workers sent, as they sent them, until a
        game here needs one: most are never needed here, and reading each
        in every worker cost about 5 µs and 560 bytes a segment (with eight
        workers, most of a worker's memory and of what it spent over two)."""
        cache = self.verifier.planner.cache
        self.plans = cache if isinstance(cache, RunPlans) else None
        """The planner's cache, whose plans go to the other workers with the segments."""

    def judge(self, chunk: StartsChunk) -> StartsResult:
        """The records of ``chunk``'s starts; fewer when the worker was asked
        to stop (:class:`StopRequest`)."""
        verifier = self.verifier
        segments = verifier.segments
        if segments is not None:
            for blob in chunk.shared:
                sent, plans = pickle.loads(blob if isinstance(blob, bytes) else Path(blob).read_bytes())
                self.unread.update(sent)
                if self.plans is not None:
                    self.plans.sent.update(plans)
        records = []
        stop = stop_request()
        boards, first = self._boards(chunk)
        if boards is not None:
            if segments is not None:
                starts: Sequence[ChainStart] = chain_starts(boards, first, first + chunk.stop - chunk.first)
                for start in starts:
                    if stop.requested:
                        break
                    records.append(verifier.chain_record(start, self._segment))
            else:
                for index in range(chunk.first, chunk.stop):
                    if stop.requested:
                        break
                    records.append(verifier.judge(index, boards[first + index - chunk.first]))
        elif chunk.starts:
            for start in chunk.starts:
                if stop.requested:
                    break
                records.append(verifier.chain_record(start, self._segment))
        else:
            for index, fen in enumerate(chunk.fens, chunk.first):
                if stop.requested:
                    break
                records.append(verifier.judge(index, chess.Board(fen)))
        plans = {} if self.plans is None else self.plans.take()
        dump = functools.partial(pickle.dumps, protocol=pickle.HIGHEST_PROTOCOL)
        blob = (
            dump(({key: dump(segment) for key, segment in self.made.items()}, plans))
            if self.made or plans
            else b""
        )
        self.made = {}
        return StartsResult(
            pack_records(records),
            array("d", verifier.new_plan_seconds()),
            self._leave(blob, chunk),
            Sums.of(records),
        )

    def _leave(self, blob: bytes, chunk: StartsChunk) -> Made:
        """``blob`` as the others get it: itself, or the file it is left in
        for them (see :attr:`StartsChunk.exchange`)."""
        if not blob or not chunk.exchange:
            return blob
        self.left += 1
        path = Path(chunk.exchange, f"{os.getpid()}-{self.left}")
        path.write_bytes(blob)
        return str(path)

    def _boards(self, chunk: StartsChunk) -> tuple[Sequence[chess.Board] | None, int]:
        """The boards ``chunk``'s starts are made from (its part of a
        tablebase's classes, or the run's listing) and where they begin
        there; None when its starts travel made."""
        if chunk.part is not None:
            return chunk.part, 0
        if chunk.listing is not None:
            return self._listing(chunk.listing), chunk.first
        return None, 0

    def _listing(self, positions: PositionsSpec) -> Sequence[chess.Board]:
        """The run's start positions, listed here once per run."""
        if self.listing is None or self.listing[0] != positions:
            verifier = self.verifier
            self.listing = positions, start_positions(positions, verifier.table, verifier.tablebase)
        return self.listing[1]

    def _segment(self, key: Key) -> Segment:
        """The segment from ``key``: known here, sent by another worker, or
        made here and noted to send."""
        segments = self.verifier.segments
        assert segments is not None  # the tablebase defender's
        found = segments.get(key)
        if found is None:
            sent = self.unread.pop(key, None)
            if sent is not None:
                found = segments[key] = pickle.loads(sent)
            else:
                found = self.made[key] = self.verifier.segment(key)
        return found


@functools.lru_cache(maxsize=1)
def _starts_worker(spec: VerifySpec, process: int) -> StartsWorker:
    """The state of a worker process, made once per process and spec (and
    process id: a process forked from one that judged starts starts afresh)."""
    return StartsWorker(spec)


def judge_starts(spec: VerifySpec, chunk: StartsChunk) -> StartsResult:
    """Run in a worker process: :meth:`StartsWorker.judge` of ``chunk``."""
    return _starts_worker(spec, os.getpid()).judge(chunk)


class StopRequest:
    """The handler of a worker process for Ctrl-C (SIGINT), SIGTERM and
    SIGHUP: it only notes the request, and the chunk the worker is on stops
    before its next position and answers with what it has. A worker stopped
    any other way (killed) may be stopped while it sends an answer, and the
    main process would wait forever for the rest of it."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signal_number: int, frame: FrameType | None) -> None:
        self.requested = True


def stop_request() -> StopRequest:
    """What tells whether this process was asked to stop: its SIGINT
    handler when that is a :class:`StopRequest` (a worker of
    :mod:`al0.verify.run`), or else one never requested. The handler is the
    process's own state, so no global is needed. Read once per chunk and
    asked at each position (``.requested``): reading the handler costs
    about 3 µs (the signal module makes an enum of it), which at each of
    KBBK's 313,000 starts was 2 % of the workers' CPU."""
    handler = signal.getsignal(signal.SIGINT)
    return handler if isinstance(handler, StopRequest) else StopRequest()


EncodedPlan = tuple[str | None, str | None, tuple[str, ...], tuple[int, ...] | None, int, float]
"""A :class:`~al0.engine.plan.Plan` without its position, compact to send between
processes: rule, advice, advice tried, the tree (:func:`encode_tree`),
nodes and seconds."""


PlanAnswer = tuple[int | AL0Error, tuple[Position, ...]]
"""A worker's answer for one position: the first step of its plan (the
worker's id, 0 for no plan) or the error its search raised, and the
positions where following the plan needs new plans, less those the worker
has reported or planned before."""


@dataclass(frozen=True)
class PlanChunkResult:
    """A worker's answer for a chunk of positions."""

    worker: int
    """The worker's process id: its step ids are its own."""
    first_step: int
    """The worker's id of the first of ``steps``."""
    steps: list[SentStep]
    """The steps the worker made since its last answer."""
    answers: list[PlanAnswer]
    """An answer per position of the chunk, in order; fewer when the worker
    was asked to stop (:class:`StopRequest`)."""
    seconds: list[float]
    """The search times of the plans it made."""
    plans: list[EncodedPlan | None] | None
    """The plans themselves, when the analysis replays worst lines
    (:attr:`VerifySpec.replay_worst_lines`); None for a failed search."""


def encode_tree(tree: ForcingTree) -> tuple[int, ...]:
    """``tree`` in preorder as ints: each node's height and number of
    branches, then each branch's move (as :func:`move_code`) and subtree."""
    code: list[int] = []

    def put(node: ForcingTree) -> None:
        code.append(node.height)
        code.append(len(node.branches))
        for move, subtree in node.branches:
            code.append(move_code(move))
            put(subtree)

    put(tree)
    return tuple(code)


def decode_tree(code: Sequence[int]) -> ForcingTree:
    """The tree of :func:`encode_tree`; leaves are :data:`~al0.engine.tree.LEAF`
    and moves the shared :data:`~al0.board.position.MOVES`, as a search makes them."""
    at = 0

    def take() -> ForcingTree:
        nonlocal at
        height, count = code[at], code[at + 1]
        at += 2
        if not count:
            return LEAF if not height else ForcingTree(height)
        branches = []
        for _ in range(count):
            move = code[at]
            at += 1
            branches.append((code_move(move), take()))
        return ForcingTree(height, tuple(branches))

    return take()


def encode_plan(plan: Plan) -> EncodedPlan:
    return (
        plan.rule,
        plan.advice,
        plan.tried,
        None if plan.tree is None else encode_tree(plan.tree),
        plan.nodes,
        plan.seconds,
    )


def decode_plan(position: Position, encoded: EncodedPlan) -> Plan:
    rule, advice, tried, tree, nodes, seconds = encoded
    return Plan(position, rule, advice, tried, None if tree is None else decode_tree(tree), nodes, seconds)


class PlanWorker:
    """What a worker process keeps between the chunks it plans: the planner
    (in a worst case, for :meth:`WorstCase.replans` and the steps), whose
    plans and shared search memos serve every chunk; how many of its steps
    it has sent; and the positions it has reported."""

    def __init__(self, spec: VerifySpec):
        self.spec = spec
        self.worst = WorstCase(Planner(load_table(spec.table_path), spec.budget), spec.max_moves)
        self.steps_sent = 1  # step 0 (no step) is every worker's
        self.reported: set[Position] = set()

    def plan(self, positions: list[Position]) -> PlanChunkResult:
        """The plan of each of ``positions`` and where following it needs
        new plans (see :meth:`WorstCase.replans`). A search that fails (a
        spent budget, a broken library) is answered with its error: the
        analysis meets it only if and where it needs that plan (a search
        limit ends the game there, another error stops the run)."""
        worst, reported = self.worst, self.reported
        planner = worst.planner
        made = len(planner.search_seconds)
        answers: list[PlanAnswer] = []
        plans: list[EncodedPlan | None] | None = [] if self.spec.replay_worst_lines else None
        stop = stop_request()
        for position in positions:
            if stop.requested:
                break
            try:
                replans = worst.replans(position)
            except AL0Error as error:
                answers.append((error, ()))
                if plans is not None:
                    plans.append(None)
                continue
            # A position planned or reported here is known to the main
            # process already: it sent it, or had it from this worker.
            new = tuple(replan for replan in replans if replan not in reported and not worst.planned(replan))
            reported.update(new)
            answers.append((worst.plan_steps[position], new))
            if plans is not None:
                own = worst.planner_at(position).cache
                assert own is not None  # its successors cache as it does
                plans.append(encode_plan(own[position]))
        first, self.steps_sent = self.steps_sent, len(worst.steps)
        return PlanChunkResult(
            os.getpid(), first, worst.sent_steps(first), answers, planner.search_seconds[made:], plans
        )


@functools.lru_cache(maxsize=1)
def _plan_worker(spec: VerifySpec, process: int) -> PlanWorker:
    """The state of a worker process, made once per process and spec. Keyed
    by the process id too: a process forked from one that planned starts
    afresh, or it would leave out steps and positions its parent sent."""
    return PlanWorker(spec)


def plan_chunk(spec: VerifySpec, positions: list[Position]) -> PlanChunkResult:
    """Run in a worker process: :meth:`PlanWorker.plan` of ``positions``."""
    return _plan_worker(spec, os.getpid()).plan(positions)
