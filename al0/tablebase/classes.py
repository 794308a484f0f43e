"""A tablebase's position classes: one position standing for each class
under the board's 8 symmetries, made from the table's index arrays only
when asked (a four-man ending has a million classes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

import chess
import numpy as np
import numpy.typing as npt

from al0.board.position import Position
from al0.tablebase.geometry import bitboards


@dataclass(frozen=True)
class PositionClass:
    """One position standing for its class under the board's symmetries."""

    placement: tuple[tuple[chess.Square, chess.Piece], ...]
    turn: chess.Color
    size: int
    """Positions in the class (its distinct images under the 8 symmetries)."""

    def board(self) -> chess.Board:
        board = chess.Board(None)
        for square, piece in self.placement:
            board.set_piece_at(square, piece)
        board.turn = self.turn
        return board


class PositionClasses(Sequence[PositionClass]):
    """What :meth:`Tablebase.positions` returns: a sequence that makes each
    :class:`PositionClass` only when asked (a four-man ending has a million
    classes; a sample needs a few thousand)."""

    def __init__(
        self,
        squares: npt.NDArray[np.int64],
        sizes: npt.NDArray[np.int64],
        pieces: tuple[chess.Piece, ...],
        turn: chess.Color,
    ):
        self._squares = squares  # shape (classes, men)
        self._sizes = sizes
        self._pieces = pieces
        self._turn = turn

    def __len__(self) -> int:
        return len(self._sizes)

    @overload
    def __getitem__(self, item: int) -> PositionClass: ...

    @overload
    def __getitem__(self, item: slice) -> list[PositionClass]: ...

    def __getitem__(self, item: int | slice) -> PositionClass | list[PositionClass]:
        if isinstance(item, slice):
            return [self[i] for i in range(*item.indices(len(self)))]
        squares = self._squares[item].tolist()
        return PositionClass(tuple(zip(squares, self._pieces)), self._turn, int(self._sizes[item]))

    def take(self, items: slice | Sequence[int]) -> PositionClasses:
        """The classes of ``items`` (a slice or indices, in their order),
        as a sequence of their own: a few bytes a class, not an object, to
        keep a sample or send a stretch of starts to another process."""
        return PositionClasses(self._squares[items], self._sizes[items], self._pieces, self._turn)

    def compact(self, start: int, stop: int) -> list[Position]:
        """The compact positions of classes ``start`` to ``stop``, their
        bitboards made for all of them at once (a four-man ending's run
        reads a million)."""
        squares = self._squares[start:stop]
        rows = bitboards([squares[:, slot] for slot in range(len(self._pieces))], self._pieces)
        turn = self._turn
        return [Position._make((*row, turn, None)) for row in rows.tolist()]
