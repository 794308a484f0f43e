"""Exercise sets: start positions for practice, drawn from the tablebase by
distance to mate (a level band), seeded so a class gets the same set."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from al0.errors import PositionError

if TYPE_CHECKING:
    from al0.tablebase import Tablebase

BAND = re.compile(r"(\d+)(?:\.\.(\d+))?")
MAX_DRAWS = 200
"""Draws per exercise wanted before a band is called empty: a band holding
one position in a few hundred is still found (the draws are cheap lookups)."""


@dataclass(frozen=True)
class Level:
    """A band of distances to mate, in the winner's moves: ``lo..hi``."""

    lo: int
    hi: int

    def __str__(self) -> str:
        return str(self.lo) if self.lo == self.hi else f"{self.lo}..{self.hi}"

    def __contains__(self, moves: int) -> bool:
        return self.lo <= moves <= self.hi


def parse_level(text: str) -> Level:
    """``3`` or ``1..5`` as a :class:`Level`.

    :raises PositionError: anything else, or a band whose ends are reversed or 0.
    """
    match = BAND.fullmatch(text.strip())
    if match is None:
        raise PositionError(f"{text!r} is not a level: write N or A..B (moves to mate, e.g. 1..5)")
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) is not None else lo
    if lo < 1 or hi < lo:
        raise PositionError(f"{text!r} is not a level: A..B needs 1 <= A <= B")
    return Level(lo, hi)


def level_starts(
    tablebase: Tablebase, level: Level, count: int, seed: int, us: chess.Color = chess.WHITE
) -> list[chess.Board]:
    """``count`` distinct positions (one per symmetry class), ``us`` to move
    and mating in a number of moves within ``level``, drawn at random with
    ``seed`` from every class of the ending.

    :raises PositionError: when the band holds fewer than ``count`` were found.
    """
    classes = tablebase.positions(us, stronger=us, won=True)
    rng = random.Random(seed)
    found: list[chess.Board] = []
    seen: set[int] = set()
    draws = 0
    while len(found) < count and draws < MAX_DRAWS * count and len(seen) < len(classes):
        draws += 1
        index = rng.randrange(len(classes))
        if index in seen:
            continue
        seen.add(index)
        board = classes[index].board()
        moves = tablebase.dtm(board, us)
        if moves is not None and moves in level:
            found.append(board)
    if len(found) < count:
        raise PositionError(
            f"{tablebase.name}: found {len(found)} of {count} positions "
            f"mating in {level} moves (seed {seed}); try a wider level"
        )
    return found
