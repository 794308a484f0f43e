"""The expression language: precedence, normal forms and located errors."""

from __future__ import annotations

import pytest

from al0.lang.expr import ExpressionError, parse_constraint, parse_depth_spec, parse_generators, parse_goal
from al0.lang.model import (
    Alternative,
    And,
    Call,
    Compare,
    Const,
    DepthRange,
    DepthTest,
    Feature,
    Not,
    Or,
    Pred,
    Sum,
)

a, b, c = Pred(Call("a")), Pred(Call("b")), Pred(Call("c"))


@pytest.mark.parametrize(
    "source, expected",
    [
        ("a", a),
        ("true", Const(True)),
        ("a or b and c", Or((a, And((b, c))))),  # and binds tighter than or
        ("a and b or c", Or((And((a, b)), c))),
        ("not a and b", And((Not(a), b))),  # not binds tighter than and
        ("not (a and b)", Not(And((a, b)))),
        ("not not a", Not(Not(a))),
        ("(a or b) and c", And((Or((a, b)), c))),
        ("a and b and c", And((a, b, c))),  # flat, not nested
        ("depth < 3 and a", And((DepthTest("<", 3), a))),
        ("  a   or\nb ", Or((a, b))),
    ],
)
def test_goal_parses(source, expected):
    assert parse_goal(source) == expected


@pytest.mark.parametrize(
    "source, offset",
    [
        ("a and", 5),  # operand missing at the end
        ("a b", 2),  # two names in a row
        ("(a or b", 7),  # unclosed parenthesis
        ("a & b", 2),  # not an operator of the language
        ("and a", 0),
        ("a or not", 8),
        ("depth ~ 3", 6),
        ("depth < x", 8),
        ("", 0),
    ],
)
def test_goal_errors_carry_offset(source, offset):
    with pytest.raises(ExpressionError) as info:
        parse_goal(source)
    assert info.value.offset == offset


@pytest.mark.parametrize(
    "source, expected",
    [
        ("legal", (Alternative(DepthRange(), (Call("legal"),)),)),
        (
            "(depth = 0) and legal then (depth = 2) and checkmove",
            (
                Alternative(DepthRange(0, 1), (Call("legal"),)),
                Alternative(DepthRange(2, 3), (Call("checkmove"),)),
            ),
        ),
        ("depth < 3 and legal", (Alternative(DepthRange(0, 3), (Call("legal"),)),)),
        (
            "depth >= 1 and depth < 4 and rookmove and checkmove",
            (Alternative(DepthRange(1, 4), (Call("rookmove"), Call("checkmove"))),),
        ),
    ],
)
def test_constraint_normal_form(source, expected):
    assert parse_constraint(source).alternatives == expected


@pytest.mark.parametrize(
    "source",
    [
        "depth = 0",  # no generator
        "depth < 2 and depth > 3 and legal",  # guards exclude every depth
        "legal then",
        "legal or rookmove",
    ],
)
def test_constraint_errors(source):
    with pytest.raises(ExpressionError):
        parse_constraint(source)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("0", DepthRange(0, 1)),
        ("= 2", DepthRange(2, 3)),
        ("< 3", DepthRange(0, 3)),
        ("<=3", DepthRange(0, 4)),
        (">= 1", DepthRange(1, None)),
        ("1..4", DepthRange(1, 5)),
        ("any", DepthRange()),
    ],
)
def test_depth_specs(source, expected):
    assert parse_depth_spec(source) == expected


@pytest.mark.parametrize("source", ["<< 3", "x", "3..1", "< 0", "-1"])
def test_bad_depth_specs(source):
    with pytest.raises(ExpressionError):
        parse_depth_spec(source)


def test_generator_lists():
    assert parse_generators("rookmove and checkmove") == (Call("rookmove"), Call("checkmove"))
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


f, g, root_f = Feature(Call("f")), Feature(Call("g", ("K", "k"))), Feature(Call("f"), at_root=True)


@pytest.mark.parametrize(
    "source, left, right",
    [
        ("f < 2", ((1, f),), ((1, 2),)),
        ("3 * f < 2", ((3, f),), ((1, 2),)),
        ("3*f<2", ((3, f),), ((1, 2),)),
        ("-3 * f + g(K, k) < 2 * root.f", ((-3, f), (1, g)), ((2, root_f),)),
        ("f - 2 * g(K, k) + 1 >= 0", ((1, f), (-2, g), (1, 1)), ((1, 0),)),
        ("0 * f = 0", ((0, f),), ((1, 0),)),  # still false where f has no value
        ("2 < 3 * f", ((1, 2),), ((3, f),)),
    ],
)
def test_sums_with_multiples(source, left, right):
    assert parse_goal(source) == Compare(parse_goal(source).op, Sum(left), Sum(right))


@pytest.mark.parametrize(
    "source, text",
    [
        ("3 * f + g(K, k) < 2 * root.f", "3 * f + g(K, k) < 2 * root.f"),
        ("-3 * f - 1 * g(K, k) < 0", "-3 * f - g(K, k) < 0"),
    ],
)
def test_sums_print_as_read(source, text):
    goal = parse_goal(source)
    assert f"{goal.left} {goal.op} {goal.right}" == text


@pytest.mark.parametrize(
    "source, offset, message",
    [
        ("3 * 4 < f", 4, "expected a feature after '*'"),
        ("f * 3 < 2", 2, "multiplies a feature from the left"),
        ("f + g * 3 < 2", 6, "multiplies a feature from the left"),
        ("3 * f * 2 < 1", 6, "multiplies a feature from the left"),
        ("3 * < f", 4, "expected a number or a feature"),
        ("3 * not f", 4, "expected a number or a feature"),
        ("f < 2 * 3", 8, "expected a feature after '*'"),
        ("a * b", 2, "multiplies a feature from the left"),  # predicates are not multiplied
    ],
)
def test_multiple_errors_carry_offset(source, offset, message):
    with pytest.raises(ExpressionError, match=message) as info:
        parse_goal(source)
    assert info.value.offset == offset
