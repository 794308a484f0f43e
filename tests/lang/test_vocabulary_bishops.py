"""The vocabulary the bishop tables added: ``threatened`` judged against
python-chess on random positions of several materials (``centre_dist`` and
``threatened`` on hand-checked positions are in positions/vocabulary.epd)."""

from __future__ import annotations

import chess
import pytest

from al0.board import Material
from al0.lang.expr import parse_call
from al0.lang.vocabulary.binding import Binder
from conftest import random_nodes


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
    return any(
        board.color_at(step) != (not colour)
        and step in near
        and not without_king.is_attacked_by(colour, step)
        for step in chess.SquareSet(chess.BB_KING_ATTACKS[king])
    )


@pytest.mark.parametrize("material", ("KBBK", "KBNK", "KRK", "KQKR", "KRKN"))
def test_threatened_agrees_with_python_chess_on_random_positions(material):
    binder = Binder(Material.parse(material))
    pieces = [piece for piece in binder.pieces.values() if piece.piece_type != chess.KING]
    bound = {
        piece.name: binder.bind(parse_call(f"threatened({piece.name})"), "predicate") for piece in pieces
    }
    seen = set()
    for board, us, node in random_nodes(f"threatened {material}", material, 300):
        for piece in pieces:
            squares = sorted(board.pieces(piece.piece_type, us if piece.ours else not us))
            expected = piece.index < len(squares) and oracle_threatened(board, squares[piece.index])
            assert bound[piece.name](node, node) == expected, (board.fen(), us, piece.name)
            seen.add(expected)
    assert seen == {True, False}


def test_threatened_takes_only_a_piece_of_the_material():
    from al0.errors import UnknownNameError

    with pytest.raises(UnknownNameError):
        Binder(Material.parse("KBBK")).bind(parse_call("threatened(N)"), "predicate")


def oracle_barrier(board: chess.Board, king: chess.Square) -> set[chess.Square]:
    """The squares the king's area never enters: attacked by the other side
    (seen through the king) or held by its own."""
    colour = board.color_at(king)
    assert colour is not None
    without_king = board.copy()
    without_king.remove_piece_at(king)
    attacked = {
        target
        for square in chess.SquareSet(without_king.occupied_co[not colour])
        for target in without_king.attacks(square)
    }
    return attacked | set(chess.SquareSet(board.occupied_co[colour]))


def oracle_area(
    board: chess.Board, king: chess.Square, start: chess.Square | None = None
) -> set[chess.Square]:
    """The squares of the king's area, by a flood fill over python-chess's
    attacks (from ``start`` instead of the king's square when given)."""
    barrier = oracle_barrier(board, king)
    start = king if start is None else start
    region, frontier = {start}, [start]
    while frontier:
        for step in chess.SquareSet(chess.BB_KING_ATTACKS[frontier.pop()]):
            if step not in region and step not in barrier:
                region.add(step)
                frontier.append(step)
    return region


def oracle_least_area(board: chess.Board, king: chess.Square) -> int:
    """The king's area if its square is not attacked; else the smallest area
    it keeps after a step to a square outside the barrier (0 if none)."""
    if not board.is_attacked_by(not board.color_at(king), king):
        return len(oracle_area(board, king))
    barrier = oracle_barrier(board, king)
    steps = [step for step in chess.SquareSet(chess.BB_KING_ATTACKS[king]) if step not in barrier]
    return min((len(oracle_area(board, king, step)) for step in steps), default=0)


@pytest.mark.parametrize("material", ("KBBK", "KBNK", "KQK", "KRK"))
def test_least_area_agrees_with_a_flood_fill_from_each_step_on_random_positions(material):
    binder = Binder(Material.parse(material))
    least = {name: binder.bind(parse_call(f"least_area({name})"), "feature") for name in ("K", "k")}
    shrinks = 0
    for board, us, node in random_nodes(f"least_area {material}", material, 300):
        for name in ("K", "k"):
            king = board.king(us if name == "K" else not us)
            expected = oracle_least_area(board, king)
            assert least[name](node) == expected, (board.fen(), us, name)
            shrinks += expected < len(oracle_area(board, king))
    assert shrinks  # some checked king can step into a smaller box


def oracle_area_corner_dist(board: chess.Board, king: chess.Square, corners: tuple[chess.Square, ...]) -> int:
    """King steps from the nearest square of the king's area to ``corners``."""
    region = oracle_area(board, king)
    return min(chess.square_distance(square, corner) for square in region for corner in corners)


@pytest.mark.parametrize("material", ("KBBK", "KBNK", "KQK"))
def test_area_corner_dist_agrees_with_a_flood_fill_on_random_positions(material):
    binder = Binder(Material.parse(material))
    light_corners, dark_corners = (chess.H1, chess.A8), (chess.A1, chess.H8)
    features = {
        (name, shade): binder.bind(parse_call(f"area_corner_dist({name}{shade})"), "feature")
        for name in ("K", "k")
        for shade in ("", ", light", ", dark")
    }
    for board, us, node in random_nodes(f"area_corner_dist {material}", material, 150):
        for name in ("K", "k"):
            king = board.king(us if name == "K" else not us)
            for shade, corners in (
                ("", light_corners + dark_corners),
                (", light", light_corners),
                (", dark", dark_corners),
            ):
                assert features[name, shade](node) == oracle_area_corner_dist(board, king, corners), (
                    board.fen(),
                    us,
                    name,
                    shade,
                )


@pytest.mark.parametrize("material", ("KBBK", "KBNK", "KQK"))
def test_box_measures_agree_with_a_flood_fill_on_random_positions(material):
    binder = Binder(Material.parse(material))
    corners = {
        "": (chess.A1, chess.H1, chess.A8, chess.H8),
        ", light": (chess.H1, chess.A8),
        ", dark": (chess.A1, chess.H8),
    }
    triangles = {shade: binder.bind(parse_call(f"corner_triangle(k{shade})"), "feature") for shade in corners}
    pieces = [name for name in binder.pieces if name != "k"]
    reach = {name: binder.bind(parse_call(f"area_dist({name}, k)"), "feature") for name in pieces}
    towards = {
        name: binder.bind(parse_call(f"triangle_corner_dist({name}, k)"), "feature") for name in pieces
    }
    seen = set()
    for board, us, node in random_nodes(f"corner_triangle {material}", material, 150):
        region = oracle_area(board, board.king(not us))
        spans = {}
        for shade, targets in corners.items():
            spans[shade] = {
                corner: max(chess.square_manhattan_distance(square, corner) for square in region)
                for corner in targets
            }
            assert triangles[shade](node) == 1 + min(spans[shade].values()), (board.fen(), shade)
            seen.add(1 + min(spans[shade].values()))
        nearest = [corner for corner, span in spans[""].items() if span == min(spans[""].values())]
        for name in pieces:
            piece = binder.pieces[name]
            squares = sorted(board.pieces(piece.piece_type, us))
            if piece.index >= len(squares):
                assert reach[name](node) is None and towards[name](node) is None
                continue
            square = squares[piece.index]
            assert reach[name](node) == min(chess.square_distance(square, other) for other in region), (
                board.fen(),
                name,
            )
            assert towards[name](node) == min(chess.square_distance(square, corner) for corner in nearest), (
                board.fen(),
                name,
            )
    assert len(seen) >= 2


@pytest.mark.parametrize("call", ("area_dist(K, B1)", "triangle_corner_dist(K, B2)", "corner_triangle(B1)"))
def test_box_measures_take_a_king_where_they_measure_a_box(call):
    from al0.errors import TableSyntaxError

    with pytest.raises(TableSyntaxError):
        Binder(Material.parse("KBBK")).bind(parse_call(call), "feature")


def edge_distance(square: chess.Square) -> int:
    file, rank = chess.square_file(square), chess.square_rank(square)
    return min(file, 7 - file, rank, 7 - rank)


@pytest.mark.parametrize("material", ("KBNK", "KBBK", "KRK"))
def test_inward_agrees_with_python_chess_on_random_positions(material):
    # inward: the king's free steps (as mobility's oracle) farther from the edge.
    binder = Binder(Material.parse(material))
    inward = {name: binder.bind(parse_call(f"inward({name})"), "feature") for name in ("K", "k")}
    seen = set()
    for board, us, node in random_nodes(f"inward {material}", material, 300):
        for name, feature in inward.items():
            colour = us if name == "K" else not us
            king = board.king(colour)
            without_king = board.copy()
            without_king.remove_piece_at(king)
            expected = sum(
                1
                for step in chess.SquareSet(chess.BB_KING_ATTACKS[king])
                if board.color_at(step) != colour
                and not without_king.is_attacked_by(not colour, step)
                and edge_distance(step) > edge_distance(king)
            )
            assert feature(node) == expected, (board.fen(), us, name)
            seen.add(expected)
    assert 0 in seen and len(seen) > 2


def oracle_diagonal_measure(region: set[chess.Square], corner: chess.Square) -> int:
    """8 times the farthest files-plus-ranks of ``region`` from ``corner``,
    plus the region's squares at that distance."""
    spans = [chess.square_manhattan_distance(square, corner) for square in region]
    return 8 * max(spans) + spans.count(max(spans))


@pytest.mark.parametrize("material", ("KBNK", "KBBK", "KQK"))
def test_diagonal_area_and_wrong_way_agree_with_a_flood_fill_on_random_positions(material):
    binder = Binder(Material.parse(material))
    light, dark = (chess.H1, chess.A8), (chess.A1, chess.H8)
    diagonal = {
        shade: binder.bind(parse_call(f"diagonal_area(k{shade})"), "feature")
        for shade in ("", ", light", ", dark")
    }
    wrong = {
        shade: binder.bind(parse_call(f"wrong_way(k, {shade})"), "feature") for shade in ("light", "dark")
    }
    seen = set()
    for board, us, node in random_nodes(f"diagonal_area {material}", material, 150):
        king = board.king(not us)
        region = oracle_area(board, king)
        for shade, corners in (("", light + dark), (", light", light), (", dark", dark)):
            assert diagonal[shade](node) == min(
                oracle_diagonal_measure(region, corner) for corner in corners
            ), (board.fen(), shade)
        for shade, rights, wrongs in (("light", light, dark), ("dark", dark, light)):
            values = []
            for right in nearest(king, rights):
                for towards in nearest(king, wrongs):
                    other = wrongs[0] if towards == wrongs[1] else wrongs[1]
                    part = {
                        square
                        for square in region
                        if chess.square_manhattan_distance(square, towards)
                        <= chess.square_manhattan_distance(square, other)
                    }
                    values.append(oracle_diagonal_measure(part, right) if part else 0)
            assert wrong[shade](node) == min(values), (board.fen(), shade)
            seen.add(min(values))
    assert len(seen) >= 3


def nearest(square: chess.Square, corners: tuple[chess.Square, ...]) -> list[chess.Square]:
    least = min(chess.square_distance(square, corner) for corner in corners)
    return [corner for corner in corners if chess.square_distance(square, corner) == least]


def test_hypotenuse_dist_agrees_with_a_flood_fill_on_random_positions():
    """``hypotenuse_dist(B, k, B)``: of the corners of the bishop's colour
    whose triangle round the box is least, the least difference between the
    bishop's files-plus-ranks from the corner and the triangle's size."""
    binder = Binder(Material.parse("KBNK"))
    hypotenuse = binder.bind(parse_call("hypotenuse_dist(B, k, B)"), "feature")
    anywhere = binder.bind(parse_call("hypotenuse_dist(N, k)"), "feature")
    held = 0
    for board, us, node in random_nodes("hypotenuse_dist KBNK", "KBNK", 150):
        region = oracle_area(board, board.king(not us))
        if not board.pieces(chess.BISHOP, us) or not board.pieces(chess.KNIGHT, us):
            assert None in (hypotenuse(node), anywhere(node))  # a piece taken: no value
            continue
        bishop, knight = board.pieces(chess.BISHOP, us).pop(), board.pieces(chess.KNIGHT, us).pop()
        shade = (
            (chess.A1, chess.H8) if chess.BB_SQUARES[bishop] & chess.BB_DARK_SQUARES else (chess.H1, chess.A8)
        )
        for piece, targets, measure in (
            (bishop, shade, hypotenuse),
            (knight, (chess.A1, chess.H1, chess.A8, chess.H8), anywhere),
        ):
            spans = {c: max(chess.square_manhattan_distance(s, c) for s in region) for c in targets}
            least = min(spans.values())
            expected = min(
                abs(chess.square_manhattan_distance(c, piece) - (1 + least))
                for c in targets
                if spans[c] == least
            )
            assert measure(node) == expected, (board.fen(), piece)
        held += hypotenuse(node) == 0
    assert held  # some bishop stands on the line that confines the box
