"""What a verify run adds up to, typed (:class:`Summary`): the counts,
the statistics of the mates, the plan times, examples of each failure and
the verdict on each claim. The console, the pytest plugin and the HTML
report read it; :meth:`Summary.to_json` writes the JSON report, whose
keys and values are its fields' (the one place they are named)."""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

from al0.engine.play import Ending
from al0.lang.specs import DefenderSpec, PositionsSpec


class Claim(enum.Enum):
    """A claim of an ``expect:`` block, by the name the reports give it."""

    MATES_ALL = "mates-all"
    STALEMATES = "stalemates"
    MATERIAL_LOST = "material-lost"
    NO_PLAN = "no-plan"
    SEARCH_LIMIT = "search-limit"
    MAX_MOVES = "max-moves"
    MEAN_MOVES = "mean-moves"
    LOST = "lost"
    """A table that holds: drawn positions its move loses."""


class Decision(enum.Enum):
    """Whether a claim holds on a run: it does, it does not, or the run's
    positions cannot tell (the JSON's true, false and null)."""

    OK = "ok"
    FAILED = "FAILED"
    UNDECIDED = "undecided"

    @classmethod
    def of(cls, holds: bool | None) -> Decision:
        return cls.UNDECIDED if holds is None else cls.OK if holds else cls.FAILED

    @property
    def holds(self) -> bool | None:
        return None if self is Decision.UNDECIDED else self is Decision.OK


class Check(NamedTuple):
    """One claim checked on a run: whether it holds (None: the run cannot
    decide it) and what was measured, in words."""

    claim: Claim
    holds: bool | None
    measured: str

    @property
    def decision(self) -> Decision:
        return Decision.of(self.holds)


@dataclass(frozen=True)
class Expectation:
    """A claim's check with the defender its block is about."""

    check: Check
    defender: DefenderSpec

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.check.claim.value,
            "holds": self.check.holds,
            "measured": self.check.measured,
            "defender": self.defender.name,
        }


def counted_mean(counts: Counter[int]) -> float:
    """The mean of the values counted in ``counts`` (not empty), as
    ``statistics.fmean`` of the values gives it: their sum, an exact int as
    ``fmean``'s exact sum is, divided once."""
    return sum(value * times for value, times in counts.items()) / counts.total()


def counted_median(counts: Counter[int]) -> float:
    """The median of the values counted in ``counts`` (not empty), as
    ``statistics.median`` of the values gives it: the middle value, or the
    mean of the middle two (a float, as it makes it)."""
    total, seen = counts.total(), 0
    low = high = None
    for value in sorted(counts):
        seen += counts[value]
        if low is None and seen > (total - 1) // 2:
            low = value
        if seen > total // 2:
            high = value
            break
    assert low is not None and high is not None
    return low if total % 2 else (low + high) / 2


@dataclass(frozen=True)
class Distribution:
    """Count, mean, median, largest and histogram of whole numbers (the
    moves of mated games, their optimum, their excess)."""

    count: int
    mean: float = 0.0
    median: float = 0
    max: int = 0
    histogram: tuple[tuple[int, int], ...] = ()
    """(value, how many times), in increasing value."""

    @classmethod
    def of(cls, counts: Counter[int]) -> Distribution:
        """The distribution of the values counted in ``counts``."""
        if not counts:
            return cls(0)
        return cls(
            counts.total(),
            round(counted_mean(counts), 3),
            counted_median(counts),
            max(counts),
            tuple(sorted(counts.items())),
        )

    def to_json(self) -> dict[str, Any]:
        if not self.count:
            return {"count": 0}
        return {
            "count": self.count,
            "mean": self.mean,
            "median": self.median,
            "max": self.max,
            "histogram": dict(self.histogram),
        }


@dataclass(frozen=True)
class PlanTimes:
    """How long the run's searched plans took, in milliseconds."""

    median: float
    p95: float
    max: float
    per_second: float
    """Plans searched per second of search."""


@dataclass(frozen=True)
class Example:
    """A failed game shown as an example: its start, our moves and its
    moves in UCI (and, at a search limit, the error in words)."""

    fen: str
    moves: int
    line: tuple[str, ...]
    failure: str = ""
    """The words of the search limit the game ended at ('' for another ending)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"fen": self.fen, "moves": self.moves, "line": list(self.line)}
        if self.failure:
            data["failure"] = self.failure
        return data


@dataclass(frozen=True)
class Summary:
    """What a verify run adds up to."""

    table: str
    defender: DefenderSpec
    positions: PositionsSpec
    games: int
    """Games played (fewer than :attr:`total` when interrupted)."""
    total: int
    interrupted: bool
    endings: tuple[tuple[Ending, int], ...]
    """How many games ended each way, the most common first."""
    failure_examples: tuple[tuple[Ending, tuple[Example, ...]], ...]
    """Example games of each kind of failure, in the order first met."""
    moves_to_mate: Distribution
    optimal: Distribution
    """The tablebase's distance of the mated games whose distance is known."""
    excess: Distribution
    """Our moves over that distance, in the same games."""
    plans_searched: int
    plan_times: PlanTimes | None
    """None when no plan was searched."""
    wall_seconds: float
    analysis: dict[str, Any] | None
    """Where the moves went (:func:`al0.verify.analysis.analysis`, as JSON;
    None without a tablebase to measure them)."""
    expectations: tuple[Expectation, ...] | None
    """The claims checked; None when no ``expect:`` block was given."""
    handed_on: int = 0
    """Games that went on with another table after a capture or a
    promotion changed the material (:mod:`al0.engine.successors`)."""

    def count(self, ending: Ending) -> int:
        """How many games ended by ``ending``."""
        return dict(self.endings).get(ending, 0)

    def to_json(self) -> dict[str, Any]:
        """The JSON report (``al0 verify --json``)."""
        times = self.plan_times
        data: dict[str, Any] = {
            "table": self.table,
            "defender": self.defender.name,
            "positions": self.positions.name,
            "games": self.games,
            "total": self.total,
            "interrupted": self.interrupted,
            "endings": {ending.value: count for ending, count in self.endings},
            "handed_on": self.handed_on,
            "failure_examples": {
                ending.value: [example.to_json() for example in examples]
                for ending, examples in self.failure_examples
            },
            "moves_to_mate": self.moves_to_mate.to_json(),
            "optimal": self.optimal.to_json(),
            "excess": self.excess.to_json(),
            "plans_searched": self.plans_searched,
            "plan_ms": {"median": times.median, "p95": times.p95, "max": times.max} if times else {},
            "wall_seconds": self.wall_seconds,
            "plans_per_second": times.per_second if times else None,
            "analysis": self.analysis,
        }
        if self.expectations is not None:
            data["expectations"] = [expectation.to_json() for expectation in self.expectations]
        return data
