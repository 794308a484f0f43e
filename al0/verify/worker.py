"""What a worker process runs for a verify run (a process pool's or a Dask
cluster's): its verifier, made once per process; the chunks of start
positions or segments it judges; the plans it makes for the worst case,
encoded compactly for the trip back; and how it is asked to stop."""

from __future__ import annotations

import functools
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from al0.board.position import MOVES, Position
from al0.engine.plan import Plan, Planner
from al0.engine.tree import LEAF, ForcingTree
from al0.errors import AL0Error
from al0.lang.loader import load_table
from al0.verify.game import GameRecord
from al0.verify.segments import Key, Segment, make_segment, unpack
from al0.verify.verifier import Verifier, VerifySpec
from al0.verify.worst import SentStep, WorstCase, move_code

if TYPE_CHECKING:
    from types import FrameType


@functools.lru_cache(maxsize=1)
def _worker_verifier(spec: VerifySpec) -> Verifier:
    """The verifier of a worker process, made once per process and spec so
    that its plans are reused across the chunks the process is given."""
    return Verifier(spec)


SegmentsResult = tuple[list[Segment], list[float]]
"""What a worker sends back for a chunk of positions to make segments from:
the segments, in order (fewer when it was asked to stop), and its plans'
search times."""


def segment_chunk(spec: VerifySpec, keys: list[Key]) -> SegmentsResult:
    """Run in a worker process: :func:`make_segments` of ``keys``."""
    return make_segments(_worker_verifier(spec), keys)


def make_segments(verifier: Verifier, keys: list[Key]) -> SegmentsResult:
    """The segment from each position of ``keys`` (see
    :mod:`al0.verify.segments`) and the search times of the plans made for
    them; fewer segments when the worker was asked to stop (:class:`StopRequest`)."""
    assert verifier.tablebase is not None  # segments are the tablebase defender's
    segments = []
    for key in keys:
        if stop_requested():
            break
        segments.append(make_segment(verifier.planner, verifier.tablebase, unpack(key)))
    return segments, verifier.new_plan_seconds()


ChunkResult = tuple[list[GameRecord], list[float]]
"""What a worker sends back for a chunk: its records and its plans' search times."""


def judge_chunk(spec: VerifySpec, chunk: list[tuple[int, str]]) -> ChunkResult:
    """Run in a worker process: the records of ``chunk`` (index, FEN) and the
    search times of the plans it made; fewer records when the worker was
    asked to stop (:class:`StopRequest`)."""
    verifier = _worker_verifier(spec)
    records = []
    for index, fen in chunk:
        if stop_requested():
            break
        records.append(verifier.judge(index, chess.Board(fen)))
    return records, verifier.new_plan_seconds()


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


def stop_requested() -> bool:
    """Whether this process was asked to stop: its SIGINT handler is a
    :class:`StopRequest` (a worker of :mod:`al0.verify.run`) that got one.
    The handler is the process's own state, so no global is needed."""
    handler = signal.getsignal(signal.SIGINT)
    return isinstance(handler, StopRequest) and handler.requested


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
            branches.append((MOVES[move >> 6][move & 63], take()))
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
        cache = planner.cache
        assert cache is not None  # a planner caches by default
        answers: list[PlanAnswer] = []
        plans: list[EncodedPlan | None] | None = [] if self.spec.replay_worst_lines else None
        for position in positions:
            if stop_requested():
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
            new = tuple(replan for replan in replans if replan not in reported and replan not in cache)
            reported.update(new)
            answers.append((worst.plan_steps[position], new))
            if plans is not None:
                plans.append(encode_plan(cache[position]))
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
