"""The ``al0 bench`` command: how fast a table plans, on seeded positions."""

from __future__ import annotations

import json
import resource
import statistics
import time

import click

from al0.board import check_sample_size, random_positions
from al0.cli.messages import reports_errors
from al0.cli.params import BUDGET, TABLE, WholeNumber
from al0.engine import Planner
from al0.lang import AdviceTable, load_table
from al0.tablebase import load_if_any
from al0.verify import percentile

MAX_REPEAT = 100
"""The most times one position is planned: a best of more damps no more
noise, and --repeat 10**18 ran until stopped."""


def check_count(table: AdviceTable, count: int) -> None:
    """Refuse a ``--count`` larger than the table's ending (its legal
    positions with our side to move, counted by the tablebase; a material
    without one is left to the sampler's own bound): the sampler would look
    for hours for positions that do not exist."""
    tablebase = load_if_any(table.material.name)
    if tablebase is None:
        return
    from al0.tablebase import stronger_colour  # lazily, as the tablebase itself

    stats = tablebase.stats()
    ours_stronger = stronger_colour(table.material.name, table.us) == table.us
    legal = stats["stronger" if ours_stronger else "weaker"]["legal"]
    side = table.material.side_names[0]
    check_sample_size(f"--count {count}", count, legal, f"{table.material} positions with {side} to move")


@click.command()
@TABLE
@click.option(
    "--count",
    type=WholeNumber(minimum=1),
    default=200,
    show_default=True,
    help="How many seeded random positions to plan for.",
)
@click.option(
    "--seed", type=WholeNumber(minimum=None), default=1, show_default=True, help="Seed of the positions."
)
@click.option(
    "--repeat",
    type=WholeNumber(minimum=1, maximum=MAX_REPEAT),
    default=3,
    show_default=True,
    help="Plan every position this many times; each position's best time counts.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@BUDGET
@reports_errors
def bench(table: str, count: int, seed: int, repeat: int, as_json: bool, budget: int) -> None:
    """Time plan selection of TABLE on COUNT seeded random positions of its
    material (our move, nothing hanging), without the plan cache.

    Reports nodes evaluated per plan and time per plan (median, p95, max),
    taking the best of --repeat runs per position to damp noise from the
    rest of the machine, and the peak memory of the process.
    """
    loaded = load_table(table)
    check_count(loaded, count)
    planner = Planner(loaded, budget, cache=False)
    boards = random_positions(loaded.material, count, seed, loaded.us)
    started = time.perf_counter()
    nodes: list[int] = []
    seconds: list[float] = []
    advice: dict[str | None, int] = {}
    for board in boards:
        plans = [planner.plan(board) for _ in range(repeat)]
        nodes.append(plans[0].nodes)
        seconds.append(min(plan.seconds for plan in plans))
        advice[plans[0].advice] = advice.get(plans[0].advice, 0) + 1
    wall = time.perf_counter() - started
    ordered = sorted(seconds)
    node_stats = {
        "median": statistics.median(nodes),
        "p95": percentile(sorted(nodes), 0.95),
        "max": max(nodes),
        "total": sum(nodes),
    }
    ms = {
        "median": round(statistics.median(ordered) * 1000, 3),
        "p95": round(percentile(ordered, 0.95) * 1000, 3),
        "max": round(ordered[-1] * 1000, 3),
    }
    data = {
        "table": loaded.name,
        "positions": count,
        "seed": seed,
        "repeat": repeat,
        "nodes": node_stats,
        "plan_ms": ms,
        "chosen_advice": advice,
        "wall_seconds": round(wall, 2),
        "peak_memory_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    if as_json:
        click.echo(json.dumps(data))
        return
    n = node_stats
    click.echo(f"{loaded.name}: {count} positions (seed {seed}), best of {repeat} runs each")
    click.echo(f"nodes per plan: median {n['median']}, p95 {n['p95']}, max {n['max']}, total {n['total']}")
    click.echo(f"time per plan:  median {ms['median']} ms, p95 {ms['p95']} ms, max {ms['max']} ms")
    click.echo(
        "advice chosen:  "
        + ", ".join(f"{k or '(no plan)'} {v}" for k, v in sorted(advice.items(), key=lambda kv: -kv[1]))
    )
    click.echo(f"wall time {data['wall_seconds']} s, peak memory {data['peak_memory_mb']} MB")
