"""A short chess search for positions no advice table plays, and a bounded mate prover.

:class:`ShortSearch` deepens :func:`~al0.games.solvers.alphabeta` one ply at
a time over :class:`BoundedChess`, scoring its leaves by a tablebase where
one is at hand (cached on disk: building one takes seconds, too long for a
leaf) and by material elsewhere. :meth:`ShortSearch.prove_mate` is
:func:`~al0.games.solvers.prove_win` over the same bounded game. Both can be
cut short from another thread: the game counts the positions it makes and
looks at a stop flag, raising :class:`~al0.errors.SearchBudgetExceeded`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from al0.board import Material
from al0.engine import Tablebases
from al0.errors import SearchBudgetExceeded
from al0.games import ChessGame, ChessState, Proof, SearchResult, Side, alphabeta, prove_win

if TYPE_CHECKING:
    from al0.tablebase import Tablebase

PIECE_VALUES = {
    chess.PAWN: 100,
    chess.KNIGHT: 300,
    chess.BISHOP: 300,
    chess.ROOK: 500,
    chess.QUEEN: 900,
    chess.KING: 0,
}
"""Centipawns: the classic values, enough for a search of a few plies."""

CENTIPAWN = 1e-4
"""A centipawn in the search's values: all the material on a board stays
under 0.4, below any tablebase win and the +1 of a checkmate."""

TABLEBASE_WIN = 0.9
"""A leaf the tablebase says is won, less :data:`PLY` per ply to mate (so the
search prefers the quicker mate); a checkmate on the board is worth 1."""
PLY = 1e-4

STOP_EVERY = 64
"""Positions made between looks at the stop flag: a few milliseconds."""


class BoundedChess(ChessGame):
    """Chess that counts the positions a search makes: past ``max_nodes``,
    or once ``stop`` is set, making one raises :class:`SearchBudgetExceeded`.
    Captures are tried first (the most valuable victim first), which is what
    makes alpha-beta cut."""

    def __init__(
        self, start: ChessState, max_nodes: int | None = None, stop: threading.Event | None = None
    ) -> None:
        super().__init__(start)
        self.max_nodes = max_nodes
        self.stop = stop
        self.nodes = 0

    def result(self, state: ChessState, move: chess.Move) -> ChessState:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchBudgetExceeded(f"node budget of {self.max_nodes} spent")
        if self.stop is not None and not self.nodes % STOP_EVERY and self.stop.is_set():
            raise SearchBudgetExceeded("stopped")
        return super().result(state, move)

    def moves(self, state: ChessState) -> Sequence[chess.Move]:
        legal = super().moves(state)
        board = state.board

        def victim(move: chess.Move) -> int:
            piece = board.piece_type_at(move.to_square)
            # Sorted ascending: the most valuable victim (negated) first; an
            # en-passant capture takes a pawn from another square.
            if piece is None:
                return -PIECE_VALUES[chess.PAWN] if board.is_en_passant(move) else 0
            return -PIECE_VALUES[piece]

        return sorted(legal, key=victim)  # stable: otherwise the generator's order


@dataclass(frozen=True)
class Line:
    """One completed iteration of the short search."""

    depth: int
    """Plies searched."""
    pv: tuple[chess.Move, ...]
    """The principal variation."""
    mate: int | None
    """Moves to mate along the line for the side to move (negative: it is
    mated), from a checkmate or a tablebase at its end; None when the line
    ends in neither."""
    centipawns: int
    """The value of the line in centipawns when ``mate`` is None."""
    nodes: int
    """Positions made so far, all iterations together."""


def mate_in_moves(plies: int, winner: chess.Color, side: chess.Color) -> int:
    """``plies`` to mate as UCI's ``score mate N`` for ``side``: the mating
    side's moves, negative when ``side`` is the one mated."""
    return (plies + 1) // 2 if winner == side else -(plies // 2)


class ShortSearch:
    """Iterative deepening alpha-beta from ``board``, bounded as
    :class:`BoundedChess` is. Tablebases are looked up by material, once
    each, and only where cached on disk (``cached`` says where they are,
    so a test can point elsewhere)."""

    def __init__(
        self,
        board: chess.Board,
        max_nodes: int | None = None,
        stop: threading.Event | None = None,
        tablebases: Tablebases | None = None,
    ) -> None:
        self.root = ChessState(board.copy(stack=False))
        self.game = BoundedChess(self.root, max_nodes, stop)
        self.tablebases = tablebases if tablebases is not None else Tablebases()
        """Where the leaves' tablebases come from: the UCI engine's, so each
        is read once for the engine's life, not once a search."""
        self._tables: dict[Material, Tablebase | None] = {}
        """This search's own memo of them, by material: a leaf looks here."""

    def deepen(self, max_depth: int) -> Iterator[Line]:
        """The line of each depth, 1 to ``max_depth``; it ends early at a
        forced mate (for either side), which no deeper search changes.

        :raises SearchBudgetExceeded: when the budget is spent or the search
            stopped, mid-iteration (the lines yielded so far stand).
        """
        order: list[chess.Move] | None = None
        for depth in range(1, max_depth + 1):
            found: SearchResult[chess.Move] = alphabeta(self.game, self.root, depth, self.evaluate, order)
            line = self._line(depth, found)
            yield line
            if abs(found.value) >= 1.0 or not found.pv:
                return
            # The last iteration's best move first: alpha-beta then cuts more.
            order = [found.pv[0], *(m for m in self.game.moves(self.root) if m != found.pv[0])]

    def prove_mate(self, moves: int) -> Proof[ChessState, chess.Move] | None:
        """The proof that the side to move mates within ``moves`` moves, if any.

        :raises SearchBudgetExceeded: as :meth:`deepen`.
        """
        return prove_win(self.game, self.root, moves)

    def evaluate(self, state: ChessState, side: Side) -> float:
        """The value of a leaf for ``side``: the tablebase's when one knows
        the material, else the material balance."""
        board = state.board
        colour: chess.Color = side == chess.WHITE
        table = self.tablebase(board)
        if table is not None:
            result = table.result(board)
            if result.winner is None or result.plies is None:
                return 0.0
            value = TABLEBASE_WIN - result.plies * PLY
            return value if result.winner == colour else -value
        return material_balance(board, colour) * CENTIPAWN

    def tablebase(self, board: chess.Board) -> Tablebase | None:
        """The cached tablebase of ``board``'s material, if there is one."""
        if board.pawns or chess.popcount(board.occupied) > 4 or board.castling_rights:
            return None
        material = Material.of(board, chess.WHITE)
        if material not in self._tables:
            self._tables[material] = self.tablebases.cached(material)
        return self._tables[material]

    def _line(self, depth: int, found: SearchResult[chess.Move]) -> Line:
        """The iteration's line with its score, read off the board at its end."""
        board = self.root.board.copy(stack=False)
        side = board.turn
        for move in found.pv:
            board.push(move)
        mate = None
        if board.is_checkmate():
            mate = mate_in_moves(len(found.pv), not board.turn, side)
        else:
            table = self.tablebase(board)
            if table is not None:
                result = table.result(board)
                if result.winner is not None and result.plies is not None:
                    mate = mate_in_moves(len(found.pv) + result.plies, result.winner, side)
        return Line(depth, found.pv, mate, round(found.value / CENTIPAWN), self.game.nodes)


def material_balance(board: chess.Board, side: chess.Color) -> int:
    """``side``'s material less the other side's, in centipawns."""
    return sum(
        PIECE_VALUES[piece]
        * (
            chess.popcount(board.pieces_mask(piece, side))
            - chess.popcount(board.pieces_mask(piece, not side))
        )
        for piece in chess.PIECE_TYPES
    )
