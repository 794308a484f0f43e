"""The model of a run's work (:mod:`al0.verify.estimate`): the plans a run
needs, from a pilot's counts, and the pace and time left as it goes."""

from __future__ import annotations

import pytest

import al0.verify.api as api
import al0.verify.estimate as estimate
from al0.verify.api import Verification
from al0.verify.estimate import Estimate, Pace, Pilot


@pytest.mark.parametrize(
    "half, plans, positions, every, expected",
    [
        # KBBK's pilot (400 of its starts): 1,700 plans at 200, 2,817 at 400
        # (growth 0.73); all 312,951 classes need 314,809: capped at 1.05 a position.
        (1700, 2817, 312_951, True, 328_599),
        # ... and a sample of 3,000 of them, which needed 9,490.
        (1700, 2817, 3_000, False, 12_229),
        # Games that never meet grow the plans as the starts; no growth is
        # taken as under GROWTH_BOUNDS' least.
        (400, 800, 4_000, False, 8_000),
        (800, 800, 4_000, False, round(800 * 10**0.55)),
    ],
)
def test_plans_grow_by_the_pilots_power_law(half, plans, positions, every, expected):
    pilot = Pilot(400, half, plans, 1.0, 0.5, 1.0, segments=True)
    assert pilot.plans_for(positions, every) == expected


def test_the_work_is_plans_for_segments_and_games_and_plans_otherwise():
    segments = Pilot(400, 1000, 2000, seconds=0.2, search_seconds=0.05, wall_seconds=0.4, segments=True)
    assert segments.cpu_for(10_000, 20_000) == pytest.approx(2.0)  # 0.1 ms a plan, all in
    assert segments.slowdown == pytest.approx(2.0)
    games = Pilot(400, 1000, 2000, seconds=0.2, search_seconds=0.05, wall_seconds=0.1, segments=False)
    # 0.025 ms a plan's search, 0.375 ms a game's play; never faster than CPU.
    assert games.cpu_for(10_000, 20_000) == pytest.approx(0.5 + 3.75)
    assert games.slowdown == 1.0
    run = Estimate(10_000, 20_000, 40.0, processes=4, cpus=2, slowdown=1.5, load=2.0)
    assert run.seconds == pytest.approx(30.0) and run.worth_saying  # two CPUs for six processes
    assert str(run) == "about 30 s with 4 processes (some 20,000 plans, 40 s of CPU by a model of the work)"
    # A sample's time too short to say in seconds is said so, not as "about 0 s".
    assert Estimate(1_000, 1_000, 0.3, processes=1, cpus=2, slowdown=1.0, load=0.0).about == "under a second"


@pytest.mark.parametrize(
    "processes, cpus, slowdown, load, seconds",
    [
        (1, 2, 1.0, 0.3, 60.0),  # a quiet machine: a core for the run
        (2, 2, 1.0, 0.5, 37.5),  # ... but the other work takes a quarter of its two cores
        (4, 2, 1.0, 0.0, 30.0),  # more processes than CPUs: the CPUs' time
        # All of KBBK at a load of 15 on two CPUs took 341 s with one
        # process, 144 s with two; its pilot ran 3.4 times slower than its
        # CPU, which alone said 3 min and 59 s (the load: 8 and 8.5 times).
        (1, 2, 3.4, 15.0, 480.0),
        (2, 2, 3.4, 15.0, 255.0),
        (1, 2, 3.4, 0.0, 204.0),  # the pilot's pace where the load says less
    ],
)
def test_a_busy_machine_slows_the_estimate(processes, cpus, slowdown, load, seconds):
    run = Estimate(300_000, 300_000, 60.0, processes, cpus, slowdown, load)
    assert run.seconds == pytest.approx(seconds)


def test_the_pace_is_the_models_until_the_games_tell(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(estimate.time, "monotonic", lambda: clock[0])
    pace = Pace(1000, Estimate(1000, 1000, 60.0, 1, 1))
    clock[0] = 110.0  # the start-up: no game yet
    assert pace.now(1) == (0.0, 50.0)  # the model's 60 s, less the 10 gone
    clock[0] = 112.0
    assert pace.now(101)[1] == pytest.approx(48.0)  # two seconds of games tell too little
    clock[0] = 116.0
    assert pace.now(301) == (50.0, pytest.approx(13.98))  # 50 games a second, 699 left
    for second in range(117, 160):  # the games get cheaper: the last 30 s count
        clock[0] = float(second)
        rate, left = pace.now(301 + 10 * (second - 116))
    assert rate == pytest.approx(10.0) and left == pytest.approx(26.9)
    assert Pace(10, None).now(1) == (0.0, None)  # no model, no games yet: not known
    assert pace.now(1000)[1] == 0.0
    assert pace.text(1000).endswith("/s, 0 s left")


@pytest.mark.parametrize(
    "loadavg, running",
    [
        ("0.52 0.58 0.59 3/512 4071\n", 3),
        ("19.15 17.67 12.01 18/209 31619", 18),  # six other sessions on two CPUs
        ("0.00 0.01 0.05", None),  # a system that counts none
        ("0.52 0.58 0.59 ?/512 4071", None),
        ("", None),
    ],
)
def test_the_processes_running_are_read_from_the_systems_count(loadavg, running):
    assert estimate.running_in(loadavg) == running


@pytest.fixture(scope="module")
def all_of_kqk():
    with Verification("kqk", "all") as verification:
        yield verification


def test_the_pilot_counts_the_other_processes_running_while_it_runs(monkeypatch, all_of_kqk):
    # The load average lags a minute: just after other work ends it still
    # counts it, and a run of 26 s with two processes was said to take 50.
    counts = iter([3, 5, 1] * 10)
    monkeypatch.setattr(estimate, "running_now", lambda: next(counts))
    monkeypatch.setattr(estimate, "RUNNING_EVERY", 10)
    pilot = estimate.run_pilot(all_of_kqk.spec, all_of_kqk.boards, all_of_kqk.tablebases, starts=30)
    assert pilot.starts == 30 and pilot.others == pytest.approx(2.0)  # 3, 5, 1 and 3: 3 a time, less this one


@pytest.mark.parametrize(
    "others, wall, load, crowding",
    [
        (0.0, 1.0, 4.0, 1.0),  # counted none: the load average lags a run that ended
        (3.0, 1.0, 0.0, 2.5),  # counted three: five processes on two CPUs
        (0.0, 10.0, 0.0, 1.0),  # a pilot slowed for a moment says nothing where counted
        (None, 10.0, 0.0, 10.0),  # ... but where nothing is counted it is all there is
        (None, 1.0, 4.0, 3.0),  # ... with the load average
    ],
)
def test_the_first_estimate_shares_the_cpus_with_what_runs_beside_it(
    monkeypatch, all_of_kqk, others, wall, load, crowding
):
    monkeypatch.setattr(estimate, "usable_cpus", lambda: 2)
    monkeypatch.setattr(estimate, "load_average", lambda: load)
    monkeypatch.setattr(
        all_of_kqk, "_pilot", Pilot(400, 1000, 2000, 1.0, 0.5, wall, segments=True, others=others)
    )
    run = all_of_kqk.estimate(2)
    assert run is not None and run.crowding == pytest.approx(crowding)
