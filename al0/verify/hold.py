"""Verifying a table that holds: the weaker side's (``KNKR``: the knight's),
which cannot win and is judged by the draws it keeps.

Such a table is correct when, from every drawn position with its side to
move, its move leads to a drawn position. That is one exact check per
position against the tablebase (plan, play the tree's first move, probe),
over all of them; no defence by the other side matters, so the check is
never lucky. A position is **held** (the move keeps the draw), **lost**
(the move lets the stronger side mate: the tablebase's mate is noted), has
**no plan**, or its plan's search reached a limit. A position with no
legal move (stalemate) is drawn already and counted apart.

The check plans each position once, with no cache (a four-man ending has a
million drawn classes, each planned once): the native core plans a
five-ply holding table in about half a millisecond, so every drawn
position of KRKB is some ten minutes of CPU. With ``jobs`` above one,
worker processes judge stretches of the listing (each lists the positions
itself from the check's :class:`HoldSpec`), dealt by verify's pool
(:mod:`al0.verify.run`); the stretches' answers are put back in order, so
the report is the same with any number of jobs.
"""

from __future__ import annotations

import enum
import functools
import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

import chess

from al0.board.moves import apply, legal_moves
from al0.board.position import Position, from_board, to_board
from al0.board.position import fen as position_fen
from al0.bundled import table_path
from al0.collection import fewer_collections
from al0.engine.defenders import MostTestingAttacker
from al0.engine.plan import DEFAULT_BUDGET, Planner
from al0.engine.tablebases import Tablebases
from al0.errors import AL0Error, PositionError
from al0.lang.loader import load_table
from al0.lang.model import AdviceTable, Expectations
from al0.lang.specs import PositionsSpec
from al0.verify.estimate import Estimate, Pilot, others_running, running_now
from al0.verify.game import limit_reached
from al0.verify.hold_games import AttackGames, play_games
from al0.verify.run import JOBS_PER_CPU, SMALL_RUN, _dealt, usable_cpus
from al0.verify.sources import LazyBoards, start_positions
from al0.verify.summary import Check, Claim
from al0.verify.tally import scoped_verdict
from al0.verify.worker import stop_request

EXAMPLES_KEPT = 5
"""Failures of each kind shown as examples (every one goes to ``--failures``)."""

CHUNK = 1000
"""Positions judged a stretch at most (made from a tablebase's listing
without boards): half a second of CPU or so, a task of a worker."""

PILOT_POSITIONS = 100
"""Positions a check judges first to say how long it will take (a check
of more than :data:`~al0.verify.run.SMALL_RUN`): a second of CPU or so
where a position takes ten milliseconds."""

STRETCHES_PER_JOB = 4
"""Stretches per worker at least, where the positions are few: a small run
is still shared out, and no worker waits long on the last stretch."""


class HoldVerdict(enum.Enum):
    """What a table's move did to a drawn position."""

    HELD = "held"
    LOST = "lost"
    NO_PLAN = "no plan"
    SEARCH_LIMIT = "search limit"
    STALEMATE = "stalemate"
    """No legal move: drawn already, nothing for the table to do."""

    @property
    def failed(self) -> bool:
        return self in (HoldVerdict.LOST, HoldVerdict.NO_PLAN, HoldVerdict.SEARCH_LIMIT)


@dataclass(frozen=True)
class HoldRecord:
    """A drawn position the table did not hold."""

    fen: str
    verdict: HoldVerdict
    move: str = ""
    """The table's move in SAN ('' without one)."""
    mated_in: int | None = None
    """After a losing move, the stronger side's moves to mate."""
    holding: tuple[str, ...] = ()
    """The moves that keep the draw, in SAN (the tablebase's)."""
    advice: str = ""
    """The name of the advice that chose the move."""
    failure: str = ""
    """For a search limit, the error in words."""

    def to_json(self) -> dict[str, Any]:
        return {
            "fen": self.fen,
            "verdict": self.verdict.value,
            "move": self.move,
            "mated_in": self.mated_in,
            "holding": list(self.holding),
            "advice": self.advice,
            "failure": self.failure,
        }

    def epd(self) -> str:
        """A line of ``--failures``: the position, the verdict as ``c0``,
        what happened as ``c1`` and the moves that hold as ``c2``."""
        board = chess.Board(self.fen)
        if self.verdict is HoldVerdict.LOST:
            what = f"{self.move} ({self.advice}) loses: mated in {self.mated_in}"
        else:
            what = self.failure or self.verdict.value
        return board.epd(c0=self.verdict.value, c1=what, c2=" ".join(self.holding))


@dataclass
class HoldReport:
    """What a hold check found: how many positions each verdict, and every
    failure."""

    table: str
    positions: PositionsSpec
    total: int
    counts: Counter[HoldVerdict] = field(default_factory=Counter)
    failures: list[HoldRecord] = field(default_factory=list)
    interrupted: bool = False
    stopped: str = ""
    """Why the run stopped early ('' when it did not)."""
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    """CPU time spent judging, summed over the processes that judged (the
    workers' start, listing the positions and reading the tablebase, not
    counted)."""
    jobs: int = 1
    games: AttackGames | None = None
    """Games against the most testing attacker, when asked for."""

    @property
    def judged(self) -> int:
        return sum(self.counts.values())

    def check(self, expect: Expectations) -> list[Check]:
        """The claims of ``expect`` a hold check decides: ``lost``,
        ``no-plan``, ``search-limit`` (each at most N), scoped to the
        positions they are about."""
        checks = []
        for claim, limit, verdict in (
            (Claim.LOST, expect.max_lost, HoldVerdict.LOST),
            (Claim.NO_PLAN, expect.max_no_plan, HoldVerdict.NO_PLAN),
            (Claim.SEARCH_LIMIT, expect.max_search_limit, HoldVerdict.SEARCH_LIMIT),
        ):
            if limit is None:
                continue
            found = self.counts[verdict]
            check = Check(claim, found <= limit, f"{found} (at most {limit} expected)")
            claimed = expect.positions
            if claimed is not None and claimed != self.positions:
                holds = scoped_verdict(check.holds, claimed, self.positions, existential=False)
                measured = check.measured
                if holds is None:
                    measured += f"; the claim is about positions {claimed}, not {self.positions}"
                check = Check(claim, holds, measured)
            if self.interrupted:
                check = Check(claim, None, f"{check.measured}; the run was interrupted")
            checks.append(check)
        return checks

    def checks(self, expectations: Sequence[Expectations]) -> list[Check]:
        """Every claim of ``expectations`` this check decides (any defender's:
        the check meets none)."""
        return [check for expect in expectations for check in self.check(expect)]

    def examples(self) -> dict[HoldVerdict, list[HoldRecord]]:
        """Up to :data:`EXAMPLES_KEPT` failures of each kind, in order met."""
        shown: dict[HoldVerdict, list[HoldRecord]] = {}
        for record in self.failures:
            kept = shown.setdefault(record.verdict, [])
            if len(kept) < EXAMPLES_KEPT:
                kept.append(record)
        return shown

    def to_json(self, expectations: Sequence[Expectations] = ()) -> dict[str, Any]:
        """The JSON report (``al0 verify --json`` of a table that holds)."""
        return {
            "table": self.table,
            "check": "holds",
            "positions": self.positions.name,
            "judged": self.judged,
            "total": self.total,
            "interrupted": self.interrupted,
            "verdicts": {verdict.value: self.counts[verdict] for verdict in HoldVerdict},
            "failure_examples": {
                verdict.value: [record.to_json() for record in records]
                for verdict, records in self.examples().items()
            },
            "wall_seconds": round(self.wall_seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "jobs": self.jobs,
            "attacker_games": None if self.games is None else self.games.to_json(),
            "expectations": [
                {"name": check.claim.value, "holds": check.holds, "measured": check.measured}
                for check in self.checks(expectations)
            ],
        }


def table_holds(table: str | os.PathLike[str]) -> AdviceTable | None:
    """The table at ``table`` (a file or a bundled name), loaded, when it
    holds (see :attr:`~al0.lang.model.AdviceTable.holds`); else None."""
    loaded = load_table(table_path(os.fspath(table)))
    return loaded if loaded.holds else None


@dataclass(frozen=True)
class HoldSpec:
    """What a worker process needs to judge as the check does
    (:func:`judge_stretch`), picklable: the table's file and the budget."""

    table_path: str
    budget: int = DEFAULT_BUDGET


@dataclass
class Stretch:
    """The verdicts on positions ``first`` to ``first + judged`` of a
    check's listing: the counts, the failures in order, the CPU spent."""

    first: int
    counts: Counter[HoldVerdict] = field(default_factory=Counter)
    failures: list[HoldRecord] = field(default_factory=list)
    cpu_seconds: float = 0.0
    stopped: bool = False
    """Whether the stretch stopped short (Ctrl-C, a worker asked to stop)."""

    @property
    def judged(self) -> int:
        return sum(self.counts.values())


class HoldJudge:
    """Judges drawn positions one by one for a table that holds: plan, play
    the tree's first move, probe the tablebase. One per process.

    :raises PositionError: for a material without a tablebase.
    """

    def __init__(
        self, table: AdviceTable, budget: int = DEFAULT_BUDGET, tablebases: Tablebases | None = None
    ):
        self.table = table
        tablebase = (tablebases or Tablebases()).get(table.material)
        if tablebase is None:
            raise PositionError(f"no tablebase for {table.material}: a table that holds is judged by one")
        self.tablebase = tablebase
        self.planner = Planner(table, budget, cache=False)

    def judge(self, position: Position) -> HoldRecord | HoldVerdict:
        """The verdict on one drawn ``position``: its record when the table
        failed there.

        :raises AL0Error: a broken library (a search limit is the table's
            failure, not the run's: :func:`~al0.verify.game.limit_reached`).
        """
        if not legal_moves(position):
            return HoldVerdict.STALEMATE
        try:
            plan = self.planner.plan_position(position)
        except AL0Error as error:
            failure = limit_reached(error)
            if failure is None:
                raise
            return HoldRecord(position_fen(position), HoldVerdict.SEARCH_LIMIT, failure=failure)
        if plan.tree is None or plan.tree.is_leaf:
            tried = ", ".join(plan.tried) or "no rule applies"
            return HoldRecord(
                position_fen(position), HoldVerdict.NO_PLAN, holding=self.holding(position), failure=tried
            )
        move = plan.tree.branches[0][0]
        result = self.tablebase.result_at(apply(position, move))
        if result.winner is None:
            return HoldVerdict.HELD
        return HoldRecord(
            position_fen(position),
            HoldVerdict.LOST,
            to_board(position).san(move),
            result.moves,
            self.holding(position),
            plan.advice or "",
        )

    def holding(self, position: Position) -> tuple[str, ...]:
        """The moves of ``position`` that keep the draw, in SAN."""
        board = to_board(position)
        return tuple(
            board.san(move)
            for move in legal_moves(position)
            if self.tablebase.result_at(apply(position, move)).winner is None
        )

    def judge_stretch(self, first: int, positions: Sequence[Position]) -> Stretch:
        """The verdicts on ``positions``, positions ``first`` on of a
        listing; fewer when Ctrl-C (in the main process) or a request to
        stop (in a worker: :class:`~al0.verify.worker.StopRequest`) came
        meanwhile.

        :raises AL0Error: as :meth:`judge`.
        """
        stretch = Stretch(first)
        started = time.process_time()
        stop = stop_request()
        try:
            for position in positions:
                if stop.requested:
                    stretch.stopped = True
                    break
                verdict = self.judge(position)
                if isinstance(verdict, HoldRecord):
                    stretch.failures.append(verdict)
                    verdict = verdict.verdict
                stretch.counts[verdict] += 1
        except KeyboardInterrupt:
            stretch.stopped = True
        stretch.cpu_seconds = time.process_time() - started
        return stretch


class HoldCheck:
    """A hold check ready to run: the table, its tablebase and the drawn
    positions ``positions`` names (``all``, ``every``, ``sample:N``, an EPD
    file of drawn positions) with its side to move.

    :raises AL0Error: for a table or positions that cannot be used, or a
        material without a tablebase.
    """

    def __init__(
        self,
        table: AdviceTable,
        positions: str | PositionsSpec = "all",
        *,
        seed: int = 0,
        budget: int = DEFAULT_BUDGET,
        positions_folder: str | None = None,
        tablebases: Tablebases | None = None,
    ):
        if isinstance(positions, str):
            positions = PositionsSpec.parse(positions)
        self.positions = positions.drawn_with(seed)
        self.seed = seed
        self.table = table
        self.spec = HoldSpec(table.path, budget)
        self.tablebases = tablebases or Tablebases()
        self.judging = HoldJudge(table, budget, self.tablebases)
        self.tablebase = self.judging.tablebase
        self.boards: Sequence[chess.Board] = start_positions(
            self.positions, table, self.tablebase, relative_to=positions_folder, drawn=True
        )
        if not self.boards:
            raise PositionError(f"{self.positions}: no drawn positions to verify")

    def judge(self, position: Position) -> HoldRecord | HoldVerdict:
        """The verdict on one drawn ``position`` (:meth:`HoldJudge.judge`)."""
        return self.judging.judge(position)

    def positions_of(self, first: int, stop: int) -> tuple[Position, ...]:
        """Positions ``first`` to ``stop`` of the listing (made from a
        tablebase's listing without boards)."""
        boards = self.boards
        if isinstance(boards, LazyBoards):
            return tuple(boards.positions(first, stop))
        return tuple(from_board(board) for board in boards[first:stop])

    def stretches(self, jobs: int) -> list[tuple[int, int]]:
        """The listing cut in stretches for ``jobs`` processes: at most
        :data:`CHUNK` positions each, and at least :data:`STRETCHES_PER_JOB`
        per process where the positions are few."""
        total = len(self.boards)
        size = max(1, min(CHUNK, math.ceil(total / (STRETCHES_PER_JOB * jobs))))
        return [(first, min(first + size, total)) for first in range(0, total, size)]

    def choose_jobs(self, asked: int | None = None) -> tuple[int, str]:
        """The processes to judge with, and why fewer than ``asked`` ('' when
        not): at most :data:`~al0.verify.run.JOBS_PER_CPU` per CPU, one for a
        table not read from a file (a worker loads it by its path). Not
        asked (None): one per CPU this process may use, but one for at most
        :data:`~al0.verify.run.SMALL_RUN` positions (workers cost more to
        start than they save)."""
        cpus = usable_cpus()
        if asked is None:
            return (1 if len(self.boards) <= SMALL_RUN or not self.table.path else cpus), ""
        if asked > 1 and not self.table.path:
            return 1, f"--jobs {asked} lowered to 1: the table is not read from a file"
        if asked > JOBS_PER_CPU * cpus:
            jobs = JOBS_PER_CPU * cpus
            return jobs, f"--jobs {asked} lowered to {jobs}: {cpus} CPUs, at most {JOBS_PER_CPU} workers each"
        return asked, ""

    def estimate(self, jobs: int) -> Estimate | None:
        """How long the check will take with ``jobs`` processes: the CPU
        that :data:`PILOT_POSITIONS` of its positions, drawn with its seed,
        take a judge of their own here (the run's planner stays its own),
        times the positions, shared among the processes as slowly as the
        machine's other work makes them go (:class:`~al0.verify.estimate.Estimate`:
        one plan a position); None for a check of at most
        :data:`~al0.verify.run.SMALL_RUN` positions."""
        total = len(self.boards)
        if total <= SMALL_RUN:
            return None
        chosen = sorted(random.Random(self.seed).sample(range(total), PILOT_POSITIONS))
        judge = HoldJudge(self.table, self.spec.budget, self.tablebases)
        running = [running_now()]
        started, wall = time.process_time(), time.perf_counter()
        for index in chosen:  # a position takes milliseconds: the processes counted after each
            judge.judge(self.positions_of(index, index + 1)[0])
            running.append(running_now())
        seconds, wall = time.process_time() - started, time.perf_counter() - wall
        # One plan a position, all of its time the plan's.
        n = len(chosen)
        pilot = Pilot(n, n // 2, n, seconds, seconds, wall, False, others_running(running))
        return pilot.estimate(total, total, jobs)

    def run(self, progress: Callable[[], None] = lambda: None, jobs: int = 1) -> HoldReport:
        """Judge every position, in this process or (``jobs`` above one, a
        table read from a file) in ``jobs`` worker processes, calling
        ``progress`` after each. The report is the same whatever ``jobs``:
        the stretches are added in the listing's order. Ctrl-C (or a broken
        library, a dead worker) stops the run: the report keeps the
        positions judged from the first on, marked interrupted, its
        ``stopped`` saying why."""
        jobs = jobs if jobs > 1 and self.table.path else 1
        report = HoldReport(self.table.name, self.positions, len(self.boards), jobs=jobs)
        started = time.perf_counter()
        stretches = self.stretches(jobs)
        answers = self._here(stretches) if jobs == 1 else self._in_workers(stretches, jobs)
        waiting: dict[int, Stretch] = {}
        following = 0  # the stretch whose answer is added next
        with fewer_collections():
            try:
                for stretch in answers:
                    for _ in range(stretch.judged):
                        progress()
                    waiting[stretch.first] = stretch
                    while following < len(stretches) and stretches[following][0] in waiting:
                        if not _add(report, waiting.pop(stretches[following][0]), stretches[following]):
                            raise KeyboardInterrupt
                        following += 1
            except KeyboardInterrupt:
                report.interrupted, report.stopped = True, "interrupted"
            except AL0Error as error:  # a broken library, a dead worker
                report.interrupted, report.stopped = True, str(error)
            finally:
                answers.close()  # stops the worker processes, if any are still running
        # What the workers judged past a gap is left out: the report stays a prefix of the listing.
        report.wall_seconds = time.perf_counter() - started
        return report

    def play_games(self, count: int, progress: Callable[[], None] = lambda: None) -> AttackGames:
        """Games against the most testing attacker from the first ``count``
        positions of the listing (a sample's are drawn at random already):
        see :mod:`al0.verify.hold_games`.

        :raises AL0Error: a broken library.
        """
        attacker = MostTestingAttacker(self.table.material.name, self.tablebase)
        starts = self.positions_of(0, min(count, len(self.boards)))
        return play_games(self.judging.planner, attacker, starts, progress)

    def _here(self, stretches: list[tuple[int, int]]) -> Generator[Stretch, None, None]:
        for first, stop in stretches:
            yield self.judging.judge_stretch(first, self.positions_of(first, stop))

    def _in_workers(self, stretches: list[tuple[int, int]], jobs: int) -> Generator[Stretch, None, None]:
        deal = StretchDeal(jobs, stretches, self.positions_of)
        for _, _, stretch in _dealt(self.spec, judge_stretch, deal):
            yield stretch


def _add(report: HoldReport, stretch: Stretch, bounds: tuple[int, int]) -> bool:
    """Add ``stretch`` to ``report``; whether it was judged whole."""
    report.counts.update(stretch.counts)
    report.failures.extend(stretch.failures)
    report.cpu_seconds += stretch.cpu_seconds
    return not stretch.stopped and stretch.judged == bounds[1] - bounds[0]


class StretchDeal:
    """The stretches of a hold check, dealt in order to whichever worker
    is ready (the :class:`~al0.verify.run.Dealer` of a hold check): every
    position costs about the same, so no region or read-ahead is needed.
    A stretch travels as its positions: the workers list nothing."""

    read_ahead = False
    read_all = True

    def __init__(
        self,
        jobs: int,
        stretches: Sequence[tuple[int, int]],
        positions: Callable[[int, int], tuple[Position, ...]],
    ):
        self.jobs = jobs
        self.left = list(reversed(stretches))
        self.positions = positions

    def chunk(self, worker: int) -> tuple[int, tuple[Position, ...]] | None:
        """The next stretch's first index and positions (None: all dealt)."""
        if not self.left:
            return None
        first, stop = self.left.pop()
        return first, self.positions(first, stop)

    def read_more(self) -> None:
        """Nothing to read: every stretch is known from the start."""


@functools.lru_cache(maxsize=1)
def _worker_judge(spec: HoldSpec, process: int) -> HoldJudge:
    """A worker process's judge, made once per process and spec (and
    process id: a process forked from one that judged starts afresh)."""
    return HoldJudge(load_table(spec.table_path), spec.budget)


def judge_stretch(spec: HoldSpec, stretch: tuple[int, tuple[Position, ...]]) -> Stretch:
    """Run in a worker process: :meth:`HoldJudge.judge_stretch` of
    ``stretch`` (its first index and its positions)."""
    return _worker_judge(spec, os.getpid()).judge_stretch(*stretch)


def verify_hold(
    table: str | os.PathLike[str],
    positions: str | PositionsSpec = "all",
    *,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    positions_folder: str | None = None,
    jobs: int = 1,
    progress: Callable[[], None] = lambda: None,
) -> HoldReport:
    """Check that the table at ``table`` (one that holds) keeps every drawn
    position of ``positions`` drawn (see :class:`HoldCheck`), in ``jobs``
    processes.

    :raises AL0Error: for a table that does not hold (a winning side's) and
        as :class:`HoldCheck`.
    """
    loaded = table_holds(table)
    if loaded is None:
        raise AL0Error(f"{table}: its side is the stronger one: verify it by its mates (al0.verify.verify)")
    check = HoldCheck(loaded, positions, seed=seed, budget=budget, positions_folder=positions_folder)
    return check.run(progress, jobs)
