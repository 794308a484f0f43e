"""Whether kqkr.yaml mates where its drive can be kept up, and fails where
it cannot: the closure of its `count` (al0 progress's, lowered within two
moves until the rook is won or mate, its holding-goal `safe` kept on the
way) against a verify run's failures.

`count` is the table's, its two negative terms written as sums of
conditions (`-dist(r, k)` is `[dist(r, k) < 2] + ... + [dist(r, k) < 8]`
less 7), which leaves the order of its values as it is. Reads the failures
EPD of `al0 verify kqkr --positions sample:N --failures FILE` and counts,
over the same seeded sample, the games mated and failed inside and outside
the closure; then, inside it and outside, how far from mate the positions
are, how many have the rook beside its king, and from how many no line of
seven moves wins the rook or mates (the min-max of a constant potential:
only the rook won or mate is a fall).

With a depth, a measure (`count`, or `drive`: its positive part) and a
holding-goal (`safe`, the table's; `light`: no stalemate, the queen kept
and not forked, skewered or pinned at our move unless the rook can be
taken; `none`), that closure instead (the fourth round's figures).

Usage: python research/kqkr_closure.py FILE.epd N [DEPTH [count|drive [safe|light|none]]]
(about 40 s of CPU at depth 2: the move graph, the closure and the
seven-move min-max over every won KQKR position.)
"""

from __future__ import annotations

import random
import sys
from collections import Counter

import chess
import numpy as np

from al0.progress.columns import Terms
from al0.progress.minmax import closure, depths
from al0.tablebase import load
from al0.tablebase.graph import MoveGraph

COUNT = (
    "3*edge_dist(k) + 2*dist(K, k) + 2*corner_dist(k) + dist(Q, k)"
    + "".join(f" + [dist(r, k) < {d}]" for d in range(2, 9))
    + "".join(f" + [edge_dist(K) < {d}]" for d in range(1, 4))
)
DRIVE = "3*edge_dist(k) + 2*dist(K, k) + 2*corner_dist(k) + dist(Q, k)"
LIGHT = (
    "not stalemate and not lost(Q)"
    " and not (ustomove and (forked(Q) or skewered(Q) or pinned(Q)) and not en_prise(r))"
)
SAFE = (
    "not stalemate and (mate or not (themtomove and attacked(Q)))"
    " and not (ustomove and (forked(Q) or skewered(Q) or pinned(Q)) and not en_prise(r))"
    " and (mate or not (themtomove and mobility(k) = 0))"
)


def main(failures: str, count: int, depth: int = 2, measure: str = "count", hold: str = "safe") -> None:
    graph = MoveGraph(load("KQKR"))
    terms = Terms(graph)
    potential = terms.potential([{"count": COUNT, "drive": DRIVE}[measure]])
    holding = {"safe": SAFE, "light": LIGHT, "none": None}[hold]
    if holding is None:
        kept, _, _ = closure(graph, potential, depth, graph.won)
    else:
        kept, _, _ = closure(graph, potential, depth, graph.won, terms.holds(holding))
    won = graph.won
    share = 100 * (kept & won).sum() / won.sum()
    print(
        f"the {measure} kept falling to the rook won or mate within {depth} moves, holding {hold}:"
        f" {int((kept & won).sum()):,} of {int(won.sum()):,} ({share:.1f} %)"
    )
    with open(failures, encoding="utf-8") as lines:
        failed = {graph.index(chess.Board.from_epd(line)[0]) for line in lines if line.strip()}
    classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
    sample = [graph.index(c.board()) for c in random.Random(0).sample(classes, count)]
    games = Counter(
        ("inside" if kept[i] else "outside", "failed" if i in failed else "mated") for i in sample
    )
    for where in ("inside", "outside"):
        print(f"{where} the closure: {games[where, 'mated']} mated, {games[where, 'failed']} failed")
    moves = (graph.table.values[0].astype(np.int64) + 1) // 2
    beside = terms.where("defended(r)", "condition")
    within_7 = depths(graph, np.zeros(graph.size, dtype=np.int64), 7) > 0
    for name, where in (("inside", won & kept), ("outside", won & ~kept)):
        print(
            f"{name}: {int(where.sum()):,} positions, moves to mate {moves[where].mean():.1f} on average, "
            f"the rook beside its king in {100 * (beside & where).sum() / where.sum():.1f} %, "
            f"the rook not won nor mate within seven moves in {100 * (where & ~within_7).sum() / where.sum():.1f} %"
        )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 2, *sys.argv[4:6])
