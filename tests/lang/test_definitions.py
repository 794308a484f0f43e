"""A table's ``define:`` names: each use expands to its definition when the
table loads, and each misuse is an error at its ``file:line:col``."""

from __future__ import annotations

import re
from pathlib import Path

import chess
import pytest

from al0.board.position import from_board
from al0.errors import TableSyntaxError, UnknownNameError
from al0.lang.compile_goals import compile_goal
from al0.lang.loader import parse_table
from al0.lang.model import And, Call, Compare, Feature, Not, Or, Pred, Sum
from al0.lang.node import Node
from conftest import ROOT

TABLE = """\
name: defined
material: KBNK
define:
{define}
rules:
  - {{name: only, if: {condition}, then: [step]}}
advice:
  step:
    better-goal: {better}
    holding-goal: not stalemate
    us-moves: {{0: legal}}
    them-moves: {{1: legal}}
"""

HELD = "  held: edge_dist(k) = 0 and inward(k) = 0"
COUNT = "  count: 3 + corner_dist(k, B) - dist(N, k)"
EDGE = Compare("=", Sum(((1, Feature(Call("edge_dist", ("k",)))),)), Sum(((1, 0),)))
INWARD = Compare("=", Sum(((1, Feature(Call("inward", ("k",)))),)), Sum(((1, 0),)))


def count(at_root: bool, sign: int = 1) -> tuple[tuple[int, Feature | int], ...]:
    return (
        (sign, 3),
        (sign, Feature(Call("corner_dist", ("k", "B")), at_root)),
        (-sign, Feature(Call("dist", ("N", "k")), at_root)),
    )


def load(define: str, better: str = "mate", condition: str = "true"):
    return parse_table(
        TABLE.format(define=define, better=better, condition=condition), "defined.yaml", Path(".")
    )


@pytest.mark.parametrize(
    "define, better, expected",
    [
        # A goal used as a predicate, alone or inside other goals.
        (HELD, "held", And((EDGE, INWARD))),
        (HELD, "not held or mate", Or((Not(And((EDGE, INWARD))), Pred(Call("mate"))))),
        # A sum used as a feature: spliced in, root. reaching each feature.
        (COUNT, "count < root.count", Compare("<", Sum(count(False)), Sum(count(True)))),
        # Its signs multiply through a minus.
        (COUNT, "0 - count < 2", Compare("<", Sum(((1, 0),) + count(False, -1)), Sum(((1, 2),)))),
        # A later definition uses an earlier one, goal and sum alike.
        (
            f"{HELD}\n{COUNT}\n  walked: held and count < root.count",
            "walked",
            And((And((EDGE, INWARD)), Compare("<", Sum(count(False)), Sum(count(True))))),
        ),
        # One bare name: a predicate's is a goal, a feature's a number.
        ("  over: mate", "over", Pred(Call("mate"))),
        (
            "  near: dist(K, k)",
            "near <= 2",
            Compare("<=", Sum(((1, Feature(Call("dist", ("K", "k")))),)), Sum(((1, 2),))),
        ),
    ],
)
def test_a_defined_name_expands_where_it_is_used(define, better, expected):
    assert load(define, better).advice["step"].better_goal == expected


def test_a_rule_precondition_may_use_a_defined_goal():
    assert load(HELD, condition="held").rules[0].precondition == And((EDGE, INWARD))


def test_a_defined_sum_is_evaluated_like_the_sum_written_out():
    # Their king a1 held by our king b3 (edge, no step inward); knight c3.
    table = load(f"{HELD}\n{COUNT}", "held and count < 4")
    written = load(
        "  unused: mate", "edge_dist(k) = 0 and inward(k) = 0 and 3 + corner_dist(k, B) - dist(N, k) < 4"
    )
    board = chess.Board("8/8/8/8/8/1KN5/8/k1B5 w - - 0 1")
    node = Node(from_board(board), 0, chess.WHITE)
    for goal in (table.advice["step"].better_goal, written.advice["step"].better_goal):
        assert compile_goal(goal, table.library)(node, node)


@pytest.mark.parametrize(
    "define, better, kind, where, fragment",
    [
        (COUNT, "count", TableSyntaxError, (9, 18), "'count' is a defined number: compare it"),
        (HELD, "held < 2", TableSyntaxError, (9, 18), "'held' is a defined goal, not a number"),
        (COUNT, "count(k) < 2", TableSyntaxError, (9, 18), "'count' is defined in this table and takes no"),
        (HELD, "mate or nonesuch", UnknownNameError, (9, 26), "unknown predicate 'nonesuch'"),
        ("  area: dist(K, k)", "mate", TableSyntaxError, (4, 3), "'area' would hide the feature"),
        ("  mate: true", "mate", TableSyntaxError, (4, 3), "'mate' would hide the predicate"),
        ("  root: dist(K, k)", "mate", TableSyntaxError, (4, 3), "'root' is not a name to define"),
        ("  two: 1 + 1", "mate", TableSyntaxError, (4, 8), "a defined number needs a feature"),
        ("  far: dist(K, q)", "mate", UnknownNameError, (4, 8), "q"),
        ("  bad: dist(K, k) <", "mate", TableSyntaxError, (4, 20), "expected a number or a feature"),
        # A name may only use names defined above it.
        (
            f"  walked: held\n{HELD}",
            "mate",
            TableSyntaxError,
            (4, 11),
            "uses 'held', which is not defined above",
        ),
        ("  loop: loop + 1", "mate", TableSyntaxError, (4, 9), "uses 'loop', which is not defined above"),
    ],
)
def test_a_misused_definition_is_an_error_at_its_place(define, better, kind, where, fragment):
    with pytest.raises(kind) as raised:
        load(define, better)
    assert type(raised.value) is kind
    assert f"defined.yaml:{where[0]}:{where[1]}:" in str(raised.value)
    assert fragment in str(raised.value)


def test_the_reference_example_loads():
    # docs/language.md's define: example, with a name and material before it.
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    example = next(block for block in re.findall(r"```yaml\n(.*?)```", text, re.S) if "define:" in block)
    table = parse_table("name: example\nmaterial: KBNK\n" + example, "example.yaml", Path("."))
    assert table.rules[0].precondition == And((EDGE, INWARD))


def doubling(lines: int) -> str:
    """``define:`` lines each using the one before twice: 2**lines nodes written out."""
    return "\n".join(
        ["  g0: mate or stalemate"] + [f"  g{i}: g{i - 1} and not g{i - 1}" for i in range(1, lines)]
    )


@pytest.mark.parametrize(
    "lines, where",
    [
        # The definitions alone pass the bound at line 18 (g14): an error there, at once.
        (45, (18, 8)),
        # Each within it, the goal that uses the last one passes it.
        (14, (22, 18)),
    ],
)
def test_definitions_that_expand_past_the_bound_are_an_error_at_their_place(lines, where):
    with pytest.raises(TableSyntaxError) as raised:
        load(doubling(lines), f"g{lines - 1}")
    assert f"defined.yaml:{where[0]}:{where[1]}: the table's goals expand to more than 100,000 nodes" in str(
        raised.value
    )


def test_definitions_within_the_bound_load():
    goal = load(doubling(8), "g7").advice["step"].better_goal
    assert isinstance(goal, And) and goal.operands[1] == Not(goal.operands[0])
