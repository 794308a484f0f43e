"""The pawn vocabulary on hand-worked squares: ranks from the pawn's side,
the moves to promote, the rule of the square, the key squares and the
opposition, each case worked out by hand on a diagram."""

from __future__ import annotations

import chess
import pytest

from al0.board import Material
from al0.errors import TableSyntaxError
from al0.lang.compile_goals import compile_goal
from al0.lang.expr import parse_goal
from al0.lang.library import Library
from al0.lang.model import feature_calls, predicate_calls
from al0.lang.node import Node
from al0.lang.vocabulary.binding import Binder
from al0.lang.vocabulary.pawns import (
    inside_square,
    key_squares_of,
    moves_to_promote,
    opposition_between,
    relative_rank,
)

W, B = chess.WHITE, chess.BLACK


def square(name: str) -> chess.Square:
    return chess.parse_square(name)


@pytest.mark.parametrize(
    "pawn, colour, rank, moves",
    [
        ("e2", W, 2, 5),  # the double step saves a move
        ("e3", W, 3, 5),
        ("e7", W, 7, 1),
        ("a5", W, 5, 3),
        ("e7", B, 2, 5),  # Black's start rank
        ("e2", B, 7, 1),
        ("h4", B, 5, 3),
    ],
)
def test_rank_and_moves_to_promote_count_from_the_pawns_side(pawn, colour, rank, moves):
    assert relative_rank(square(pawn), colour) == rank
    assert moves_to_promote(square(pawn), colour) == moves


@pytest.mark.parametrize(
    "pawn, colour, king, king_to_move, inside",
    [
        ("e5", W, "b8", False, True),  # the square of e5 is b5-b8-e8-e5 … h5: b8 on its corner
        ("e5", W, "a8", False, False),  # one file outside, the pawn to move: it runs
        ("e5", W, "a8", True, True),  # the king to move steps in (b8 or b7)
        ("e5", W, "b4", False, False),  # below the square's lowest rank
        ("e5", W, "b4", True, True),  # steps to b5, into it
        ("e5", W, "h8", False, True),  # the square reaches to the other side too
        ("e2", W, "b2", False, False),  # the double step: e2's square is e3's, ranks 3 to 8
        ("e2", W, "b2", True, True),  # the king to move steps up into it
        ("a7", W, "c7", False, False),  # a7-a8: the square is a7 b7 a8 b8
        ("a7", W, "c7", True, True),  # the king to move takes b8 (or b7) in time
        ("d4", B, "g1", False, True),  # a Black pawn's square runs down the board
        ("d4", B, "h1", False, False),
        ("d7", B, "h3", False, True),  # from its start rank as from d6: ranks 6 down to 1
    ],
)
def test_the_rule_of_the_square(pawn, colour, king, king_to_move, inside):
    assert inside_square(square(pawn), colour, square(king), king_to_move) == inside


@pytest.mark.parametrize(
    "pawn, colour, keys",
    [
        ("e2", W, "d4 e4 f4"),  # two ranks in front
        ("e4", W, "d6 e6 f6"),
        ("e5", W, "d6 e6 f6 d7 e7 f7"),  # from the fifth rank, one rank in front too
        ("e6", W, "d7 e7 f7 d8 e8 f8"),
        ("e7", W, "d7 f7 d8 e8 f8"),  # beside it and in front of it
        ("b3", W, "a5 b5 c5"),
        ("h4", W, "g7 g8"),  # a rook pawn's: the neighbouring file's last two squares
        ("a2", W, "b7 b8"),
        ("e5", B, "d3 e3 f3"),  # Black's e5 is on its fourth rank
        ("e4", B, "d3 e3 f3 d2 e2 f2"),  # its fifth
        ("h5", B, "g2 g1"),
    ],
)
def test_key_squares(pawn, colour, keys):
    expected = 0
    for key in keys.split():
        expected |= chess.BB_SQUARES[square(key)]
    assert chess.SquareSet(key_squares_of(square(pawn), colour)) == chess.SquareSet(expected)


@pytest.mark.parametrize(
    "a, b, between",
    [
        ("e4", "e6", 1),  # direct, on the file
        ("e4", "g4", 1),  # direct, on the rank
        ("e4", "g6", 1),  # on the diagonal
        ("e2", "e6", 3),  # distant
        ("e1", "e7", 5),
        ("b2", "f6", 3),  # distant on the diagonal
        ("e4", "e5", 0),  # no square between: not opposition (nor legal)
        ("e4", "e7", 0),  # two squares between: even
        ("e4", "f6", 0),  # not on one line
        ("e4", "g5", 0),
    ],
)
def test_opposition_counts_the_squares_between_the_kings(a, b, between):
    assert opposition_between(square(a), square(b)) == between
    assert opposition_between(square(b), square(a)) == between


def holds(fen: str, source: str, material: str = "KPK", us: chess.Color = W) -> bool:
    """``source`` compiled against ``material``'s vocabulary, at ``fen`` with ``us`` the table's side."""
    binder = Binder(Material.parse(material))
    goal = parse_goal(source)
    library = Library("standard").with_standard()
    predicates = {
        c.text: binder.bind(c, "predicate") for c in predicate_calls(goal) if c.text not in library.predicates
    }
    features = {c.text: binder.bind(c, "feature") for c in feature_calls(goal)}
    compiled = compile_goal(goal, library.extended(predicates, {}, features))
    board = chess.Board(fen)
    return compiled(Node(board, 0, us), Node(board.copy(), 0, us))


@pytest.mark.parametrize(
    "fen, source",
    [
        # the pawn's rank and file, the moves to promote, the key squares
        (
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
            "pawn_rank(P) = 2 and pawn_file(P) = 4 and promotion_dist(P) = 5",
        ),
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "key_square_dist(K, P) = 3 and promotion_square_dist(K, P) = 7"),
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "not rook_pawn(P) and not key_square(K, P) and in_square(k, P)"),
        ("8/8/4k3/8/3K4/8/4P3/8 w - - 0 1", "key_square(K, P) and key_square_dist(K, P) = 0"),
        ("8/8/4k3/8/3K4/8/4P3/8 w - - 0 1", "key_square_dist(k, P) = 2 and not key_square(k, P)"),
        # the rook pawn: its key squares and its corner
        ("7k/8/8/8/8/8/7P/6K1 w - - 0 1", "rook_pawn(P) and pawn_file(P) = 1 and pawn_corner(k, P)"),
        ("7k/8/8/8/8/8/7P/6K1 w - - 0 1", "not key_square(K, P) and key_square_dist(K, P) = 6"),
        ("8/6K1/8/8/8/8/7P/k7 w - - 0 1", "key_square(K, P) and not pawn_corner(k, P)"),
        ("8/8/8/8/7k/8/7P/6K1 w - - 0 1", "not pawn_corner(k, P)"),  # in front, not in the corner
        # the rule of the square, the move counted
        ("8/8/8/5k2/P7/8/8/K7 w - - 0 1", "not in_square(k, P)"),  # a5 and the pawn promotes first
        ("8/8/8/5k2/P7/8/8/K7 b - - 0 1", "in_square(k, P)"),  # Ke5 steps in
        ("8/8/8/4k3/P7/8/8/K7 w - - 0 1", "in_square(k, P)"),
        # in front, behind, protected, attacked
        ("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "in_front(k, P) and behind(K, P) and not in_front(K, P)"),
        ("8/8/8/3k4/4P3/3K4/8/8 w - - 0 1", "protected(P) and attacked(P) and not en_prise(P)"),
        ("8/8/8/3k4/4P3/8/8/K7 w - - 0 1", "not protected(P) and attacked(P)"),
        # the opposition, who has it with the side to move
        ("8/8/4k3/8/4K3/8/4P3/8 b - - 0 1", "opposition and has_opposition(K) and not has_opposition(k)"),
        ("8/8/4k3/8/4K3/8/4P3/8 w - - 0 1", "has_opposition(k) and not has_opposition(K)"),
        ("4k3/8/8/8/4K3/8/4P3/8 b - - 0 1", "distant_opposition and has_opposition(K) and not opposition"),
        ("8/8/6k1/8/4K3/8/4P3/8 b - - 0 1", "has_opposition(K) and not distant_opposition"),  # diagonal
        ("8/8/5k2/8/4K3/8/4P3/8 b - - 0 1", "not has_opposition(K) and not has_opposition(k)"),
        # promoted: to a queen or rook the other side cannot take at once
        ("4Q3/8/8/8/8/8/8/k3K3 b - - 0 1", "promoted(P) and lost(P)"),
        ("3kQ3/5K2/8/8/8/8/8/8 b - - 0 1", "promoted(P)"),  # attacked but defended
        ("3kQ3/8/8/8/8/8/8/4K3 b - - 0 1", "not promoted(P)"),  # hanging
        ("3kN3/8/8/8/8/8/8/4K3 b - - 0 1", "not promoted(P)"),  # a knight does not win
        ("4R3/8/8/8/8/8/8/k3K3 b - - 0 1", "promoted(P)"),  # a rook wins too
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "not promoted(P) and pawn_rank(P) = 7 and promotion_dist(P) = 1"),
    ],
)
def test_the_pawn_vocabulary_on_hand_worked_positions(fen, source):
    assert holds(fen, source)


@pytest.mark.parametrize(
    "fen, source",
    [
        # the defending side's table (KKP, Black): its king K, their pawn p
        (
            "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1",
            "pawn_rank(p) = 2 and in_square(K, p) and key_square_dist(k, p) = 3",
        ),
        ("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", "in_front(K, p) and not has_opposition(K)"),
        ("8/8/4k3/8/4K3/8/4P3/8 w - - 0 1", "has_opposition(K) and key_square(k, p)"),
        # stalemated: our lone king with no move, the pawn's side's king shutting it in
        ("1k6/1P6/1K6/8/8/8/8/8 b - - 0 1", "stalemated and not stalemate"),
        ("1k6/1P6/1K6/8/8/8/8/8 w - - 0 1", "not stalemated"),  # their move
        ("k7/P7/2K5/8/8/8/8/8 b - - 0 1", "not stalemated"),  # Kxa7
        # our king on or next to every key square: a rook pawn's corner, the
        # bishop's file in front (c7, c8 against an a-pawn), not c6 (b8 two steps off)
        ("2k5/8/8/8/8/8/P7/K7 b - - 0 1", "guards_key_squares(K, p) and not pawn_corner(K, p)"),
        ("8/2k5/8/8/8/8/P7/K7 b - - 0 1", "guards_key_squares(K, p)"),
        ("k7/8/8/8/8/8/P7/K7 b - - 0 1", "guards_key_squares(K, p) and pawn_corner(K, p)"),
        ("8/8/2k5/8/8/8/P7/K7 b - - 0 1", "not guards_key_squares(K, p) and key_square_dist(K, p) = 1"),
        # another pawn's: two squares in front of it on its fourth rank (e7 against
        # e4), on a key square among the six from its fifth (e7 against e5)
        ("8/4k3/8/8/4P3/8/8/4K3 b - - 0 1", "guards_key_squares(K, p) and not key_square(K, p)"),
        ("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", "not guards_key_squares(K, p)"),
        ("8/4k3/8/4P3/8/8/8/4K3 b - - 0 1", "guards_key_squares(K, p) and key_square(K, p)"),
        ("4k3/8/8/4P3/8/8/8/4K3 b - - 0 1", "not guards_key_squares(K, p)"),
        # their king shut in a rook pawn's corner: stalemate, not stalemated
        ("K7/P1k5/8/8/8/8/8/8 w - - 0 1", "stalemate and not stalemated"),
    ],
)
def test_the_pawn_vocabulary_for_the_defending_side(fen, source):
    assert holds(fen, source, "KKP", B)


@pytest.mark.parametrize(
    "source",
    [
        "pawn_rank(K) = 2",
        "in_square(P, P)",
        "key_square(K, k)",
        "promoted(k)",
        "has_opposition(P)",
        "guards_key_squares(P, P)",
    ],
)
def test_pawn_words_take_a_pawn_or_a_king_where_they_need_one(source):
    with pytest.raises(TableSyntaxError):
        holds("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", source)
