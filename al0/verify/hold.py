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
million drawn classes, each planned once), in this process: the native
core plans a five-ply holding table in about half a millisecond, so every
drawn position of KRKB is some ten minutes of CPU. Workers judging
stretches of the listing would divide that by the CPUs; they are not
written yet.
"""

from __future__ import annotations

import enum
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import chess

from al0.board.moves import apply, legal_moves
from al0.board.position import Position, from_board, to_board
from al0.board.position import fen as position_fen
from al0.bundled import table_path
from al0.collection import fewer_collections
from al0.engine.plan import DEFAULT_BUDGET, Planner
from al0.engine.tablebases import Tablebases
from al0.errors import AL0Error, PositionError
from al0.lang.loader import load_table
from al0.lang.model import AdviceTable, Expectations
from al0.lang.specs import PositionsSpec
from al0.verify.game import limit_reached
from al0.verify.sources import LazyBoards, start_positions
from al0.verify.summary import Check, Claim
from al0.verify.tally import scoped_verdict

EXAMPLES_KEPT = 5
"""Failures of each kind shown as examples (every one goes to ``--failures``)."""

CHUNK = 1000
"""Positions of a tablebase's listing made at a time (without boards)."""


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
        self.table = table
        tablebase = (tablebases or Tablebases()).get(table.material)
        if tablebase is None:
            raise PositionError(f"no tablebase for {table.material}: a table that holds is judged by one")
        self.tablebase = tablebase
        self.planner = Planner(table, budget, cache=False)
        self.boards: Sequence[chess.Board] = start_positions(
            self.positions, table, tablebase, relative_to=positions_folder, drawn=True
        )
        if not self.boards:
            raise PositionError(f"{self.positions}: no drawn positions to verify")

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
                position_fen(position), HoldVerdict.NO_PLAN, holding=self._holding(position), failure=tried
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
            self._holding(position),
            plan.advice or "",
        )

    def _holding(self, position: Position) -> tuple[str, ...]:
        """The moves of ``position`` that keep the draw, in SAN."""
        board = to_board(position)
        return tuple(
            board.san(move)
            for move in legal_moves(position)
            if self.tablebase.result_at(apply(position, move)).winner is None
        )

    def _positions(self) -> Iterator[Position]:
        boards = self.boards
        if isinstance(boards, LazyBoards):
            for first in range(0, len(boards), CHUNK):
                yield from boards.positions(first, first + CHUNK)
        else:
            for board in boards:
                yield from_board(board)

    def run(self, progress: Callable[[], None] = lambda: None) -> HoldReport:
        """Judge every position, calling ``progress`` after each. Ctrl-C
        (or a broken library) stops the run: the report keeps what it got,
        marked interrupted, its ``stopped`` saying why."""
        report = HoldReport(self.table.name, self.positions, len(self.boards))
        started = time.perf_counter()
        with fewer_collections():
            try:
                for position in self._positions():
                    verdict = self.judge(position)
                    if isinstance(verdict, HoldRecord):
                        report.failures.append(verdict)
                        verdict = verdict.verdict
                    report.counts[verdict] += 1
                    progress()
            except KeyboardInterrupt:
                report.interrupted, report.stopped = True, "interrupted"
            except AL0Error as error:  # a broken library
                report.interrupted, report.stopped = True, str(error)
        report.wall_seconds = time.perf_counter() - started
        return report


def verify_hold(
    table: str | os.PathLike[str],
    positions: str | PositionsSpec = "all",
    *,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    positions_folder: str | None = None,
    progress: Callable[[], None] = lambda: None,
) -> HoldReport:
    """Check that the table at ``table`` (one that holds) keeps every drawn
    position of ``positions`` drawn (see :class:`HoldCheck`).

    :raises AL0Error: for a table that does not hold (a winning side's) and
        as :class:`HoldCheck`.
    """
    loaded = table_holds(table)
    if loaded is None:
        raise AL0Error(f"{table}: its side is the stronger one: verify it by its mates (al0.verify.verify)")
    check = HoldCheck(loaded, positions, seed=seed, budget=budget, positions_folder=positions_folder)
    return check.run(progress)
