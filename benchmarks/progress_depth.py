"""How many moves a potential needs to fall against every defence, over every position of an ending.

    python benchmarks/progress_depth.py KBNK "area(k)"
    python benchmarks/progress_depth.py KBNK "3*corner_dist(k, B) + 3*edge_dist(k) + mobility" "area(k)" --depth 3 --closure

A table whose every plan lowers one potential after their reply ("forced
progress": a piece of advice with better-goal ``P < root.P`` and a forcing
tree of a few moves) can only work if, from every position it meets, our
side can force the potential down within the advice's depth. This computes,
for the potential given as a lexicographic tuple of terms (each a sum of
vocabulary features with integer weights, first term most significant), the
least depth ``d`` (in our moves) at which we can force a lower value against
every reply, for every won position of the ending (one per symmetry class,
us to move, as ``al0 verify --positions all`` counts them), and prints the
histogram of ``d`` up to ``--depth`` ("none": not within it). Mate counts as
lower than everything; a stalemate, or a reply that takes one of our pieces,
counts as failure. Every line of play is looked at (all legal moves), by a
min-max over the tablebase's index in numpy, not by al0's search, so it shows
what any table on this potential could reach, whatever its move generators.

``--closure`` also prints the positions from which the progress can be kept
up until mate: a position counts when a lower value can be forced in at most
``--depth`` moves *into a position that counts itself*, repeated until
nothing changes. A table that takes the first progressing move it finds can
still walk out of this set (into a position where the potential cannot fall):
the set bounds what it can reach from above.

Only endings where their side has a lone king (KRK, KQK, KBBK, KBNK); the
tablebase is built or read from the cache (``$AL0_CACHE_DIR``). Features are
evaluated with the vocabulary itself, position by position (a minute or two
per term for a four-man ending).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

import chess
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from al0.library import Node  # noqa: E402
from al0.position import Position  # noqa: E402
from al0.tablebase import DRAW, ILLEGAL, load  # noqa: E402
from al0.tablebase.geometry import OFF, Layout, attacked, occupancy  # noqa: E402
from al0.tablebase.retrograde import moves  # noqa: E402
from al0.vocabulary import Binder  # noqa: E402

Array = npt.NDArray[np.int64]
INF = np.int64(1 << 50)
"""The value of a failed line (stalemate, a piece lost, or no progress)."""
MATE = np.int64(-1)
"""The value of a mate: lower than every potential."""


class Graph:
    """Every legal move between the canonical positions of an ending with a
    lone king on their side: ours (side 0) as (from, to) index arrays, one
    pair per piece, direction and distance; theirs likewise, with whether
    they can take one of our pieces and whether they are mated or
    stalemated."""

    def __init__(self, material: str):
        self.table = load(material)
        self.layout = Layout(self.table.material)
        types, sides = self.table.material.types, self.table.material.sides
        if sides.count(1) != 1:
            raise SystemExit(f"{material}: their side must be a lone king")
        values = self.table.values
        legal = values != ILLEGAL
        size = self.layout.size
        index = np.arange(size)
        canonical = self.layout.canonical(self.layout.decode(index)) == index
        self.roots = np.flatnonzero(canonical & legal[0])
        self.won = (values[0] % 2 == 1) & (values[0] < DRAW)
        self.ours = self._moves(0, self.roots, legal)
        theirs_from = np.flatnonzero(canonical & legal[1])
        self.theirs = self._moves(1, theirs_from, legal)
        count = np.zeros(size, dtype=np.int32)
        for start, _ in self.theirs:
            count[start] += 1
        self.capture = np.zeros(size, dtype=bool)
        squares = self.layout.decode(theirs_from)
        ours = [slot for slot in range(len(types)) if sides[slot] == 0]
        for slot, destination, selected, taken in moves(self.table.material, 1, squares, captures=True):
            if taken < 0:
                continue
            after = [square[selected] for square in squares]
            after[slot] = destination
            after[taken] = np.full(len(selected), OFF)  # the piece taken is off the board
            safe = ~attacked(types, [s for s in ours if s != taken], after, after[slot], occupancy(after))
            self.capture[theirs_from[selected[safe]]] = True
            count[theirs_from[selected[safe]]] += 1
        self.mated = values[1] == 0
        self.stalemated = (count == 0) & ~self.mated & canonical & legal[1]

    def _moves(self, side: int, start: Array, legal: npt.NDArray[np.bool_]) -> list[tuple[Array, Array]]:
        """The quiet legal moves of ``side`` from the positions ``start``."""
        squares = self.layout.decode(start)
        found = []
        for slot, destination, selected, taken in moves(self.table.material, side, squares, captures=True):
            if taken >= 0:
                continue
            after = [square[selected] for square in squares]
            after[slot] = destination
            successor = self.layout.canonical(after, king_placed=slot != 0)
            ok = legal[1 - side, successor]
            found.append((start[selected[ok]], successor[ok]))
        return found

    def values(self, terms: list[str]) -> Array:
        """The potential at every canonical position with us to move: the
        terms' values combined so that they compare lexicographically."""
        material = self.table.material
        binder = Binder(self.table.name)
        bound = [[(weight, binder.bind(name, "feature")) for weight, name in _parse(term)] for term in terms]
        squares = [s.tolist() for s in self.layout.decode(self.roots)]
        masks = {(piece, side): 0 for piece, side in zip(material.types, material.sides)}
        columns = np.zeros((len(terms), len(self.roots)), dtype=np.int64)
        for row in range(len(self.roots)):
            for key in masks:
                masks[key] = 0
            for slot, (piece, side) in enumerate(zip(material.types, material.sides)):
                masks[piece, side] |= 1 << squares[slot][row]
            white = sum(m for (_, side), m in masks.items() if side == 0)
            black = sum(m for (_, side), m in masks.items() if side == 1)
            by_type = [sum(m for (piece, _), m in masks.items() if piece == t)
                       for t in (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)]
            node = Node(Position(white, black, *by_type, chess.WHITE), 0, chess.WHITE)
            for column, term in enumerate(bound):
                total = 0
                for weight, feature in term:
                    value = feature(node)
                    if value is None:
                        raise SystemExit(f"{terms[column]}: no value at {node.fen}")
                    total += weight * value
                columns[column, row] = total
        potential = np.zeros(len(self.roots), dtype=np.int64)
        for column in columns:
            low = column.min()
            potential = potential * (column.max() - low + 1) + (column - low)
        result = np.full(self.layout.size, INF, dtype=np.int64)
        result[self.roots] = potential
        return result

    def depths(self, potential: Array, depth: int, counted: npt.NDArray[np.bool_] | None = None,
               replies: list[Array] | None = None) -> Array:
        """For every position with us to move, the least number of our
        moves (1 … ``depth``) in which we force a value below its own
        against every reply, 0 when we cannot. A position after their reply
        lowers the value only when it is in ``counted`` (all by default).
        ``replies``, when given, receives per level (1 … depth) the value
        each position with them to move guarantees us within that level.
        A min-max of the least value met on the way: ours the least over our
        moves, theirs the greatest over their replies."""
        size = self.layout.size
        met = potential if counted is None else np.where(counted, potential, INF)
        best = np.full(size, INF)
        found = np.zeros(size, dtype=np.int64)
        for level in range(1, depth + 1):
            reached = np.minimum(met, best)
            reply = np.full(size, MATE)
            for start, end in self.theirs:
                reply[start] = np.maximum(reply[start], reached[end])
            reply[self.mated] = MATE
            reply[self.stalemated | self.capture] = INF
            if replies is not None:
                replies.append(reply)
            best = np.full(size, INF)
            for start, end in self.ours:
                best[start] = np.minimum(best[start], reply[end])
            found[(best < potential) & (found == 0)] = level
        return found


    def index(self, board: chess.Board) -> int:
        """The canonical index of ``board`` (either side to move)."""
        material = self.table.material
        taken: set[chess.Square] = set()
        squares = []
        for piece, side in zip(material.types, material.sides):
            square = next(s for s in board.pieces(piece, chess.WHITE if side == 0 else chess.BLACK)
                          if s not in taken)
            taken.add(square)
            squares.append(np.array([square]))
        return int(self.layout.canonical(squares)[0])

    def walk(self, potential: Array, depth: int, boards: list[chess.Board]) -> str:
        """Plays each board as a table would that lowers the potential
        within ``depth`` moves with the first move (python-chess's order)
        that forces it, against the tablebase's defence, and sums up the
        games: mates (moves played against the optimum), no plan, over 50
        moves."""
        replies: list[Array] = []
        found = self.depths(potential, depth, replies=replies)
        mates, played, optimal = 0, 0, 0
        stopped = {"no plan": 0, "over 50 moves": 0}
        for board in boards:
            board = board.copy()
            start_dtm = self.table.dtm(board) or 0
            moves_played, end = 0, ""
            while not end:
                root = self.index(board)
                level = int(found[root])
                if level == 0:
                    end = "no plan"
                    break
                target = potential[root]
                while True:
                    move = next(m for m in board.legal_moves if self._forces(board, m, replies[level - 1], target))
                    board.push(move)
                    moves_played += 1
                    if board.is_checkmate():
                        end = "mate"
                        break
                    if moves_played >= 50:
                        end = "over 50 moves"
                        break
                    board.push(self.table.best_defence(board))
                    if potential[self.index(board)] < target:
                        break
                    level -= 1
            if end == "mate":
                mates += 1
                played += moves_played
                optimal += start_dtm
            else:
                stopped[end] += 1
        text = f"{mates} of {len(boards)} mated"
        if mates:
            text += f" in {played / mates:.1f} moves on average (optimal {optimal / mates:.1f})"
        return text + "".join(f", {count} {kind}" for kind, count in stopped.items() if count)

    def _forces(self, board: chess.Board, move: chess.Move, reply: Array, target: np.int64) -> bool:
        """Whether ``move`` mates or keeps the value forced below ``target``."""
        board.push(move)
        try:
            return board.is_checkmate() or bool(reply[self.index(board)] < target)
        finally:
            board.pop()


def _parse(term: str) -> list[tuple[int, str]]:
    """``"3*corner_dist(k, B) + edge_dist(k)"`` as [(3, "corner_dist(k, B)"), (1, "edge_dist(k)")]."""
    parts = []
    for part in re.split(r"\+(?![^(]*\))", term):
        match = re.fullmatch(r"\s*(?:(\d+)\s*\*\s*)?(.+?)\s*", part)
        if match is None:
            raise SystemExit(f"not a weighted feature: {part!r} in {term!r}")
        parts.append((int(match.group(1) or 1), match.group(2)))
    return parts


def histogram(found: Array, where: npt.NDArray[np.bool_], depth: int) -> str:
    """``d: positions (share)`` for d = 1 … depth and none."""
    counts = np.bincount(found[where], minlength=depth + 1)
    total = int(where.sum())
    cells = [f"{d}: {counts[d]:,} ({100 * counts[d] / total:.1f} %)" for d in range(1, depth + 1)]
    return ", ".join(cells + [f"none: {counts[0]:,} ({100 * counts[0] / total:.1f} %)"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("material")
    parser.add_argument("terms", nargs="+", help="the potential's terms, most significant first")
    parser.add_argument("--depth", type=int, default=3, help="our moves allowed (default 3)")
    parser.add_argument("--closure", action="store_true", help="also the positions where progress lasts to mate")
    parser.add_argument("--walk", type=int, default=0, metavar="N",
                        help="also play N positions (as al0 verify's sample:N, seed 0) by the first progressing move")
    args = parser.parse_args()
    started = time.perf_counter()
    graph = Graph(args.material)
    potential = graph.values(args.terms)
    won = np.zeros(graph.layout.size, dtype=bool)
    won[graph.roots] = graph.won[graph.roots]
    found = graph.depths(potential, args.depth)
    print(f"{args.material}, potential ({'; '.join(args.terms)}), {int(won.sum()):,} won positions")
    print(f"falls within d moves: {histogram(found, won, args.depth)}")
    if args.closure:
        counted = won.copy()
        while True:
            found = graph.depths(potential, args.depth, counted)
            kept = counted & (found > 0)
            if (kept == counted).all():
                break
            counted = kept
        share = 100 * counted.sum() / won.sum()
        print(f"progress kept up to mate: {int(counted.sum()):,} positions ({share:.1f} %)")
    if args.walk:
        classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
        boards = [c.board() for c in random.Random(0).sample(classes, args.walk)]
        print(f"walk, first progressing move, tablebase defence: {graph.walk(potential, args.depth, boards)}")
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
