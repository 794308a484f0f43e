"""Where a KQKN table loses time before the knight is won, by pattern.

Plays the seeded sample `al0 verify TABLE --positions sample:N` plays (seed
0, against the tablebase's defence, 100 moves of ours at most) and, for each
of our moves while the knight is on the board, takes the tablebase's moves
to mate before it and before our next move: a move that does not take one
off wastes the difference. The moves of one piece of advice (keep_safe by
default) are then counted by the shape of the position they were played in:
our king's distance from their king and from the knight, the knight's from
its king, their king's and ours from the edge, in check or not, a king move
or a queen move, whether the tablebase's best moves are all king moves.
Usage: python research/kqkn_wasted_moves.py TABLE N [ADVICE]
"""

from __future__ import annotations

import random
import sys
from collections import defaultdict

import chess

from al0.engine.plan import Planner
from al0.engine.play import OurMove, play_game
from al0.lang.loader import load_table
from al0.tablebase.cache import load
from al0.verify.sources import LazyBoards


def edge(square: chess.Square) -> int:
    """King steps from ``square`` to the nearest edge."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    return min(file, 7 - file, rank, 7 - rank)


def shape(board: chess.Board, move: chess.Move, best: list[chess.Move]) -> dict[str, object]:
    """The features of the position (us to move, the knight on the board)."""
    ours, theirs = board.king(chess.WHITE), board.king(chess.BLACK)
    assert ours is not None and theirs is not None
    knight = next(iter(board.pieces(chess.KNIGHT, chess.BLACK)))
    return {
        "dist(K, k)": chess.square_distance(ours, theirs),
        "dist(K, n)": chess.square_distance(ours, knight),
        "dist(n, k)": chess.square_distance(knight, theirs),
        "edge_dist(k)": edge(theirs),
        "edge_dist(K)": edge(ours),
        "in check": board.is_check(),
        "a king move": board.piece_type_at(move.from_square) == chess.KING,
        "the best all king moves": all(board.piece_type_at(m.from_square) == chess.KING for m in best),
        "gives check": board.gives_check(move),
    }


def main(path: str, count: int, advice: str) -> None:
    table = load_table(path)
    with_knight, bare = load("KQKN"), load("KQK")
    classes = with_knight.positions(chess.WHITE, stronger=chess.WHITE, won=True, drawn=False)
    boards = LazyBoards(classes)
    moves: list[tuple[str, dict[str, object], int]] = []  # advice, shape, wasted

    def tablebase(board: chess.Board):
        return with_knight if len(board.piece_map()) == 4 else bare

    for index in random.Random(0).sample(range(len(classes)), count):
        board = boards[index].copy()
        pending: tuple[str, dict[str, object], int] | None = None
        for event in play_game(
            Planner(table), board, lambda b: tablebase(b).best_defence(b), 100, notation=False
        ):
            if not isinstance(event, OurMove):
                continue
            before = board.copy()
            before.pop()
            dtm = tablebase(before).dtm(before) or 0
            if pending is not None:
                name, features, previous = pending
                moves.append((name, features, 1 - (previous - dtm)))
            pending = None
            if len(before.piece_map()) == 4:
                features = shape(before, event.move, with_knight.best_moves(before))
                pending = (event.plan.advice, features, dtm)
        if pending is not None:  # the last move before the game's end
            name, features, _ = pending
            moves.append((name, features, 0 if board.is_checkmate() else 1))
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for name, _, wasted in moves:
        totals[name][0] += 1
        totals[name][1] += wasted
    print("advice: moves, wasted")
    for name, (played, wasted) in sorted(totals.items(), key=lambda item: -item[1][1]):
        print(f"  {name}: {played}, {wasted}")
    chosen = [(features, wasted) for name, features, wasted in moves if name == advice]
    print(f"{advice}'s {len(chosen)} moves by shape (value: moves, wasted)")
    for feature in chosen[0][0] if chosen else ():
        counts: dict[object, list[int]] = defaultdict(lambda: [0, 0])
        for features, wasted in chosen:
            counts[features[feature]][0] += 1
            counts[features[feature]][1] += wasted
        print(f"  {feature}: " + "; ".join(f"{value}: {n}, {w}" for value, (n, w) in sorted(counts.items())))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "keep_safe")
