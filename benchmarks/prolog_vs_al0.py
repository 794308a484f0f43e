"""Plan time per position, al0 against the book's Prolog AL0 program, side by side.

    python benchmarks/prolog_vs_al0.py BOOK.pl [--epd FILE] [--count 1000] [--runs 5]

BOOK.pl is the book's program (Bratko, *Prolog Programming for Artificial
Intelligence*, 4th ed., figures 24.6, 24.7 and 24.10: the AL0 interpreter,
the KRK advice table and its predicate library), kept outside this
repository. Both programs read the same EPD file (by default ``--count``
seeded random KRK positions, White to move, written to a temporary file) and
plan every position once per run, without a plan cache: SWI-Prolog runs
``benchmarks/al0_plan_times.pl``, al0 runs ``Planner.plan_position`` of
``advice_tables/krk_bratko.yaml`` in this process — the search ``al0 plan``
runs. Times are CPU time per plan, from a position already read on both
sides: the Prolog driver parses the FEN into the book's position term
before its timer starts, so al0's compact position is built from the board
before its own. Each run gives median, p95, p99
and max for each side; the summary gives, for each statistic, the median
over runs with the spread (min–max) and al0's ratio to Prolog. It also
counts the positions where the two programs' first moves differ: both try
moves in the book's order, but al0 keeps the forcing tree of least
worst-case depth where the book's program keeps the first it finds, so
deeper advice (divide_in_2/3, mate_in_2) may start with another move.

This is a benchmark, not a test: it needs ``swipl`` (Debian: swi-prolog-nox)
and a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from al0.lang.loader import load_table  # noqa: E402
from al0.engine.plan import Planner  # noqa: E402
from al0.board.position import Position, from_board  # noqa: E402
from al0.board.sampling import random_positions  # noqa: E402

STATISTICS = ("median", "p95", "p99", "max")


def summary(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
    return {"median": statistics.median(ordered), "p95": at(0.95), "p99": at(0.99),
            "max": ordered[-1]}


def book_move(move: chess.Move | None) -> str:
    """A move as the book's program writes it: ``X:Y-X1:Y1``."""
    if move is None:
        return "none"
    f, t = move.from_square, move.to_square
    return (f"{chess.square_file(f) + 1}:{chess.square_rank(f) + 1}-"
            f"{chess.square_file(t) + 1}:{chess.square_rank(t) + 1}")


def run_prolog(book: Path, epd: Path) -> tuple[list[float], list[str]]:
    out = subprocess.run(["swipl", str(ROOT / "benchmarks" / "al0_plan_times.pl"), "--",
                          str(book), str(epd)], capture_output=True, text=True, check=True)
    rows = [line.split() for line in out.stdout.splitlines() if line.strip()]
    return [float(ms) for _, ms, _ in rows], [move for _, _, move in rows]


def run_al0(planner: Planner, positions: list[Position]) -> tuple[list[float], list[str]]:
    times, moves = [], []
    for position in positions:
        started = time.process_time()
        plan = planner.plan_position(position)
        times.append((time.process_time() - started) * 1000)
        moves.append(book_move(plan.tree.branches[0][0] if plan.tree else None))
    return times, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("book", type=Path, help="the book's Prolog AL0 program")
    parser.add_argument("--epd", type=Path, help="positions (default: seeded random KRK)")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    if args.epd is None:
        handle, name = tempfile.mkstemp(suffix=".epd")
        with os.fdopen(handle, "w") as out:
            out.writelines(board.epd() + "\n"
                           for board in random_positions("KRK", args.count, args.seed))
        epd = Path(name)
    else:
        epd = args.epd
    boards = [chess.Board.from_epd(line)[0] for line in epd.read_text().splitlines()
              if line.strip()]
    positions = [from_board(board) for board in boards]
    table = load_table(ROOT / "advice_tables" / "krk_bratko.yaml")
    print(f"{len(boards)} positions from {epd}; {args.runs} runs; "
          f"load average {os.getloadavg()[0]:.2f}")

    results: dict[str, list[dict[str, float]]] = {"prolog": [], "al0": []}
    differ = 0
    for run in range(args.runs):
        # Alternate which side goes first, so drifting load hits both alike.
        order = ("prolog", "al0") if run % 2 == 0 else ("al0", "prolog")
        for side in order:
            if side == "prolog":
                times, prolog_moves = run_prolog(args.book, epd)
            else:
                times, al0_moves = run_al0(Planner(table, cache=False), positions)
            results[side].append(summary(times))
        differ = sum(a != b for a, b in zip(prolog_moves, al0_moves))
        print(f"run {run + 1}: " + "; ".join(
            f"{side} " + " ".join(f"{k} {results[side][-1][k]:.3f}" for k in STATISTICS)
            for side in ("prolog", "al0")) + f"  (ms; load {os.getloadavg()[0]:.2f})")

    print(f"\nCPU ms per plan, median over {args.runs} runs [min-max]:")
    print(f"{'':8}" + "".join(f"{k:>24}" for k in STATISTICS))
    for side in ("prolog", "al0"):
        cells = []
        for k in STATISTICS:
            values = [r[k] for r in results[side]]
            cells.append(f"{statistics.median(values):.3f} [{min(values):.3f}-{max(values):.3f}]")
        print(f"{side:8}" + "".join(f"{c:>24}" for c in cells))
    ratios = [statistics.median(r[k] for r in results["al0"])
              / statistics.median(r[k] for r in results["prolog"]) for k in STATISTICS]
    print(f"{'ratio':8}" + "".join(f"{r:>23.2f}x" for r in ratios) + "   (al0 / prolog)")
    print(f"first moves that differ: {differ} of {len(boards)}")
    if args.epd is None:
        epd.unlink()


if __name__ == "__main__":
    main()
