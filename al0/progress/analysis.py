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

``--hold EXPR`` is a holding-goal: a goal expression of the vocabulary (as
a table writes it, ``ustomove``, ``themtomove`` and ``depth`` included)
that every position on the way must satisfy, after our move (depth 1) and
after their reply (depth 2), not the start (a table says so by ``depth = 0
or …``); a mate needs none. It also prints how the potential falls from the
positions where the condition holds (``--stuck N``: N of those where it
cannot), as a table "lower P while holding H" works from every such
position only when none is stuck.

``--walk N`` plays N positions as a table would (``--greedy``: by the move
that forces the lowest value, as advice trying the most significant term
first would); with ``--closure`` it also counts the plans that left the
closure (``--exits N`` prints them, with the move that keeps the progress
inside) and walks by the closure-keeping moves, which a table could play if
it knew the closure. ``--fastest`` walks instead by the move the
tablebase rates best among those that keep the fall forced: about the best
any table lowering this potential could do, so a potential whose games stay
long even so is too slow for the 50-move rule whatever the table's advice.
``--drive TERM…`` (with ``--closure``) is a first
phase: the positions from which a second potential can be kept falling
until the game enters the closure (entering it counts as lower than every
value of the drive). ``--memo DIR`` keeps each feature's and condition's
values, so a later run with a new weighting or order costs only the min-max:

    python benchmarks/progress_depth.py KBNK "3*corner_dist(k, B) + 3*edge_dist(k) + 2*centre_side_dist(K, k) + mobility + dist(N, k)" "area(k)" --hold "not threatened(N) and not threatened(B)" --closure --walk 200 --greedy --exits 10 --memo /tmp/memo

Only endings where their side has a lone king (KRK, KQK, KBBK, KBNK); the
tablebase is built or read from the cache (``$AL0_CACHE_DIR``). Features are
evaluated with the vocabulary itself, position by position (a minute or two
per term for a four-man ending).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from pathlib import Path
from typing import Callable, Iterator

import chess
import numpy as np
import numpy.typing as npt

from al0.errors import AL0Error
from al0.lang.compile_goals import compile_goal
from al0.lang.library import Node
from al0.lang.loader import parse_table
from al0.board.position import Position
from al0.tablebase import DRAW, ILLEGAL, load
from al0.tablebase.geometry import OFF, Layout, attacked, occupancy
from al0.tablebase.retrograde import moves
from al0.lang.vocabulary.binding import Binder

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

    def nodes(self, indices: Array, side: int, depth: int = 0) -> Iterator[Node]:
        """A search node at ``depth`` at each of the positions ``indices``
        with ``side`` to move (0: ours, 1: theirs)."""
        material = self.table.material
        squares = [s.tolist() for s in self.layout.decode(indices)]
        kinds = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
        turn = chess.WHITE if side == 0 else chess.BLACK
        for row in range(len(indices)):
            white = black = 0
            by_type = dict.fromkeys(kinds, 0)
            for slot, (piece, owner) in enumerate(zip(material.types, material.sides)):
                bit = 1 << squares[slot][row]
                by_type[piece] |= bit
                if owner == 0:
                    white |= bit
                else:
                    black |= bit
            yield Node(Position(white, black, *by_type.values(), turn), depth, chess.WHITE)

    def _goal(self, condition: str, what: str) -> Callable[[Node, Node], bool]:
        """The goal expression ``condition``, read as a rule's precondition
        of a one-rule table, so its names are checked as a table's are."""
        text = (f"name: hold\nmaterial: {self.table.name}\nrules:\n"
                f"  - {{name: hold, if: {json.dumps(condition)}, then: [a]}}\n"
                "advice: {a: {better-goal: mate, holding-goal: true, us-moves: {0: legal}, "
                "them-moves: nomove}}\n")
        try:
            table = parse_table(text, what, Path("."))
        except AL0Error as error:
            raise SystemExit(f"{what}: {error}") from None
        return compile_goal(table.rules[0].precondition, table.library)

    def where(self, condition: str, what: str = "--pre") -> npt.NDArray[np.bool_]:
        """Where the goal expression ``condition`` holds at the positions
        with us to move (a phase's precondition, a target, a potential's
        ``[EXPR]`` term), over the index; false elsewhere."""
        goal = self._goal(condition, what)
        where = np.zeros(self.layout.size, dtype=bool)
        where[self.roots] = [goal(node, node) for node in self.nodes(self.roots, 0)]
        return where

    def holds(self, condition: str) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Where the goal expression ``condition`` (the vocabulary's, as a
        table's holding-goal writes it) holds: at every position after our
        move (them to move, depth 1) and after their reply (us to move,
        depth 2), as two arrays over the index."""
        goal = self._goal(condition, "--hold")
        after_ours = np.unique(np.concatenate([end for _, end in self.ours]))
        found = []
        for side, indices in ((1, after_ours), (0, self.roots)):  # at depths 1 and 2
            where = np.zeros(self.layout.size, dtype=bool)
            where[indices] = [goal(node, node) for node in self.nodes(indices, side, 2 - side)]
            found.append(where)
        return found[0], found[1]

    def values(self, terms: list[str], memo: Path | None = None) -> Array:
        """The potential at every canonical position with us to move: the
        terms' values combined so that they compare lexicographically (each
        feature's values kept in ``memo``, a directory, when given, so a
        new weighting of known features costs nothing to evaluate)."""
        columns = []
        for term in terms:
            column = np.zeros(len(self.roots), dtype=np.int64)
            for weight, name in _parse(term):
                compute = (lambda: self.where(name[1:-1], name)[self.roots].astype(np.int64)) \
                    if name.startswith("[") else (lambda: self.feature(name))
                feature = compute() if memo is None else _memo(memo, [self.table.name, name], compute)
                column += weight * feature
            columns.append(column)
        potential = np.zeros(len(self.roots), dtype=np.int64)
        for column in columns:
            low = column.min()
            potential = potential * (column.max() - low + 1) + (column - low)
        result = np.full(self.layout.size, INF, dtype=np.int64)
        result[self.roots] = potential
        return result

    def feature(self, name: str) -> Array:
        """A feature's values at the canonical positions with us to move, in
        the order of ``roots``."""
        feature = Binder(self.table.name).bind(name, "feature")
        if feature is None:
            raise SystemExit(f"{name}: not a feature of the vocabulary")
        column = np.zeros(len(self.roots), dtype=np.int64)
        for row, node in enumerate(self.nodes(self.roots, 0)):
            value = feature(node)
            if value is None:
                raise SystemExit(f"{name}: no value at {node.fen}")
            column[row] = value
        return column

    def depths(self, potential: Array, depth: int, counted: npt.NDArray[np.bool_] | None = None,
               replies: list[Array] | None = None,
               hold: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]] | None = None) -> Array:
        """For every position with us to move, the least number of our
        moves (1 … ``depth``) in which we force a value below its own
        against every reply, 0 when we cannot. A position after their reply
        lowers the value only when it is in ``counted`` (all by default).
        ``hold`` (from :meth:`holds`), when given, must hold at every
        position on the way after our move and after their reply, as a
        holding-goal must (a mate needs none). ``replies``, when given,
        receives per level (1 … depth) the value each position with them to
        move guarantees us within that level. A min-max of the least value
        met on the way: ours the least over our moves, theirs the greatest
        over their replies."""
        size = self.layout.size
        met = potential if counted is None else np.where(counted, potential, INF)
        best = np.full(size, INF)
        found = np.zeros(size, dtype=np.int64)
        for level in range(1, depth + 1):
            reached = np.minimum(met, best)
            if hold is not None:  # after their reply
                reached[~hold[1]] = INF
            reply = np.full(size, MATE)
            for start, end in self.theirs:
                reply[start] = np.maximum(reply[start], reached[end])
            if hold is not None:  # after our move
                reply[~hold[0]] = INF
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

    def walk(self, potential: Array, found: Array, replies: list[Array], boards: list[chess.Board],
             counted: npt.NDArray[np.bool_] | None = None, closure: npt.NDArray[np.bool_] | None = None,
             keeping: tuple[Array, list[Array]] | None = None, greedy: bool = False,
             fastest: bool = False, next_phase: npt.NDArray[np.bool_] | None = None,
             drive: tuple[npt.NDArray[np.bool_], tuple[Array, Array, list[Array], Array]] | None = None
             ) -> tuple[str, list[str]]:
        """Plays each board as a table would that lowers the potential with
        the first move (python-chess's order) that forces it in the fewest
        moves (``found`` and ``replies`` from :meth:`depths`), against the
        tablebase's defence (a plan ends where the value falls at a position
        of ``counted``, when given, as :meth:`depths` counted it), and sums
        up the games: mates (moves played
        against the optimum), no plan, over 50 moves. With ``closure``
        (and ``keeping``: :meth:`depths` counting only the closure), each
        plan that starts inside the closure and ends outside it is also
        described: the position, the plan played, and the first move that
        would have kept the progress inside. ``greedy`` takes, instead of
        the first move that forces a fall, one that forces the lowest value
        (a mate first), as a table whose advice tries the most significant
        term's fall first would. ``fastest`` gives each plan every move of
        the depth and takes, of the moves that keep the fall forced, the one
        the tablebase rates best: not a table's choice but about the best
        any table lowering this potential could make, so games that stay
        long under it show the potential itself is slow; with ``greedy``
        too, of the moves forcing the lowest value, the tablebase's best. A game that
        reaches ``next_phase`` (the target) ends there, counted apart.
        ``drive`` (where the phase above holds; the drive's potential, depths,
        replies and the values where its plans end) is a first phase: a plan from a position outside it
        lowers the drive's potential instead. A game whose position comes a
        third time ends there (a threefold repetition, as in al0's games)."""
        # A plan is over when the value falls where the forcing trees count it.
        met = potential if counted is None else np.where(counted, potential, INF)
        mates, played, optimal = 0, 0, 0
        reached, reached_moves = 0, 0
        stopped = {"no plan": 0, "no plan in the drive": 0, "over 50 moves": 0, "threefold repetition": 0,
                   "threefold repetition in a drive plan": 0}
        phase = (potential, found, replies, met)
        exits = []
        for board in boards:
            board = board.copy()
            start_dtm = self.table.dtm(board) or 0
            moves_played, end = 0, ""
            while not end:
                root = self.index(board)
                if next_phase is not None and next_phase[root]:
                    end = "target"
                    break
                if drive is not None:  # the drive until the phase above holds
                    phase = (potential, found, replies, met) if drive[0][root] else drive[1]
                values, depths, level_replies, reached_at = phase
                level = int(depths[root])
                if level == 0:
                    end = "no plan in the drive" if drive is not None and not drive[0][root] else "no plan"
                    break
                if fastest:
                    level = len(level_replies)
                target = values[root]
                before, plan = board.fen(), []
                while True:
                    forcing = [m for m in board.legal_moves
                               if self._forces(board, m, level_replies[level - 1], target)]
                    if fastest and greedy:  # the lowest value, then the tablebase's best
                        move = min(forcing, key=lambda m: (self._value(board, m, level_replies[level - 1]),
                                                           self._rating(board, m)))
                    elif fastest:
                        move = min(forcing, key=lambda m: self._rating(board, m))
                    elif greedy:
                        move = min(forcing, key=lambda m: self._value(board, m, level_replies[level - 1]))
                    else:
                        move = forcing[0]
                    plan.append(board.san(move))
                    board.push(move)
                    moves_played += 1
                    if board.is_checkmate():
                        end = "mate"
                        break
                    if moves_played >= 50:
                        end = "over 50 moves"
                        break
                    reply = self.table.best_defence(board)
                    plan.append(board.san(reply))
                    board.push(reply)
                    if board.is_repetition(3):
                        in_drive = drive is not None and not drive[0][root]
                        end = "threefold repetition" + (" in a drive plan" if in_drive else "")
                        break
                    if reached_at[self.index(board)] < target:
                        break
                    level -= 1
                if closure is not None and keeping is not None and not end and closure[root] \
                        and not closure[self.index(board)]:
                    exits.append(self._exit(chess.Board(before), potential, plan, keeping))
            if end == "mate":
                mates += 1
                played += moves_played
                optimal += start_dtm
            elif end == "target":
                reached += 1
                reached_moves += moves_played
            else:
                stopped[end] += 1
        text = f"{mates} of {len(boards)} mated"
        if mates:
            text += f" in {played / mates:.1f} moves on average (optimal {optimal / mates:.1f})"
        if reached:
            text += f", {reached} reached the target in {reached_moves / reached:.1f} moves on average"
        return text + "".join(f", {count} {kind}" for kind, count in stopped.items() if count), exits

    def _exit(self, board: chess.Board, potential: Array, plan: list[str],
              keeping: tuple[Array, list[Array]]) -> str:
        """One line on a plan that left the closure: the position, the plan
        played and the first move that keeps the progress inside it."""
        found, replies = keeping
        level = int(found[self.index(board)])
        target = potential[self.index(board)]
        inside = next((m for m in board.legal_moves if self._forces(board, m, replies[level - 1], target)), None) \
            if level else None
        return (f"{board.fen()}: played {' '.join(plan)}; keeps the closure: "
                f"{board.san(inside) if inside else 'none'} (in {level})")

    def _value(self, board: chess.Board, move: chess.Move, reply: Array) -> int:
        """The value ``move`` forces (MATE for a mate)."""
        board.push(move)
        try:
            return int(MATE) if board.is_checkmate() else int(reply[self.index(board)])
        finally:
            board.pop()

    def _rating(self, board: chess.Board, move: chess.Move) -> int:
        """The tablebase's distance to mate after ``move`` (-1 for a mate,
        worst of all for a draw)."""
        board.push(move)
        try:
            if board.is_checkmate():
                return -1
            distance = self.table.dtm(board)
            return int(INF) if distance is None else int(distance)
        finally:
            board.pop()

    def _forces(self, board: chess.Board, move: chess.Move, reply: Array, target: np.int64) -> bool:
        """Whether ``move`` mates or keeps the value forced below ``target``."""
        board.push(move)
        try:
            return board.is_checkmate() or bool(reply[self.index(board)] < target)
        finally:
            board.pop()


def _parse(term: str) -> list[tuple[int, str]]:
    """``"3*corner_dist(k, B) + edge_dist(k)"`` as [(3, "corner_dist(k, B)"), (1, "edge_dist(k)")];
    ``[EXPR]`` is a goal expression counted as 1 where it holds, 0 elsewhere
    (``"[not edge(k)] + area(k)"``), its ``+`` signs its own."""
    parts, nesting, start = [], 0, 0
    for at, char in enumerate(term + "+"):
        nesting += (char in "([") - (char in ")]")
        if char == "+" and nesting == 0:
            part = term[start:at]
            match = re.fullmatch(r"\s*(?:(\d+)\s*\*\s*)?(.+?)\s*", part)
            if match is None:
                raise SystemExit(f"not a weighted feature: {part!r} in {term!r}")
            parts.append((int(match.group(1) or 1), match.group(2)))
            start = at + 1
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
    parser.add_argument("--pre", metavar="EXPR",
                        help="a phase's precondition: measure over the won positions where it holds (us to move)")
    parser.add_argument("--target", metavar="EXPR",
                        help="a next phase: positions where it holds (us to move) count as lower than every value")
    parser.add_argument("--hold", metavar="EXPR",
                        help="a goal expression every position after our move and after their reply must satisfy")
    parser.add_argument("--closure", action="store_true", help="also the positions where progress lasts to mate")
    parser.add_argument("--drive", nargs="+", metavar="TERM",
                        help="with --closure: a second potential whose falls lead into the closure (a first phase)")
    parser.add_argument("--drive-depth", type=int, metavar="D",
                        help="with --drive: our moves allowed to the drive (default --depth)")
    parser.add_argument("--switch", metavar="EXPR",
                        help="with --drive and --walk: play the second phase where EXPR holds (as a table's rule "
                             "would), not where the closure does")
    parser.add_argument("--walk", type=int, default=0, metavar="N",
                        help="also play N positions (as al0 verify's sample:N, seed 0) by the first progressing move")
    parser.add_argument("--exits", type=int, default=0, metavar="N",
                        help="with --closure and --walk: print the first N plans that left the closure")
    parser.add_argument("--stuck", type=int, default=0, metavar="N",
                        help="with --hold: print N positions where it holds and the value cannot fall holding it")
    parser.add_argument("--greedy", action="store_true",
                        help="walk by the move that forces the lowest value, not the first that forces a fall")
    parser.add_argument("--fastest", action="store_true",
                        help="walk by the move the tablebase rates best among those that keep the fall forced "
                             "(each plan given the whole depth): how fast the potential allows at best")
    parser.add_argument("--memo", type=Path, metavar="DIR",
                        help="keep each term's and condition's values in DIR, to reuse them in later runs")
    args = parser.parse_args()
    started = time.perf_counter()
    graph = Graph(args.material)
    potential = graph.values(args.terms, args.memo)
    hold = None
    if args.hold:
        hold = graph.holds(args.hold) if args.memo is None else tuple(_memo(
            args.memo, [args.material, "hold", args.hold], lambda: np.stack(graph.holds(args.hold))))
    won = np.zeros(graph.layout.size, dtype=bool)
    won[graph.roots] = graph.won[graph.roots]

    def condition(text: str, what: str) -> npt.NDArray[np.bool_]:
        if args.memo is None:
            return graph.where(text, what)
        return _memo(args.memo, [args.material, "where", text], lambda: graph.where(text, what))

    target = None
    if args.target:
        target = won & condition(args.target, "--target")
        potential = np.where(target, MATE, potential)
    measured = won & condition(args.pre, "--pre") if args.pre else won
    replies: list[Array] = []
    found = graph.depths(potential, args.depth, replies=replies, hold=hold)
    print(f"{args.material}, potential ({'; '.join(args.terms)}), {int(won.sum()):,} won positions"
          + (f", holding {args.hold}" if args.hold else "")
          + (f", {int(target.sum()):,} in the target ({args.target})" if target is not None else ""))
    if args.pre:
        print(f"the phase ({args.pre}): {int(measured.sum()):,} won positions")
    print(f"falls within d moves: {histogram(found, measured, args.depth)}")
    if hold is not None:
        held = measured & hold[1]
        print(f"from the {int(held.sum()):,} where the condition holds: {histogram(found, held, args.depth)}")
        stuck = np.flatnonzero(held & (found == 0))
        for index in random.Random(0).sample(list(stuck), min(args.stuck, len(stuck))):
            print(f"  stuck: {next(iter(graph.nodes(np.array([index]), 0))).fen}")
    closure, keeping, phases = None, None, None
    if args.closure:
        counted = won.copy()
        while True:
            kept_replies: list[Array] = []
            kept_found = graph.depths(potential, args.depth, counted, replies=kept_replies, hold=hold)
            kept = counted & (kept_found > 0)
            if target is not None:  # the next phase's positions need no fall
                kept |= target
            if (kept == counted).all():
                break
            counted = kept
        closure, keeping = counted, (kept_found, kept_replies)
        inside = int((counted & measured).sum())
        share = 100 * inside / measured.sum()
        print(f"progress kept up to {'the target or ' if target is not None else ''}mate: "
              f"{inside:,} positions ({share:.1f} %)")
        if args.drive:
            # The drive's value falls, or the game enters the closure
            # (lower than every value of the drive), at every plan.
            drive = np.where(closure, MATE, graph.values(args.drive, args.memo))
            driven = won.copy()  # measured over every won position, the drive's own phase
            while True:
                kept = (driven & (graph.depths(drive, args.drive_depth or args.depth, driven | closure,
                                               hold=hold) > 0)) | closure
                if (kept == driven).all():
                    break
                driven = kept
            share = 100 * driven.sum() / won.sum()
            print(f"driven into it by ({'; '.join(args.drive)}) within {args.drive_depth or args.depth} moves, "
                  f"progress kept: {int(driven.sum()):,} positions ({share:.1f} %)")
            drive_replies: list[Array] = []
            drive_found = graph.depths(drive, args.drive_depth or args.depth, driven | closure,
                                       replies=drive_replies, hold=hold)
            phases = (closure, (drive, drive_found, drive_replies, np.where(driven | closure, drive, INF)))
            if args.switch:  # as a table plays: a rule's condition, no closure known
                second = won & condition(args.switch, "--switch")
                drive = np.where(second, MATE, graph.values(args.drive, args.memo))
                drive_replies = []
                drive_found = graph.depths(drive, args.drive_depth or args.depth, replies=drive_replies, hold=hold)
                phases = (second, (drive, drive_found, drive_replies, drive))
    if args.walk:
        if args.pre:  # the phase's own positions, seeded
            chosen = random.Random(0).sample(list(np.flatnonzero(measured)), args.walk)
            boards = [chess.Board(node.fen) for node in graph.nodes(np.array(chosen), 0)]
        else:  # al0 verify's sample:N
            classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
            boards = [c.board() for c in random.Random(0).sample(classes, args.walk)]
        text, exits = graph.walk(potential, found, replies, boards, None, closure, keeping, args.greedy,
                                 args.fastest, target)
        how = ("lowest value, then the tablebase's best," if args.fastest and args.greedy
               else "the tablebase's best" if args.fastest else "lowest value" if args.greedy else "first")
        print(f"walk, {how} progressing move, tablebase defence: {text}")
        if closure is not None:
            inside = sum(bool(closure[graph.index(board)]) for board in boards)
            print(f"  {inside} of the {len(boards)} starts in the closure; {len(exits)} plans left it")
            for line in exits[:args.exits]:
                print(f"  left: {line}")
            if keeping is not None:
                text, _ = graph.walk(potential, *keeping, boards, closure, greedy=args.greedy,
                                     fastest=args.fastest, next_phase=target)
                print(f"walk, {how} move keeping the closure: {text}")
            if phases is not None and keeping is not None:
                own = (*keeping, boards, closure) if not args.switch else (found, replies, boards, None)
                text, _ = graph.walk(potential, *own, greedy=args.greedy, fastest=args.fastest,
                                     next_phase=target, drive=phases)
                until = f"where {args.switch} holds, {how} progressing move" if args.switch \
                    else f"until the closure, {how} move keeping each"
                print(f"walk in two phases, the drive {until}: {text}")
    print(f"{time.perf_counter() - started:.0f} s")


def _memo(directory: Path, key: list[str], compute: Callable[[], Array]) -> Array:
    """``compute()``, kept in ``directory`` under a name made of ``key``."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / (re.sub(r"[^\w.=<>+*-]+", "_", " ".join(key))[:200] + ".npy")
    if path.exists():
        return np.load(path)  # type: ignore[no-any-return]
    value = compute()
    np.save(path, value)
    return value


if __name__ == "__main__":
    main()
