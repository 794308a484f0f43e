"""The walk phase's failures (research/kbnk_phases.md, kbnk_closures.md):
the H3 classes outside the depth-D closure of the walk potential and the
shares of a few features there against the closure (python
research/kbnk_walk_failures.py 9; feature columns memoised in
/tmp/kbnk_memo). The positions themselves are written by `al0 progress ...
--closure --failures FILE` (research/kbnk_closures.md has the command).
A lab script, not a tool."""

import collections
import random
import sys
from pathlib import Path

import numpy as np

from al0.errors import AL0Error
from al0.progress.columns import Terms
from al0.progress.minmax import closure, depths
from al0.tablebase import load
from al0.tablebase.graph import MoveGraph

memo = Path("/tmp/kbnk_memo")
g = MoveGraph(load("KBNK"))
t = Terms(g, memo)
H = "edge_dist(k) = 0 and inward(k) = 0 and dist(K, k) <= 2 and centre_side_dist(K, k) <= 1"
COUNT = "3*corner_dist(k, B) + 3*edge_dist(k) + 2*centre_side_dist(K, k) + mobility + dist(N, k)"
terms = [f"[not ({H})]", "corner_dist(k, B)", COUNT, "area(k)"]
pot = t.potential(terms)
won = g.won
held = won & t.where(H)
D = int(sys.argv[1]) if len(sys.argv) > 1 else 7  # our moves a walk plan may take
found = depths(g, pot, D)
counted, _, _ = closure(g, pot, D, won)
stuck = held & (found == 0)
out = held & ~counted & (found > 0)
print("held", held.sum(), "stuck", stuck.sum(), "fall but leave closure", out.sum())


def feat(name):
    col = t.feature(name)
    full = np.zeros(g.size, np.int64)
    full[g.roots] = col
    return full


dtm = g.table.values[0]
sel_ok = held & counted
behind = feat("corner_dist(N, B)") - feat("corner_dist(k, B)")  # > 0: the knight on the far side
for label, sel in (("stuck", stuck), ("closure", sel_ok)):
    print(
        f"knight farther from the bishop's corner than their king  {label:8s} {100 * (behind[sel] > 0).mean():.0f}%"
    )

for name in [
    "corner_dist(k, B)",
    "dist(N, k)",
    "dist(B, k)",
    "mobility",
    "centre_side_dist(K, k)",
    "corner_dist(k)",
    "dist(K, k)",
    "dist(B, N)",
]:
    try:
        f = feat(name)
    except AL0Error:
        continue
    for label, sel in (("stuck", stuck), ("left", out), ("closure", sel_ok)):
        c = collections.Counter(f[sel])
        tot = sel.sum()
        print(
            f"{name:24s} {label:8s}", " ".join(f"{int(k)}:{100 * v / tot:.0f}%" for k, v in sorted(c.items()))
        )
print(
    "dtm plies stuck",
    np.percentile(dtm[stuck], [10, 50, 90]),
    "closure",
    np.percentile(dtm[sel_ok], [10, 50, 90]),
)
for i in random.Random(1).sample(list(np.flatnonzero(stuck)), 12):
    print(next(iter(t.batch.nodes(np.array([i]), 0))).fen, int(dtm[i]))
