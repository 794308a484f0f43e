"""Plan time per position, al0 against the book's Prolog AL0 program, side by side.

    python benchmarks/prolog_vs_al0.py BOOK.pl [--epd FILE ...] [--count 1000]
                                       [--seed 2026] [--runs 5] [--optimise]
                                       [--table krk_bratko|krk_std|FILE]

BOOK.pl is the book's program (Bratko, *Prolog Programming for Artificial
Intelligence*, 4th ed., figures 24.6, 24.7 and 24.10: the AL0 interpreter,
the KRK advice table and its predicate library), kept outside this
repository. The book's figure files are published with it; a public copy
of the three figures in one file is ``fig24_6_7_10_chess.pl`` of the GitHub
repository adamcrussell/bratko_4th_edition (docs/results/speed.md gives the
md5 of the copy measured, which this script prints). Both programs read the
same EPD file and plan every position once per run, without a plan cache:
SWI-Prolog runs ``benchmarks/al0_plan_times.pl``, al0 runs
``Planner.plan_position`` of ``advice_tables/krk_bratko.yaml`` in this
process — the search ``al0 plan`` runs (``--table krk_std``: the book's
strategy in the standard vocabulary, which the native core plans whole
when it is built; the first line says which core each table runs on).
Times are CPU time per plan, from a
position already read on both sides: the Prolog driver parses the FEN into
the book's position term before its timer starts, so al0's compact position
is built from the board before its own.

Positions: each ``--epd`` file is a set of its own (White K+R against K,
White to move), measured and summarised in turn; without one, ``--count``
seeded random KRK positions (``--seed``; the defaults give exactly
``benchmarks/krk_seed2026.epd``). Seeded positions never have the rook en
prise (al0.board.sampling.random_positions draws no position where Black,
to move, could capture anything); ``benchmarks/krk_seed7.epd`` is a second
such set.

Each run gives median, p95, p99 and max for each side; the summary of a set
gives, for each statistic, the median over runs with the spread (min–max)
and al0's ratio to Prolog. It also counts the positions where the two
programs' first moves differ: both try moves in the book's order, but al0
keeps the forcing tree of least worst-case depth where the book's program
keeps the first it finds, so deeper advice (divide_in_2/3, mate_in_2) may
start with another move (the one-ply advice, squeeze, approach and
keeproom, agree on every position).

SWI-Prolog runs with its default flags, as the book's program is run;
``--optimise`` passes ``-O`` (arithmetic compiled), which makes the Prolog
side about a fifth faster.

This is a benchmark, not a test: it needs ``swipl`` (Debian: swi-prolog-nox)
and a quiet machine. A missing program, a failing ``swipl`` or a bad
position stops it with one line naming the cause (exit 2).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NoReturn

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from al0.board.material import Material
from al0.board.position import Position, from_board  # noqa: E402
from al0.board.sampling import random_positions  # noqa: E402
from al0.engine.native import table_core  # noqa: E402
from al0.engine.plan import Planner  # noqa: E402
from al0.errors import AL0Error  # noqa: E402
from al0.lang.loader import load_table  # noqa: E402
from al0.lang.model import AdviceTable  # noqa: E402

STATISTICS = ("median", "p95", "p99", "max")
DRIVER = ROOT / "benchmarks" / "al0_plan_times.pl"
KRK = {
    chess.Piece(chess.KING, chess.WHITE),
    chess.Piece(chess.ROOK, chess.WHITE),
    chess.Piece(chess.KING, chess.BLACK),
}


def fail(message: str) -> NoReturn:
    """Stop with one line naming the cause, exit status 2."""
    print(f"prolog_vs_al0: {message}", file=sys.stderr)
    sys.exit(2)


def summary(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    return {"median": statistics.median(ordered), "p95": at(0.95), "p99": at(0.99), "max": ordered[-1]}


def book_move(move: chess.Move | None) -> str:
    """A move as the book's program writes it: ``X:Y-X1:Y1``."""
    if move is None:
        return "none"
    f, t = move.from_square, move.to_square
    return (
        f"{chess.square_file(f) + 1}:{chess.square_rank(f) + 1}-"
        f"{chess.square_file(t) + 1}:{chess.square_rank(t) + 1}"
    )


def read_positions(epd: Path) -> list[chess.Board]:
    """The positions of ``epd``, each White K+R against K with White to
    move (all the book's program reads); a line that is not one is named."""
    try:
        lines = epd.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        fail(f"{epd}: cannot be read ({error})")
    boards = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            board = chess.Board.from_epd(line)[0]
        except ValueError as error:
            fail(f"{epd}:{number}: not an EPD position ({error})")
        if (
            set(board.piece_map().values()) != KRK
            or len(board.piece_map()) != 3
            or board.turn != chess.WHITE
            or not board.is_valid()
        ):
            fail(f"{epd}:{number}: {line.strip()!r} is not a legal KRK position with White to move")
        boards.append(board)
    if not boards:
        fail(f"{epd}: no positions")
    return boards


def run_prolog(book: Path, epd: Path, count: int, flags: list[str]) -> tuple[list[float], list[str]]:
    """CPU ms per plan and first moves of the book's program on ``epd``
    (``flags``: swipl's own)."""
    out = subprocess.run(
        ["swipl", *flags, str(DRIVER), "--", str(book), str(epd)], capture_output=True, text=True
    )
    rows = [line.split() for line in out.stdout.splitlines() if line.strip()]
    if out.returncode != 0 or len(rows) != count or any(len(row) != 3 for row in rows):
        errors = [line for line in out.stderr.splitlines() if line.strip()]
        fail(
            f"swipl planned {len(rows)} of {count} positions of {epd} with {book} "
            f"(exit {out.returncode}): {errors[-1] if errors else 'no message'}"
        )
    return [float(ms) for _, ms, _ in rows], [move for _, _, move in rows]


def run_al0(planner: Planner, positions: list[Position]) -> tuple[list[float], list[str]]:
    times, moves = [], []
    for position in positions:
        started = time.process_time()
        plan = planner.plan_position(position)
        times.append((time.process_time() - started) * 1000)
        moves.append(book_move(plan.tree.branches[0][0] if plan.tree else None))
    return times, moves


def measure(book: Path, epd: Path, table: AdviceTable, runs: int, flags: list[str]) -> None:
    """Plan the positions of ``epd`` ``runs`` times on each side and print
    each run's figures, then the summary."""
    boards = read_positions(epd)
    positions = [from_board(board) for board in boards]
    print(f"\n{len(boards)} positions from {epd}; {runs} runs; load average {os.getloadavg()[0]:.2f}")
    results: dict[str, list[dict[str, float]]] = {"prolog": [], "al0": []}
    prolog_moves: list[str] = []
    al0_moves: list[str] = []
    for run in range(runs):
        # Alternate which side goes first, so drifting load hits both alike.
        order = ("prolog", "al0") if run % 2 == 0 else ("al0", "prolog")
        for side in order:
            if side == "prolog":
                times, prolog_moves = run_prolog(book, epd, len(boards), flags)
            else:
                times, al0_moves = run_al0(Planner(table, cache=False), positions)
            results[side].append(summary(times))
        print(
            f"run {run + 1}: "
            + "; ".join(
                f"{side} " + " ".join(f"{k} {results[side][-1][k]:.4f}" for k in STATISTICS)
                for side in ("prolog", "al0")
            )
            + f"  (ms; load {os.getloadavg()[0]:.2f})"
        )

    print(f"CPU ms per plan, median over {runs} runs [min-max]:")
    print(f"{'':8}" + "".join(f"{k:>27}" for k in STATISTICS))
    for side in ("prolog", "al0"):
        cells = []
        for k in STATISTICS:
            values = [r[k] for r in results[side]]
            cells.append(f"{statistics.median(values):.4f} [{min(values):.4f}-{max(values):.4f}]")
        print(f"{side:8}" + "".join(f"{c:>27}" for c in cells))
    ratios = [
        statistics.median(r[k] for r in results["al0"]) / statistics.median(r[k] for r in results["prolog"])
        for k in STATISTICS
    ]
    print(f"{'ratio':8}" + "".join(f"{r:>26.2f}x" for r in ratios) + "   (al0 / prolog)")
    differ = sum(a != b for a, b in zip(prolog_moves, al0_moves))
    print(f"first moves that differ: {differ} of {len(boards)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("book", type=Path, help="the book's Prolog AL0 program")
    parser.add_argument(
        "--epd",
        type=Path,
        action="append",
        help="a set of positions (repeatable; default: seeded random KRK)",
    )
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--optimise", action="store_true", help="run swipl with -O")
    parser.add_argument(
        "--table",
        default="krk_bratko",
        help="al0's KRK table: a bundled name (krk_bratko, krk_std) or a file (default: krk_bratko)",
    )
    args = parser.parse_args()
    if shutil.which("swipl") is None:
        fail("swipl not found (Debian: apt-get install swi-prolog-nox)")
    if not args.book.is_file():
        fail(f"{args.book}: no such file (the book's program, see --help)")
    if args.runs < 1 or args.count < 1:
        fail("--runs and --count must be at least 1")
    flags = ["-O"] if args.optimise else []
    print(
        f"book program {args.book}, md5 {hashlib.md5(args.book.read_bytes()).hexdigest()}"
        f"{'; swipl -O' if flags else ''}"
    )

    path = Path(args.table)
    if not path.suffix:
        path = ROOT / "advice_tables" / f"{args.table}.yaml"
    if not path.is_file():
        fail(f"{args.table}: no such table")
    try:
        table = load_table(path)
    except AL0Error as error:
        fail(str(error))
    if table.material != "KRK":
        fail(f"{path}: a table of {table.material}, not KRK")
    print(f"al0 table {path.name}: {table_core(table)}")
    if args.epd:
        for epd in args.epd:
            measure(args.book, epd, table, args.runs, flags)
        return
    handle, name = tempfile.mkstemp(suffix=".epd")
    try:
        with os.fdopen(handle, "w") as out:
            out.writelines(
                board.epd() + "\n" for board in random_positions(Material.parse("KRK"), args.count, args.seed)
            )
        measure(args.book, Path(name), table, args.runs, flags)
    finally:
        os.unlink(name)


if __name__ == "__main__":
    main()
