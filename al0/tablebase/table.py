"""A complete tablebase of one material and the questions it answers: a
position's result and distance to mate (of a board, or of a compact
position), the moves that keep it, the defender's move, its position
classes and its statistics. Located through the board's symmetries
(:mod:`al0.tablebase.geometry`); on the native core where it runs
(:mod:`al0.tablebase.probe`)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

import chess
import numpy as np

from al0.board import Material
from al0.board.moves import legal_moves
from al0.board.position import MOVES, Position, code_move, to_board
from al0.core import native
from al0.errors import PositionError
from al0.tablebase.classes import PositionClasses
from al0.tablebase.geometry import ONTO, SYMMETRIES, TRIANGLE_INDEX, Layout, behind_start
from al0.tablebase.probe import make_prober
from al0.tablebase.retrograde import DRAW, ILLEGAL, Values

# Plain lists for probing one board: indexing them is far cheaper than numpy
# scalars, and verify probes millions of positions.
_ONTO = [int(g) for g in ONTO]
_SYMMETRIES = [[int(s) for s in row] for row in SYMMETRIES]
_TRIANGLE_INDEX = [int(t) for t in TRIANGLE_INDEX]
_MEN = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
"""Every piece type but the king (a pawn is a man of the tables with pawns)."""


_Man = tuple[chess.PieceType, chess.Color, chess.Square]
"""A man besides the kings: its type, colour and square."""


def _board_men(board: chess.Board) -> tuple[chess.Square, chess.Square, list[_Man]]:
    """The kings' squares (White's, Black's) and the other men of ``board``,
    in square order: what a probe locates a position by."""
    kings = board.kings
    white = board.occupied_co[chess.WHITE]
    men = [
        (board.piece_type_at(square) or 0, bool(white >> square & 1), square)
        for square in chess.scan_forward(board.occupied & ~kings)
    ]
    return chess.lsb(kings & white), chess.lsb(kings & board.occupied_co[chess.BLACK]), men


def _passant_coded(men: list[_Man], pawn: chess.Square) -> list[_Man]:
    """``men`` with the pawn on ``pawn``, which has just stepped twice and
    may be taken en passant, where a table's index holds it: on its own
    first rank, three squares behind (``retrograde.c`` explains why)."""
    return [
        (piece, colour, square + (-24 if colour == chess.WHITE else 24) if square == pawn else square)
        for piece, colour, square in men
    ]


def _opens_passant(men: list[_Man], move: chess.Move) -> bool:
    """Whether ``move``, a pawn's double step among ``men``, lands beside a
    pawn of the other side (which may then take en passant)."""
    end = move.to_square
    colour = next(colour for _, colour, square in men if square == move.from_square)
    return any(
        piece == chess.PAWN and other != colour and square >> 3 == end >> 3 and abs(square - end) == 1
        for piece, other, square in men
    )


_Slots = tuple["Tablebase", chess.Color, tuple[tuple[bool, int], ...]]
"""What :attr:`Tablebase._slots` holds for one kind of men."""


@dataclass(frozen=True)
class Result:
    """A position's value with best play by both sides."""

    winner: chess.Color | None
    """The side that mates, or ``None`` for a draw."""
    plies: int | None
    """Half-moves to mate (0: the side to move is mated), ``None`` for a draw."""

    @property
    def moves(self) -> int | None:
        """Moves of the winner to mate (its mating move included)."""
        return None if self.plies is None else (self.plies + 1) // 2


class SideStats(TypedDict):
    """Counts for one side to move, in positions (not classes), the stronger
    side's pieces being White."""

    legal: int
    draws: int
    wins: int
    """Positions where the side to move mates."""
    losses: int
    """Positions where the side to move is mated."""
    wins_by_dtm: list[int]
    """``wins_by_dtm[d]``: the side to move mates in ``d`` moves (index 0: none)."""
    losses_by_dtm: list[int]
    """``losses_by_dtm[d]``: the side to move is mated in ``d`` moves (0: already)."""


class Stats(TypedDict):
    """What :meth:`Tablebase.stats` returns: plain data, ready for JSON."""

    material: str
    stronger: SideStats
    """The stronger side (the first named) to move."""
    weaker: SideStats
    max_dtm: int | None
    """The longest forced mate in the ending, in moves of the side that mates."""


@dataclass(frozen=True, eq=False)
class Tablebase:
    """A complete table for one material, answering questions about boards."""

    material: Material
    values: Values
    """Shape (2, size): plies to mate for the side to move (odd: it wins,
    even: it loses), :data:`DRAW` or :data:`ILLEGAL`; row 0 with the
    stronger side to move."""
    smaller: Mapping[str, Tablebase]
    """Every table a capture leads to, by material name (also transitively)."""

    @property
    def name(self) -> str:
        return self.material.name

    @functools.cached_property
    def _pawns(self) -> bool:
        """Whether the table has pawns: its index then keeps only the file mirror."""
        return chess.PAWN in self.material.types

    def _entry(self, board: chess.Board) -> int:
        """The raw entry of ``board``, a position of this table's material
        or of one its captures or promotions lead to (a game of KQKR goes on
        as KQK once the rook is taken, one of KPK as KQK once the pawn
        promotes).

        :raises PositionError: for other material, an invalid board or
            castling rights (no table knows castling).
        """
        if chess.popcount(board.kings) != 2:
            raise PositionError(f"not a {self.name} position: {board.fen()}")
        table, side, index = self._locate(board)
        if not board.is_valid():
            problems = ", ".join(
                flag.name.lower().replace("_", " ")
                for flag in chess.Status
                if flag and flag in board.status() and flag.name
            )
            raise PositionError(f"illegal position ({problems}): {board.fen()}")
        if board.castling_rights:
            raise PositionError(f"castling rights are not supported: {board.fen()}")
        value = int(table.values[side, index])
        if value == ILLEGAL:
            # Only possible if our legality rules disagreed with python-chess.
            raise PositionError(f"position missing from the {table.name} table: {board.fen()}")
        return value

    def _lookup(self, board: chess.Board) -> int:
        """The raw entry of a legal ``board`` with two kings, unchecked.

        :raises PositionError: for material this table cannot answer for.
        """
        table, side, index = self._locate(board)
        return int(table.values[side, index])

    @functools.cached_property
    def _layouts(
        self,
    ) -> dict[tuple[tuple[chess.PieceType, chess.Color], ...], tuple[Tablebase, chess.Color]]:
        """For the men besides the kings (sorted pairs of piece type and
        colour), the table that knows them and the colour of its first side;
        White when both sides have the same pieces."""
        layouts: dict[tuple[tuple[chess.PieceType, chess.Color], ...], tuple[Tablebase, chess.Color]] = {}
        for table in (self, *self.smaller.values()):
            for first in (chess.WHITE, chess.BLACK):
                men = [(piece, first) for piece in table.material.first]
                men += [(piece, not first) for piece in table.material.second]
                layouts.setdefault(tuple(sorted(men)), (table, first))
        return layouts

    def _layout(self, board: chess.Board) -> tuple[Tablebase, chess.Color]:
        """The table that knows the men of ``board`` and the colour of its
        first side.

        :raises PositionError: for material this table cannot answer for.
        """
        return self._layout_of(
            board,
            [
                (piece, colour)
                for piece in _MEN
                for colour in chess.COLORS
                for _ in chess.scan_forward(board.pieces_mask(piece, colour))
            ],
        )

    def _layout_of(
        self, board: chess.Board, men: list[tuple[chess.PieceType, chess.Color]]
    ) -> tuple[Tablebase, chess.Color]:
        """:meth:`_layout` of ``board`` given its men besides the kings."""
        found = self._layouts.get(tuple(sorted(men)))
        if found is None:
            raise PositionError(f"not a {self.name} position: {board.fen()}")
        return found

    @functools.cached_property
    def _slots(self) -> dict[tuple[tuple[chess.PieceType, chess.Color], ...], _Slots]:
        """For the men besides the kings, sorted (as :attr:`_layouts` keys
        them), the table that knows them, the colour of its first side and
        where each of its slots' squares is found: a king's colour, or the
        position of a man in the sorted men (the lowest square first among
        like men). Worked out once per kind of men, not per probe."""
        slots: dict[tuple[tuple[chess.PieceType, chess.Color], ...], _Slots] = {}
        for key, (table, first) in self._layouts.items():
            left = list(enumerate(key))
            where: list[tuple[bool, int]] = []
            for piece, side in zip(table.material.types, table.material.sides):
                colour = first if side == 0 else not first
                if piece == chess.KING:
                    where.append((True, int(colour)))
                else:
                    found = next(man for man in left if man[1] == (piece, colour))
                    left.remove(found)
                    where.append((False, found[0]))
            slots[key] = (table, first, tuple(where))
        return slots

    def _locate(self, board: chess.Board) -> tuple[Tablebase, int, int]:
        """The table, row and index of a ``board`` with two kings: found by
        its men alone, through the one symmetry that takes the stronger king
        into the triangle, or onto files a-d with pawns (every symmetric
        index holds the class's value).

        :raises PositionError: for material this table cannot answer for.
        """
        white_king, black_king, men = _board_men(board)
        if board.ep_square is not None and board.has_pseudo_legal_en_passant():
            men = _passant_coded(men, board.ep_square ^ 8)  # the pawn in front of the square it passed
        return self._place(white_king, black_king, sorted(men), board.turn, board)

    def _place(
        self,
        white_king: chess.Square,
        black_king: chess.Square,
        men: list[_Man],
        turn: chess.Color,
        board: chess.Board | Position,
    ) -> tuple[Tablebase, int, int]:
        """:meth:`_locate` of the position with these kings, these ``men``
        (sorted) and ``turn`` to move; ``board`` only names it in an error."""
        found = self._slots.get(tuple((piece, colour) for piece, colour, _ in men))
        if found is None:
            shown = board.fen() if isinstance(board, chess.Board) else to_board(board).fen()
            raise PositionError(f"not a {self.name} position: {shown}")
        table, first, where = found
        king_squares = (black_king, white_king)
        squares = [king_squares[slot] if is_king else men[slot][2] for is_king, slot in where]
        if table._pawns:
            # The first side's pawns go up the board: Black's are seen with
            # the ranks flipped (2), then the first king put on files a-d (1).
            symmetry = _SYMMETRIES[(2 if first == chess.BLACK else 0) | (squares[0] & 7 > 3)]
            index = (symmetry[squares[0]] >> 3) * 4 + (symmetry[squares[0]] & 7)
        else:
            symmetry = _SYMMETRIES[_ONTO[squares[0]]]
            index = _TRIANGLE_INDEX[symmetry[squares[0]]]
        for square in squares[1:]:
            index = index * 64 + symmetry[square]
        return table, 0 if turn == first else 1, index

    def result(self, board: chess.Board) -> Result:
        """Who mates ``board`` with best play, and in how many plies.

        :raises PositionError: if ``board`` is not a legal position of this
            material (or of one its captures lead to).
        """
        value = self._entry(board)
        if value == DRAW:
            return Result(None, None)
        return Result(board.turn if value % 2 else not board.turn, value)

    def stronger(self, board: chess.Board) -> chess.Color:
        """The colour of the stronger side (the first named) of the material
        on ``board``, this table's or the one a capture led to; White when
        both sides have the same pieces.

        :raises PositionError: for material this table cannot answer for.
        """
        return self._layout(board)[1]

    def dtm(self, board: chess.Board, side: chess.Color | None = None) -> int | None:
        """Moves of ``side`` to mate with best play (0: the other side is
        mated), or ``None`` if it cannot force mate: a draw, or a position
        the other side wins (see :meth:`result`). ``side`` defaults to the
        stronger side; name it for a position a capture led to, where the
        pieces on the board no longer say which side that was.

        :raises PositionError: if ``board`` is not a legal position of this material.
        """
        result = self.result(board)
        return result.moves if result.winner == (self.stronger(board) if side is None else side) else None

    def _scored(self, board: chess.Board) -> list[tuple[tuple[int, int], chess.Move]]:
        """Every legal move with how good it is for the mover (higher is
        better: a win, sooner first; then a draw; then a loss, later first),
        in UCI order."""
        white_king, black_king, men = _board_men(board)
        return self._scored_men(white_king, black_king, men, board.turn, board.legal_moves, board)

    def _scored_men(
        self,
        white_king: chess.Square,
        black_king: chess.Square,
        men: list[_Man],
        turn: chess.Color,
        moves: Iterable[chess.Move],
        board: chess.Board | Position,
    ) -> list[tuple[tuple[int, int], chess.Move]]:
        """:meth:`_scored` of the position of these kings and ``men``, with
        ``turn`` to move and legal ``moves``. Each move's position is located
        from the men it moves, not from a board pushed: without castling
        rights a move carries one man, may take another (en passant, the
        one beside it) and may promote it; a double step may open en
        passant for the other side."""
        turn = not turn
        scored = []
        pawns = {square for piece, _, square in men if piece == chess.PAWN}
        for move in sorted(moves, key=chess.Move.uci):
            start, end = move.from_square, move.to_square
            taken = end
            if start in pawns and (start - end) % 8 and all(square != end for _, _, square in men):
                taken = end ^ 8  # en passant: a pawn's diagonal step to an empty square takes the one behind
            after = [
                (move.promotion or piece, colour, end) if square == start else (piece, colour, square)
                for piece, colour, square in men
                if square != taken
            ]
            if start in pawns and abs(end - start) == 16 and _opens_passant(men, move):
                after = _passant_coded(after, end)
            after.sort()
            table, side, index = self._place(
                end if start == white_king else white_king,
                end if start == black_king else black_king,
                after,
                turn,
                board,
            )
            value = int(table.values[side, index])  # legal: no need to validate it again
            if value == DRAW:
                score = (1, 0)
            elif value % 2 == 0:
                score = (2, -value)  # the opponent is mated: we win
            else:
                score = (0, value)
            scored.append((score, move))
        return scored

    def best_moves(self, board: chess.Board) -> list[chess.Move]:
        """The moves that mate soonest, in UCI order, when the side to move
        wins; empty when it does not.

        :raises PositionError: if the board does not fit the table.
        """
        if self.result(board).winner != board.turn:
            return []
        scored = self._scored(board)
        best = max(score for score, _ in scored)
        return [move for score, move in scored if score == best]

    def best_defence(self, board: chess.Board) -> chess.Move:
        """The side to move's best move: when it loses, the one that delays
        mate longest (captures included); a draw if it has one; the fastest
        mate if it wins. Ties go to the first move in UCI order, so the answer
        is deterministic.

        :raises PositionError: if the side to move has no legal move or the
            board does not fit the table.
        """
        self._entry(board)  # validates the board
        scored = self._scored(board)
        if not scored:
            raise PositionError(f"the side to move has no legal move: {board.fen()}")
        best = max(score for score, _ in scored)
        return next(move for score, move in scored if score == best)

    def _men(self, position: Position) -> tuple[chess.Square, chess.Square, list[_Man]]:
        """The kings' squares (White's, Black's) and the other men of the
        compact ``position`` (as :func:`_board_men` reads a board's; not
        sorted by colour)."""
        white, _, kings, queens, rooks, bishops, knights, pawns, _, _ = position
        men = [
            (piece, bool(white >> square & 1), square)
            for piece, mask in (
                (chess.KNIGHT, knights),
                (chess.BISHOP, bishops),
                (chess.ROOK, rooks),
                (chess.QUEEN, queens),
                (chess.PAWN, pawns),
            )
            for square in chess.scan_forward(mask)
        ]
        return chess.lsb(kings & white), chess.lsb(kings & ~white), men

    def _locate_at(self, position: Position) -> tuple[Tablebase, int, int]:
        """:meth:`_locate` of a compact ``position``, whose en passant
        square is set only where a pawn may take (the right is on).

        :raises PositionError: for material this table cannot answer for.
        """
        white_king, black_king, men = self._men(position)
        if position.ep_square is not None:
            men = _passant_coded(men, position.ep_square ^ 8)
        return self._place(white_king, black_king, sorted(men), position.turn, position)

    def result_at(self, position: Position) -> Result:
        """:meth:`result` of a legal ``position`` (one reached in play from
        a legal one: it is not validated again), without a board.

        :raises PositionError: for material this table cannot answer for.
        """
        value = self._prober.value(position) if self._prober is not None else -1
        if value < 0:  # the Python twin (it raises for men no table knows)
            table, side, index = self._locate_at(position)
            value = int(table.values[side, index])
        if value == DRAW:
            return Result(None, None)
        return Result(position.turn if value % 2 else not position.turn, value)

    def dtm_at(self, position: Position, side: chess.Color) -> int | None:
        """:meth:`dtm` of a legal ``position`` for ``side``, without a board
        (see :meth:`result_at`)."""
        value = self._prober.value(position) if self._prober is not None else -1
        if value < 0:  # the Python twin (it raises for men no table knows)
            result = self.result_at(position)
            return result.moves if result.winner == side else None
        # Odd plies: the side to move mates (Result.moves, without a Result).
        if value == DRAW or (position.turn if value % 2 else not position.turn) != side:
            return None
        return (value + 1) // 2

    def best_defence_at(self, position: Position) -> chess.Move:
        """:meth:`best_defence` of a legal ``position``, without a board
        (see :meth:`result_at`): the same move.

        :raises PositionError: if the side to move has no legal move or
            the table cannot answer for the material.
        """
        if self._prober is not None:
            found: int = self._prober.best_defence(position)
            if found >= 0:
                return code_move(found)
        # The Python twin; it raises for men no table knows and for no legal move.
        white_king, black_king, men = self._men(position)
        scored = self._scored_men(white_king, black_king, men, position.turn, legal_moves(position), position)
        if not scored:
            raise PositionError(f"the side to move has no legal move: {to_board(position).fen()}")
        best = max(score for score, _ in scored)
        return next(move for score, move in scored if score == best)

    @functools.cached_property
    def _prober(self) -> Any | None:
        """The native core's probe of this table (:mod:`al0.tablebase.probe`),
        None where the core does not run: the probe's one choice of twin,
        here beside its Python twin (:meth:`_place`), as ``heapq`` chooses
        ``_heapq``; asked at a table's first probe, not at import, since
        ``AL0_CORE`` may change between tables (the tests change it)."""
        core = native()
        if core is None:
            return None
        return make_prober(core, self._slots)

    @functools.cached_property
    def _classes(self) -> tuple[np.ndarray, np.ndarray]:
        """The index of every class (its least index) and its size."""
        layout = Layout(self.material)
        # The images are of ordered men: with a pair of like pieces both
        # orders of a board are among them (16 in all without pawns), and
        # the class has half as many boards as ordered images.
        group = len(layout.symmetries) * (2 if self.material.pair is not None else 1)
        per_board = 2 if self.material.pair is not None else 1
        # The file mirror alone and no pair: an index has its first king on
        # files a-d and its mirror image has none there, so every index is
        # its class's least, a class of two positions.
        mirror_only = len(layout.symmetries) == 2 and self.material.pair is None
        indices, sizes = [], []
        chunk = 1 << 18
        for start in range(0, layout.size, chunk):
            index = np.arange(start, min(layout.size, start + chunk))
            squares = layout.decode(index)
            if mirror_only:
                index = index[~behind_start(self.material, squares)]
                indices.append(index)
                sizes.append(np.full(len(index), group, dtype=np.int64))
                continue
            least = np.ones(len(index), dtype=bool)
            fixed = np.zeros(len(index), dtype=np.int64)
            for image in layout.images(squares):
                least &= (image < 0) | (image >= index)
                fixed += image == index
            # A position with the right to take en passant is not a class
            # of its own placement: counted and listed with those without.
            least &= ~behind_start(self.material, squares)
            indices.append(index[least])
            sizes.append(group // fixed[least] // per_board)
        return np.concatenate(indices), np.concatenate(sizes)

    def positions(
        self,
        side_to_move: chess.Color,
        stronger: chess.Color = chess.WHITE,
        won: bool = False,
        drawn: bool = False,
    ) -> PositionClasses:
        """One position per symmetry class, legal, with ``side_to_move`` to
        move and the stronger side's pieces in colour ``stronger``; with
        ``won``, only those the side to move wins; with ``drawn``, only the
        draws (what a side that holds is judged from). Ordered by the
        squares of the stronger king, the weaker king, then the other men."""
        layout = Layout(self.material)
        index, size = self._classes
        row = self.values[0 if side_to_move == stronger else 1, index]
        if won:
            keep = (row % 2 == 1) & (row < DRAW)
        else:
            keep = row == DRAW if drawn else row != ILLEGAL
        index, size = index[keep], size[keep]
        squares = layout.decode(index)
        kings = self.material.kings
        others = [s for s in range(len(squares)) if s not in kings]
        order = np.lexsort([squares[s] for s in reversed(others)] + [squares[kings[1]], squares[kings[0]]])
        pieces = tuple(
            chess.Piece(piece, stronger if side == 0 else not stronger)
            for piece, side in zip(self.material.types, self.material.sides)
        )
        placed = np.stack(squares, axis=1)[order]
        if self._pawns and stronger == chess.BLACK:
            # The first side's pawns go up the board: given to Black, the
            # class is its mirror, ranks flipped (recoloured alone, a pawn
            # went the wrong way: positions illegal, or of other values).
            placed = placed ^ 56
        return PositionClasses(placed, size[order], pieces, side_to_move)

    def stats(self) -> Stats:
        """Counts of positions by side to move and result, each class
        weighted by its size (so they count positions, not classes)."""
        index, size = self._classes
        longest = 0

        def side(row: np.ndarray) -> SideStats:
            nonlocal longest
            values = row[index]
            by_value = np.bincount(values, weights=size, minlength=256).astype(np.int64)
            wins = [0] + [int(by_value[2 * d - 1]) for d in range(1, 127)]
            losses = [int(by_value[2 * d]) for d in range(0, 127)]
            while len(wins) > 1 and not wins[-1]:
                wins.pop()
            while losses and not losses[-1]:
                losses.pop()
            longest = max(longest, len(wins) - 1, len(losses) - 1)
            return {
                "legal": int(size.sum() - by_value[ILLEGAL]),
                "draws": int(by_value[DRAW]),
                "wins": sum(wins),
                "losses": sum(losses),
                "wins_by_dtm": wins,
                "losses_by_dtm": losses,
            }

        stronger, weaker = side(self.values[0]), side(self.values[1])
        has_mates = stronger["wins"] + stronger["losses"] + weaker["wins"] + weaker["losses"] > 0
        return {
            "material": self.name,
            "stronger": stronger,
            "weaker": weaker,
            "max_dtm": longest if has_mates else None,
        }
