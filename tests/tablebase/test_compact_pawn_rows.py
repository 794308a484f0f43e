"""The tablebase's positions with pawns are compact positions with pawns:
its rows of bitboards (eight, the pawns last) read as the Position of the
board they stand for, either side to move."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from al0 import tablebase as tb
from al0.board.position import from_board


def test_the_kpk_classes_compact_positions_are_their_boards(tablebase_cache: Path) -> None:
    table = tb.load("KPK", tablebase_cache)
    for turn in chess.COLORS:
        classes = table.positions(turn)
        assert len(classes) > 80_000
        compact = classes.compact(0, 20_000)
        for item in range(0, 20_000, 199):
            assert compact[item] == from_board(classes[item].board()), classes[item].board().fen()
            assert compact[item].pawns and compact[item].ep_square is None


@pytest.mark.parametrize("turn", chess.COLORS)
@pytest.mark.parametrize("stronger", chess.COLORS)
def test_the_kpk_classes_with_the_pawn_either_colours_are_mirror_images(
    tablebase_cache: Path, turn: chess.Color, stronger: chess.Color
) -> None:
    # Given to Black, White's classes were only recoloured: a black pawn on
    # a2 beside its king, a white king in check with Black to move (practice
    # KKP --level, verify of a pawn table with side: black).
    table = tb.load("KPK", tablebase_cache)
    white = table.positions(turn if stronger == chess.WHITE else not turn, won=True)
    classes = table.positions(turn, stronger=stronger, won=True)
    assert len(classes) == len(white)
    for item in range(0, len(classes), 997):
        board = classes[item].board()
        mirrored = white[item].board() if stronger == chess.WHITE else white[item].board().mirror()
        assert board.fen() == mirrored.fen() and board.is_valid()
        assert table.result(board).winner == turn
        assert classes.compact(item, item + 1)[0] == from_board(board)
