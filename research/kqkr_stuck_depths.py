"""Where a KQKR table's drive gives up, how far its fall was.

Reads the PGN of `al0 verify TABLE ... --pgn FILE` (the advice that played
each move is in its comments) and, at every position where the table's last
resort played (`keep_safe` by default), the least number of our moves in
which the drive (the positive part of kqkr.yaml's `count`) can be forced
lower against every reply, the rook won or mate counting as lower (al0
progress's min-max, up to six moves; 0: not within six). A table whose
deepest drive is N moves gives up where the fall is farther, or where its
choice has walked out of the drive's closure into positions with none;
those (each once) are read in the vocabulary, as kqkr_census.py reads the
stalls.
Usage: python research/kqkr_stuck_depths.py FILE.pgn [ADVICE]
"""

from __future__ import annotations

import collections
import sys

import chess
import chess.pgn
from kqkr_census import ADVICE, bound  # beside this script

from al0.board import Material
from al0.lang.node import Node
from al0.lang.vocabulary.binding import Binder
from al0.progress.columns import Terms
from al0.progress.minmax import depths
from al0.tablebase import load
from al0.tablebase.graph import MoveGraph

DRIVE = "3*edge_dist(k) + 2*dist(K, k) + 2*corner_dist(k) + dist(Q, k)"
PREDICATES = ("edge(k)", "defended(r)", "cut_off(r)", "third_rank_defence(r)")
FEATURES = ("edge_dist(k)", "dist(K, k)", "dist(Q, k)", "dist(r, k)", "safe_checks(r)", "mobility(k)")


def main(path: str, last_resort: str = "keep_safe") -> None:
    graph = MoveGraph(load("KQKR"))
    fall = depths(graph, Terms(graph).potential([DRIVE]), 6)
    played: collections.Counter[str] = collections.Counter()
    stuck: collections.Counter[int] = collections.Counter()
    nowhere: dict[int, chess.Board] = {}
    with open(path, encoding="utf-8") as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            board = game.board()
            for node in game.mainline():
                advice = ADVICE.match(node.comment or "")
                # Our moves while the rook is on the board: the drive's part of the game.
                if board.turn == chess.WHITE and advice and len(board.piece_map()) == 4:
                    played[advice.group(1)] += 1
                    if advice.group(1) == last_resort:
                        index = graph.index(board)
                        stuck[int(fall[index])] += 1
                        if fall[index] == 0:
                            nowhere.setdefault(index, board.copy())
                board.push(node.move)
    print("moves by advice:", ", ".join(f"{name} {n}" for name, n in played.most_common()))
    print(f"at {last_resort}'s moves, the drive's least fall (0: none within six):")
    for depth, n in sorted(stuck.items()):
        print(f"  {depth}: {n}")
    binder = Binder(Material.parse("KQKR"))
    nodes = [Node(board, 0, chess.WHITE) for board in nowhere.values()]
    print(f"{len(nodes)} distinct positions with no fall within six:")
    for text in PREDICATES:
        predicate = bound(binder, text, "predicate")
        print(f"  {text}: {sum(bool(predicate(node, node)) for node in nodes)}")
    for text in FEATURES:
        feature = bound(binder, text, "feature")
        values = collections.Counter(feature(node) for node in nodes)
        print(f"  {text}: " + ", ".join(f"{value}: {n}" for value, n in sorted(values.items())))


if __name__ == "__main__":
    main(*sys.argv[1:3])
