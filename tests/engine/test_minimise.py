"""``minimise: EXPR`` on a piece of advice: of the forcing trees that satisfy
it, the planner plays one whose worst leaf has the least value, checked
against a brute force over python-chess's moves on real positions."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import pytest

from al0.engine.plan import Planner
from al0.errors import TableSyntaxError, UnknownNameError
from al0.lang.loader import parse_table

TABLE = """\
name: closest
material: KRK
define:
  near: dist(K, k) + mdist(K, k)
rules:
  - {{name: only, if: true, then: [step]}}
advice:
  step:
    better-goal: depth = 2
    holding-goal: not stalemate and not (themtomove and en_prise(R))
    us-moves: {{0: moves(K)}}
    them-moves: {{1: legal}}
{minimise}
"""


def planner(minimise: str = "") -> Planner:
    return Planner(parse_table(TABLE.format(minimise=minimise), "closest.yaml", Path(".")))


def near(board: chess.Board) -> int:
    ours, theirs = board.king(chess.WHITE), board.king(chess.BLACK)
    assert ours is not None and theirs is not None
    return chess.square_distance(ours, theirs) + chess.square_manhattan_distance(ours, theirs)


def worst_after(board: chess.Board, move: chess.Move) -> int | None:
    """The greatest ``near`` over their replies to ``move`` (None: the
    move breaks the holding-goal: stalemate, or the rook left en prise)."""
    board.push(move)
    try:
        if (
            not any(board.legal_moves)
            or board.is_attacked_by(chess.BLACK, board.pieces(chess.ROOK, chess.WHITE).pop())
            and not board.is_attacked_by(chess.WHITE, board.pieces(chess.ROOK, chess.WHITE).pop())
        ):
            return None
        values = []
        for reply in list(board.legal_moves):
            board.push(reply)
            values.append(near(board))
            board.pop()
        return max(values)
    finally:
        board.pop()


def random_krk(rng: random.Random) -> chess.Board:
    while True:
        squares = rng.sample(chess.SQUARES, 3)
        board = chess.Board(None)
        for square, piece in zip(
            squares,
            (
                chess.Piece(chess.KING, chess.WHITE),
                chess.Piece(chess.ROOK, chess.WHITE),
                chess.Piece(chess.KING, chess.BLACK),
            ),
        ):
            board.set_piece_at(square, piece)
        if board.is_valid() and any(board.legal_moves):
            return board


def test_the_tree_played_has_the_least_worst_leaf():
    plain, minimising = planner(), planner("    minimise: near")
    rng = random.Random(5)
    differs = 0
    for _ in range(25):
        board = random_krk(rng)
        best = min(
            (
                v
                for m in board.legal_moves
                if board.piece_type_at(m.from_square) == chess.KING
                and (v := worst_after(board, m)) is not None
            ),
            default=None,
        )
        plan = minimising.plan(board)
        if best is None:
            assert plan.tree is None, board.fen()
            continue
        assert plan.tree is not None, board.fen()
        move = plan.tree.branches[0][0]
        assert worst_after(board, move) == best, board.fen()
        first = plain.plan(board).tree
        assert first is not None
        differs += first.branches[0][0] != move
    assert differs >= 5  # without minimise the first king move is played


@pytest.mark.parametrize(
    "minimise, kind, fragment",
    [
        (
            "    minimise: near <",
            TableSyntaxError,
            "closest.yaml:13:20: advice 'step' minimise: unexpected '<'",
        ),
        ("    minimise: 3 + 4", TableSyntaxError, "closest.yaml:13:15: advice 'step' minimise: a number"),
        ("    minimise: dist(K, q)", UnknownNameError, "closest.yaml:13:15:"),
        ("    minimise: mate", UnknownNameError, "closest.yaml:13:15: unknown feature 'mate'"),
    ],
)
def test_a_bad_minimise_is_an_error_at_its_place(minimise, kind, fragment):
    with pytest.raises(kind, match=fragment.replace("(", r"\(")):
        planner(minimise)
