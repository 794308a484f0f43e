"""The expression language: precedence, normal forms and located errors."""

from __future__ import annotations

import pytest

from al0.lang.expr import (ExpressionError, parse_constraint, parse_depth_spec,
                      parse_generators, parse_goal)
from al0.lang.model import (Alternative, And, Const, DepthRange, DepthTest, Not, Or,
                       Pred)

a, b, c = Pred("a"), Pred("b"), Pred("c")


@pytest.mark.parametrize("source, expected", [
    ("a", a),
    ("true", Const(True)),
    ("a or b and c", Or((a, And((b, c))))),          # and binds tighter than or
    ("a and b or c", Or((And((a, b)), c))),
    ("not a and b", And((Not(a), b))),               # not binds tighter than and
    ("not (a and b)", Not(And((a, b)))),
    ("not not a", Not(Not(a))),
    ("(a or b) and c", And((Or((a, b)), c))),
    ("a and b and c", And((a, b, c))),               # flat, not nested
    ("depth < 3 and a", And((DepthTest("<", 3), a))),
    ("  a   or\nb ", Or((a, b))),
])
def test_goal_parses(source, expected):
    assert parse_goal(source) == expected


@pytest.mark.parametrize("source, offset", [
    ("a and", 5),            # operand missing at the end
    ("a b", 2),              # two names in a row
    ("(a or b", 7),          # unclosed parenthesis
    ("a & b", 2),            # not an operator of the language
    ("and a", 0),
    ("a or not", 8),
    ("depth ~ 3", 6),
    ("depth < x", 8),
    ("", 0),
])
def test_goal_errors_carry_offset(source, offset):
    with pytest.raises(ExpressionError) as info:
        parse_goal(source)
    assert info.value.offset == offset


@pytest.mark.parametrize("source, expected", [
    ("legal", (Alternative(DepthRange(), ("legal",)),)),
    ("(depth = 0) and legal then (depth = 2) and checkmove",
     (Alternative(DepthRange(0, 1), ("legal",)), Alternative(DepthRange(2, 3), ("checkmove",)))),
    ("depth < 3 and legal", (Alternative(DepthRange(0, 3), ("legal",)),)),
    ("depth >= 1 and depth < 4 and rookmove and checkmove",
     (Alternative(DepthRange(1, 4), ("rookmove", "checkmove")),)),
])
def test_constraint_normal_form(source, expected):
    assert parse_constraint(source).alternatives == expected


@pytest.mark.parametrize("source", [
    "depth = 0",                          # no generator
    "depth < 2 and depth > 3 and legal",  # guards exclude every depth
    "legal then",
    "legal or rookmove",
])
def test_constraint_errors(source):
    with pytest.raises(ExpressionError):
        parse_constraint(source)


@pytest.mark.parametrize("source, expected", [
    ("0", DepthRange(0, 1)), ("= 2", DepthRange(2, 3)), ("< 3", DepthRange(0, 3)),
    ("<=3", DepthRange(0, 4)), (">= 1", DepthRange(1, None)), ("1..4", DepthRange(1, 5)),
    ("any", DepthRange()),
])
def test_depth_specs(source, expected):
    assert parse_depth_spec(source) == expected


@pytest.mark.parametrize("source", ["<< 3", "x", "3..1", "< 0", "-1"])
def test_bad_depth_specs(source):
    with pytest.raises(ExpressionError):
        parse_depth_spec(source)


def test_generator_lists():
    assert parse_generators("rookmove and checkmove") == ("rookmove", "checkmove")
    with pytest.raises(ExpressionError):
        parse_generators("rookmove or checkmove")


def test_horizon_ignores_nomove_and_flags_unbounded():
    assert parse_constraint("nomove").horizon() == 0
    assert parse_constraint("depth < 5 and legal").horizon() == 5
    assert parse_constraint("(depth = 0) and legal then (depth = 2) and checkmove").horizon() == 3
    assert parse_constraint("legal").horizon() is None


def test_a_predicate_read_at_the_root_is_explained():
    with pytest.raises(ExpressionError, match=r"after root\.mate \(root\. reads a feature"):
        parse_goal("a and root.mate")
    with pytest.raises(ExpressionError) as info:  # a sum of features: no hint, still located
        parse_goal("root.room + room")
    assert "root. reads" not in str(info.value) and info.value.offset == 16
