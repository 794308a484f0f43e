"""Start positions for a run: every won symmetry class of an ending (``all``),
with its mirror images (``every``), a seeded sample, or an EPD file; and
the compact forms a start travels in."""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, overload

import chess

from al0.board.fen import epd_positions, file_in_folder
from al0.board.position import Position, from_board, to_board
from al0.board.sampling import check_sample_size
from al0.board.symmetry import symmetries, transform_position
from al0.errors import PositionError
from al0.lang.model import AdviceTable
from al0.lang.specs import PositionsSpec
from al0.verify.segments import Key, pack

if TYPE_CHECKING:
    from al0.tablebase import PositionClass, Tablebase


def start_positions(
    spec: PositionsSpec,
    table: AdviceTable,
    tablebase: Tablebase | None,
    relative_to: str | None = None,
    drawn: bool = False,
) -> Sequence[chess.Board]:
    """The start positions ``spec`` names: ``all`` (one position per
    symmetry class of the table's material, the table's side to move, won
    for it by the tablebase; with ``drawn``, drawn: a table that holds),
    ``every`` (every such position: each class with all its mirror images),
    ``sample:N`` (N of the classes, drawn uniformly with the spec's seed) or
    an EPD file (of positions won for the table's side where a tablebase
    tells; with ``drawn``, of drawn positions only); with
    ``relative_to`` (a spec a file gave: a table's ``expect:`` block, an ini
    option) one in that folder only (see :func:`al0.board.fen.file_in_folder`).

    :raises PositionError: for a material with no tablebase to list its
        positions, too large a sample, or a bad EPD file.
    """
    if spec.path is not None:
        path = str(file_in_folder(spec.path, relative_to)) if relative_to is not None else spec.path
        check = _is_drawn(tablebase) if drawn else _is_won(tablebase)
        return epd_positions(path, table.material, table.us, check)
    if tablebase is None:
        raise PositionError(
            f"no tablebase for {table.material}, so no list of all its positions: give an EPD file"
        )
    from al0.tablebase import stronger_colour  # lazily, as the tablebase itself

    stronger = stronger_colour(table.material.name, table.us)
    classes = tablebase.positions(table.us, stronger=stronger, won=not drawn, drawn=drawn)
    if spec.kind == "all":
        return LazyBoards(classes)
    if spec.kind == "every":
        return EveryOrientation(classes)
    assert spec.count is not None  # a sample has its count
    check_sample_size(
        repr(spec.name),
        spec.count,
        len(classes),
        f"{'drawn' if drawn else 'won'} {table.material} start positions (one per symmetry class)",
        "use all",
    )
    # Boards made one at a time here too: a run's main process needs
    # none for most starts, and making them all (about 20 µs each) was
    # most of what it spent on a large sample. The classes drawn are kept
    # as the tablebase's arrays (the same draw as of the classes
    # themselves: a sample takes only their count and indices).
    return LazyBoards(classes.take(random.Random(spec.seed).sample(range(len(classes)), spec.count)))


def _is_drawn(tablebase: Tablebase | None) -> Callable[[chess.Board], None]:
    """The check of an EPD file's position for a table that holds: a draw
    by the tablebase (a position already lost cannot be held, one won is
    not the weaker side's to hold).

    :raises PositionError: without a tablebase to tell.
    """
    if tablebase is None:
        raise PositionError("a table that holds is judged against a tablebase, and there is none")

    def check(board: chess.Board) -> None:
        result = tablebase.result(board)
        if result.winner is not None:
            winner = "the side to move" if result.winner == board.turn else "the other side"
            raise PositionError(f"{board.fen()!r} is not drawn: {winner} mates in {result.moves}")

    return check


def _is_won(tablebase: Tablebase | None) -> Callable[[chess.Board], None] | None:
    """The check of an EPD file's position for a table that mates: a win
    for the side to move by the tablebase, where the material has one (a
    drawn start was played and counted as the table's 'no plan', which no
    table could have avoided); None without a tablebase to tell."""
    if tablebase is None:
        return None

    def check(board: chess.Board) -> None:
        result = tablebase.result(board)
        if result.winner != board.turn:
            why = "a draw" if result.winner is None else f"the other side mates in {result.moves}"
            raise PositionError(
                f"{board.fen()!r} is not won: {why} by the tablebase, so no table mates from it"
            )

    return check


class LazyBoards(Sequence[chess.Board]):
    """Every position of an ending (or a sample of them) as boards made one
    at a time: a four-man ending has a million or more, and a board each
    would take gigabytes."""

    def __init__(self, classes: Sequence[PositionClass]):
        self._classes = classes

    def __len__(self) -> int:
        return len(self._classes)

    @overload
    def __getitem__(self, item: int) -> chess.Board: ...

    @overload
    def __getitem__(self, item: slice) -> list[chess.Board]: ...

    def __getitem__(self, item: int | slice) -> chess.Board | list[chess.Board]:
        if isinstance(item, slice):
            return [self[i] for i in range(*item.indices(len(self)))]
        return self._board(item)

    def _board(self, item: int) -> chess.Board:
        return self._classes[item].board()

    def positions(self, start: int, stop: int) -> list[Position]:
        """Positions ``start`` to ``stop``, made from the classes without a
        board."""
        from al0.tablebase import PositionClasses  # lazily, as the tablebase itself

        classes = self._classes
        if isinstance(classes, PositionClasses):
            return classes.compact(start, stop)
        return [class_position(position) for position in classes[start:stop]]

    def chain_starts(self, start: int, stop: int) -> list[ChainStart]:
        """:func:`chain_starts` of positions ``start`` to ``stop``, made from
        the classes without a board (a board costs more than the rest of
        what a start needs in a run's main process)."""
        return [(pack(position), 0, None) for position in self.positions(start, stop)]

    def part(self, start: int, stop: int) -> LazyBoards | None:
        """Positions ``start`` to ``stop`` as they travel to a worker, which
        makes their boards or compact positions itself: the tablebase's
        arrays of their men's squares (32 bytes a start); None where there
        are none to send (a run's main process made each start's compact
        form and packed it, about 1.2 µs a start: 0.4 s of its CPU for all
        of KBBK)."""
        from al0.tablebase import PositionClasses  # lazily, as the tablebase itself

        classes = self._classes
        return LazyBoards(classes.take(slice(start, stop))) if isinstance(classes, PositionClasses) else None


class EveryOrientation(LazyBoards):
    """Every position of an ending, made one at a time: each class's
    distinct mirror images (its ``size`` of them), class after class."""

    def __init__(self, classes: Sequence[PositionClass]):
        super().__init__(classes)
        self._ends = list(itertools.accumulate(position.size for position in classes))
        """Where each class's images end in the sequence."""

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def _board(self, item: int) -> chess.Board:
        if not -len(self) <= item < len(self):
            raise IndexError(item)
        item %= len(self)
        index = bisect.bisect_right(self._ends, item)
        offset = item - (self._ends[index - 1] if index else 0)
        return to_board(mirror_images(from_board(self._classes[index].board()))[offset])

    def positions(self, start: int, stop: int) -> list[Position]:
        return [from_board(board) for board in self[start:stop]]

    def chain_starts(self, start: int, stop: int) -> list[ChainStart]:
        return [chain_start(board) for board in self[start:stop]]

    def part(self, start: int, stop: int) -> LazyBoards | None:
        return None  # listed by the worker from the run's spec


ChainStart = tuple[Key, int, "str | None"]
"""A start position for a game read off its chain of segments: the
position (packed), its 50-move count (half-moves) and its FEN when it is
not the position's with the move counters at 0 and 1 (:func:`al0.board.position.fen`)."""


def chain_start(board: chess.Board) -> ChainStart:
    """The :data:`ChainStart` of ``board``."""
    counters = (board.halfmove_clock, board.fullmove_number)
    fen = None if counters == (0, 1) else board.fen()
    return pack(from_board(board)), board.halfmove_clock, fen


def chain_starts(boards: Sequence[chess.Board], start: int, stop: int) -> list[ChainStart]:
    """The :data:`ChainStart` of ``boards[start:stop]``."""
    if isinstance(boards, LazyBoards):
        return boards.chain_starts(start, stop)
    return [chain_start(board) for board in boards[start:stop]]


def class_position(position: PositionClass) -> Position:
    """The position of a tablebase's class, without making its board."""
    masks = [0] * 8  # white, black, then by piece type from the king down
    for square, piece in position.placement:
        bit = 1 << square
        masks[0 if piece.color else 1] |= bit
        masks[8 - piece.piece_type] |= bit
    white, black, kings, queens, rooks, bishops, knights, pawns = masks
    return Position(white, black, kings, queens, rooks, bishops, knights, pawns, position.turn, None)


def mirror_images(position: Position) -> list[Position]:
    """``position`` and its distinct mirror images, in the order of
    :data:`al0.board.symmetry.SQUARE_MAPS` (``position`` first)."""
    return list(dict.fromkeys(transform_position(position, symmetry) for symmetry in symmetries(position)))
