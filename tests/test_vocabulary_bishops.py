"""The vocabulary the bishop tables added: ``threatened`` judged against
python-chess on random positions of several materials (``centre_dist`` and
``threatened`` on hand-checked positions are in positions/vocabulary.epd)."""

from __future__ import annotations

import random

import chess
import pytest

from al0.library import Node
from al0.position import from_board
from al0.vocabulary import Binder
from test_vocabulary import random_position


def oracle_threatened(board: chess.Board, square: chess.Square) -> bool:
    """Undefended, and the other king is next to it or has a legal step next to it."""
    colour = board.color_at(square)
    assert colour is not None
    king = board.king(not colour)
    if king is None or board.is_attacked_by(colour, square):
        return False
    near = chess.SquareSet(chess.BB_KING_ATTACKS[square])
    if king in near:
        return True
    without_king = board.copy()
    without_king.remove_piece_at(king)
    return any(board.color_at(step) != (not colour) and step in near
               and not without_king.is_attacked_by(colour, step)
               for step in chess.SquareSet(chess.BB_KING_ATTACKS[king]))


@pytest.mark.parametrize("material", ("KBBK", "KBNK", "KRK", "KQKR", "KRKN"))
def test_threatened_agrees_with_python_chess_on_random_positions(material):
    binder = Binder(material)
    pieces = [piece for piece in binder.pieces.values() if piece.piece_type != chess.KING]
    bound = {piece.name: binder.bind(f"threatened({piece.name})", "predicate") for piece in pieces}
    rng = random.Random(f"threatened {material}")
    seen = set()
    for _ in range(300):
        board = random_position(rng, material)
        us = rng.choice(chess.COLORS)
        node = Node(from_board(board), 0, us)
        for piece in pieces:
            squares = sorted(board.pieces(piece.piece_type, us if piece.ours else not us))
            expected = (piece.index < len(squares)
                        and oracle_threatened(board, squares[piece.index]))
            assert bound[piece.name](node, node) == expected, (board.fen(), us, piece.name)
            seen.add(expected)
    assert seen == {True, False}


def test_threatened_takes_only_a_piece_of_the_material():
    from al0.errors import UnknownNameError
    with pytest.raises(UnknownNameError):
        Binder("KBBK").bind("threatened(N)", "predicate")
