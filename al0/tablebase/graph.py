"""Every legal move between the canonical positions of a pawnless ending,
as index arrays over the tablebase's layout.

A min-max over a whole ending in numpy (``al0 progress``) needs the moves of
every position at once, not one board at a time: ours (the stronger side,
side 0) and theirs as ``(from, to)`` index pairs, one pair of arrays per
piece, direction and distance, with which of their positions can take one of
our pieces, are mate or stalemate, and (their side with a piece, as in KQKR)
from which of ours a capture wins their piece and keeps the win: a capture
leaves the ending, so its value is the smaller tablebase's.
"""

from __future__ import annotations

from collections.abc import Iterator

import chess
import numpy as np
import numpy.typing as npt

from al0.board import Material
from al0.board.position import Position
from al0.errors import PositionError
from al0.tablebase import DRAW, ILLEGAL, Tablebase, load
from al0.tablebase.geometry import OFF, Indices, Layout, Mask, attacked, bitboards, occupancy
from al0.tablebase.material import exits
from al0.tablebase.retrograde import moves

Moves = list[tuple[Indices, Indices]]
"""Quiet moves as ``(from, to)`` index arrays, one pair per piece, direction
and distance."""


def check_pawnless(material: Material) -> None:
    """Refuse a material with pawns (the graph's moves are a pawnless
    generator's).

    :raises PositionError: naming the material and those it takes.
    """
    if chess.PAWN in material.types:
        raise PositionError(
            f"{material.name}: the move graph is of pawnless endings (KRK, KQK, KBNK, KQKR, …)"
        )


class MoveGraph:
    """The move graph of ``table``'s (pawnless) ending."""

    def __init__(self, table: Tablebase):
        self.table = table
        self.layout = Layout(table.material)
        types, sides = table.material.types, table.material.sides
        check_pawnless(table.material)
        values = table.values
        legal = values != ILLEGAL
        self.size = self.layout.size
        index = np.arange(self.size)
        canonical = self.layout.canonical(self.layout.decode(index)) == index
        self.roots: Indices = np.flatnonzero(canonical & legal[0])
        """The canonical positions with us to move."""
        self.won: Mask = np.zeros(self.size, dtype=bool)
        """Where we (to move) win: at the roots only."""
        self.won[self.roots] = ((values[0] % 2 == 1) & (values[0] < DRAW))[self.roots]
        self.wins: Mask = np.zeros(self.size, dtype=bool)
        """Where we (to move) can take their piece into a position still won
        (none against a lone king)."""
        self.ours = self._quiet(0, self.roots, legal)
        theirs_from = np.flatnonzero(canonical & legal[1])
        self.theirs = self._quiet(1, theirs_from, legal)
        can_move = np.zeros(self.size, dtype=bool)
        for start, _ in self.theirs:
            can_move[start] = True
        self.capture: Mask = np.zeros(self.size, dtype=bool)
        """Where they (to move) can take one of our pieces."""
        squares = self.layout.decode(theirs_from)
        ours = [slot for slot in range(len(types)) if sides[slot] == 0]
        for slot, destination, selected, taken in moves(table.material, 1, squares, captures=True):
            if taken < 0:
                continue
            after = [square[selected] for square in squares]
            after[slot] = destination
            after[taken] = np.full(len(selected), OFF)  # the piece taken is off the board
            king = after[sides.index(1)]  # their king, the one that took or not
            safe = ~attacked(types, [s for s in ours if s != taken], after, king, occupancy(after))
            self.capture[theirs_from[selected[safe]]] = True
            can_move[theirs_from[selected[safe]]] = True
        self.mated: Mask = values[1] == 0
        """Where they (to move) are mated."""
        self.stalemated: Mask = ~can_move & ~self.mated & canonical & legal[1]
        """Where they (to move) have no legal move and are not in check."""

    def _quiet(self, side: int, start: Indices, legal: Mask) -> Moves:
        """The quiet legal moves of ``side`` from the positions ``start``;
        our captures, on the way, mark :attr:`wins`."""
        material = self.table.material
        squares = self.layout.decode(start)
        found = []
        smaller = {
            taken: (Layout(rest), mapping, load(rest.name).values[1 ^ int(swapped)])
            for taken, _, _, rest, mapping, swapped in exits(material)
            if side == 0 and material.sides[taken] == 1
        }
        for slot, destination, selected, taken in moves(material, side, squares, captures=True):
            after = [square[selected] for square in squares]
            after[slot] = destination
            if taken >= 0:
                if taken in smaller:  # ours: won if the smaller table has them lost, to move
                    layout, mapping, values = smaller[taken]
                    value = values[layout.canonical([after[s] for s in mapping])]
                    self.wins[start[selected[(value % 2 == 0) & (value < DRAW)]]] = True
                continue
            successor = self.layout.canonical(after, king_placed=slot != 0)
            ok = legal[1 - side, successor]
            found.append((start[selected[ok]], successor[ok]))
        return found

    def boards(self, indices: Indices) -> npt.NDArray[np.uint64]:
        """The bitboards of the position at each index, a row each: the
        eight of :class:`Position` in its order (white, black, kings,
        queens, rooks, bishops, knights, pawns; our pieces White), its turn
        aside."""
        material = self.table.material
        pieces = [chess.Piece(kind, owner == 0) for kind, owner in zip(material.types, material.sides)]
        return bitboards(self.layout.decode(indices), pieces)

    def positions(self, indices: Indices, side: int) -> Iterator[Position]:
        """The compact position at each index, ``side`` to move (0: ours,
        White; 1: theirs, Black)."""
        turn = chess.WHITE if side == 0 else chess.BLACK
        for row in self.boards(indices).tolist():
            yield Position._make((*row, turn, None))

    def index(self, board: chess.Board) -> int:
        """The canonical index of ``board`` (either side to move; our pieces
        White)."""
        material = self.table.material
        taken: set[chess.Square] = set()
        squares = []
        for piece, side in zip(material.types, material.sides):
            square = next(
                s for s in board.pieces(piece, chess.WHITE if side == 0 else chess.BLACK) if s not in taken
            )
            taken.add(square)
            squares.append(np.array([square]))
        return int(self.layout.canonical(squares)[0])
