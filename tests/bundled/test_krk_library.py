"""Every KRK predicate and generator on positions worked out by hand.

Coordinates in comments are (file x, rank y), 1..8, as in the KRK library's docstrings.
"""

from __future__ import annotations

import chess
import pytest

from al0.board import Material
from al0.lang.library import load_library
from al0.lang.node import Node
from conftest import ROOT
from library import krk

KRK = load_library(ROOT / "library" / "krk.py")

# The book's start: W d4 (4,4), R e6 (5,6), B c2 (3,2); White to move.
START = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
# After 1. Re3: W d4 (4,4), R e3 (5,3), B c2 (3,2); Black to move.
AFTER_RE3 = "8/8/8/8/3K4/4R3/2k5/8 b - - 1 1"


def node(fen: str, depth: int = 0) -> Node:
    return Node(chess.Board(fen), depth, chess.WHITE)


def holds(name: str, fen: str, root_fen: str | None = None) -> bool:
    here = node(fen)
    return KRK.predicates[name](here, node(root_fen) if root_fen else here)


@pytest.mark.parametrize(
    "name, fen, expected",
    [
        # B c2 is not on an edge; B a4 is (x = 1); B h5 (x = 8); B e8 (y = 8).
        ("their_king_edge", START, False),
        ("their_king_edge", "8/8/8/k7/8/2R2K2/8/8 w - - 0 1", True),
        ("their_king_edge", "8/8/8/7k/8/2R2K2/8/8 w - - 0 1", True),
        ("their_king_edge", "4k3/8/8/8/8/2R2K2/8/8 w - - 0 1", True),
        ("our_king_edge", START, False),
        ("our_king_edge", "8/8/8/8/8/2k5/8/R1K5 w - - 0 1", True),  # W c1 (y = 1)
        # distance(d4, c2) = max(1, 2) = 2 < 4; distance(h1, a8) = 7.
        ("kings_close", START, True),
        ("kings_close", "k7/8/8/8/8/8/8/R6K w - - 0 1", False),
        # distance(a4, e4) = 4 is not < 4.
        ("kings_close", "8/8/8/8/k3K3/8/8/7R w - - 0 1", False),
    ],
)
def test_edges_and_closeness(name, fen, expected):
    assert holds(name, fen) is expected


@pytest.mark.parametrize(
    "fen, expected",
    [
        (START, False),
        # Black to move, B b1 next to R c1, W c3 two squares away: the rook falls.
        ("8/8/8/8/8/2K5/8/1kR5 b - - 0 1", True),
        # Same, but W d2 guards c1.
        ("8/8/8/8/8/8/3K4/1kR5 b - - 0 1", False),
        # Same as the first, but White to move: the rook can still be saved.
        ("8/8/8/8/8/2K5/8/1kR5 w - - 0 1", False),
        # No rook at all.
        ("8/8/8/8/8/2K5/8/1k6 b - - 0 1", True),
    ],
)
def test_rooklost(fen, expected):
    assert holds("rooklost", fen) is expected


@pytest.mark.parametrize(
    "fen, expected",
    [
        # d1 = distance(d4, e6) = 2, d2 = distance(c2, e6) = 4: not exposed.
        (START, False),
        # W f3 (6,3), R c3 (3,3), B a4 (1,4): d1 = 3, d2 = 2.
        # Us to move: 3 > 2 + 1 is false; them to move: 3 > 2 is true.
        ("8/8/8/k7/8/2R2K2/8/8 w - - 0 1", False),
        ("8/8/8/k7/8/2R2K2/8/8 b - - 0 1", True),
        # W h1, R c3, B a4: d1 = 5, d2 = 2: exposed either way.
        ("8/8/8/k7/8/2R5/8/7K w - - 0 1", True),
    ],
)
def test_rookexposed(fen, expected):
    assert holds("rookexposed", fen) is expected


@pytest.mark.parametrize(
    "fen, expected",
    [
        (START, False),  # files 4, 5, 3 and ranks 4, 6, 2: R outside both
        (AFTER_RE3, True),  # ranks: W 4 > R 3 > B 2
        # W e1 (5,1), R c5 (3,5), B a2 (1,2): files 1 < 3 < 5.
        ("8/8/8/2R5/8/8/k7/4K3 w - - 0 1", True),
        # B c8 (3,8), R c3 (3,3), W e1 (5,1): file 3 is not strictly between 3
        # and 5, but rank 3 is strictly between 1 and 8.
        ("2k5/8/8/8/8/2R5/8/4K3 w - - 0 1", True),
        # W e4 (5,4) instead: rank 3 is not between 4 and 8 either.
        ("2k5/8/8/8/4K3/2R5/8/8 w - - 0 1", False),
    ],
)
def test_rookdivides(fen, expected):
    assert holds("rookdivides", fen) is expected


@pytest.mark.parametrize(
    "fen, room",
    [
        (START, 20),  # (5-1) * (6-1)
        (AFTER_RE3, 8),  # (5-1) * (3-1)
        ("2k5/8/8/8/8/2R5/8/4K3 w - - 0 1", 64),  # B on R's file
        ("8/6k1/8/8/8/2R5/8/4K3 w - - 0 1", 25),  # B g7: (8-3) * (8-3)
        ("8/1k6/8/8/8/2R5/8/4K3 w - - 0 1", 10),  # B b7: (3-1) * (8-3)
        ("8/8/8/8/8/8/1R6/k3K3 w - - 0 1", 1),  # B a1, R b2: 1 * 1
    ],
)
def test_room(fen, room):
    assert krk.room(node(fen)) == room
    assert holds("roomgt2", fen) is (room > 2)


def test_newroomsmaller_compares_node_with_root():
    assert holds("newroomsmaller", AFTER_RE3, root_fen=START)  # 8 < 20
    assert not holds("newroomsmaller", START, root_fen=AFTER_RE3)  # 20 < 8 is false
    assert not holds("newroomsmaller", START, root_fen=START)


def test_okapproachedcsquare():
    # B g7 (7,7), R c3 (3,3): critical square (4,4) = d4.
    root = "8/6k1/8/8/8/2R5/1K6/8 w - - 0 1"  # W b2: Manhattan to d4 = 2 + 2 = 4
    closer = "8/6k1/8/8/8/1KR5/8/8 b - - 1 1"  # W b3: 2 + 1 = 3 < 4
    farther = "8/6k1/8/8/8/2R5/8/K7 b - - 1 1"  # W a1: 3 + 3 = 6
    assert holds("okapproachedcsquare", closer, root_fen=root)
    assert not holds("okapproachedcsquare", farther, root_fen=root)
    assert not holds("okapproachedcsquare", root, root_fen=root)


def test_critical_square_follows_their_king():
    # B b7 (2,7), R c3 (3,3): critical square (2,4) = b4; W b3 is 1 away,
    # W d3 is 2 + 1 = 3 away.
    root = "8/1k6/8/8/8/2RK4/8/8 w - - 0 1"
    assert holds("okapproachedcsquare", "8/1k6/8/8/8/1KR5/8/8 b - - 1 1", root_fen=root)


@pytest.mark.parametrize(
    "fen, expected",
    [
        # W c3, R d3, B c1: Manhattan(W, B) = 2, Manhattan(R, B) = 1 + 2 = 3.
        ("8/8/8/8/8/2KR4/8/2k5 w - - 0 1", True),
        # W c3, R e3, B c1: Manhattan(R, B) = 4.
        ("8/8/8/8/8/2K1R3/8/2k5 w - - 0 1", False),
        (START, False),  # Manhattan(W, B) = 3
    ],
)
def test_lpatt(fen, expected):
    assert holds("lpatt", fen) is expected


def test_okorndle():
    # Root: distance(d4, e6) = 2.
    assert holds("okorndle", "8/8/4R3/3K4/8/8/2k5/8 b - - 1 1", root_fen=START)  # d5: 1
    assert holds("okorndle", "8/8/4R3/8/4K3/8/2k5/8 b - - 1 1", root_fen=START)  # e4: 2
    assert not holds("okorndle", "8/8/4R3/8/8/3K4/8/1k6 b - - 1 1", root_fen=START)  # d3: 3


def moves(generator: str, fen: str) -> list[str]:
    return [m.uci() for m in KRK.generators[generator](node(fen))]


def test_kingdiagfirst_follows_the_books_order_and_avoids_their_king():
    # The book's neighbours of d4 (4,4): diagonals (5,5) (5,3) (3,5) (3,3),
    # then the rank (5,4) (3,4), then the file (4,5) (4,3). With B on c2,
    # c3 (3,3) and d3 (4,3) touch it and are left out.
    assert moves("kingdiagfirst", START) == ["d4e5", "d4e3", "d4c5", "d4e4", "d4c4", "d4d5"]


def test_rookmove_follows_the_books_order():
    # R e6: for I = 1..8, first along the file to (5, I), then along the rank
    # to (I, 6); e6 itself (I = 6 on the file, I = 5 on the rank) is skipped.
    assert moves("rookmove", START) == [
        "e6e1",
        "e6a6",
        "e6e2",
        "e6b6",
        "e6e3",
        "e6c6",
        "e6e4",
        "e6d6",
        "e6e5",
        "e6f6",
        "e6e7",
        "e6g6",
        "e6e8",
        "e6h6",
    ]


def test_legal_is_every_legal_move_in_the_books_order():
    board = chess.Board(START)
    ours = moves("legal", START)
    assert sorted(ours) == sorted(m.uci() for m in board.legal_moves)
    # King moves in kingdiagfirst's order, then the rook's in rookmove's.
    assert ours == moves("kingdiagfirst", START) + moves("rookmove", START)
    board.push_uci("e6e3")
    theirs = moves("legal", board.fen())
    # B c2 (3,2): the legal ones among its neighbours, in the book's order.
    assert sorted(theirs) == sorted(m.uci() for m in board.legal_moves)
    assert theirs == [
        m
        for m in ["c2d3", "c2d1", "c2b3", "c2b1", "c2d2", "c2b2", "c2c3", "c2c1"]
        if chess.Move.from_uci(m) in board.legal_moves
    ]


def test_kingdiagfirst_never_steps_onto_the_rook():
    assert "d4e5" not in moves("kingdiagfirst", "8/8/8/4R3/3K4/8/2k5/8 w - - 0 1")


def test_rookmove_stops_before_kings():
    # R e6 free: 2 up, 5 down, 4 left, 3 right.
    assert len(moves("rookmove", START)) == 14
    # W e4 blocks the way down after e5; nothing passes through or onto it.
    blocked = moves("rookmove", "8/8/4R3/8/4K3/8/2k5/8 w - - 0 1")
    assert sorted(blocked) == sorted(
        ["e6e7", "e6e8", "e6e5", "e6d6", "e6c6", "e6b6", "e6a6", "e6f6", "e6g6", "e6h6"]
    )


def test_checkmove_lands_on_their_kings_lines():
    assert sorted(moves("checkmove", START)) == ["e6c6", "e6e2"]


@pytest.mark.parametrize("material", ["KRK", "KK", "KQRK"])
def test_legal_is_exactly_the_legal_moves_for_either_side(material):
    # KRK takes the fast path, KK (the rook lost) too; other material falls
    # back on python-chess.
    from al0.board.sampling import random_positions

    for board in random_positions(Material.parse(material), 300, seed=8):
        for turn in (chess.WHITE, chess.BLACK):
            board.turn = turn
            if not board.is_valid():
                continue
            generated = moves("legal", board.fen())
            assert len(generated) == len(set(generated)), board.fen()
            assert set(generated) == {m.uci() for m in board.legal_moves}, board.fen()


def test_every_move_generated_is_legal():
    from al0.board.sampling import random_positions

    for board in random_positions(Material.parse("KRK"), 100, seed=7):
        legal = set(board.legal_moves)
        here = Node(board, 0, chess.WHITE)
        for name in ("kingdiagfirst", "rookmove", "checkmove"):
            assert set(KRK.generators[name](here)) <= legal, (name, board.fen())
