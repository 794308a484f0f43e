"""The standard chess vocabulary: its values on real positions, its binding
to a material, the book's KRK predicates restated in it, and its reference."""

from __future__ import annotations

import random
import re
from pathlib import Path

import chess
import pytest

from al0.errors import TableSyntaxError, UnknownNameError
from al0.expr import parse_goal
from al0.goals import compile_goal
from al0.library import Node, load_library
from al0.model import feature_names, predicate_names
from al0.vocabulary import Binder, reference_markdown
from conftest import ROOT

POSITIONS = Path(__file__).resolve().parent / "positions" / "vocabulary.epd"


def goal_for(source: str, material: str, base=None):
    """``source`` compiled against the vocabulary of ``material`` (and ``base``)."""
    from al0.library import Library
    binder = Binder(material)
    goal = parse_goal(source)
    library = base or Library("standard").with_standard()
    predicates = {n: binder.bind(n, "predicate") for n in predicate_names(goal)
                  if n not in library.predicates}
    features = {n: binder.bind(n, "feature") for n in feature_names(goal)}
    return compile_goal(goal, library.extended(predicates, {}, features))


def epd_cases():
    for line in POSITIONS.read_text().splitlines():
        board, ops = chess.Board.from_epd(line)
        yield pytest.param(board, ops["c0"], ops["c1"], id=f"{ops['c1']}: {ops['c0']}")


@pytest.mark.parametrize("board, source, material", list(epd_cases()))
def test_vocabulary_on_real_positions(board, source, material):
    goal = goal_for(source, material)
    assert goal(Node(board, 0, chess.WHITE), Node(board.copy(), 0, chess.WHITE))


BOOK = {
    "their_king_edge": "edge(k)",
    "our_king_edge": "edge(K)",
    "kings_close": "dist(K, k) < 4",
    "rooklost": "lost(R) or themtomove and en_prise(R)",
    "rookexposed": ("lost(R) or ustomove and dist(K, R) > dist(k, R) + 1"
                    " or themtomove and dist(K, R) > dist(k, R)"),
    "rookdivides": "divides(R)",
    "newroomsmaller": "room < root.room",
    "roomgt2": "room > 2",
    "okapproachedcsquare": "critical_mdist(K, R, k) < root.critical_mdist(K, R, k)",
    "lpatt": "mdist(K, k) = 2 and mdist(R, k) = 3",
    "okorndle": "dist(K, R) <= root.dist(K, R)",
}


def random_krk(rng: random.Random, rook: bool = True) -> chess.Board:
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 3)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[2], chess.Piece(chess.KING, chess.BLACK))
        if rook:
            board.set_piece_at(squares[1], chess.Piece(chess.ROOK, chess.WHITE))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            return board


@pytest.mark.parametrize("name", sorted(BOOK))
def test_the_book_krk_predicates_are_one_line_of_the_vocabulary(name):
    # Node and root drawn independently (rook present or taken), so the
    # comparisons with the root are exercised too.
    krk = load_library(ROOT / "library" / "krk.py")
    book, ours = krk.predicates[name], goal_for(BOOK[name], "KRK", krk)
    rng = random.Random(name)
    for _ in range(200):
        node = random_krk(rng, rook=rng.random() > 0.1)
        root = random_krk(rng)
        expected = book(Node(node, 1, chess.WHITE), Node(root, 0, chess.WHITE))
        assert ours(Node(node, 1, chess.WHITE), Node(root, 0, chess.WHITE)) == expected, (
            node.fen(), root.fen())


@pytest.mark.parametrize("text, kind, material, error", [
    ("dist(K, q)", "feature", "KRK", UnknownNameError),
    ("dist(K)", "feature", "KRK", TableSyntaxError),
    ("divides(K)", "predicate", "KRK", TableSyntaxError),
    ("room(R)", "feature", "KRK", TableSyntaxError),
    ("moves(B)", "generator", "KBBK", UnknownNameError),
    ("corner(k, grey)", "predicate", "KBBK", UnknownNameError),
])
def test_binding_rejects_bad_arguments(text, kind, material, error):
    with pytest.raises(error):
        Binder(material).bind(text, kind)


def test_one_call_written_two_ways_binds_one_function():
    binder = Binder("KRK")
    assert binder.bind("room", "feature") is binder.bind("room(k)", "feature")
    assert binder.bind("dist", "predicate") is None  # a feature, not a predicate


def test_moves_of_a_king_come_in_the_book_order():
    board = chess.Board("8/8/8/8/3K4/8/8/k6R w - - 0 1")
    generator = Binder("KRK").bind("moves(K)", "generator")
    moves = [m.uci() for m in generator(Node(board, 0, chess.WHITE))]
    assert moves == ["d4e5", "d4e3", "d4c5", "d4c3", "d4e4", "d4c4", "d4d5", "d4d3"]
    assert Binder("KRK").bind("moves(k)", "generator")(Node(board, 0, chess.WHITE)) == []


def test_language_reference_lists_the_vocabulary_from_its_docstrings():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = re.search(r"<!-- vocabulary:start -->\n(.*?)\n<!-- vocabulary:end -->", text, re.S)
    assert section, "docs/language.md lacks the vocabulary markers"
    assert section.group(1) == reference_markdown(), (
        "docs/language.md is out of date: paste the output of "
        "python -c 'from al0.vocabulary import reference_markdown; print(reference_markdown())'")
