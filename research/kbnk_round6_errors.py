"""Where the fitted choice of each of kbnk_round6.yaml's phases errs, and
what those positions share against the rest of the phase's sample: the
piece the sum moves and the pieces the tablebase's best moves move, the
moves lost, and words of the corner's frame at the position (the knight
beside their king or on the corner's side of it, the bishop on the
hypotenuse of their king's corner triangle) and after the best move.

Fits as `al0 fit KBNK ... --sample 1000 --target rank --pre PHASE` does
(each phase's positions: its rule's condition and no earlier rule's) and
writes the errors to /tmp/kbnk_round6_err_PHASE.epd. A lab script, not a
tool: about a minute of CPU a phase.

Usage: python research/kbnk_round6_errors.py [PHASE...]
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import chess

from al0.board.position import from_board
from al0.lang.compile_goals import compile_value
from al0.lang.node import node_at
from al0.progress.fitting import _read, fit
from al0.tablebase import load

sys.path.insert(0, str(Path(__file__).parent))
from kbnk_round6_table import PHASES  # noqa: E402

FEATURES = (
    "corner_dist(k, B)",
    "edge_dist(k)",
    "centre_side_dist(K, k)",
    "mobility(k)",
    "dist(N, k)",
    "dist(K, k)",
    "area(k)",
    "diagonal_area(k, B)",
    "dist(B, k)",
    "wrong_way(k, B)",
    "corner_dist(N, B)",
    "corner_dist(K, B)",
    "hypotenuse_dist(B, k, B)",
    "hypotenuse_dist(N, k, B)",
    "hypotenuse_dist(K, k, B)",
    "triangle_corner_dist(N, k)",
    "triangle_corner_dist(K, k)",
    "mdist(N, k)",
    "dist(K, N)",
)
WORDS = ("dist(N, k)", "corner_dist(N, B)", "corner_dist(k, B)", "hypotenuse_dist(B, k, B)")


def words(board: chess.Board, values: dict) -> dict[str, int | None]:
    """The corner-frame words at ``board`` (us to move)."""
    root = node_at(from_board(board), 0, chess.WHITE)
    return {name: value(root, root) for name, value in values.items()}


def traits(board: chess.Board, values: dict) -> set[str]:
    """Which of the shared traits hold at ``board``."""
    w = words(board, values)
    found = set()
    if w["dist(N, k)"] == 1:
        found.add("knight beside their king")
    if w["corner_dist(N, B)"] < w["corner_dist(k, B)"]:
        found.add("knight on the corner's side")
    if w["hypotenuse_dist(B, k, B)"] == 0:
        found.add("bishop on the hypotenuse")
    return found


def piece(board: chess.Board, san: str) -> str:
    """K, B or N: the piece ``san`` moves."""
    move = board.parse_san(san)
    return chess.piece_symbol(board.piece_type_at(move.from_square)).upper()


def main() -> None:
    tablebase = load("KBNK")
    values = {}
    for name in WORDS:
        read = _read(tablebase.material, "true", name, "word", name, 14, 9)
        values[name] = compile_value(read.advice["a"].prefer[0], read.library)
    wanted = set(sys.argv[1:])
    earlier: list[str] = []
    for name, condition, _, _ in PHASES:
        pre = f"({condition}) and not ({' or '.join(earlier)})" if earlier else condition
        earlier.append(f"({condition})")
        if wanted and name not in wanted:
            continue
        result = fit(tablebase, FEATURES, pre, 1000, 0, "rank")
        Path(f"/tmp/kbnk_round6_err_{name}.epd").write_text("".join(line + "\n" for line in result.errs))
        chosen, best, lost = Counter(), Counter(), Counter()
        in_errors, in_all = Counter(), Counter()
        for start in result.starts:
            in_all.update(traits(chess.Board(start), values))
        for line in result.errs:
            board = chess.Board(line.split(" bm ")[0] + " 0 1")
            bm = re.search(r"bm ([^;]+);", line).group(1).split()
            c0 = re.search(r'c0 "chose (\S+), (\d+) longer"', line)
            chosen[piece(board, c0.group(1))] += 1
            best["/".join(sorted({piece(board, san) for san in bm}))] += 1
            lost["1" if c0.group(2) == "1" else "2-5" if int(c0.group(2)) <= 5 else "6+"] += 1
            in_errors.update(traits(board, values))
        errors, positions = len(result.errs), result.positions
        print(f"{name}: {result.expression}")
        print(f"  agrees {result.agree} of {positions}; errors {errors}, moves lost {dict(lost)}")
        print(f"  chosen {dict(chosen)}; best moves by {dict(best)}")
        for trait in sorted(set(in_all) | set(in_errors)):
            rest = in_all[trait] - in_errors[trait]
            print(
                f"  {trait}: {100 * in_errors[trait] / errors:.0f} % of errors, "
                f"{100 * rest / max(1, positions - errors):.0f} % of the rest"
            )


if __name__ == "__main__":
    main()
