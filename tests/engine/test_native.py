"""The native core against the Python twin: every vocabulary feature and
predicate, every goal and move constraint of the bundled standard tables,
and whole searches (trees and node counts), on seeded positions; and a
planner on the core plans as one on the twin. Skipped where the core was
not built, or with ``AL0_CORE=python`` (tests/test_twin.py runs the
engine's and board's quick tests so, where the twin alone runs)."""

from __future__ import annotations

import itertools
import threading

import chess
import pytest

from al0.board.moves import successors
from al0.board.position import from_board
from al0.board.sampling import random_positions
from al0.core import native, status
from al0.engine.compiled import compile_advice
from al0.engine.limits import SearchLimits
from al0.engine.native import NativeSearch, Unsupported, compile_native, table_core
from al0.engine.plan import Planner
from al0.engine.search import ForcingTreeSearch
from al0.errors import SearchBudgetExceeded
from al0.lang.library import node_at
from al0.lang.loader import load_table, parse_table
from al0.lang.vocabulary.binding import Binder
from conftest import TABLES, vocabulary_calls

core = native()
pytestmark = pytest.mark.skipif(core is None, reason="the native core is not running")

STANDARD = ["krk_std", "kqk", "kbbk", "kbnk"]
"""The bundled tables of the standard vocabulary alone."""


def positions(material: str, count: int, seed: int) -> list:  # type: ignore[type-arg]
    """Seeded positions with us to move and, after each one's first legal
    move, one with them to move (and pieces taken, checks given)."""
    found = []
    for board in random_positions(material, count, seed):
        position = from_board(board)
        found.append(position)
        found += [child for _, child in itertools.islice(successors(position), 0, 40, 7)]
    return found


@pytest.mark.parametrize("material", ["KRK", "KQK", "KBBK", "KBNK", "KQKR", "KRKN", "KNNK"])
def test_every_feature_and_predicate_equals_the_twin(material: str) -> None:
    from al0.engine.native import _Writer
    from al0.lang.library import standard_library

    writer = _Writer(material, core)
    binder = Binder(material)
    standard = standard_library().predicates
    features = [
        (text, binder.bind(text, "feature"), writer.features[text.split("(")[0]], writer.args(text))
        for text in vocabulary_calls(material, "feature", core.FEATURES)
    ]
    predicates = [
        (
            text,
            standard.get(text) or binder.bind(text, "predicate"),
            writer.predicates[text.split("(")[0]],
            writer.args(text),
        )
        for text in vocabulary_calls(material, "predicate", core.PREDICATES)
    ]
    for us in chess.COLORS:
        for position in positions(material, 12, seed=35)[:60]:
            node = node_at(position, 1, us)
            for text, function, number, args in features:
                assert core.feature(number, *args, position, us) == function(node), (text, position)
            for text, function, number, args in predicates:
                assert core.predicate(number, *args[:2], position, us) == function(node, node), (
                    text,
                    position,
                )


@pytest.mark.parametrize("table_name", STANDARD)
def test_every_goal_and_move_constraint_equals_the_twin(table_name: str) -> None:
    table = load_table(TABLES / f"{table_name}.yaml")
    samples = positions(table.material, 8, seed=35)
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
            expected = [m.from_square << 6 | m.to_square for segment, _ in moves for m in segment]
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
    "table_name", STANDARD + ["../benchmarks/kbnk_deep4", "../benchmarks/kbnk_published"]
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


@pytest.mark.parametrize("table_name", ["kqk", "kbbk"])
def test_a_planner_on_the_core_plans_as_one_on_the_twin(table_name: str, monkeypatch) -> None:
    """Plans (rule, advice, tried, tree and nodes) equal, each planner
    sharing memos between its searches as it does."""
    table = load_table(TABLES / f"{table_name}.yaml")
    on_core = Planner(table)
    assert on_core.native.keys() == table.advice.keys()
    monkeypatch.setenv("AL0_CORE", "python")
    twin = Planner(table)
    assert not twin.native
    for board in random_positions(table.material, 40, seed=35, us=table.us):
        a, b = on_core.plan(board), twin.plan(board)
        assert (a.rule, a.advice, a.tried, a.tree, a.nodes) == (b.rule, b.advice, b.tried, b.tree, b.nodes), (
            board.fen()
        )
    # The core's planner shared memos between searches, as the twin's does.
    assert on_core.core is not None and on_core.core.shared() and any(twin.memos.values())


def test_a_python_library_stays_on_the_twin() -> None:
    table = load_table(TABLES / "krk.yaml")
    advice = next(iter(table.advice.values()))
    with pytest.raises(Unsupported):
        compile_native(advice, compile_advice(advice, table.library), table)
    assert table_core(table).startswith("python")
    assert table_core(load_table(TABLES / "krk_std.yaml")).startswith("native")


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
