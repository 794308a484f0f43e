"""Where a KQKR table's failed games stop making progress, in the defence's words.

Reads the PGN `al0 verify kqkr ... --pgn FILE` writes. In each failed game the
tablebase's moves to mate are read at each of our moves; the game's *stall* is
the first position (us to move) where the least distance of the whole game is
reached: after it the table never brings mate nearer. Counts, at the stalls,
the vocabulary's predicates and features, and the advice that played there and
after; with a second argument, writes the stalls to that EPD file (moves to
mate as dm). Usage: python research/kqkr_census.py FILE.pgn [STALLS.epd]
"""

from __future__ import annotations

import collections
import re
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
    "corner(k)",
    "defended(r)",
    "second_rank_defence(r)",
    "third_rank_defence(r)",
    "cut_off(r)",
    "philidor(Q, r)",
)
FEATURES = ("edge_dist(k)", "dist(K, k)", "dist(r, k)", "safe_checks(r)", "checks_by(r)")
ADVICE = re.compile(r"^\S+: (\w+)")


def bound(binder: Binder, text: str, kind: str) -> Any:
    """The vocabulary's function of ``text`` as a ``kind`` (a name it lacks is a mistake here)."""
    function = binder.bind(text, kind)
    if function is None:
        raise ValueError(f"not a {kind} of KQKR: {text!r}")
    return function


def main(path: str, stalls: str | None = None) -> None:
    binder = Binder(Material.parse("KQKR"))
    predicates = {text: bound(binder, text, "predicate") for text in PREDICATES}
    features = {text: bound(binder, text, "feature") for text in FEATURES}
    table = load("KQKR")
    held: collections.Counter[str] = collections.Counter()
    values: dict[str, collections.Counter[int]] = {text: collections.Counter() for text in FEATURES}
    at_stall: collections.Counter[str] = collections.Counter()
    after_stall: collections.Counter[str] = collections.Counter()
    games = stall_moves = lengths = start_dtm = stall_dtm = 0
    epd: list[str] = []
    with open(path, encoding="utf-8") as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            if game.headers.get("Result") == "1-0":
                continue  # the longest mate, not a failure
            ours = []  # (board at our move, dtm, advice of our move)
            node: chess.pgn.GameNode = game
            while node.variations:
                child = node.variations[0]
                board = node.board()
                if board.turn == chess.WHITE:
                    match = ADVICE.match(child.comment or "")
                    ours.append((board, table.dtm(board), match.group(1) if match else "?"))
                node = child
            won = [(i, dtm) for i, (_, dtm, _) in enumerate(ours) if dtm is not None and dtm > 0]
            if not won:
                continue
            games += 1
            least = min(dtm for _, dtm in won)
            stall = next(i for i, dtm in won if dtm == least)
            stall_moves += stall
            lengths += len(ours)
            board = ours[stall][0]
            start_dtm += won[0][1]
            stall_dtm += least
            epd.append(board.epd(dm=least))
            position = Node(board, 0, chess.WHITE)
            for text, predicate in predicates.items():
                held[text] += bool(predicate(position, position))
            for text, feature in features.items():
                values[text][feature(position) or 0] += 1
            at_stall[ours[stall][2]] += 1
            after_stall.update(advice for _, _, advice in ours[stall:])
    print(
        f"{games} failed games still won; the stall at our move {stall_moves / games:.1f} on average "
        f"of {lengths / games:.1f}; mate in {start_dtm / games:.1f} at the start, {stall_dtm / games:.1f} at the stall"
    )
    for text in PREDICATES:
        print(f"  {text}: {held[text]} ({100 * held[text] / games:.0f} %)")
    for text in FEATURES:
        spread = ", ".join(f"{value}: {count}" for value, count in sorted(values[text].items()))
        print(f"  {text}: {spread}")
    print("advice at the stall:", ", ".join(f"{a} {n}" for a, n in at_stall.most_common()))
    print("advice from the stall on:", ", ".join(f"{a} {n}" for a, n in after_stall.most_common()))
    if stalls is not None:
        with open(stalls, "w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in epd)


if __name__ == "__main__":
    main(*sys.argv[1:3])
