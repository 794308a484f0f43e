"""Chess as a :class:`~al0.games.base.Game`, so the generic search plays and proves chess.

With it, :func:`al0.games.solvers.prove_win` is a mate-in-N prover: the side to
move wins when the other side is checkmated; stalemate, insufficient material
and the 75-move rule end the game drawn, which is not a win. Positions carry no
move history, so repetition never ends a game here (a forced mate within a few
moves does not depend on it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import chess

from al0.board.fen import parse_fen
from al0.games.base import Game, IllegalMoveError, Side
from al0.games.solvers import Proof, format_proof, prove_win


@dataclass(frozen=True)
class ChessState:
    """An immutable, hashable chess position.

    Equality and hashing use :attr:`key` (pieces, side to move, castling
    rights, a legal en-passant square), so transpositions meet in search
    caches. The wrapped :attr:`board` must never be mutated: moves are applied
    to copies.
    """

    board: chess.Board = field(compare=False)
    """The position; read-only by contract."""
    key: tuple[object, ...] = field(init=False, repr=False)
    """What equality and hashing look at: everything the legal moves depend on."""

    def __post_init__(self) -> None:
        b = self.board
        object.__setattr__(
            self,
            "key",
            (
                b.pawns,
                b.knights,
                b.bishops,
                b.rooks,
                b.queens,
                b.kings,
                b.occupied_co[chess.WHITE],
                b.turn,
                b.clean_castling_rights(),
                b.ep_square if b.has_legal_en_passant() else None,
            ),
        )

    @cached_property
    def legal(self) -> tuple[chess.Move, ...]:
        """The legal moves, generated once (search asks for them more than once)."""
        return tuple(self.board.legal_moves)

    @cached_property
    def outcome(self) -> chess.Outcome | None:
        """How the game has ended in this position, or ``None`` if it goes on.

        The same verdict as ``Board.outcome()`` without a move stack (so no
        repetition), but it stops at the first legal move it finds: the
        terminal test runs at every node of a search, most of them leaves whose
        moves are never listed.
        """
        b = self.board
        if not any(b.generate_legal_moves()):
            if b.is_check():
                return chess.Outcome(chess.Termination.CHECKMATE, not b.turn)
            return chess.Outcome(chess.Termination.STALEMATE, None)
        if b.is_insufficient_material():
            return chess.Outcome(chess.Termination.INSUFFICIENT_MATERIAL, None)
        if b.is_seventyfive_moves():
            return chess.Outcome(chess.Termination.SEVENTYFIVE_MOVES, None)
        return None

    @classmethod
    def from_fen(cls, fen: str) -> ChessState:
        """The position a FEN describes, checked for legality.

        :raises PositionError: if the FEN cannot be parsed or the position is
            not a legal chess position (python-chess's ``Board.status()``).
        """
        return cls(parse_fen(fen))


class ChessGame(Game[ChessState, chess.Move]):
    """The rules of chess from a given start position (the standard one by default).

    Moves come in python-chess's legal-move generation order; sides are
    ``chess.WHITE`` and ``chess.BLACK``; moves are written in SAN.
    """

    def __init__(self, start: ChessState | None = None) -> None:
        self.start = ChessState(chess.Board()) if start is None else start

    def initial(self) -> ChessState:
        return self.start

    def to_move(self, state: ChessState) -> Side:
        return state.board.turn

    def moves(self, state: ChessState) -> Sequence[chess.Move]:
        return () if state.outcome is not None else state.legal

    def result(self, state: ChessState, move: chess.Move) -> ChessState:
        board = state.board.copy(stack=False)
        board.push(move)
        return ChessState(board)

    def is_terminal(self, state: ChessState) -> bool:
        return state.outcome is not None

    def winner(self, state: ChessState) -> Side | None:
        outcome = state.outcome
        return None if outcome is None else outcome.winner

    def can_move_into_loss(self, state: ChessState) -> bool:
        """Never: a chess move cannot checkmate the side that plays it."""
        return False

    def display(self, state: ChessState) -> str:
        return f"{state.board}\n{state.board.fen()}"

    def side_name(self, side: Side) -> str:
        return "White" if side == chess.WHITE else "Black"

    def move_name(self, state: ChessState, move: chess.Move) -> str:
        return state.board.san(move)

    def parse_move(self, state: ChessState, text: str) -> chess.Move:
        """A legal move written in SAN or UCI.

        :raises IllegalMoveError: if ``text`` is neither, or not legal here.
        """
        try:
            return state.board.parse_san(text.strip())
        except ValueError:
            pass
        try:
            move = chess.Move.from_uci(text.strip())
        except ValueError:
            move = None
        if move is not None and move in state.legal:
            return move
        raise IllegalMoveError(f"illegal move: {text!r} in {state.board.fen()}")


def mate_in(fen: str, max_moves: int, max_nodes: int | None = None) -> Proof[ChessState, chess.Move] | None:
    """The proof that the side to move in ``fen`` mates within ``max_moves`` moves
    (its :attr:`~al0.games.solvers.Proof.moves` is the least such number), or
    ``None`` if it cannot.

    :raises PositionError: if the FEN is unparsable or illegal.
    :raises SearchBudgetExceeded: if ``max_nodes`` positions do not decide it.
    """
    state = ChessState.from_fen(fen)
    return prove_win(ChessGame(state), state, max_moves, max_nodes=max_nodes)


def mate_lines(proof: Proof[ChessState, chess.Move]) -> list[str]:
    """The proof tree in move-number notation with SAN moves."""
    return format_proof(ChessGame(proof.state), proof)
