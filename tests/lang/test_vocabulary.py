"""The standard chess vocabulary: its values on real positions, its binding
to a material, the book's KRK predicates restated in it, and its reference."""

from __future__ import annotations

import random
import re

import chess
import pytest

from al0.board import Material
from al0.errors import TableSyntaxError, UnknownNameError
from al0.lang.compile_goals import compile_goal
from al0.lang.expr import parse_call, parse_goal
from al0.lang.library import load_library
from al0.lang.model import feature_calls, predicate_calls
from al0.lang.node import Node
from al0.lang.vocabulary.binding import Binder
from al0.lang.vocabulary.registry import reference_markdown
from conftest import POSITIONS, ROOT, random_nodes

POSITIONS = POSITIONS / "vocabulary.epd"


def goal_for(source: str, material: str, base=None):
    """``source`` compiled against the vocabulary of ``material`` (and ``base``)."""
    from al0.lang.library import Library

    binder = Binder(Material.parse(material))
    goal = parse_goal(source)
    library = base or Library("standard").with_standard()
    predicates = {
        c.text: binder.bind(c, "predicate") for c in predicate_calls(goal) if c.text not in library.predicates
    }
    features = {c.text: binder.bind(c, "feature") for c in feature_calls(goal)}
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
    "rookexposed": (
        "lost(R) or ustomove and dist(K, R) > dist(k, R) + 1 or themtomove and dist(K, R) > dist(k, R)"
    ),
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
            node.fen(),
            root.fen(),
        )


@pytest.mark.parametrize(
    "multiple, written_out",
    [
        (
            "3 * dist(k, R) - 2 * edge_dist(k) < root.dist(K, k) + 1",
            "dist(k, R) + dist(k, R) + dist(k, R) - edge_dist(k) - edge_dist(k) < root.dist(K, k) + 1",
        ),
        ("2 * mobility <= 3 * root.room - root.room - root.room", "mobility + mobility <= root.room"),
        ("0 * dist(K, R) + room < root.room", "room < root.room + dist(K, R) - dist(K, R)"),
        ("-2 * dist(K, k) > -2 * root.dist(K, k)", "dist(K, k) < root.dist(K, k)"),
    ],
)
def test_a_multiple_is_its_sum_written_out(multiple, written_out):
    # On positions with the rook present or taken (every comparison with a
    # feature of the rook then false, multiplied or not, even by 0).
    ours, theirs = goal_for(multiple, "KRK"), goal_for(written_out, "KRK")
    rng = random.Random(multiple)
    for _ in range(300):
        node, root = random_krk(rng, rook=rng.random() > 0.2), random_krk(rng)
        pair = (Node(node, 1, chess.WHITE), Node(root, 0, chess.WHITE))
        assert ours(*pair) == theirs(*pair), (node.fen(), root.fen())


@pytest.mark.parametrize(
    "text, kind, material, error",
    [
        ("dist(K, q)", "feature", "KRK", UnknownNameError),
        ("dist(K)", "feature", "KRK", TableSyntaxError),
        ("divides(K)", "predicate", "KRK", TableSyntaxError),
        ("cut_off(k)", "predicate", "KRKN", TableSyntaxError),
        ("room(R)", "feature", "KRK", TableSyntaxError),
        ("moves(B)", "generator", "KBBK", UnknownNameError),
        ("corner(k, grey)", "predicate", "KBBK", UnknownNameError),
    ],
)
def test_binding_rejects_bad_arguments(text, kind, material, error):
    with pytest.raises(error):
        Binder(Material.parse(material)).bind(parse_call(text), kind)


def test_one_call_written_two_ways_binds_one_function():
    binder = Binder(Material.parse("KRK"))
    assert binder.bind(parse_call("room"), "feature") is binder.bind(parse_call("room(k)"), "feature")
    assert binder.bind(parse_call("dist"), "predicate") is None  # a feature, not a predicate


def test_moves_of_a_king_come_in_the_book_order():
    board = chess.Board("8/8/8/8/3K4/8/8/k6R w - - 0 1")
    generator = Binder(Material.parse("KRK")).bind(parse_call("moves(K)"), "generator")
    moves = [m.uci() for m in generator(Node(board, 0, chess.WHITE))]
    assert moves == ["d4e5", "d4e3", "d4c5", "d4c3", "d4e4", "d4c4", "d4d5", "d4d3"]
    assert (
        Binder(Material.parse("KRK")).bind(parse_call("moves(k)"), "generator")(Node(board, 0, chess.WHITE))
        == []
    )


def test_language_reference_lists_the_vocabulary_from_its_docstrings():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = re.search(r"<!-- vocabulary:start -->\n(.*?)\n<!-- vocabulary:end -->", text, re.S)
    assert section, "docs/language.md lacks the vocabulary markers"
    assert section.group(1) == reference_markdown(), (
        "docs/language.md is out of date: paste the output of "
        "python -c 'from al0.lang.vocabulary.registry import reference_markdown; print(reference_markdown())'"
    )


ORACLE_MATERIALS = ("KRK", "KQK", "KBNK", "KBBK", "KNNK", "KQKR", "KRKN", "KQKB", "KRKB")


def _attacked_squares(board: chess.Board, colour: chess.Color) -> set[chess.Square]:
    """Every square ``colour``'s pieces attack on ``board``."""
    return {
        target for square in chess.SquareSet(board.occupied_co[colour]) for target in board.attacks(square)
    }


def _king_region(start: chess.Square, barrier: set[chess.Square]) -> int:
    """How many squares ``start`` reaches by king steps avoiding ``barrier``."""
    region, frontier = {start}, [start]
    while frontier:
        square = frontier.pop()
        for step in chess.SquareSet(chess.BB_KING_ATTACKS[square]):
            if step not in region and step not in barrier:
                region.add(step)
                frontier.append(step)
    return len(region)


def oracle_room(board: chess.Board, king: chess.Square) -> int:
    colour = board.color_at(king)
    assert colour is not None
    without_kings = board.copy()
    for square in chess.SquareSet(board.kings):
        without_kings.remove_piece_at(square)
    barrier = _attacked_squares(without_kings, not colour) | set(
        chess.SquareSet(without_kings.occupied_co[not colour])
    )
    return 64 if king in barrier else _king_region(king, barrier)


def oracle_area(board: chess.Board, king: chess.Square) -> int:
    colour = board.color_at(king)
    assert colour is not None
    without_king = board.copy()
    without_king.remove_piece_at(king)
    barrier = _attacked_squares(without_king, not colour) | set(chess.SquareSet(board.occupied_co[colour]))
    return _king_region(king, barrier)


def oracle_mobility(board: chess.Board, king: chess.Square) -> int:
    colour = board.color_at(king)
    assert colour is not None
    without_king = board.copy()
    without_king.remove_piece_at(king)
    return sum(
        1
        for step in chess.SquareSet(chess.BB_KING_ATTACKS[king])
        if board.color_at(step) != colour and not without_king.is_attacked_by(not colour, step)
    )


def by_squares(moves) -> list[str]:
    return [m.uci() for m in sorted(moves, key=lambda m: (m.from_square, m.to_square))]


@pytest.mark.parametrize("material", ORACLE_MATERIALS)
def test_vocabulary_agrees_with_python_chess_on_random_positions(material):
    # The vocabulary reads the compact position (al0.board.position); python-chess
    # on the same position is the oracle for squares, attacks, king regions
    # and legal moves, for both sides to move and pieces missing.
    binder = Binder(Material.parse(material))
    bound = {
        (name, piece.name): binder.bind(parse_call(f"{name}({piece.name})"), kind)
        for piece in binder.pieces.values()
        for name, kind in (
            ("attacked", "predicate"),
            ("en_prise", "predicate"),
            ("lost", "predicate"),
            ("moves", "generator"),
        )
    }
    kings = {
        name: {
            family: binder.bind(parse_call(f"{family}({name})"), "feature")
            for family in ("room", "area", "mobility")
        }
        for name in ("K", "k")
    }
    hanging = binder.bind(parse_call("hanging"), "feature")
    checks, captures = (
        binder.bind(parse_call("checks"), "generator"),
        binder.bind(parse_call("captures"), "generator"),
    )
    for board, us, node in random_nodes(material, material, 150):
        context = (board.fen(), us)
        for piece in binder.pieces.values():
            colour = us if piece.ours else not us
            squares = sorted(board.pieces(piece.piece_type, colour))
            square = squares[piece.index] if piece.index < len(squares) else None
            assert piece.square(node) == square, context
            assert bound["lost", piece.name](node, node) == (square is None), context
            attacked = square is not None and board.is_attacked_by(not colour, square)
            assert bound["attacked", piece.name](node, node) == attacked, context
            assert bound["en_prise", piece.name](node, node) == (
                attacked and not board.is_attacked_by(colour, square)
            ), context
            own_moves = (
                board.generate_legal_moves(chess.BB_SQUARES[square])
                if square is not None and board.turn == colour
                else []
            )
            assert sorted(m.uci() for m in bound["moves", piece.name](node)) == sorted(
                m.uci() for m in own_moves
            ), context
        for name, features in kings.items():
            king = board.king(us if name == "K" else not us)
            assert features["room"](node) == oracle_room(board, king), (context, name)
            assert features["area"](node) == oracle_area(board, king), (context, name)
            assert features["mobility"](node) == oracle_mobility(board, king), (context, name)
        assert hanging(node) == sum(
            1
            for square in chess.SquareSet(board.occupied_co[us] & ~board.kings)
            if board.is_attacked_by(not us, square) and not board.is_attacked_by(us, square)
        )
        assert [m.uci() for m in checks(node)] == by_squares(
            m for m in board.legal_moves if board.gives_check(m)
        ), context
        assert [m.uci() for m in captures(node)] == by_squares(board.generate_legal_captures()), context
