"""Exercise sets: start positions for practice, drawn from the tablebase by
distance to mate (a level band), or for a defence by how many moves keep
the draw, seeded so a class gets the same set."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from al0.board import Material
from al0.errors import PositionError
from al0.teach.verdict import holding_moves

if TYPE_CHECKING:
    from al0.tablebase import Tablebase

BAND = re.compile(r"(\d+)(?:\.\.(\d+))?")
MAX_DRAWS = 200
"""Draws per exercise wanted before the rest of the ending is scanned: a
band holding one position in a few hundred is found by the draws (cheap
lookups), a rarer one by the scan."""


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


def practised_side(named: Material) -> tuple[chess.Color, Material]:
    """The colour a person plays who practises ``named`` with the tablebase
    alone (White's men named first, as ``al0 practice KQKR`` reads it: the
    stronger side's), and the material named from that colour's side:
    ``KNKR`` is Black's rook (``KRKN``), ``KKP`` Black's pawn (``KPK``); a
    mirror material (``KPKP``) White's. The exercises of a level were
    White's whatever the name, so ``KKP``'s contradicted it."""
    if named.stronger_first() == named:
        return chess.WHITE, named
    return chess.BLACK, named.swapped()


def level_starts(
    tablebase: Tablebase,
    level: Level,
    count: int,
    seed: int,
    us: chess.Color = chess.WHITE,
    holds: bool = False,
) -> list[chess.Board]:
    """``count`` distinct positions (one per symmetry class), ``us`` to move
    and mating in a number of moves within ``level``, drawn at random with
    ``seed`` from every class of the ending. With ``holds`` (``us`` defends
    a draw: a table that holds), drawn positions where the number of moves
    that keep the draw is within ``level``: 1 is the hardest, one move holds.

    :raises PositionError: when the band holds fewer than ``count``.
    """
    if holds:
        classes = tablebase.positions(us, stronger=not us, won=False, drawn=True)
    else:
        classes = tablebase.positions(us, stronger=us, won=True)
    measure = _holding_count if holds else _mate_distance
    rng = random.Random(seed)
    found: list[chess.Board] = []
    seen: set[int] = set()
    draws = 0
    while len(found) < count and draws < MAX_DRAWS * count and len(seen) < len(classes):
        draws += 1
        index = rng.randrange(len(classes))
        if index not in seen:
            seen.add(index)
            board = classes[index].board()
            _keep(measure(tablebase, board, us), board, level, found)
    if len(found) < count:
        # A rare band (mate in one in KRK): every other class, in an order
        # the seed gives, until the band is exhausted.
        for index in rng.sample(range(len(classes)), len(classes)):
            if len(found) == count:
                break
            if index not in seen:
                board = classes[index].board()
                _keep(measure(tablebase, board, us), board, level, found)
    if len(found) < count:
        what = f"where {level} moves keep the draw" if holds else f"mating in {level} moves"
        raise PositionError(
            f"{tablebase.name}: found {len(found)} of {count} positions {what} (seed {seed}); try a wider level"
        )
    return found


def _mate_distance(tablebase: Tablebase, board: chess.Board, us: chess.Color) -> int | None:
    """The moves ``us`` mates in from ``board`` (None: no forced mate)."""
    return tablebase.dtm(board, us)


def _holding_count(tablebase: Tablebase, board: chess.Board, us: chess.Color) -> int | None:
    """How many of the moves at ``board`` keep the draw (None: no move at
    all, or a man to take: taking the rook is no exercise in defence)."""
    if any(board.is_capture(move) for move in board.legal_moves):
        return None
    return len(holding_moves(tablebase, board)) or None


def _keep(measure: int | None, board: chess.Board, level: Level, found: list[chess.Board]) -> None:
    """Add ``board`` to ``found`` when its ``measure`` is within ``level``."""
    if measure is not None and measure in level:
        found.append(board)
