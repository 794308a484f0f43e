"""kbnk_round6.yaml: advice_tables/kbnk.yaml with its rules cut into finer
phases by words of the corner's frame, each phase's one-move goals
preferring the sum `al0 fit --target rank` fitted over that phase's
positions (research/kbnk_round6.md has the fits and the runs).

The phases, in the rules' order (the first that holds plays): the net
with the knight nearer the bishop's corner than their king, the rest of
the net, the walk's hold (H3) with the knight on the corner's side, the
rest of the hold, and the drive. The deeper pieces of advice (two to six
moves, the last resort) are kbnk.yaml's, unchanged and shared.

Usage: python research/kbnk_round6_table.py > research/kbnk_round6.yaml
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import yaml

NET = "corner_dist(k, B) <= 2 and edge_dist(k) = 0"
H3 = "edge_dist(k) = 0 and inward(k) = 0 and dist(K, k) <= 2 and centre_side_dist(K, k) <= 1"
KNIGHT_CORNER_SIDE = "corner_dist(N, B) < corner_dist(k, B)"

PHASES = [
    # name, condition, kbnk.yaml's rule whose list it takes, the fitted sum
    ("net_near", f"{NET} and {KNIGHT_CORNER_SIDE}", "net", "centre_side_dist(K, k)"),
    (
        "net",
        NET,
        "net",
        "6*centre_side_dist(K, k) + 2*dist(N, k) - dist(K, k) - corner_dist(N, B) - mdist(N, k)",
    ),
    (
        "walk_near",
        f"{H3} and {KNIGHT_CORNER_SIDE}",
        "drive",
        "4*centre_side_dist(K, k) + mobility(k) - 5*dist(K, k) - 2*corner_dist(K, B) + dist(K, N)",
    ),
    (
        "walk",
        H3,
        "drive",
        "6*centre_side_dist(K, k) + 6*mobility(k) + 2*dist(N, k) - 10*dist(K, k) + dist(B, k)"
        " - 7*corner_dist(K, B)",
    ),
    (
        "drive",
        "true",
        "drive",
        "9*centre_side_dist(K, k) + mobility(k) - 2*dist(K, k) + mdist(N, k) + dist(K, N)",
    ),
]
ONE_MOVE = ["inside", "corner", "edge", "knight", "progress", "box"]
"""kbnk.yaml's one-move goals: each phase has its own copy, preferring its sum."""


def table(source: dict) -> dict:
    """The phased table made from kbnk.yaml's ``source``."""
    out = copy.deepcopy(source)
    out["name"] = "kbnk_round6"
    out["description"] = (
        "KBNK: kbnk.yaml's rules cut into finer phases, each preferring its fitted sum (research)."
    )
    lists = {rule["name"]: rule for rule in source["rules"]}
    out["rules"] = []
    for name, condition, base, prefer in PHASES:
        then = [f"{advice}_{name}" if advice in ONE_MOVE else advice for advice in lists[base]["then"]]
        out["rules"].append(
            {"name": name, "description": lists[base]["description"], "if": condition, "then": then}
        )
        for advice in ONE_MOVE:
            out["advice"][f"{advice}_{name}"] = {**copy.deepcopy(source["advice"][advice]), "prefer": prefer}
    for advice in ONE_MOVE:
        del out["advice"][advice]
    del out["expect"]
    return out


def main() -> None:
    source = yaml.safe_load((Path(__file__).parent.parent / "advice_tables" / "kbnk.yaml").read_text())
    sys.stdout.write("# Research draft, written by research/kbnk_round6_table.py (round 6).\n")
    sys.stdout.write(yaml.safe_dump(table(source), sort_keys=False, allow_unicode=True, width=200))


if __name__ == "__main__":
    main()
