"""The move orders of library/krk_fast.py on positions worked out by hand,
and its re-export of the book's vocabulary.

Coordinates in comments are (file x, rank y), 1..8, as in the KRK library's docstrings.
"""

from __future__ import annotations

import chess
import pytest

from al0.lang.library import load_library
from al0.lang.node import Node
from conftest import ROOT

FAST = load_library(ROOT / "library" / "krk_fast.py")
BOOK = load_library(ROOT / "library" / "krk.py")

# W d4 (4,4), R e6 (5,6), B c2 (3,2); White to move (the book's start).
START = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"


def node(fen: str) -> Node:
    return Node(chess.Board(fen), 0, chess.WHITE)


def moves(generator: str, fen: str) -> list[str]:
    return [move.uci() for move in FAST.generators[generator](node(fen))]


def test_the_books_vocabulary_is_re_exported_unchanged():
    # Same names, same meaning: each predicate's and generator's docstring
    # (its definition) and its answers on the book's start after 1. Re3.
    after = Node(chess.Board("8/8/8/8/3K4/4R3/2k5/8 b - - 1 1"), 1, chess.WHITE)
    assert FAST.predicates.keys() - {"edgebound", "our_king_cornered", "rooksafe"} == BOOK.predicates.keys()
    for name, predicate in BOOK.predicates.items():
        assert FAST.predicates[name].__doc__ == predicate.__doc__
        assert FAST.predicates[name](after, node(START)) == predicate(after, node(START))
    for name, generator in BOOK.generators.items():
        assert FAST.generators[name].__doc__ == generator.__doc__
        assert list(FAST.generators[name](node(START))) == list(generator(node(START)))


def test_rooksqueeze_leaves_the_least_room_first():
    # B c2 (3,2): Re3 (5,3) leaves x < 5, y < 3: 4 * 2 = 8 squares, Re4
    # 4 * 3 = 12, Rd6 (4,6) x < 4, y < 6: 3 * 5 = 15; Re2 puts B on the
    # rook's rank (room 64): last.
    order = moves("rooksqueeze", START)
    assert order[:3] == ["e6e3", "e6e4", "e6d6"] and order[-1] == "e6e2"
    assert sorted(order) == sorted(move.uci() for move in BOOK.generators["rookmove"](node(START)))


def test_kingtoward_walks_at_the_critical_square():
    # R e6 (5,6), B c2 (3,2): the critical square is d5 (4,5), W d4 (4,4)
    # is one step from it; Kd5 is the only step that reaches it.
    order = moves("kingtoward", START)
    assert order[0] == "d4d5"
    # never next to B (c3, d3 touch c2) or onto R
    assert "d4c3" not in order and "d4d3" not in order


@pytest.mark.parametrize(
    "fen",
    [
        START,
        "8/8/8/8/8/k7/8/K6R w - - 0 1",
        "1R6/8/8/8/8/8/6k1/3K4 w - - 0 1",
        "8/8/8/8/8/8/8/RK1k4 w - - 0 1",
    ],
)
def test_squeezefirst_is_every_legal_move_rook_first(fen):
    order = moves("squeezefirst", fen)
    board = chess.Board(fen)
    assert sorted(order) == sorted(move.uci() for move in board.legal_moves)
    rook = board.pieces(chess.ROOK, chess.WHITE).pop()
    rook_moves = [uci for uci in order if chess.parse_square(uci[:2]) == rook]
    assert order[: len(rook_moves)] == rook_moves


# W a1, R e2, B c1: the rook shuts B on the first rank although W stands
# there too (the book's rookdivides fails: no rook line between the kings).
SHUT = "8/8/8/8/8/8/4R3/K1k5 b - - 1 1"


def feature(name: str, fen: str) -> int:
    return FAST.features[name](node(fen))


def test_edgebound_holds_when_every_square_their_king_reaches_is_on_its_edge():
    # From c1: b1 and b2 W attacks, rank 2 and the e-file R does: c1, d1 remain.
    assert FAST.predicates["edgebound"](node(SHUT), node(SHUT))
    assert feature("reach", SHUT) == 2
    # The book's start: B c2 in the middle of a 4 x 5 box.
    assert not FAST.predicates["edgebound"](node(START), node(START))
    assert feature("frontdist", START) == 8


def test_frontdist_is_the_walk_to_a_knights_move_in_front_of_their_king():
    # B c1 on rank 1: the squares two ranks up and one file aside are b3 and
    # d3; W a1 is two king steps from b3.
    assert feature("frontdist", SHUT) == 2
    # W c3, R a2, B f1: e3 and g3; W is two steps from e3.
    assert feature("frontdist", "8/8/8/8/8/2K5/R7/5k2 w - - 0 1") == 2


def test_kingtofront_walks_at_the_squares_in_front():
    # e3 is one step from d2, d3 and d4; d2 and d3 are nearer to B f1.
    order = moves("kingtofront", "8/8/8/8/8/2K5/R7/5k2 w - - 0 1")
    assert order[:3] == ["c3d2", "c3d3", "c3d4"]
    assert sorted(order) == sorted(moves("kingtoward", "8/8/8/8/8/2K5/R7/5k2 w - - 0 1"))


def test_rookaside_puts_the_rook_between_the_kings_first():
    # W a4, R b1, B a7: on the b-file, b5 and b6 lie between the kings'
    # ranks; b6 touches B, so b5 first, then the rest farthest from B (h1).
    order = moves("rookaside", "8/k7/8/8/K7/8/8/1R6 w - - 0 1")
    assert order[:2] == ["b1b5", "b1h1"]
    assert sorted(order) == sorted(moves("rookmove", "8/k7/8/8/K7/8/8/1R6 w - - 0 1"))


# W b1, R h3, B e2: the rook's third rank shuts both kings in the first two
# ranks; W b1 guards c1 and c2, the rook's h-file h1 and h2.
BOX = "8/8/8/8/8/7R/4k3/1K6 w - - 0 1"


def test_box_span_and_length_of_the_box_both_kings_share():
    # B reaches d1-g1 and d2-g2: 8 squares, in the two ranks next to rank 1
    # with W; were the rook to guard its rank only, h1 and h2 too: 10
    # squares over 5 files (d to h).
    assert feature("reach", BOX) == 8
    assert feature("box", BOX) == 2
    assert feature("span", BOX) == 10
    assert feature("length", BOX) == 5
    # The book's start: B c2 held in files a-d, ranks 1-5 (W d4 in it).
    assert feature("box", START) == 4


@pytest.mark.parametrize(
    "square, cornered",
    [
        ("a1", True),
        ("b2", True),
        ("c1", True),
        ("a3", True),
        ("f8", True),
        ("c2", False),
        ("d1", False),
        ("g6", False),
    ],
)
def test_our_king_cornered_is_two_steps_along_the_lines_from_a_corner(square, cornered):
    board = chess.Board(None)
    board.set_piece_at(chess.parse_square(square), chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(chess.E5, chess.Piece(chess.KING, chess.BLACK))
    board.set_piece_at(chess.A4 if square[0] != "a" else chess.H4, chess.Piece(chess.ROOK, chess.WHITE))
    fen = board.fen()
    assert FAST.predicates["our_king_cornered"](node(fen), node(fen)) is cornered


def test_rooksafe_when_their_king_cannot_come_next_to_the_rook():
    assert FAST.predicates["rooksafe"](node(BOX), node(BOX))  # h3 three steps from e2
    near = "8/8/8/8/8/5R2/4k3/1K6 w - - 0 1"  # f3 next to e2
    assert not FAST.predicates["rooksafe"](node(near), node(near))
    guarded = "8/8/8/8/8/2R5/1K6/4k3 w - - 0 1"  # c3 two from e1, W b2 guards it
    assert FAST.predicates["rooksafe"](node(guarded), node(guarded))


def test_rookbeyond_waits_out_of_reach_beyond_their_king():
    # Safe squares (three steps from e2) nearer B than W first: the h-file,
    # farthest from W first (h8); then a3 and b3, behind W; c3-g3 last.
    order = moves("rookbeyond", BOX)
    assert order[0] == "h3h8"
    assert set(order[:7]) == {"h3h1", "h3h2", "h3h4", "h3h5", "h3h6", "h3h7", "h3h8"}
    assert set(order[7:9]) == {"h3a3", "h3b3"}
    assert sorted(order) == sorted(moves("rookmove", BOX))


def test_rookfar_runs_to_the_edges_far_from_our_king_least_room_first():
    # W a1, R f5, B e4: the far edges are the h-file and the eighth rank.
    # Rh5 leaves B 7 x 4 = 28 squares of room, Rf8 5 x 7 = 35.
    assert moves("rookfar", "8/8/8/5R2/4k3/8/8/K7 w - - 0 1") == ["f5h5", "f5f8"]
    # W c1 (two files from the a-file), R f1, B d3: the same edges; Rf8
    # leaves 5 x 7 = 35, Rh1 7 x 7 = 49. None from a far edge.
    assert moves("rookfar", "8/8/8/8/8/3k4/8/2K2R2 w - - 0 1") == ["f1f8", "f1h1"]
    assert moves("rookfar", "5R2/8/8/8/4k3/8/8/K7 w - - 0 1") == []


def test_kingreach_steps_where_their_king_keeps_the_fewest_squares():
    # Kc1 and Kc2 take d1 and d2 from B (6 squares left); Kb2, Ka1, Ka2 none.
    order = moves("kingreach", BOX)
    assert set(order[:2]) == {"b1c1", "b1c2"}
    assert sorted(order) == sorted(moves("kingtoward", BOX))


@pytest.mark.parametrize(
    "fen, corner, edge",
    [
        ("8/8/8/8/3k4/8/8/K6R w - - 0 1", 0, 0),  # W a1
        ("8/8/8/8/3k4/8/2K5/7R w - - 0 1", 3, 1),  # W c2: 2 + 1 steps from a1
        ("8/8/8/8/7k/3K4/8/R7 w - - 0 1", 5, 2),  # W d3: 3 + 2 from a1, 4 + 2 from h1
        ("8/6K1/8/8/3k4/8/8/R7 w - - 0 1", 2, 1),  # W g7: 1 + 1 from h8
    ],
)
def test_cornerdist_and_edgedist_measure_our_king_alone(fen, corner, edge):
    assert feature("cornerdist", fen) == corner
    assert feature("edgedist", fen) == edge


def test_kingnear_walks_out_of_the_corner_towards_their_king():
    # W a1, B d4: b2 is two steps from d4, a2 and b1 three; of those, b1
    # and a2 are both one step along the lines from a1.
    order = moves("kingnear", "8/8/8/8/3k4/8/8/K6R w - - 0 1")
    assert order[0] == "a1b2"
    assert sorted(order) == sorted(moves("kingtoward", "8/8/8/8/3k4/8/8/K6R w - - 0 1"))
    # W c2, B e4: d3 is next to e4; d2 and c3 are two steps from it, then
    # of the three-step squares d1 and b3 (three along the lines from a
    # corner) before c1 (two from a1).
    order = moves("kingnear", "8/8/8/8/4k3/8/2K5/7R w - - 0 1")
    assert "c2d3" not in order
    assert set(order[:2]) == {"c2d2", "c2c3"} and set(order[2:4]) == {"c2d1", "c2b3"}
    assert order[4] == "c2c1"


@pytest.mark.parametrize(
    "fen, gap",
    [
        ("8/8/8/4k3/1R6/8/8/K7 w - - 0 1", 1),  # W a1, R b4, B e5: rank 4 next to B, 3 from W
        ("8/8/8/4k3/8/8/8/KR6 w - - 0 1", 8),  # R b1: the b-file cuts, but next to W
        ("8/8/8/7k/8/8/8/K2R4 w - - 0 1", 4),  # R d1, B h5: the d-file, four files from B
        ("8/8/4k3/8/1R6/8/8/K7 w - - 0 1", 2),  # B e6: rank 4 two ranks from it
        ("R7/8/8/8/3k4/8/8/1K6 w - - 0 1", 8),  # R a8: neither line between the kings
        ("2R5/8/8/8/3k4/8/8/1K6 w - - 0 1", 8),  # R c8: the c-file next to B, one from W
    ],
)
def test_cutgap_is_the_rook_cut_next_to_their_king_with_room_for_ours(fen, gap):
    assert feature("cutgap", fen) == gap
