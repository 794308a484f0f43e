"""The native core against the Python twin: every vocabulary feature and
predicate, every goal and move constraint of the bundled standard tables,
and whole searches (trees and node counts), on seeded positions; and a
planner on the core plans as one on the twin. Skipped where the core was
not built, or with ``AL0_CORE=python`` (tests/test_twin.py runs the
engine's and board's quick tests and a few of lang, teach, verify and uci
so, where the core is built)."""

from __future__ import annotations

import gc
import itertools
import pickle
import threading
import weakref
from array import array

import chess
import pytest

from al0.board import Material
from al0.board.moves import successors
from al0.board.position import from_board, move_code
from al0.board.sampling import random_positions
from al0.board.symmetry import INVERSE
from al0.core import native, status
from al0.engine.compiled import compile_advice
from al0.engine.history import EVERYWHERE, our_children, repeated
from al0.engine.limits import SearchLimits
from al0.engine.native import NativeSearch, Unsupported, compile_native, table_core
from al0.engine.plan import Planner
from al0.engine.search import ForcingTreeSearch
from al0.engine.tree import (
    LEAF,
    ForcingTree,
    PackedTree,
    packed_tree,
    principal_line,
    transform_tree,
    tree_code,
    tree_lines,
)
from al0.errors import SearchBudgetExceeded
from al0.lang.expr import parse_call
from al0.lang.loader import load_table, parse_table
from al0.lang.node import node_at
from al0.lang.vocabulary.binding import Binder
from conftest import ROOT, TABLES, vocabulary_calls

core = native()
pytestmark = pytest.mark.skipif(core is None, reason="the native core is not running")

STANDARD = ["krk_std", "kqk", "kbbk", "kbnk"]
"""The bundled tables of the standard vocabulary alone."""


def positions(material: str, count: int, seed: int) -> list:  # type: ignore[type-arg]
    """Seeded positions with us to move and, after each one's first legal
    move, one with them to move (and pieces taken, checks given)."""
    found = []
    for board in random_positions(Material.parse(material), count, seed):
        position = from_board(board)
        found.append(position)
        found += [child for _, child in itertools.islice(successors(position), 0, 40, 7)]
    return found


@pytest.mark.parametrize(
    "material", ["KRK", "KQK", "KBBK", "KBNK", "KQKR", "KRKN", "KNNK", "KPK", "KQKP", "KRPK", "KPKP"]
)
def test_every_feature_and_predicate_equals_the_twin(material: str) -> None:
    _assert_vocabulary_equal(material, positions(material, 12, seed=35)[:60])


def test_the_hand_worked_positions_read_alike_on_both() -> None:
    """The positions of tests/data/positions/vocabulary.epd, where the rare
    shapes (a pin, a fork, a skewer, Philidor's position) stand, which
    random positions seldom meet."""
    cases: dict[str, list] = {}  # type: ignore[type-arg]
    for line in (ROOT / "tests" / "data" / "positions" / "vocabulary.epd").read_text().splitlines():
        board, ops = chess.Board.from_epd(line)
        cases.setdefault(str(ops["c1"]), []).append(from_board(board))
    for material, found in cases.items():
        _assert_vocabulary_equal(material, found)


def _assert_vocabulary_equal(material: str, found: list) -> None:  # type: ignore[type-arg]
    """Every feature and predicate call of ``material`` reads the same on
    the core and on the twin at each of ``found``, for either side as us."""
    from al0.engine.native import _Writer
    from al0.lang.library import standard_library

    writer = _Writer(Material.parse(material), core)
    binder = Binder(Material.parse(material))
    standard = standard_library().predicates
    features = [
        (text, binder.bind(text, "feature"), *writer.feature(parse_call(text)))
        for text in vocabulary_calls(material, "feature", core.FEATURES)
    ]
    predicates = [
        (
            text,
            standard.get(text) or binder.bind(text, "predicate"),
            writer.predicates[text.split("(")[0]],
            writer.args(parse_call(text)),
        )
        for text in vocabulary_calls(material, "predicate", core.PREDICATES)
    ]
    for us in chess.COLORS:
        for position in found:
            node = node_at(position, 1, us)
            for text, function, number, args in features:
                assert core.feature(number, *args, position, us) == function(node), (text, position)
            for text, function, number, args in predicates:
                assert core.predicate(number, *args[:2], position, us) == function(node, node), (
                    text,
                    position,
                )


@pytest.mark.parametrize("table_name", [*STANDARD, "../tests/data/tables/kpk_escort"])
def test_every_goal_and_move_constraint_equals_the_twin(table_name: str) -> None:
    table = load_table(TABLES / f"{table_name}.yaml")
    samples = positions(table.material.name, 8, seed=35)
    roots = samples[::9]
    for name, advice in table.advice.items():
        compiled = compile_advice(advice, table.library)
        made = compile_native(advice, compiled, table)
        for position, depth in zip(samples, itertools.cycle(range(4))):
            root = node_at(roots[depth % len(roots)], 0, table.us)
            node = node_at(position, depth, table.us)
            assert made.core.goals(position, root.position, table.us, depth) == (
                compiled.holding(node, root),
                compiled.better(node, root),
            ), (name, position)
            ours = position.turn == table.us
            moves = (compiled.us_moves if ours else compiled.them_moves)(node)
            expected = [move_code(m) for segment, _ in moves for m in segment]
            assert list(made.core.allowed(position, table.us, depth, ours)) == expected, (name, position)


def _search_both(compiled, made, position, us, nodes):  # type: ignore[no-untyped-def]
    """Each search's (tree or the error's text, nodes)."""
    results = []
    for search in (
        ForcingTreeSearch(compiled, node_at(position, 0, us), nodes),
        NativeSearch(made, node_at(position, 0, us), nodes),
    ):
        try:
            results.append((search.run(), search.nodes))
        except SearchBudgetExceeded as error:
            results.append((str(error), None))
    return results


@pytest.mark.parametrize(
    "table_name",
    STANDARD
    + ["../benchmarks/kbnk_deep4", "../benchmarks/kbnk_published", "../tests/data/tables/kpk_escort"],
)
@pytest.mark.slow
def test_whole_searches_equal_the_twin(table_name: str) -> None:
    """Trees and node counts equal, or the same budget spent, for every
    advice from seeded roots (a small budget keeps the deep ones quick,
    and checks the budget too)."""
    table = load_table(TABLES / f"{table_name}.yaml")
    for name, advice in table.advice.items():
        compiled = compile_advice(advice, table.library)
        made = compile_native(advice, compiled, table)
        for board in random_positions(table.material, 6, seed=35, us=table.us):
            python, native_ = _search_both(compiled, made, from_board(board), table.us, 1500)
            assert python == native_, (name, board.fen())


@pytest.mark.parametrize(
    "table_name, names",
    [
        ("krk_std", None),
        ("kbnk", ("progress", "progress_in_2", "box_first_2", "mate_in_2")),
        ("../tests/data/tables/kpk_escort", None),
    ],
)
@pytest.mark.parametrize("reach", [1, EVERYWHERE])
def test_searches_excluding_positions_equal_the_twin(
    table_name: str, names: tuple[str] | None, reach: int
) -> None:
    """With the positions its first tree's moves of ours lead to excluded
    (a game's history, :mod:`al0.engine.history`), trees and node counts
    equal, or the same budget spent, and no tree found leads to one."""
    table = load_table(TABLES / f"{table_name}.yaml")
    other = 0
    for name, advice in table.advice.items():
        if names is not None and name not in names:
            continue
        compiled = compile_advice(advice, table.library)
        made = compile_native(advice, compiled, table)
        for board in random_positions(table.material, 3, seed=36, us=table.us):
            position = from_board(board)
            first = ForcingTreeSearch(compiled, node_at(position, 0, table.us), 1500)
            try:
                tree = first.run()
            except SearchBudgetExceeded:
                continue
            if tree is None or tree.is_leaf:
                continue
            seen = frozenset(our_children(position, tree))
            results = []
            for search in (
                ForcingTreeSearch(compiled, node_at(position, 0, table.us), 1500, excluded=seen, reach=reach),
                NativeSearch(made, node_at(position, 0, table.us), 1500, excluded=seen, reach=reach),
            ):
                try:
                    results.append((search.run(), search.nodes))
                except SearchBudgetExceeded as error:
                    results.append((str(error), None))
            assert results[0] == results[1], (name, board.fen())
            found = results[0][0]
            if isinstance(found, ForcingTree):
                assert not repeated(position, found, seen, reach), (name, board.fen())
                other += 1
    assert other  # some advice has another tree


def _outline(plan):  # type: ignore[no-untyped-def]
    return plan.rule, plan.advice, plan.tried, plan.tree, plan.nodes


@pytest.mark.parametrize(
    "table_name, count, cache",
    [
        ("krk_std", 60, True),
        ("krk_std", 60, False),
        ("../tests/data/tables/kqk_merged", 30, True),  # kqk.yaml without its preferences
        ("kbbk", 20, True),
        ("../tests/data/tables/kbnk_progress_in_2", 10, True),
        ("../tests/data/tables/kpk_escort", 40, True),
        ("../tests/data/tables/kpk_escort", 40, False),
    ],
)
def test_a_planner_on_the_core_plans_as_one_on_the_twin(
    table_name: str, count: int, cache: bool, monkeypatch
) -> None:
    """Whole plans (rule, advice, tried, tree and nodes) equal: the core
    plans the table in one call (its rules, searches and symmetry), each
    planner sharing memos between its searches as it does (with a cache;
    kbnk_progress_in_2's by the features its goal reads at the root)."""
    table = load_table(TABLES / f"{table_name}.yaml")
    on_core = Planner(table, cache=cache)
    assert on_core.native.keys() == table.advice.keys() and on_core.core is not None
    monkeypatch.setenv("AL0_CORE", "python")
    twin = Planner(table, cache=cache)
    assert not twin.native and twin.core is None
    for board in random_positions(table.material, count, seed=35, us=table.us):
        a, b = on_core.plan(board), twin.plan(board)
        assert _outline(a) == _outline(b) and repr(a.tree) == repr(b.tree), board.fen()
    if cache:  # the core's planner shared memos between searches, as the twin's does
        assert on_core.core.shared() and any(twin.memos.values())


def test_plans_without_a_rule_or_an_advice_are_the_twins(monkeypatch) -> None:
    """No precondition holds (rule None), or no advice gives a move (tried
    all of them): the core says so as the twin does."""
    table = parse_table(
        "name: t\nmaterial: KRK\nrules:\n"
        "  - {name: edge, if: edge(k) and not edge(K), then: [squeeze, keeproom]}\n"
        "advice:\n"
        "  squeeze: {better-goal: room < root.room and divides(R), holding-goal: not en_prise(R),"
        " us-moves: {0: moves(R)}, them-moves: nomove}\n"
        "  keeproom: {better-goal: themtomove and room < 3, holding-goal: true,"
        " us-moves: {0: moves(K)}, them-moves: nomove}\n",
        "t.yaml",
        TABLES,
    )
    on_core = Planner(table, cache=False)
    assert on_core.core is not None
    monkeypatch.setenv("AL0_CORE", "python")
    twin = Planner(table, cache=False)
    kinds = set()
    for board in random_positions(Material.parse("KRK"), 60, seed=3, us=chess.WHITE):
        a, b = on_core.plan(board), twin.plan(board)
        assert _outline(a) == _outline(b), board.fen()
        kinds.add((a.rule, a.advice, a.tried))
    assert (None, None, ()) in kinds and ("edge", None, ("squeeze", "keeproom")) in kinds
    assert ("edge", "keeproom", ("squeeze",)) in kinds


@pytest.mark.parametrize("cache", [True, False])
def test_a_plan_stopped_by_a_limit_is_the_twins_error(cache: bool, monkeypatch) -> None:
    """A search that reaches its node budget stops the plan with the twin's
    error, naming the position asked for (not its canonical image)."""
    table = load_table(TABLES / "krk_std.yaml")
    board = chess.Board("8/8/8/2R5/8/3k4/5K2/8 w - - 0 1")  # divide_in_2, 194 nodes; not canonical
    errors = []
    for core_name in ("native", "python"):
        monkeypatch.setenv("AL0_CORE", core_name)
        planner = Planner(table, cache=cache)
        with pytest.raises(SearchBudgetExceeded) as caught:
            planner.plan(board, SearchLimits(nodes=60))
        errors.append(str(caught.value))
    assert errors[0] == errors[1] and board.board_fen() in errors[0]


def test_a_tree_from_the_core_is_read_when_asked_and_is_the_twins(monkeypatch) -> None:
    """The plan's tree comes packed: its height at hand, its branches read
    when first asked for; equal to the twin's tree, as a value, hash, text
    and pickle, and under every symmetry."""
    table = load_table(TABLES / "krk_std.yaml")
    board = chess.Board("8/8/8/5R2/8/4k3/2K5/8 w - - 0 1")  # divide_in_2: a tree of height 3
    tree = Planner(table, cache=False).plan(board).tree
    monkeypatch.setenv("AL0_CORE", "python")
    twin = Planner(table, cache=False).plan(board).tree
    assert isinstance(tree, PackedTree) and "branches" not in tree.__dict__ and tree.height == 3
    assert tree == twin and twin == tree and hash(tree) == hash(twin) and repr(tree) == repr(twin)
    assert "branches" in tree.__dict__
    again = pickle.loads(pickle.dumps(tree))
    assert type(again) is ForcingTree and again == twin
    for symmetry in range(8):
        mapped = transform_tree(tree, symmetry)
        assert mapped == transform_tree(twin, symmetry)
        assert transform_tree(mapped, INVERSE[symmetry]) == twin
    assert principal_line(tree) == principal_line(twin)
    # Read whole, it holds no cycle: it goes when its last reference does.
    gc.disable()
    try:
        list(tree_lines(tree, board))
        gone = weakref.ref(tree.branches[0][1])
        del tree
        assert gone() is None
    finally:
        gc.enable()


def test_a_packed_tree_keeps_shared_subtrees_shared() -> None:
    # [height, count, (move, child) * count]: a root whose two moves lead to
    # one node (index 6), whose one move leads to a leaf.
    a1a2, a1b1, a2a3 = (chess.A1 << 6 | chess.A2), (chess.A1 << 6 | chess.B1), (chess.A2 << 6 | chess.A3)
    tree = packed_tree(array("i", [2, 2, a1a2, 6, a1b1, 6, 1, 1, a2a3, -1]).tobytes())
    (first, left), (second, right) = tree.branches
    assert (first.uci(), second.uci()) == ("a1a2", "a1b1") and left is right
    assert left == ForcingTree(1, ((chess.Move.from_uci("a2a3"), LEAF),)) and left.branches[0][1] is LEAF


def test_a_tree_travels_as_the_cores_code_and_is_read_back_equal(monkeypatch) -> None:
    """tree_code: the core's own bytes for its tree (not copied); the
    Python search's tree, a mirror image and a tree with a shared subtree
    written in its format, read back by packed_tree as equal trees."""
    table = load_table(TABLES / "krk_std.yaml")
    board = chess.Board("8/8/8/5R2/8/4k3/2K5/8 w - - 0 1")
    tree = Planner(table, cache=False).plan(board).tree
    monkeypatch.setenv("AL0_CORE", "python")
    twin = Planner(table, cache=False).plan(board).tree
    assert isinstance(tree, PackedTree) and tree_code(tree) is tree.__dict__["_code"]
    tree.branches  # read: its code is a view of the same bytes now
    assert tree_code(tree) == tree_code(twin)
    for each in (tree, twin, transform_tree(tree, 3), transform_tree(twin, 5), LEAF):
        assert packed_tree(tree_code(each)) == each
    a2a3 = chess.Move.from_uci("a2a3")
    shared = ForcingTree(1, ((a2a3, LEAF),))
    dag = ForcingTree(2, ((chess.Move.from_uci("a1a2"), shared), (chess.Move.from_uci("a1b1"), shared)))
    code = tree_code(dag)
    assert len(code) == 4 * 10  # the shared node written once
    (_, left), (_, right) = packed_tree(code).branches
    assert left is right and packed_tree(code) == dag
    # A promotion keeps its piece (a tree of the Python search, or a mirror
    # image's, once travelled as c7c8: verify kpk then failed an assert).
    board = chess.Board("8/2P5/8/4K3/8/8/3k4/8 w - - 0 1")
    pawn_tree = Planner(load_table("kpk"), cache=False).plan(board).tree
    assert pawn_tree is not None
    for each in (pawn_tree, transform_tree(pawn_tree, 1)):
        assert packed_tree(tree_code(each)) == each
    underpromotion = ForcingTree(1, ((chess.Move.from_uci("c7c8r"), LEAF),))
    assert packed_tree(tree_code(underpromotion)) == underpromotion


def test_tables_the_core_cannot_plan_whole_plan_on_the_python_loop(monkeypatch) -> None:
    """A Python library, a ``minimise:`` advice, a position of more men than
    the core holds: the Python loop plans (its searches on the core where
    they can)."""
    assert Planner(load_table(TABLES / "krk.yaml")).core is None
    minimising = parse_table(
        "name: t\nmaterial: KRK\nrules: [{name: r, if: true, then: [a]}]\n"
        "advice: {a: {better-goal: themtomove, holding-goal: true, us-moves: {0: moves(K)},"
        " them-moves: nomove, minimise: 'dist(K, k)'}}\n",
        "t.yaml",
        TABLES,
    )
    planner = Planner(minimising)
    assert (
        planner.native
        and planner.core is None
        and "plans chosen in Python (prefer:" in table_core(minimising)
    )
    table = parse_table(
        "name: t\nmaterial: KQQQQQQQQK\nrules: [{name: r, if: true, then: [a]}]\n"
        "advice: {a: {better-goal: mate, holding-goal: true, us-moves: {0: legal}, them-moves: {1: legal}}}\n",
        "t.yaml",
        TABLES,
    )
    crowded = chess.Board("QQQQ4/QQQQ4/8/7k/8/8/8/4K3 w - - 0 1")
    plans = []
    for core_name in ("native", "python"):
        monkeypatch.setenv("AL0_CORE", core_name)
        planner = Planner(table, cache=False)
        assert (planner.core is not None) is (core_name == "native")
        plans.append(_outline(planner.plan(crowded)))
    assert plans[0] == plans[1] and plans[0][0] is not None


def test_a_python_library_stays_on_the_twin() -> None:
    table = load_table(TABLES / "krk.yaml")
    advice = next(iter(table.advice.values()))
    with pytest.raises(Unsupported):
        compile_native(advice, compile_advice(advice, table.library), table)
    assert table_core(table).startswith("python")
    assert table_core(load_table(TABLES / "krk_std.yaml")).startswith("native")
    assert "each plan made whole by the core" in table_core(load_table(TABLES / "krk_std.yaml"))


def test_python_can_be_asked_for(monkeypatch) -> None:
    monkeypatch.setenv("AL0_CORE", "python")
    assert native() is None and "AL0_CORE=python" in status()
    assert "AL0_CORE=python" in table_core(load_table(TABLES / "kbbk.yaml"))


class _CountingEvent(threading.Event):
    """A stop flag that counts how often it is read."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def is_set(self) -> bool:
        self.reads += 1
        return super().is_set()


def test_the_core_polls_the_stop_flag_while_it_searches() -> None:
    """The core reads the flag (a threading.Event, which the UCI worker's
    thread sets) every few thousand steps while it runs without the GIL;
    set, it ends the search with the Python search's error. No timing: the
    flag is read, or set before the search starts."""
    table = load_table(TABLES / "kbbk.yaml")
    advice = table.advice["mate_in_6"]
    made = compile_native(advice, compile_advice(advice, table.library), table)
    root = node_at(from_board(chess.Board("8/8/8/3k4/8/8/8/2BBK3 w - - 0 1")), 0, table.us)
    reading = _CountingEvent()
    NativeSearch(made, root, SearchLimits(stop=reading)).run()
    assert reading.reads > 0
    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchBudgetExceeded, match="stopped"):
        NativeSearch(made, root, SearchLimits(stop=stop)).run()


def test_a_plan_on_the_core_polls_the_stop_flag_and_the_clock() -> None:
    """A plan runs with the GIL held and, every 1,024 nodes, lets other
    threads run and reads the stop flag and the clock: set, the flag ends
    the plan with the twin's error; a spent time limit too. No timing: the
    flag is read, or set before the plan starts, and the limit is 0 s."""
    table = parse_table(
        "name: t\nmaterial: KRK\nrules: [{name: r, if: true, then: [far]}]\n"
        "advice: {far: {better-goal: mate, holding-goal: true,"
        " us-moves: {'< 9': legal}, them-moves: {'< 9': legal}}}\n",
        "t.yaml",
        TABLES,
    )
    board = chess.Board("8/8/8/3k4/8/8/8/R3K3 w - - 0 1")  # no mate within 5 moves: a wide search
    planner = Planner(table, cache=False)
    assert planner.core is not None
    reading = _CountingEvent()
    with pytest.raises(SearchBudgetExceeded, match="node budget of 5000"):
        planner.plan(board, SearchLimits(nodes=5000, stop=reading))
    assert reading.reads > 0
    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchBudgetExceeded, match="'far': stopped searching from 8/8/8/3k4"):
        planner.plan(board, SearchLimits(stop=stop))
    with pytest.raises(SearchBudgetExceeded, match="time limit of 0 s spent"):
        planner.plan(board, SearchLimits(seconds=0))


def test_a_costly_goal_counts_against_the_budget_as_on_the_twin() -> None:
    # 40 comparisons of three features each, and mate: 161 terms, each node
    # counting as two nodes of the budget on both searches.
    holding = " and ".join(["dist(K, k) + edge_dist(k) + dist(R, k) < 30"] * 40)
    table = parse_table(
        f"name: t\nmaterial: KRK\nrules: [{{name: r, if: true, then: [a]}}]\n"
        f"advice: {{a: {{better-goal: mate, holding-goal: '{holding}', "
        f"us-moves: {{'< 9': legal}}, them-moves: {{'< 9': legal}}}}}}\n",
        "t.yaml",
        TABLES,
    )
    compiled = compile_advice(table.advice["a"], table.library)
    assert compiled.cost == 2
    made = compile_native(table.advice["a"], compiled, table)
    position = from_board(chess.Board("8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"))
    python, native_ = _search_both(compiled, made, position, chess.WHITE, 1001)
    assert python == native_ and "node budget of 1001 (each node counting as 2" in python[0]


VARYING = ("wall_seconds", "plan_ms", "plans_per_second", "plans_searched")
"""A report's fields that depend on the run, not the table (as
benchmarks/normalise_report.py drops them)."""


@pytest.mark.parametrize("table_name, positions", [("krk_std", "sample:80"), ("kqk", "sample:40")])
def test_verify_reports_equal_between_cores(table_name: str, positions: str, monkeypatch) -> None:
    """A verify run against the tablebase reports the same on either core."""
    from al0.verify.api import verify

    reports = []
    for core_name in ("native", "python"):
        monkeypatch.setenv("AL0_CORE", core_name)
        data = verify(table_name, positions).to_json()
        reports.append({key: value for key, value in data.items() if key not in VARYING})
    assert reports[0] == reports[1]


def test_more_men_than_the_core_holds_search_on_the_twin() -> None:
    """A root of more than eight men (never an endgame's) is searched by
    the twin, not refused: the core's move lists hold eight men's moves."""
    table = load_table(TABLES / "kqk.yaml")
    advice = table.advice["squeeze"]
    compiled = compile_advice(advice, table.library)
    made = compile_native(advice, compiled, table)
    position = from_board(chess.Board("QQQQ4/QQQQ4/8/3k4/8/8/8/4K3 w - - 0 1"))
    with pytest.raises(ValueError, match="at most 8 men"):
        core.legal_moves(position)
    assert (
        _search_both(compiled, made, position, table.us, 5000)[0]
        == _search_both(compiled, made, position, table.us, 5000)[1]
    )


def test_the_memory_limit_is_spent_as_on_the_twin() -> None:
    """Stored moves are counted alike: the same search stops at the same
    limit with the same message, or finds the same tree within it."""
    table = load_table(TABLES / "kbbk.yaml")
    advice = table.advice["mate_in_3"]
    compiled = compile_advice(advice, table.library)
    made = compile_native(advice, compiled, table)
    outcomes = set()
    for board in random_positions(table.material, 4, seed=35, us=table.us):
        for moves in (50, 400, 3000):
            results = []
            for search in (ForcingTreeSearch, NativeSearch):
                runner = search(
                    compiled if search is ForcingTreeSearch else made,  # type: ignore[arg-type]
                    node_at(from_board(board), 0, table.us),
                    SearchLimits(moves=moves),
                )
                try:
                    results.append((runner.run(), runner.nodes))
                except SearchBudgetExceeded as error:
                    results.append((str(error), None))
            assert results[0] == results[1], (board.fen(), moves)
            outcomes.add(isinstance(results[0][0], str))
    assert outcomes == {True, False}  # some spent the limit, some did not
