"""A run's tally (:class:`Report`): the records of its games, what they add up to, and the
verdict on each claim of a table's ``expect:`` block that the run's
positions can decide."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import chess

from al0.board.position import Position, from_board
from al0.board.symmetry import class_key
from al0.engine.play import Ending
from al0.lang.model import Expectations
from al0.lang.specs import DefenderSpec, PositionsSpec
from al0.verify.analysis import WORST_KEPT, analysis
from al0.verify.game import GameRecord
from al0.verify.summary import (
    Check,
    Claim,
    Distribution,
    Example,
    Expectation,
    PlanTimes,
    Summary,
    counted_mean,
)
from al0.verify.sums import Sums

EXAMPLES_KEPT = 5
"""Example FENs kept per kind of failure in a report."""


def percentile(ordered: list[float], fraction: float) -> float:
    """The value at ``fraction`` (0..1) of an ascending list."""
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


_WIDER = {"every": 2, "all": 1, "sample": 0}
"""How many positions a run stands for: every orientation of every class,
one orientation of every class; a sample stands for fewer, and a file's
positions are not known here."""


def scoped_verdict(
    holds: bool | None, claimed: PositionsSpec, run: PositionsSpec, existential: bool | None
) -> bool | None:
    """The verdict on a claim about positions ``claimed`` that held
    (``holds``) over a run's positions ``run``, or None where the run cannot
    decide it. A claim that every game does something (at most N failures,
    at most N moves) can only break as positions are added: a run over more
    positions than the claim's (``all`` against a sample, ``every`` against
    either) decides it only when it holds, a run over part of them (a sample
    against ``all``, ``all`` against ``every``) only when it fails.
    ``existential`` (``mates-all: false``: some game fails) is the other way
    round. None (a mean: a sample's can lie either side of the whole's) and
    other positions (another sample, another seed, an EPD file) decide nothing."""
    if claimed == run:
        return holds
    if existential is None or claimed.kind not in _WIDER:
        return None  # a mean, or an EPD file whose positions are not known here
    covers = _WIDER.get(run.kind, 0) > _WIDER[claimed.kind]
    within = run.kind in _WIDER and _WIDER[claimed.kind] > _WIDER[run.kind]
    if covers and holds != existential or within and holds == existential:
        return holds
    return None


@dataclass
class Report:
    """The outcome of a verify run, filled in game by game."""

    table: str
    defender: DefenderSpec
    positions: PositionsSpec
    total: int
    records: list[GameRecord] = field(default_factory=list)
    plan_seconds: list[float] = field(default_factory=list)
    wall_seconds: float = 0.0
    interrupted: bool = False
    stopped: str = ""
    """Why the run stopped early ('' when it did not)."""
    sums: Sums = field(default_factory=Sums, repr=False)
    """The counts of the first :attr:`counted` records (see :meth:`summed`)."""
    counted: int = field(default=0, repr=False)

    def add(self, record: GameRecord) -> None:
        self.records.append(record)

    def extend(self, records: list[GameRecord], sums: Sums) -> None:
        """Add ``records``, whose counts are ``sums`` (made where they were judged)."""
        self.summed()
        self.records += records
        self.sums.add(sums)
        self.counted = len(self.records)

    def summed(self) -> Sums:
        """The counts of every record, those not counted yet counted now."""
        if self.counted < len(self.records):
            self.sums.count(self.records[self.counted :])
            self.counted = len(self.records)
        return self.sums

    @property
    def failures(self) -> list[GameRecord]:
        return [r for r in self.records if not r.mated]

    def failure_examples(self) -> dict[Ending, list[GameRecord]]:
        """Up to :data:`EXAMPLES_KEPT` failures of each kind, in the order
        played, each of a symmetry class of its own: mirror images of one
        position (a symmetric table plays them alike) would show one
        failure several times."""
        examples: dict[Ending, list[GameRecord]] = {}
        classes: set[tuple[Ending, Position]] = set()
        for record in self.failures:
            kept = examples.setdefault(record.ending, [])
            if len(kept) == EXAMPLES_KEPT:
                continue
            key = (record.ending, class_key(from_board(chess.Board(record.fen))))
            if key not in classes:
                classes.add(key)
                kept.append(record)
        return examples

    def applies(self, expect: Expectations) -> bool:
        """Whether a block's claims are about this run's defender: a block
        naming no defender is about any, and one about the worst defence
        bounds every single defence too."""
        if expect.defender is None or expect.defender.kind == "worst":
            return True
        return expect.defender == self.defender

    def check(self, expect: Expectations, endings: Counter[Ending] | None = None) -> list[Check]:
        """Each declared expectation checked; its ``holds`` is None where
        this run cannot decide it (``endings``: the records' endings
        counted, when they are at hand)."""
        endings = endings if endings is not None else self.endings()
        mated = self.summed().moves
        checks: list[Check] = []
        if expect.mates_all is not None:
            failed = len(self.records) - endings[Ending.MATE]
            checks.append(
                Check(
                    Claim.MATES_ALL,
                    (failed == 0) == expect.mates_all,
                    f"{failed} of {len(self.records)} games not mated",
                )
            )
        for claim, limit, ending in (
            (Claim.STALEMATES, expect.max_stalemates, Ending.STALEMATE),
            (Claim.MATERIAL_LOST, expect.max_material_lost, Ending.MATERIAL_LOST),
            (Claim.NO_PLAN, expect.max_no_plan, Ending.NO_PLAN),
            (Claim.SEARCH_LIMIT, expect.max_search_limit, Ending.SEARCH_LIMIT),
        ):
            if limit is not None:
                checks.append(
                    Check(claim, endings[ending] <= limit, f"{endings[ending]} (at most {limit} expected)")
                )
        # A claim about the mates of a run with none fails: it is about
        # nothing (an "ok" there let a table that never mates pass).
        no_mates = f"no game of {len(self.records)} was mated"
        if expect.max_moves is not None:
            longest = max(mated, default=0)
            over = endings[Ending.MOVE_LIMIT]
            checks.append(
                Check(
                    Claim.MAX_MOVES,
                    bool(mated) and longest <= expect.max_moves and not over,
                    f"{f'longest mate {longest} moves' if mated else no_mates}, {over} "
                    f"games over the move limit (at most {expect.max_moves} expected, "
                    f"against the {self.defender} defender)",
                )
            )
        if expect.mean_moves is not None:
            mean = counted_mean(mated) if mated else 0.0
            checks.append(
                Check(
                    Claim.MEAN_MOVES,
                    bool(mated) and mean <= expect.mean_moves,
                    (
                        f"mean {mean:.2f} moves over {mated.total()} mated games"
                        if mated
                        else f"no mean: {no_mates}"
                    )
                    + f" (at most {expect.mean_moves} expected, against the "
                    f"{self.defender} defender)",
                )
            )
        checks = [
            self._scoped(
                check,
                expect.positions,
                # No mates here says nothing of other positions.
                existential=None
                if check.claim is Claim.MEAN_MOVES or not mated and check.claim is Claim.MAX_MOVES
                else check.claim is Claim.MATES_ALL and expect.mates_all is False,
            )
            for check in checks
        ]
        if self.interrupted:
            # Part of the positions says nothing of the whole run's claims.
            return [
                check._replace(holds=None, measured=f"{check.measured}; the run was interrupted")
                for check in checks
            ]
        return checks

    def _scoped(self, check: Check, positions: PositionsSpec | None, existential: bool | None) -> Check:
        """``check`` as this run can decide it: see :func:`scoped_verdict`."""
        if positions is None or positions == self.positions:
            return check
        verdict = scoped_verdict(check.holds, positions, self.positions, existential)
        if verdict is None:
            return check._replace(
                holds=None,
                measured=f"{check.measured}; the claim is about positions {positions}, not {self.positions}",
            )
        return check._replace(holds=verdict)

    def summary(self, expectations: Sequence[Expectations] = (), worst: int = WORST_KEPT) -> Summary:
        """What the run adds up to, with the claims of the ``expectations``
        blocks about this run's defender checked; ``worst``: games of largest
        excess kept in its ``analysis``."""
        sums, endings = self.summed(), self.endings()
        times = sorted(self.plan_seconds)
        return Summary(
            table=self.table,
            defender=self.defender,
            positions=self.positions,
            games=len(self.records),
            total=self.total,
            interrupted=self.interrupted,
            endings=tuple(endings.most_common()),
            failure_examples=tuple(
                (kind, tuple(Example(r.fen, r.moves, tuple(r.line), r.failure) for r in kept))
                for kind, kept in self.failure_examples().items()
            ),
            moves_to_mate=Distribution.of(sums.moves),
            optimal=Distribution.of(sums.optimal),
            excess=Distribution.of(sums.excess),
            plans_searched=len(times),
            plan_times=PlanTimes(
                round(statistics.median(times) * 1000, 3),
                round(percentile(times, 0.95) * 1000, 3),
                round(times[-1] * 1000, 3),
                round(len(times) / sum(times), 1),
            )
            if times
            else None,
            wall_seconds=round(self.wall_seconds, 2),
            analysis=analysis(self.records, sums, worst),
            expectations=tuple(
                Expectation(check, expect.defender or self.defender)
                for expect in expectations
                if self.applies(expect)
                for check in self.check(expect, endings)
            )
            if expectations
            else None,
            handed_on=sums.handed_on,
        )

    def endings(self) -> Counter[Ending]:
        """How many games ended each way, in the order each ending first
        came (which a report lists equal counts in): from the records, in
        C, not from :attr:`sums`, whose order is that of the answers."""
        return Counter(record.ending for record in self.records)

    def to_json(self, expectations: Sequence[Expectations] = (), worst: int = WORST_KEPT) -> dict[str, Any]:
        """The report as plain data: :meth:`summary`'s JSON."""
        return self.summary(expectations, worst).to_json()
