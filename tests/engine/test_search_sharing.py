"""What makes the search cheap must never change what it finds.

A planner shares nodes and, for advice whose goals do not read the root, its
searches' memos; an advice whose better-goal needs check skips the moves
that give none where only a leaf would do; one of mate alone (holding-goal
true) decides its nodes from their positions; one whose leaves have one side
to move visits no child of the other at bound 0 and searches bounds of one
parity; one of position-only goals keeps their outcome per position, and
its searches from roots whose features read alike share a memo. Each is
checked here against the search without it, on real positions.
"""

from __future__ import annotations

import dataclasses

import chess
import pytest

from al0.board import Material
from al0.board.position import from_board
from al0.board.sampling import random_positions
from al0.engine.compiled import compile_advice
from al0.engine.plan import Planner
from al0.engine.search import ForcingTreeSearch
from al0.errors import SearchBudgetExceeded
from al0.lang.infer import leaf_side, needs_check, position_only, reads_root
from al0.lang.library import Library
from al0.lang.loader import load_table
from al0.lang.model import And, Call, Compare, Const, DepthTest, Feature, Not, Or, Pred, Sum
from al0.lang.node import Node
from conftest import TABLES, TEST_TABLES


def plan_outline(plan):  # type: ignore[no-untyped-def]
    return plan.rule, plan.advice, plan.tried, plan.tree


@pytest.mark.parametrize("table_name", ["krk_bratko.yaml", "krk_std.yaml", "kqk.yaml"])
@pytest.mark.slow
def test_a_sharing_planner_plans_as_a_fresh_one(table_name, monkeypatch):
    # The Python search's sharing (the native core's: tests/engine/test_native.py).
    monkeypatch.setenv("AL0_CORE", "python")
    table = load_table(TABLES / table_name)
    sharing = Planner(table)
    boards = random_positions(table.material, 150, 7, table.us)
    for board in boards:
        fresh = Planner(table, cache=False).plan(board)
        assert plan_outline(sharing.plan(board)) == plan_outline(fresh), board.fen()
    # The searches did share: some advice reused a memo across roots.
    assert sharing.memos and any(sharing.memos.values())
    assert sharing.nodes


def test_what_reads_the_root(bratko):
    library = bratko.library
    assert not reads_root(Not(Pred(Call("rooklost"))), library)
    assert not reads_root(And((Pred(Call("themtomove")), Pred(Call("rookdivides")))), library)
    assert reads_root(Pred(Call("newroomsmaller")), library)  # room(node) < room(root)
    assert reads_root(Or((Pred(Call("mate")), Pred(Call("okorndle")))), library)
    at_root = Compare(
        "<",
        Sum(((1, Feature(Call("dist", ("K", "k")))),)),
        Sum(((1, Feature(Call("dist", ("K", "k")), at_root=True)),)),
    )
    assert reads_root(at_root, load_table(TABLES / "krk_std.yaml").library)


def _reads(predicate: object) -> bool:
    return reads_root(Pred(Call("p")), Library("t", {"p": predicate}))  # type: ignore[dict-item]


def test_a_predicate_reads_the_root_unless_its_code_never_names_it():
    def ignores(node, root):  # type: ignore[no-untyped-def]
        return node.depth > 1

    def reads(node, root):  # type: ignore[no-untyped-def]
        return node.depth > root.depth

    def captures(node, root):  # type: ignore[no-untyped-def]
        return (lambda: root)() is None

    def frame(node, root):  # type: ignore[no-untyped-def]
        return locals()["root"] is None

    def rebinds(node, root):  # type: ignore[no-untyped-def]
        root = node
        return root is None

    class Callable:
        def __call__(self, node, root):  # type: ignore[no-untyped-def]
            return False

    def star(*args):  # type: ignore[no-untyped-def]
        return False

    assert not _reads(ignores)
    for predicate in (reads, captures, frame, rebinds, Callable(), star, len):
        assert _reads(predicate), predicate


def test_a_memo_is_shared_only_by_advice_that_does_not_read_the_root(bratko):
    root = Node(chess.Board("8/8/8/3k4/8/8/1R6/4K3 w - - 0 1"), 0, chess.WHITE)
    squeeze = compile_advice(bratko.advice["squeeze"], bratko.library)
    divide = compile_advice(bratko.advice["divide_in_3"], bratko.library)
    assert squeeze.reads_root and not divide.reads_root
    with pytest.raises(ValueError, match="squeeze"):
        ForcingTreeSearch(squeeze, root, memo={})
    memo: dict = {}  # type: ignore[type-arg]
    assert ForcingTreeSearch(divide, root, memo=memo).run() is not None
    assert memo


def test_which_goals_need_check(bratko):
    library = bratko.library
    assert needs_check(Pred(Call("mate")), library)
    assert needs_check(Pred(Call("check")), library)
    assert needs_check(And((Pred(Call("themtomove")), Pred(Call("mate")))), library)
    assert needs_check(Or((Pred(Call("mate")), Pred(Call("check")))), library)
    assert not needs_check(Or((Pred(Call("mate")), Pred(Call("stalemate")))), library)
    assert not needs_check(Not(Pred(Call("mate"))), library)
    assert not needs_check(Pred(Call("rookdivides")), library)


ROOM_SHRANK = Compare(
    "<", Sum(((1, Feature(Call("room"))),)), Sum(((1, Feature(Call("room"), at_root=True)),))
)


@pytest.mark.parametrize(
    "goal, side",
    [
        (Pred(Call("ustomove")), True),
        (Pred(Call("themtomove")), False),
        (Pred(Call("mate")), False),
        (Pred(Call("stalemate")), False),
        (Pred(Call("check")), None),
        (And((Pred(Call("ustomove")), ROOM_SHRANK)), True),
        (And((ROOM_SHRANK, Pred(Call("mate")))), False),
        (And((Pred(Call("ustomove")), Pred(Call("themtomove")))), None),  # never holds: no side claimed
        (Or((Pred(Call("mate")), Pred(Call("stalemate")))), False),
        (Or((Pred(Call("ustomove")), Pred(Call("themtomove")))), None),
        (Or((Pred(Call("ustomove")), ROOM_SHRANK)), None),
        (Not(Pred(Call("ustomove"))), None),
        (ROOM_SHRANK, None),
    ],
)
def test_which_goals_hold_with_one_side_to_move(goal, side):
    library = load_table(TABLES / "krk_std.yaml").library
    assert leaf_side(goal, library) is side


@pytest.mark.parametrize(
    "table_name, goal, alone",
    [
        ("krk_std.yaml", ROOM_SHRANK, True),  # root read through features only
        ("krk_std.yaml", And((Pred(Call("mate")), Pred(Call("lost", ("R",))))), True),
        ("krk_std.yaml", Or((Const(True), DepthTest("<", 2))), False),  # names the depth
        ("krk_bratko.yaml", Pred(Call("rooklost")), False),  # a table's own Python
        ("krk_bratko.yaml", Pred(Call("mate")), True),
    ],
)
def test_which_goals_have_one_value_per_position(table_name, goal, alone):
    assert position_only(goal, load_table(TABLES / table_name).library) is alone


@pytest.mark.slow
def test_one_side_leaves_and_values_per_position_find_the_same_trees():
    # Leaves with us to move only: no visit of children that cannot be
    # leaves, bounds of one parity; goal outcomes kept per position.
    table = load_table(TEST_TABLES / "kbnk_progress_in_2.yaml")
    advice = compile_advice(table.advice["progress_in_2"], table.library)
    assert advice.leaf_ours is True and advice.position_only
    plain = dataclasses.replace(advice, leaf_ours=None, position_only=False)
    found = _trees_found_with_and_without(advice, plain, "KBNK", 40, 3)
    assert 0 < found < 40


@pytest.mark.slow
def test_searches_from_roots_alike_share_a_memo_and_plan_as_fresh_ones(monkeypatch):
    monkeypatch.setenv("AL0_CORE", "python")  # the twin's values (the core keeps them in its memo)
    table = load_table(TEST_TABLES / "kbnk_progress_in_2.yaml")
    sharing = Planner(table)
    for board in random_positions(table.material, 40, 11, table.us):
        fresh = Planner(table, cache=False).plan(board)
        assert plan_outline(sharing.plan(board)) == plan_outline(fresh), board.fen()
    # Memos and goal values kept by the root's feature values.
    assert sharing.memos and all(key[1] for key in sharing.memos)
    assert sharing.values.keys() == sharing.memos.keys()


def _trees_found_with_and_without(advice, plain, material, count, seed):
    """How many of ``count`` random positions have a tree for ``advice``,
    asserting at each that the search of ``plain`` (the advice with some
    shortcut off) finds the same tree."""
    found = 0
    for board in random_positions(Material.parse(material), count, seed, chess.WHITE):
        root = Node(from_board(board), 0, chess.WHITE)
        tree = ForcingTreeSearch(advice, root).run()
        assert tree == ForcingTreeSearch(plain, root).run(), board.fen()
        found += tree is not None
    return found


def _trees_found_with_and_without_the_shortcut(advice, material, count, seed):
    """:func:`_trees_found_with_and_without` the search skipping the moves
    that give no check where only a leaf would do."""
    assert advice.leaf_in_check
    return _trees_found_with_and_without(
        advice, dataclasses.replace(advice, leaf_in_check=False), material, count, seed
    )


@pytest.mark.slow
def test_skipping_moves_that_give_no_check_finds_the_same_trees():
    table = load_table(TEST_TABLES / "mate_in_3_kqk.yaml")
    advice = compile_advice(table.advice["mate_in_3"], table.library)
    found = _trees_found_with_and_without_the_shortcut(advice, "KQK", 40, 5)
    assert 0 < found < 40  # mates and no mates: the comparison means something


def test_mate_in_2_of_the_book_with_and_without_the_shortcut(bratko):
    advice = compile_advice(bratko.advice["mate_in_2"], bratko.library)
    assert _trees_found_with_and_without_the_shortcut(advice, "KRK", 400, 3) > 0


def test_which_advice_is_mate_alone(bratko):
    table = load_table(TEST_TABLES / "mate_in_3_kqk.yaml")
    assert compile_advice(table.advice["mate_in_3"], table.library).mate_alone
    # The book's mate_in_2 has a holding-goal of its own.
    assert not compile_advice(bratko.advice["mate_in_2"], bratko.library).mate_alone


@pytest.mark.parametrize("material, seed", [("KQK", 5), ("KRK", 11)])
@pytest.mark.slow
def test_deciding_mate_alone_from_positions_finds_the_same_trees(material, seed):
    # The same advice searched as any other: goals through nodes, their
    # moves from the generator, their nodes at bound 1 expanded.
    table = load_table(TEST_TABLES / "mate_in_3_kqk.yaml")
    advice = compile_advice(table.advice["mate_in_3"], table.library)
    plain = dataclasses.replace(
        advice, mate_alone=False, legal_depths=(), their_legal_depths=(), leaf_in_check=False
    )
    assert 0 < _trees_found_with_and_without(advice, plain, material, 40, seed) < 40


@pytest.mark.parametrize(
    "table_name, names",
    [
        ("krk_bratko.yaml", ("squeeze", "approach", "keeproom")),
        # Their squeeze and approach allow the standard legal moves alone.
        ("kqk.yaml", ("squeeze", "approach", "squeeze_half")),
    ],
)
def test_a_one_ply_search_finds_and_counts_what_the_full_search_does(table_name, names):
    # A one-ply search tries its root's moves without child records or memo
    # entries; a horizon of 2 sends the same advice down the full search
    # (their nodes have no move, so nothing more is met).
    table = load_table(TABLES / table_name)
    found = 0
    for name in names:
        advice = compile_advice(table.advice[name], table.library)
        assert advice.horizon == 1
        full = dataclasses.replace(advice, horizon=2)
        for board in random_positions(table.material, 60, 13, table.us):
            root = Node(from_board(board), 0, table.us)
            one_ply, searched = ForcingTreeSearch(advice, root), ForcingTreeSearch(full, root)
            assert one_ply.one_ply and not searched.one_ply
            tree = one_ply.run()
            assert tree == searched.run(), (name, board.fen())
            assert (one_ply.nodes, one_ply.moves) == (searched.nodes, searched.moves)
            found += tree is not None and not tree.is_leaf
    assert found > 20  # trees with a move, and failures: the comparison means something


def test_a_one_ply_search_spends_its_node_budget_as_the_full_search(bratko):
    advice = compile_advice(bratko.advice["squeeze"], bratko.library)
    root = Node(chess.Board("8/8/8/3k4/8/8/1R6/4K3 w - - 0 1"), 0, chess.WHITE)
    search = ForcingTreeSearch(advice, root)
    search.run()
    with pytest.raises(SearchBudgetExceeded, match="budget of"):
        ForcingTreeSearch(advice, root, search.nodes - 1).run()
    assert ForcingTreeSearch(advice, root, search.nodes).run() is not None


@pytest.mark.parametrize("cache", [True, False])
def test_a_plan_shows_the_board_with_its_move_counters(bratko, cache):
    """Also a plan the cache answers: it is keyed by the position alone, and
    a second board of the same position showed the first one's counters."""
    planner = Planner(bratko, cache=cache)
    for counters in ("7 42", "60 80", "7 42"):
        board = chess.Board(f"8/8/8/3k4/8/8/1R6/4K3 w - - {counters}")
        plan = planner.plan(board)
        assert plan.board.fen() == board.fen()
        assert plan.fen == board.fen()
