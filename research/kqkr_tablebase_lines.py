"""How often the tablebase's own winning lines lower a KQKR potential.

From each position of an EPD file (the stalls `research/kqkr_census.py`
writes), plays the tablebase's line (its fastest move for us, its longest
defence for them) until the rook is taken or mate, and reads each potential
at every position with us to move: how often a move of ours and the reply
raise, keep or lower it, and how often it falls within 1 to 4 of our moves
(the line's end, the rook won or mate, counting as a fall). A table whose
progress must fall within two moves can follow the line only where that
share is near all.

With a file of potentials (one sum a line) they replace the built-in ones;
with a feature after it, each potential is also read at the *quiet*
positions only, those where the feature is 0 (`safe_checks(r)`: the rook's
checks have run out), from one quiet position of a line to the next: a
progress measure taken over a window the checks cannot undo.
Usage: python research/kqkr_tablebase_lines.py FILE.epd [POTENTIALS.txt [FEATURE]]
"""

from __future__ import annotations

import collections
import re
import sys
from collections.abc import Callable

import chess

from al0.board import Material
from al0.lang.node import Node
from al0.lang.vocabulary.binding import Binder
from al0.tablebase.cache import load
from al0.tablebase.table import Tablebase

POTENTIALS = (
    "3 * edge_dist(k) + 2 * dist(K, k) - dist(r, k) + 2 * corner_dist(k) + dist(Q, k) - edge_dist(K) + 4 * safe_checks(r)",
    "area(k) + 2 * dist(K, k)",
    "dist(K, k) + safe_checks(r)",
    "dist(K, k)",
    "edge_dist(k)",
)
TERM = re.compile(r"([+-]?)\s*(?:(\d+)\s*\*\s*)?([a-z_]+\([^)]*\))")
WINDOWS = (1, 2, 3, 4)


def weighted_sum(binder: Binder, text: str) -> Callable[[Node], int]:
    """A sum of features with whole weights, as a table's `count` writes it."""
    terms = []
    for sign, weight, call in TERM.findall(text):
        feature = binder.bind(call, "feature")
        if feature is None:
            raise ValueError(f"not a feature of KQKR: {call!r}")
        terms.append(((-1 if sign == "-" else 1) * int(weight or 1), feature))
    return lambda node: sum(weight * (feature(node) or 0) for weight, feature in terms)


def tablebase_line(table: Tablebase, board: chess.Board) -> list[chess.Board]:
    """The positions with us to move along the tablebase's line, until the rook is won or mate."""
    line = [board.copy()]
    while True:
        for move in (table.best_moves(board)[0], None):
            board.push(move if move is not None else table.best_defence(board))
            if len(board.piece_map()) < 4 or board.is_game_over():
                return line
        line.append(board.copy())


def step(before: int, after: int) -> str:
    """How a potential moved from one position to the next."""
    return "rises" if after > before else "stays" if after == before else "falls"


def main(path: str, texts: tuple[str, ...] = POTENTIALS, quiet_text: str | None = None) -> None:
    binder = Binder(Material.parse("KQKR"))
    potentials = {text: weighted_sum(binder, text) for text in texts}
    quiet = weighted_sum(binder, quiet_text) if quiet_text else None
    table = load("KQKR")
    steps: dict[str, collections.Counter[str]] = {text: collections.Counter() for text in texts}
    falls: dict[str, collections.Counter[int]] = {text: collections.Counter() for text in texts}
    quiet_steps: dict[str, collections.Counter[str]] = {text: collections.Counter() for text in texts}
    lines = positions = quiet_positions = gaps = 0
    with open(path, encoding="utf-8") as epd:
        for row in epd:
            board, _ = chess.Board.from_epd(row)
            nodes = [Node(position, 0, chess.WHITE) for position in tablebase_line(table, board)]
            lines += 1
            positions += len(nodes)
            calm = [i for i, node in enumerate(nodes) if quiet is not None and quiet(node) == 0]
            quiet_positions += len(calm)
            gaps += calm[-1] - calm[0] if calm else 0
            for text, potential in potentials.items():
                values = [potential(node) for node in nodes]
                for before, after in zip(values, values[1:], strict=False):
                    steps[text][step(before, after)] += 1
                for i, j in zip(calm, calm[1:], strict=False):
                    quiet_steps[text][step(values[i], values[j])] += 1
                for i, value in enumerate(values):
                    for window in WINDOWS:
                        ahead = values[i + 1 : i + 1 + window]
                        falls[text][window] += int(i + window >= len(values) or min(ahead) < value)
    moves = sum(steps[texts[0]].values())
    windows = sum(quiet_steps[texts[0]].values())
    print(f"{lines} lines, {moves} moves of ours before the rook is won or mate")
    if quiet_text:
        print(
            f"quiet ({quiet_text} = 0): {quiet_positions} of {positions} positions,"
            f" {windows} windows of {gaps / max(windows, 1):.1f} moves on average"
        )
    for text in texts:
        share = ", ".join(
            f"{kind} {100 * steps[text][kind] / moves:.0f} %" for kind in ("falls", "stays", "rises")
        )
        within = ", ".join(f"{window}: {100 * falls[text][window] / positions:.0f} %" for window in WINDOWS)
        print(f"{text}\n  a move: {share}; falls within d moves: {within}")
        if windows:
            share = ", ".join(
                f"{kind} {100 * quiet_steps[text][kind] / windows:.0f} %"
                for kind in ("falls", "stays", "rises")
            )
            print(f"  a quiet window: {share}")


if __name__ == "__main__":
    potentials_file = sys.argv[2] if len(sys.argv) > 2 else None
    chosen = tuple(open(potentials_file).read().split("\n")) if potentials_file else POTENTIALS
    main(
        sys.argv[1],
        tuple(text for text in chosen if text.strip()),
        sys.argv[3] if len(sys.argv) > 3 else None,
    )
