"""What library code returns is checked where the search receives it, and
every search is bounded without a bound ever changing a result.

Each broken function of ``tests/data/broken_tables/lib_broken_at_search.py`` must give a
:class:`PredicateError` that names it; far horizons must cost no more than
the nodes they reach; nodes, stored moves and time are all bounded.
"""

from __future__ import annotations

import re
import threading

import chess
import pytest

from al0.engine.compiled import compile_advice
from al0.engine.limits import SearchLimits
from al0.engine.plan import Planner
from al0.engine.search import LOOK_EVERY, ForcingTreeSearch
from al0.errors import PredicateError, SearchBudgetExceeded
from al0.lang.compile_goals import compile_goal
from al0.lang.library import standard_library
from al0.lang.loader import parse_table
from al0.lang.model import And, Call, Const, Goal, Not, Or, Pred
from al0.lang.node import Node
from conftest import TABLES

START = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
BROKEN = "../tests/data/broken_tables/lib_broken_at_search.py"


def planner(
    better: str = "themtomove",
    holding: str = "true",
    us: str = "{0: legal}",
    them: str = "nomove",
    library: str = BROKEN,
    minimise: str = "",
) -> Planner:
    text = (
        f"name: t\nmaterial: KRK\nlibrary: {library}\n"
        f"rules: [{{name: r, if: true, then: [a]}}]\n"
        f"advice: {{a: {{better-goal: {better}, holding-goal: {holding}, "
        f"us-moves: {us}, them-moves: {them}"
        f"{f', minimise: {minimise}' if minimise else ''}}}}}\n"
    )
    return Planner(parse_table(text, "<test>", TABLES))


@pytest.mark.parametrize(
    "kwargs, culprit, what",
    [
        ({"better": "says_false_as_text"}, "says_false_as_text", "'False' (str), not a bool"),
        ({"holding": "not says_false_as_text"}, "says_false_as_text", "not a bool"),
        ({"better": "themtomove and says_false_as_text"}, "says_false_as_text", "not a bool"),
        ({"better": "themtomove or says_false_as_text"}, "says_false_as_text", "not a bool"),
        ({"better": "exits"}, "exits", "called sys.exit(3)"),
        ({"us": "{0: yields_text}"}, "yields_text", "'e6e3' (str), not a chess.Move"),
        ({"us": "{0: yields_none}"}, "yields_none", "None (NoneType), not a chess.Move"),
        ({"us": "{0: yields_illegal}"}, "yields_illegal", "e6d5, not a legal move"),
        ({"us": "{0: yields_their_move}"}, "yields_their_move", "c2c3, not a legal move"),
        ({"us": "{0: exits_generating}"}, "exits_generating", "called sys.exit('bye')"),
        ({"better": "half < 2"}, "half", "1.5 (float), not a whole number"),
        ({"better": "themtomove and 2 * half + edge_dist(k) < root.half"}, "half", "not a whole"),
        ({"holding": "not not_a_number > 1"}, "not_a_number", "nan (float), not a whole number"),
        ({"better": "root.text = 3"}, "text", "'3' (str), not a whole number"),
        ({"better": "themtomove or divides_by_zero > 0"}, "divides_by_zero", "raised ZeroDivisionError"),
        ({"better": "themtomove", "minimise": "half"}, "half", "1.5 (float), not a whole number"),
        ({"better": "themtomove", "minimise": "edge_dist(k) + text"}, "text", "'3' (str)"),
        (
            {"better": "themtomove", "minimise": "root.divides_by_zero"},
            "divides_by_zero",
            "raised ZeroDivisionError",
        ),
    ],
)
def test_broken_library_code_is_named_at_the_boundary(kwargs, culprit, what):
    with pytest.raises(PredicateError) as error:
        planner(**kwargs).plan(chess.Board(START))
    message = str(error.value)
    assert repr(culprit) in message and what in message
    assert re.search(r"at \S+/\S+ [wb] ", message), message  # the FEN where it happened


def test_keyboard_interrupt_from_a_predicate_still_interrupts():
    # A real Ctrl-C cannot be told apart from a library raising it: both stop the run.
    with pytest.raises(KeyboardInterrupt):
        planner(better="interrupts").plan(chess.Board(START))


def test_a_chain_of_1200_ands_evaluates_without_deep_recursion():
    library = standard_library()
    node = Node(chess.Board(START), 0, chess.WHITE)
    goal = And(tuple([Const(True)] * 1199 + [Pred(Call("ustomove"))]))
    assert compile_goal(goal, library)(node, node) is True
    assert compile_goal(Not(goal), library)(node, node) is False
    text = " and ".join(["true"] * 1200) + " and themtomove"
    assert planner(better=text, library="../library/krk.py").plan(chess.Board(START)).advice == "a"


def test_goals_nested_deeper_than_python_source_allows_still_evaluate():
    # A goal is evaluated as one function compiled from source, unless it
    # nests deeper than Python's parser allows (built in Python, not loaded).
    library = standard_library()
    node = Node(chess.Board(START), 0, chess.WHITE)
    for depth in (1, 2, 99, 100, 101, 300):
        goal: Goal = Pred(Call("ustomove"))
        for level in range(depth):
            goal = Not(goal) if level % 2 else Or((Const(False), goal))
        expected = (depth // 2) % 2 == 0
        assert compile_goal(goal, library)(node, node) is expected, depth


def test_a_far_horizon_costs_only_the_nodes_it_reaches():
    # Their reply is never allowed at depth 1, so nothing lies beyond it: the
    # search must see that at once instead of raising the bound 100,000 times.
    plan = planner(
        better="mate", us='{0: legal, "100000": legal}', them='{"100000": legal}', library="../library/krk.py"
    ).plan(chess.Board(START))
    assert plan.advice is None and plan.nodes <= 30


def test_a_horizon_beyond_2_to_the_30_still_respects_the_holding_goal():
    # Every move breaks the holding-goal (it is our move only at the root),
    # and the better-goal holds after any move: no tree may exist.
    far = str((1 << 30) + 5)
    plan = planner(
        better="themtomove",
        holding="ustomove",
        us=f'{{0: legal, "{far}": legal}}',
        library="../library/krk.py",
    ).plan(chess.Board(START))
    assert plan.advice is None and plan.nodes <= 30


def divide_search(limits: SearchLimits) -> ForcingTreeSearch:
    table = planner(
        better="mate", us='{"< 40": legal}', them='{"< 40": legal}', library="../library/krk.py"
    ).table
    advice = compile_advice(table.advice["a"], table.library)
    return ForcingTreeSearch(advice, Node(chess.Board(START), 0, chess.WHITE), limits)


@pytest.mark.parametrize(
    "limits, what",
    [
        (SearchLimits(nodes=2000), "node budget of 2000"),
        (SearchLimits(moves=5000), "memory limit of 5000 stored moves"),
        (SearchLimits(seconds=0.0), "time limit of 0 s"),
    ],
)
def test_every_search_is_bounded_in_nodes_memory_and_time(limits, what):
    with pytest.raises(SearchBudgetExceeded) as error:
        divide_search(limits).run()
    assert what in str(error.value) and START.split()[0] in str(error.value)


COSTLY = " and ".join(["dist(K, k) < 20"] * 999)  # with mate, 1,999 terms: each node counts as 20


def costly_search(limits: SearchLimits, holding: str = COSTLY) -> ForcingTreeSearch:
    table = planner(
        better="mate",
        holding=f"'{holding}'",
        us='{"< 40": legal}',
        them='{"< 40": legal}',
        library="../library/krk.py",
    ).table
    advice = compile_advice(table.advice["a"], table.library)
    return ForcingTreeSearch(advice, Node(chess.Board(START), 0, chess.WHITE), limits)


@pytest.mark.parametrize(
    "holding, cost",
    [
        ("true", 1),
        ("dist(K, k) < 20", 1),
        (" and ".join(["dist(K, k) < 20"] * 49), 1),  # 99 terms
        (" and ".join(["dist(K, k) < 20"] * 50), 2),
        (COSTLY, 20),
    ],
)
def test_a_goal_counts_against_the_budget_by_its_terms(holding, cost):
    search = costly_search(SearchLimits(nodes=2000), holding)
    assert search.advice.cost == cost
    with pytest.raises(SearchBudgetExceeded, match="node budget of 2000"):
        search.run()
    assert search.nodes == 2000 // cost + 1


@pytest.mark.parametrize("holding, most", [("true", LOOK_EVERY + 1), (COSTLY, 4)])
def test_a_stop_flag_or_a_spent_clock_is_seen_within_a_few_nodes(holding, most):
    # Read every LOOK_EVERY nodes of the budget, so every few expensive nodes.
    stopped = threading.Event()
    stopped.set()
    for limits, what in (
        (SearchLimits(stop=stopped), "stopped searching"),
        (SearchLimits(seconds=-1.0), "time limit of -1 s"),
    ):
        search = costly_search(limits, holding)
        with pytest.raises(SearchBudgetExceeded, match=what):
            search.run()
        assert search.nodes <= most
