"""Planning in one orientation per symmetry class: the board's symmetries
agree with python-chess's, the tablebase's start positions are canonical,
mirror images get mirrored plans, and a symmetric table's worst case is the
same from every orientation of a position (which is what lets ``verify``
judge one position per class)."""

from __future__ import annotations

import random

import chess
import pytest

from al0.board.moves import legal_moves
from al0.board.position import from_board, to_board
from al0.board.symmetry import (
    FILE_MIRROR,
    IDENTITY,
    INVERSE,
    SQUARE_MAPS,
    canonical_symmetry,
    class_key,
    symmetries,
    transform_move,
    transform_position,
)
from al0.engine.plan import Planner
from al0.engine.tree import principal_line, transform_tree
from al0.errors import PredicateError, SearchBudgetExceeded
from al0.lang.loader import load_table, parse_table
from al0.lang.model import AdviceTable
from al0.lang.specs import DefenderSpec, PositionsSpec
from al0.tablebase import Tablebase, load_if_any
from al0.verify.sources import start_positions
from al0.verify.verifier import Verifier, VerifySpec
from conftest import TABLES, random_position


def oracle(board: chess.Board, symmetry: int) -> chess.Board:
    """``board`` under ``symmetry`` by python-chess's Board.transform: files
    flipped (bit 1), ranks flipped (bit 2), then files and ranks swapped (4)."""
    if symmetry & 1:
        board = board.transform(chess.flip_horizontal)
    if symmetry & 2:
        board = board.transform(chess.flip_vertical)
    if symmetry & 4:
        board = board.transform(chess.flip_diagonal)
    return board


def random_boards(material: str, count: int, seed: int) -> list[chess.Board]:
    """Legal positions of the whole ``material`` (White's men first), White to move."""
    rng = random.Random(seed)
    return [random_position(rng, material, drop=0.0, turn=chess.WHITE) for _ in range(count)]


def mate_table(material: str) -> AdviceTable:
    """A one-rule table of ``material`` (mate in one), for its positions."""
    return parse_table(
        f"name: t\nmaterial: {material}\nrules: [{{name: r, if: true, then: [a]}}]\n"
        "advice: {a: {better-goal: mate, holding-goal: true, "
        "us-moves: {0: legal}, them-moves: {1: legal}}}\n",
        "t.yaml",
        TABLES,
    )


def tablebase_of(material: str) -> Tablebase:
    tablebase = load_if_any(material)
    assert tablebase is not None
    return tablebase


@pytest.mark.parametrize("symmetry", range(8))
def test_transforms_agree_with_python_chess(symmetry):
    for board in random_boards("KBNK", 50, seed=symmetry):
        image = transform_position(from_board(board), symmetry)
        assert to_board(image).board_fen() == oracle(board, symmetry).board_fen()
        assert transform_position(image, INVERSE[symmetry]) == from_board(board)
    for square in chess.SQUARES:
        assert SQUARE_MAPS[INVERSE[symmetry]][SQUARE_MAPS[symmetry][square]] == square


@pytest.mark.parametrize("material", ["KRK", "KBNK", "KBBK"])
@pytest.mark.slow
def test_the_tablebases_start_positions_are_canonical(material):
    table = mate_table(material)
    boards = start_positions(PositionsSpec.sample(300, seed=1), table, tablebase_of(material))
    for board in boards:
        assert canonical_symmetry(from_board(board), chess.WHITE) == IDENTITY, board.fen()


def test_every_orientation_has_one_canonical_image():
    for board in random_boards("KRK", 200, seed=7):
        images = {
            transform_position(
                from_board(oracle(board, g)), canonical_symmetry(from_board(oracle(board, g)), chess.WHITE)
            )
            for g in range(8)
        }
        assert len(images) == 1


def test_mirror_images_get_mirrored_plans():
    table = load_table(TABLES / "krk_fast.yaml")
    assert table.symmetric
    planner = Planner(table)
    for board in random_boards("KRK", 40, seed=3):
        position = from_board(board)
        plan = planner.plan(board)
        if plan.tree is None or any(transform_position(position, g) == position for g in range(1, 8)):
            continue  # no plan to mirror, or a position that is its own mirror
        for symmetry in range(1, 8):
            mirrored = planner.plan(oracle(board, symmetry))
            assert (mirrored.rule, mirrored.advice) == (plan.rule, plan.advice)
            assert principal_line(mirrored.tree) == principal_line(transform_tree(plan.tree, symmetry))


@pytest.mark.slow
def test_a_symmetric_tables_worst_case_is_the_same_from_every_orientation():
    verifier = Verifier(
        VerifySpec(str(TABLES / "krk_fast.yaml"), DefenderSpec("worst"), replay_worst_lines=False)
    )
    for board in random_boards("KRK", 25, seed=11):
        if verifier.optimal(board) is None:
            continue
        records = {(r.ending, r.moves) for r in (verifier.judge(0, oracle(board, g)) for g in range(8))}
        assert len(records) == 1, board.fen()


def test_which_bundled_tables_are_symmetric():
    # krk_bratko.yaml keeps the book's program's ties, bound to the board as
    # given (symmetric: false); a table naming B1 and B2 is symmetric only
    # when its author says so.
    assert not load_table(TABLES / "krk_bratko.yaml").symmetric
    for name in ("krk", "krk_fast", "krk_std", "kqk", "kbnk", "kbbk"):
        assert load_table(TABLES / f"{name}.yaml").symmetric, name
    text = (TABLES / "kbbk.yaml").read_text().replace("symmetric: true\n", "")
    assert not parse_table(text, str(TABLES / "kbbk.yaml"), TABLES).symmetric


def test_a_plan_error_names_the_position_as_given():
    table = load_table(TABLES / "krk_fast.yaml")
    board = chess.Board("8/8/8/8/8/2k5/8/R3K3 w - - 0 1")  # not canonical: Ke1
    assert canonical_symmetry(from_board(board), chess.WHITE) != IDENTITY
    with pytest.raises(SearchBudgetExceeded) as caught:
        Planner(table, budget=1).plan(board)
    assert board.fen() in str(caught.value)


def broken_symmetric_planner(advice: str) -> Planner:
    """A symmetric table on the broken library of tests/tables with one
    piece of advice, ``advice`` being its keys as YAML flow-mapping items."""
    text = (
        "name: t\nmaterial: KRK\nsymmetric: true\n"
        "library: ../tests/data/broken_tables/lib_broken_at_search.py\n"
        "rules: [{name: r, if: true, then: [a]}]\n"
        f"advice: {{a: {{{advice}}}}}\n"
    )
    return Planner(parse_table(text, "<test>", TABLES))


def test_a_library_error_deep_in_the_search_names_the_node_as_the_user_sees_it():
    # The predicate fails after our first move, in the canonical orientation;
    # the message must name that node's mirror image: a successor of the board.
    board = chess.Board("8/8/8/4K3/8/8/2k5/7R w - - 0 1")
    assert canonical_symmetry(from_board(board), chess.WHITE) != IDENTITY
    planner = broken_symmetric_planner(
        "better-goal: themtomove and says_false_as_text, holding-goal: true,"
        " us-moves: {0: legal}, them-moves: nomove"
    )
    with pytest.raises(PredicateError) as caught:
        planner.plan(board)
    named = str(caught.value).rsplit(" at ", 1)[1].split()[:2]  # placement and side to move
    successors = []
    for move in board.legal_moves:
        board.push(move)
        successors.append(board.fen().split()[:2])
        board.pop()
    assert named in successors, named


def test_an_illegal_move_from_a_library_is_named_in_the_users_orientation():
    # yields_illegal yields e6d5 in whatever orientation it is asked in: the
    # message maps it back, so it names the mirror image of e6d5.
    board = chess.Board("8/8/5K2/8/8/2R5/8/1k6 w - - 0 1")
    symmetry = canonical_symmetry(from_board(board), chess.WHITE)
    assert symmetry != IDENTITY
    planner = broken_symmetric_planner(
        "better-goal: themtomove, holding-goal: true, us-moves: {0: yields_illegal}, them-moves: nomove"
    )
    with pytest.raises(PredicateError) as caught:
        planner.plan(board)
    back = SQUARE_MAPS[INVERSE[symmetry]]
    expected = chess.Move(back[chess.E6], back[chess.D5]).uci()
    assert f"yielded {expected}, not a legal move" in str(caught.value)
    assert str(caught.value).endswith(f"at {board.fen()}")


@pytest.mark.parametrize("material, positions", [("KRK", 175_168), ("KBBK", None)])
@pytest.mark.slow
def test_every_lists_each_class_with_all_its_mirror_images(material, positions):
    table = mate_table(material)
    tablebase = tablebase_of(material)
    classes = start_positions(PositionsSpec("all"), table, tablebase)
    every = start_positions(PositionsSpec("every"), table, tablebase)
    if positions is not None:
        assert len(every) == positions
    # The first classes' images, in order, each class's board first.
    index = 0
    for number in range(40):
        board = classes[number]
        images = {oracle(board, g).board_fen() for g in range(8)}
        listed = every[index : index + len(images)]
        assert listed[0].board_fen() == board.board_fen()
        assert {image.board_fen() for image in listed} == images
        index += len(images)
    assert every[-1].board_fen() in {oracle(classes[len(classes) - 1], g).board_fen() for g in range(8)}


@pytest.mark.parametrize("seed", range(20))
def test_a_class_key_is_shared_by_mirror_images_only(seed):
    """Every mirror image of a position has its key; a position of another
    class (the same men, one moved) does not."""
    rng = random.Random(seed)
    board = random_position(rng, "KQRK") if seed % 2 else random_position(rng, "KBNK")
    key = class_key(from_board(board))
    assert {class_key(from_board(oracle(board, g))) for g in range(8)} == {key}
    images = {oracle(board, g).board_fen() for g in range(8)}
    other = next(
        b
        for b in (random_position(rng, "KQRK" if seed % 2 else "KBNK") for _ in range(100))
        if b.board_fen() not in images
    )
    assert class_key(from_board(other)) != key


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/2k5/3pP3/8/8/6K1 b - e3 0 1",  # en passant: the square goes with the board
        "8/1P6/8/8/8/8/6p1/K6k w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",  # symmetric but for the kings' files
    ],
)
def test_a_position_with_pawns_has_only_the_file_mirror(fen):
    position = from_board(chess.Board(fen))
    assert symmetries(position) == (IDENTITY, FILE_MIRROR)
    assert symmetries(from_board(chess.Board("8/8/8/8/8/2k5/8/K6R w - - 0 1"))) == tuple(range(8))
    mirrored = oracle(chess.Board(fen), FILE_MIRROR)
    image = transform_position(position, FILE_MIRROR)
    assert image == from_board(mirrored)
    # The mirror image's moves are the moves' mirror images.
    assert {transform_move(move, FILE_MIRROR) for move in legal_moves(position)} == set(legal_moves(image))


def test_a_pawn_position_is_planned_with_our_king_on_the_files_a_to_d():
    for board in random_boards("KRPK", 100, seed=46):
        position = from_board(board)
        symmetry = canonical_symmetry(position, chess.WHITE)
        image = transform_position(position, symmetry)
        assert symmetry in (IDENTITY, FILE_MIRROR)
        assert chess.square_file(to_board(image).king(chess.WHITE) or 0) <= 3
        assert transform_position(from_board(oracle(board, FILE_MIRROR)), FILE_MIRROR) == position
        assert class_key(position) == class_key(from_board(oracle(board, FILE_MIRROR)))
