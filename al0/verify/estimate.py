"""How long a verify run will take, from a model of its work: how many
plans (against the tablebase defender, segments: a plan and its replies)
its positions need, what one costs, and how many processes share them;
and, as the run goes, its pace and the time left.

The cost is measured on a pilot: a seeded sample of the run's starts
judged in this process by a verifier of its own (so the run's plans and
figures stay its own). Games from different starts meet, so the plans grow
more slowly than the starts: the pilot counts them at half its starts and
at all of them, and the run's are extrapolated by the power law those two
counts give, up to the positions there are (in a run over every position,
about one plan each). Counted in CPU time, then slowed as a machine busy
with other work slows it: its processes share the CPUs with the other
processes running while the pilot ran, counted where the system says
(Linux). The pilot's pace said too little: a fraction of a second, it ran
while others slept (estimates at a load of 15 on two CPUs came out 1.9 and
2.4 times short), or too much (at a load of 19, 15 times its CPU time
where the run took 6). The load average said too much just after other
work ended (it lags a minute); it is taken, with no run faster than the
pilot ran, where the processes running are not counted."""

from __future__ import annotations

import math
import os
import random
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import chess

from al0.engine.tablebases import Tablebases
from al0.verify.run import usable_cpus
from al0.verify.verifier import Verifier, VerifySpec

PILOT_STARTS = 400
"""Starts the pilot judges at most: a few tenths of a second of CPU."""

SHOWN_FROM_SECONDS = 10.0
"""Estimated seconds from which a front end says how long a run will take."""

GROWTH_BOUNDS = (0.55, 1.0)
"""The exponent of the plans' growth with the starts, as the pilot may
measure it: games that meet no others grow them by 1, and no ending seen
grows them by less than about 0.6 past a few hundred starts (KQK, KRK and
KBBK measured 0.68–0.74)."""

PLANS_PER_POSITION = 1.05
"""Plans per position a run over every position needs at most: about one
each, the starts themselves, and a few more where games leave the listing's
orientation (KBBK: 329,242 segments for 312,951 starts)."""


@dataclass(frozen=True)
class Estimate:
    """A run's work by the model: CPU seconds, and wall seconds with the
    processes it runs on."""

    positions: int
    plans: int
    """Plans (segments) the run is expected to make."""
    cpu_seconds: float
    processes: int
    """Processes sharing the work (1: this one)."""
    cpus: int
    slowdown: float = 1.0
    """Wall time over CPU time of the pilot: above 1 on a busy machine."""
    load: float = 0.0
    """Other processes running or waiting to run (see :attr:`Pilot.others`):
    other work the run's processes share the CPUs with."""

    @property
    def crowding(self) -> float:
        """Each process's wall time over its CPU time: the run's processes
        and the others the load counts, on the CPUs there are, or as slow
        as the pilot ran."""
        processes = max(1, self.processes)
        return max(1.0, self.slowdown, (self.load + processes) / max(1, self.cpus))

    @property
    def seconds(self) -> float:
        """Expected wall seconds."""
        return self.crowding * self.cpu_seconds / max(1, self.processes)

    @property
    def worth_saying(self) -> bool:
        """Whether the run is long enough to say how long (:data:`SHOWN_FROM_SECONDS`)."""
        return self.seconds >= SHOWN_FROM_SECONDS

    @property
    def about(self) -> str:
        """The wall time for a person: ``about 40 s``, ``under a second``."""
        return "under a second" if self.seconds < 0.5 else f"about {duration(self.seconds)}"

    def __str__(self) -> str:
        processes = f"{self.processes} process{'' if self.processes == 1 else 'es'}"
        return (
            f"{self.about} with {processes} (some {self.plans:,} plans, "
            f"{duration(self.cpu_seconds)} of CPU by a model of the work)"
        )


@dataclass(frozen=True)
class Pilot:
    """What the pilot measured: starts judged, plans made at half of them
    and at all, and the CPU seconds they took, the plans' search apart."""

    starts: int
    half_plans: int
    plans: int
    seconds: float
    search_seconds: float
    """Of ``seconds``, the plans' searches (the rest is per game: the play
    loop, the defender, the record)."""
    wall_seconds: float
    segments: bool
    """Whether games were read off segments (each plan's replies made with
    it): then the work goes by plans alone."""
    others: float | None = None
    """Other processes running or ready to run while the pilot ran, on
    average (this one not counted); None where the system does not say."""

    def growth(self) -> float:
        """The exponent of the plans' growth with the starts, within :data:`GROWTH_BOUNDS`."""
        low, high = GROWTH_BOUNDS
        if self.half_plans <= 0 or self.plans <= self.half_plans:
            return low
        return min(high, max(low, math.log2(self.plans / self.half_plans)))

    def plans_for(self, positions: int, every: bool) -> int:
        """Plans a run over ``positions`` starts needs; ``every``: a run over
        every position of the listing, about one plan each."""
        extrapolated = self.plans * math.pow(positions / self.starts, self.growth())
        if every:
            return round(min(extrapolated, PLANS_PER_POSITION * positions))
        return round(extrapolated)

    @property
    def slowdown(self) -> float:
        """Wall time over CPU time: how much less than a core this process had."""
        return max(1.0, self.wall_seconds / self.seconds) if self.seconds > 0 else 1.0

    def estimate(self, positions: int, plans: int, processes: int) -> Estimate:
        """The estimate of ``positions`` games making ``plans`` plans in
        ``processes``, crowded by the others counted while the pilot ran
        (its pace over a fraction of a second says less), else by the load
        average and no faster than the pilot ran."""
        if self.others is None:
            slowdown, others = self.slowdown, load_average()
        else:
            slowdown, others = 1.0, self.others
        return Estimate(
            positions, plans, self.cpu_for(positions, plans), processes, usable_cpus(), slowdown, others
        )

    def cpu_for(self, positions: int, plans: int) -> float:
        """CPU seconds for ``positions`` games making ``plans`` plans."""
        per_plan = (self.seconds if self.segments else self.search_seconds) / max(1, self.plans)
        per_game = 0.0 if self.segments else (self.seconds - self.search_seconds) / self.starts
        return plans * per_plan + positions * per_game


def run_pilot(
    spec: VerifySpec, boards: Sequence[chess.Board], tablebases: Tablebases | None, starts: int = PILOT_STARTS
) -> Pilot:
    """Judge ``starts`` of ``boards``, drawn with the run's seed, by a
    verifier of their own, and measure them."""
    pilot = Verifier(spec, tablebases)
    try:
        chosen = sorted(random.Random(spec.seed).sample(range(len(boards)), min(starts, len(boards))))
        made = pilot.segments if pilot.segments is not None else None
        half = 0
        running = [running_now()]
        started, wall = time.process_time(), time.perf_counter()
        for count, index in enumerate(chosen, 1):
            pilot.judge(index, boards[index])
            if count == len(chosen) // 2:
                half = len(made) if made is not None else len(pilot.planner.search_seconds)
            if count % RUNNING_EVERY == 0:
                running.append(running_now())
        seconds, wall = time.process_time() - started, time.perf_counter() - wall
    finally:
        pilot.close()
    plans = len(made) if made is not None else len(pilot.planner.search_seconds)
    searched = sum(pilot.planner.search_seconds)
    return Pilot(len(chosen), half, plans, seconds, searched, wall, made is not None, others_running(running))


def others_running(running: Sequence[int | None]) -> float | None:
    """The other processes running or ready to run on average over counts
    of :func:`running_now` (each with this process among them); None
    where the system counted none."""
    counted = [count for count in running if count is not None]
    return max(0.0, sum(counted) / len(counted) - 1) if counted else None


RUNNING_EVERY = 20
"""Pilot games between two counts of the processes running (each a read
of a few microseconds)."""


def running_now() -> int | None:
    """Processes running or ready to run this moment, this one among them,
    by Linux's ``/proc/loadavg``; None where the system does not say."""
    try:
        with open("/proc/loadavg", encoding="ascii") as loadavg:
            return running_in(loadavg.read())
    except OSError:
        return None


def running_in(loadavg: str) -> int | None:
    """The processes running in the text of ``/proc/loadavg`` (its fourth
    field, running/existing: ``0.52 0.58 0.59 3/512 4071``); None if it
    has none."""
    fields = loadavg.split()
    running = fields[3].partition("/")[0] if len(fields) > 3 else ""
    return int(running) if running.isdigit() else None


PACE_WINDOW = 30.0
"""Seconds over which a run's pace is measured: the games get cheaper as
the run goes (later games end in what earlier ones made), so the pace
since the start, slow workers' start-up and all, says too long."""

PACE_FROM = 5.0
"""Seconds of judging before the run's own pace is taken over the model's."""


class Pace:
    """A run's pace as it goes: games a second and the time left, by the
    model's estimate at first and, once games have come in for
    :data:`PACE_FROM` seconds, by the games of the last
    :data:`PACE_WINDOW` seconds."""

    def __init__(self, total: int, estimate: Estimate | None):
        self.total = total
        self.estimate = estimate
        self.started = time.monotonic()
        self.marks: deque[tuple[float, int]] = deque()
        """(time, games judged), a second or more apart, the last window's."""

    def now(self, done: int) -> tuple[float, float | None]:
        """Games a second lately and the seconds left (None: not known yet),
        after ``done`` games."""
        now, marks = time.monotonic(), self.marks
        if not marks or now - marks[-1][0] >= 1.0:
            marks.append((now, done))
        while len(marks) > 2 and now - marks[1][0] >= PACE_WINDOW:
            marks.popleft()
        then, before = marks[0]
        rate = (done - before) / (now - then) if now > then else 0.0
        if done >= self.total:
            return rate, 0.0
        if now - then >= PACE_FROM and rate > 0:
            return rate, (self.total - done) / rate
        if self.estimate is not None:
            return rate, max(0.0, self.estimate.seconds - (now - self.started))
        return rate, None

    def text(self, done: int) -> str:
        """The games a second and the time left: ``1,234/s, 3 min left``."""
        rate, left = self.now(done)
        return f"{rate:,.0f}/s" + ("" if left is None else f", {duration(left)} left")


def load_average() -> float:
    """The machine's load average over the last minute (0 where the system
    keeps none): where the processes running cannot be counted."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def duration(seconds: float) -> str:
    """A rough duration for a person: ``40 s``, ``12 min``, ``3.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
