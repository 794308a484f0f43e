"""The AND/OR prover as a chess mate-in-N prover, checked on KRK positions (N ≤ 3).

``positions/krk_mate.epd`` holds sixteen White-to-move KRK positions, four each
with a shortest mate in 1, 2 and 3 and four with no mate in 3 (``dm`` is the
shortest mate; ``c0`` marks the others). They were drawn by the sampler below
(seed 2024) and classified by the brute-force search below, which shares no
code with the prover. A second, seeded sample checks the prover against the
brute force directly, and :func:`test_mate_in_n_agrees_with_tablebase` checks
both samples against ``al0.tablebase``.
"""

from __future__ import annotations

import random

import chess
import pytest

from al0.errors import PositionError
from al0.games.chess_game import ChessGame, ChessState, mate_in, mate_lines
from conftest import POSITIONS

EPD = POSITIONS / "krk_mate.epd"
MAX_MOVES = 3


def suite() -> list[tuple[str, int | None]]:
    """The positions of ``krk_mate.epd`` as ``(fen, shortest mate or None)``."""
    out = []
    for line in EPD.read_text().splitlines():
        if line.strip():
            board, ops = chess.Board.from_epd(line)
            dm = ops.get("dm")
            out.append((board.fen(), int(dm) if dm is not None else None))
    return out


def near_mate_krk(rng: random.Random) -> chess.Board:
    """A random legal KRK position, White to move, Black's king on the edge and
    White's two squares from it: mates in three or fewer are common there."""
    edge = [s for s in chess.SQUARES if chess.square_file(s) in (0, 7) or chess.square_rank(s) in (0, 7)]
    while True:
        bk = rng.choice(edge)
        wk = rng.choice([s for s in chess.SQUARES if chess.square_distance(s, bk) == 2])
        wr = rng.choice([s for s in chess.SQUARES if s not in (bk, wk)])
        board = chess.Board(None)
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(wr, chess.Piece(chess.ROOK, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        if board.is_valid():
            return board


def sample(size: int = 16, seed: int = 4) -> list[str]:
    """A seeded sample of near-mate KRK FENs."""
    rng = random.Random(seed)
    return [near_mate_krk(rng).fen() for _ in range(size)]


def brute_force_mate(board: chess.Board, max_moves: int) -> int | None:
    """The shortest mate for the side to move, up to ``max_moves``, straight from
    python-chess: try every move, then every reply, with no caches."""

    def mates_within(n: int) -> bool:
        for move in list(board.legal_moves):
            board.push(move)
            try:
                if board.is_checkmate():
                    return True
                if (
                    n > 1
                    and not board.is_game_over()
                    and all(_after(reply, n - 1) for reply in list(board.legal_moves))
                ):
                    return True
            finally:
                board.pop()
        return False

    def _after(reply: chess.Move, n: int) -> bool:
        board.push(reply)
        try:
            return mates_within(n)
        finally:
            board.pop()

    return next((n for n in range(1, max_moves + 1) if mates_within(n)), None)


def check_proof(proof, side: chess.Color, n: int) -> None:
    """A chess proof keeps one legal move of ours, every legal reply, and ends in mate."""
    board = proof.state.board
    if not proof.branches:
        assert board.is_checkmate() and board.turn != side
        return
    moves = [m for m, _ in proof.branches]
    if board.turn == side:
        assert n > 0 and len(moves) == 1 and moves[0] in board.legal_moves
        check_proof(proof.branches[0][1], side, n - 1)
    else:
        assert set(moves) == set(board.legal_moves) and len(moves) == len(set(moves))
        for _, child in proof.branches:
            check_proof(child, side, n)


@pytest.mark.parametrize(("fen", "dm"), suite())
def test_mate_in_n_on_the_krk_suite(fen: str, dm: int | None) -> None:
    proof = mate_in(fen, MAX_MOVES)
    assert (proof.moves if proof else None) == dm
    if proof is not None:
        check_proof(proof, chess.WHITE, dm)


def test_suite_labels_agree_with_brute_force() -> None:
    """The stored labels are what the independent brute force says."""
    for fen, dm in suite():
        assert brute_force_mate(chess.Board(fen), MAX_MOVES) == dm, fen


@pytest.mark.slow
def test_mate_in_n_agrees_with_brute_force_on_a_seeded_sample() -> None:
    found = []
    for fen in sample():
        proof = mate_in(fen, MAX_MOVES)
        expected = brute_force_mate(chess.Board(fen), MAX_MOVES)
        assert (proof.moves if proof else None) == expected, fen
        found.append(expected)
    assert any(k is not None for k in found) and None in found  # Both outcomes occur.


@pytest.mark.slow
def test_mate_in_n_agrees_with_tablebase() -> None:
    """Cross-check with the KRK tablebase (``al0.tablebase``, built on another
    branch): the prover finds a mate in k ≤ N exactly when the distance to mate is k."""
    from al0 import tablebase  # Inside the test: the module lives on another branch.

    krk = tablebase.load("KRK")
    for fen in [f for f, _ in suite()] + sample():
        board = chess.Board(fen)
        dtm = krk.dtm(board)
        proof = mate_in(fen, MAX_MOVES)
        expected = dtm if dtm is not None and dtm <= MAX_MOVES else None
        assert (proof.moves if proof else None) == expected, (fen, dtm)


def test_black_to_move_mates_too() -> None:
    """The prover plays for whoever is to move."""
    proof = mate_in("7K/8/5k2/8/8/8/8/r7 b - - 0 1", 2)
    assert proof is not None and proof.moves == 2
    check_proof(proof, chess.BLACK, 2)


def test_proof_text_uses_move_numbers_and_san() -> None:
    proof = mate_in("k1K5/1R6/8/8/8/8/8/8 w - - 0 1", 3)
    assert proof is not None
    assert mate_lines(proof) == [
        "1. Rb6",
        "   1... Ka7 2. Kc7",
        "      2... Ka8 3. Ra6#",
    ]


def test_stalemate_is_not_a_win() -> None:
    """Kc7 leaves Black's king on a8 no move: stalemate, a draw, not a mate."""
    fen = "k1K5/1R6/8/8/8/8/8/8 w - - 0 1"
    board = chess.Board(fen)
    board.push_san("Kc7")
    assert board.is_stalemate()
    assert mate_in(fen, 1) is None and mate_in(fen, 2) is None


@pytest.mark.parametrize(
    "fen",
    [
        "not a fen",
        "8/8/8/8/8/8/8/8 w - - 0 1",  # No kings.
        "k7/8/8/8/8/8/8/R6K w - - 0 1",  # Black in check with White to move.
    ],
)
def test_bad_positions_raise_position_error(fen: str) -> None:
    with pytest.raises(PositionError, match="FEN|position"):
        mate_in(fen, 1)


def test_chess_state_equality_ignores_move_counters() -> None:
    a = ChessState.from_fen("k7/8/8/8/8/8/8/1R5K w - - 0 1")
    b = ChessState.from_fen("k7/8/8/8/8/8/8/1R5K w - - 12 40")
    assert a == b and hash(a) == hash(b)
    game = ChessGame(a)
    assert game.parse_move(a, "Rb7") == game.parse_move(a, "b1b7")
