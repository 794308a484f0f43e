"""Deep advice, side by side: the seven-ply KBNK progress table of issue 27
planned on its 18 positions, by this checkout and by others.

    python benchmarks/kbnk_deep4.py [--repo PATH ...] [--twin] [--runs 3]
                                    [--table FILE] [--epd FILE]

Each checkout (this one first, then every ``--repo``, e.g. a worktree of an
older commit) plans every position of the EPD file in a Python process of
its own that imports ``al0`` from that checkout (``PYTHONPATH``), a fresh
planner per position (no work shared between positions), and reports per
position the CPU time of the plan alone (``time.process_time``, the table
already loaded), whether advice was found and the nodes searched. Runs
alternate the checkouts' order, so drifting load on a shared machine hits
them alike; the figures are each position's median over ``--runs``. The
summary gives per checkout the total CPU, its ratio to this checkout's, the
median and p95 CPU per plan, and every position whose outcome (advice found
or not) differs; rows per position are printed for up to 50 positions. Any
table and positions may be given: ``--table advice_tables/krk_bratko.yaml
--epd benchmarks/krk_seed2026.epd`` compares KRK plans side by side.

``--twin`` also runs this checkout on its Python search (``AL0_CORE=python``)
beside its native core, in the same runs: the native core's ratio to its
twin, and whether every tree is the same (each row carries an md5 of the
plan's tree, and the summary counts the positions whose trees differ).
Each checkout's first line says which core it runs.

This is a benchmark, not a test: its figures go in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent

# Run in the checkout's own process. The modules moved between layouts
# (al0.loader -> al0.lang.loader, al0.plan -> al0.engine.plan): the layout is
# read off the checkout's files, since an editable install of another
# checkout may offer the modules this one lacks.
DRIVER = """
import hashlib, json, os, sys, time
import al0
import chess
try:
    from al0.core import status
    print(json.dumps({"core": status()}), flush=True)
except ImportError:
    print(json.dumps({"core": "python (no native core in this checkout)"}), flush=True)
if os.path.isdir(os.path.join(os.path.dirname(al0.__file__), "lang")):
    from al0.lang.loader import load_table
    from al0.engine.plan import Planner
else:
    from al0.loader import load_table
    from al0.plan import Planner
table = load_table(sys.argv[1])
for line in open(sys.argv[2]):
    if not line.strip():
        continue
    board = chess.Board.from_epd(line)[0]
    planner = Planner(table)
    started = time.process_time()
    plan = planner.plan(board)
    cpu = time.process_time() - started
    tree = hashlib.md5(repr(plan.tree).encode()).hexdigest()[:12]
    print(json.dumps({"fen": board.epd(), "advice": plan.advice, "nodes": plan.nodes,
                      "cpu": cpu, "tree": tree}), flush=True)
"""


@dataclass(frozen=True)
class Row:
    """One position planned by one checkout: median CPU over the runs."""

    fen: str
    advice: str | None
    nodes: int
    cpu: float
    tree: str = ""
    """An md5 of the plan's tree (its repr), to tell trees apart."""


Checkout = tuple[Path, str]
"""A checkout and the core it is asked to run ("" its default, "python" the twin)."""


def label(checkout: Checkout) -> str:
    return f"{checkout[0]}" + (f" (AL0_CORE={checkout[1]})" if checkout[1] else "")


def run(checkout: Checkout, table: Path, epd: Path, cores: dict[Checkout, str]) -> list[Row]:
    """One pass of a checkout's planner over ``epd``: a row per position. A
    table of this checkout is read from ``repo``'s copy where it has one
    (its Python library imports that checkout's modules); ``cores`` gets
    the core it ran."""
    repo, core = checkout
    if table.is_relative_to(ROOT) and (repo / table.relative_to(ROOT)).is_file():
        table = repo / table.relative_to(ROOT)
    env = {**os.environ, "PYTHONPATH": str(repo)}
    if core:
        env["AL0_CORE"] = core
    out = subprocess.run(
        [sys.executable, "-c", DRIVER, str(table), str(epd)],
        env=env,
        cwd=repo,
        capture_output=True,
        text=True,
    )
    if out.returncode:
        sys.exit(f"{repo} failed:\n{out.stderr}")
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    cores[checkout] = lines[0]["core"]
    return [Row(**line) for line in lines[1:]]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--repo",
        type=Path,
        action="append",
        default=[],
        help="another checkout to run side by side (repeatable)",
    )
    parser.add_argument(
        "--twin", action="store_true", help="also run this checkout on its Python search (AL0_CORE=python)"
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--table", type=Path, default=HERE / "kbnk_deep4.yaml")
    parser.add_argument("--epd", type=Path, default=HERE / "kbnk_deep4.epd")
    args = parser.parse_args()

    mine_: Checkout = (ROOT, "")
    repos: list[Checkout] = (
        [mine_] + ([(ROOT, "python")] if args.twin else []) + [(repo.resolve(), "") for repo in args.repo]
    )
    table, epd = args.table.resolve(), args.epd.resolve()
    print(f"{table.name} on {epd.name}; {args.runs} runs; load average {os.getloadavg()[0]:.2f}")
    passes: dict[Checkout, list[list[Row]]] = {repo: [] for repo in repos}
    cores: dict[Checkout, str] = {}
    for index in range(args.runs):
        order = repos if index % 2 == 0 else repos[::-1]
        for repo in order:
            passes[repo].append(run(repo, table, epd, cores))
    for repo in repos:
        print(f"{label(repo)}: core {cores[repo]}")
    rows = {
        repo: [
            replace(first, cpu=statistics.median(p[i].cpu for p in runs)) for i, first in enumerate(runs[0])
        ]
        for repo, runs in passes.items()
    }
    if len(rows[mine_]) <= 50:
        print("position | " + " | ".join(f"{label(repo)}: advice, nodes, CPU s" for repo in repos))
        for i, row in enumerate(rows[mine_]):
            print(
                f"{row.fen} | "
                + " | ".join(f"{r[i].advice or '-'}, {r[i].nodes}, {r[i].cpu:.4f}" for r in rows.values())
            )
    mine = sum(row.cpu for row in rows[mine_])
    for repo, found in rows.items():
        total = sum(row.cpu for row in found)
        ms = [row.cpu * 1000 for row in found]
        differ = [
            row.fen for row, own in zip(found, rows[mine_]) if (row.advice is None) != (own.advice is None)
        ]
        trees = sum(row.tree != own.tree for row, own in zip(found, rows[mine_]))
        print(
            f"{label(repo)}: total CPU {total:.3f} s ({total / mine:.2f}x this checkout's), "
            f"per plan median {statistics.median(ms):.2f} ms, "
            f"p95 {percentile(ms, 0.95):.2f} ms; "
            f"{sum(row.nodes for row in found)} nodes; advice found at "
            f"{sum(row.advice is not None for row in found)} of {len(found)}; "
            f"outcome differs at {len(differ)}{': ' + ', '.join(differ) if differ else ''}; "
            f"trees differ at {trees}"
        )


if __name__ == "__main__":
    main()
