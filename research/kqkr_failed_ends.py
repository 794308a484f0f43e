"""Where a table's failed KQKR games end, in the defending piece's words.

Reads the PGN `al0 verify kqkr ... --pgn FILE` writes (the failed games and
the longest mate), and at the last position of each failed game with us to
move counts the vocabulary's predicates that hold there, averages its
features, and compares the tablebase's moves to mate at the start and at
the end. Usage: python research/kqkr_failed_ends.py FILE.pgn
"""

from __future__ import annotations

import sys
from typing import Any

import chess
import chess.pgn

from al0.board import Material
from al0.lang.node import Node
from al0.lang.vocabulary.binding import Binder
from al0.tablebase.cache import load

PREDICATES = (
    "edge(k)",
    "defended(r)",
    "second_rank_defence(r)",
    "third_rank_defence(r)",
    "cut_off(r)",
    "pinned(r)",
    "philidor(Q, r)",
)
FEATURES = ("dist(r, k)", "dist(K, k)", "checks_by(r)")


def _bound(binder: Binder, text: str, kind: str) -> Any:
    """The vocabulary's function for ``text`` as a ``kind``."""
    function = binder.bind(text, kind)
    if function is None:
        raise SystemExit(f"{text!r} is not a {kind} of the vocabulary")
    return function


def main(path: str) -> None:
    binder = Binder(Material.parse("KQKR"))
    predicates = {text: _bound(binder, text, "predicate") for text in PREDICATES}
    features = {text: _bound(binder, text, "feature") for text in FEATURES}
    table = load("KQKR")
    held = dict.fromkeys(PREDICATES, 0)
    sums = dict.fromkeys(FEATURES, 0)
    games = still_won = start_dtm = end_dtm = nearer = 0
    with open(path, encoding="utf-8") as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            if game.headers.get("Result") == "1-0":
                continue  # the longest mate, not a failure
            end = game.end().board()
            if end.turn != chess.WHITE:
                end.pop()  # the position at our move
            games += 1
            node = Node(end, 0, chess.WHITE)
            for text, predicate in predicates.items():
                held[text] += predicate(node, node)
            for text, feature in features.items():
                sums[text] += feature(node) or 0
            before, after = table.dtm(game.board()), table.dtm(end)
            if before is not None and after is not None:
                still_won += 1
                start_dtm += before
                end_dtm += after
                nearer += after < before
    print(f"{games} failed games")
    for text in PREDICATES:
        print(f"{text}: {held[text]} ({100 * held[text] / games:.0f} %)")
    for text in FEATURES:
        print(f"{text}: mean {sums[text] / games:.2f}")
    print(
        f"still won at the end: {still_won}; moves to mate at the start {start_dtm / still_won:.1f}, "
        f"at the end {end_dtm / still_won:.1f}; nearer at the end in {nearer}"
    )


if __name__ == "__main__":
    main(sys.argv[1])
