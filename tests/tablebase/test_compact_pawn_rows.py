"""The tablebase's positions with pawns are compact positions with pawns:
its rows of bitboards (eight, the pawns last) read as the Position of the
board they stand for, either side to move."""

from __future__ import annotations

from pathlib import Path

import chess

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
