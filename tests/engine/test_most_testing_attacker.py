"""The most testing attacker: where the other side holds a draw, the move
that leaves it the fewest replies that keep the draw (and no man to take)."""

from __future__ import annotations

import chess
import pytest

from al0.engine import MostTestingAttacker


@pytest.fixture(scope="module")
def attacker():
    return MostTestingAttacker("KRKN")


def _holding(attacker: MostTestingAttacker, board: chess.Board) -> int:
    """The holder's replies that keep the draw, counted on boards (an
    independent path: python-chess's moves and the tablebase's boards)."""
    count = 0
    for reply in board.legal_moves:
        board.push(reply)
        count += attacker.table.result(board).winner is None
        board.pop()
    return count


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/3k4/4n3/8/8/1R2K3 w - - 0 1",  # krkn_hold's start, the rook's side to move
        "8/8/8/8/3R4/8/1kn5/5K2 w - - 0 1",
    ],
)
def test_its_move_keeps_the_draw_and_leaves_the_fewest_replies_that_hold(attacker, fen):
    board = chess.Board(fen)
    assert attacker.table.result(board).winner is None
    chosen = attacker(board)
    fewest = {}
    for move in board.legal_moves:
        board.push(move)
        if attacker.table.result(board).winner is None and not any(
            board.is_capture(r) for r in board.legal_moves
        ):
            fewest[move] = _holding(attacker, board)
        board.pop()
    assert chosen in fewest and fewest[chosen] == min(fewest.values())
    assert fewest[chosen] < max(fewest.values())  # a real choice: the tablebase's first draw would not do


def test_where_it_wins_it_mates_fastest(attacker):
    board = chess.Board("8/3R4/8/8/8/1k6/2n5/1K6 w - - 0 1")
    assert attacker.table.result(board).winner == chess.WHITE
    assert attacker(board) in attacker.table.best_moves(board)
