"""Turning checked goal ASTs into fast Python functions.

Names were resolved when the table was loaded; compiling only binds them to
the library's functions: a goal becomes one function that calls its
predicates and short-circuits like the book's ``and``/``or`` (Python's
own, compiled from source written here; see :func:`_fused`). Comparisons
and sums of features (``prefer:``) become functions that call each
distinct feature once. A predicate that raises or returns anything but a
bool is reported by :mod:`al0.lang.failures`.
"""

from __future__ import annotations

import operator
from typing import Callable

from al0.lang.failures import NotBool, NotWhole, blame, not_bool, predicate_error, what_it_did
from al0.lang.library import Library
from al0.lang.model import (
    And,
    Compare,
    Const,
    DepthTest,
    Feature,
    Goal,
    Not,
    Or,
    Pred,
    Sum,
    feature_names,
    predicate_names,
)
from al0.lang.node import Node

GoalFn = Callable[[Node, Node], bool]

_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def compile_goal(goal: Goal, library: Library) -> GoalFn:
    """A function ``(node, root) -> bool`` that evaluates ``goal``.

    :raises PredicateError: (when called) naming the predicate that raised
        or returned something other than a bool.
    """
    if isinstance(goal, (Const, DepthTest)):
        # No predicate to blame and always a bool: skip the checking wrapper
        # (a ``holding-goal: true`` is evaluated at every node).
        return _compile(goal, library)
    names = tuple(dict.fromkeys(predicate_names(goal)))
    features = tuple(dict.fromkeys(feature_names(goal)))
    if _nesting(goal) <= _FUSE_NESTING:
        return _fused(goal, library, names, features)
    fast = _compile(goal, library)

    def evaluate(node: Node, root: Node) -> bool:
        try:
            result = fast(node, root)
        except KeyboardInterrupt:
            raise  # see al0.lang.failures: Ctrl-C always interrupts
        except BaseException as error:
            raise blame(names, library, node, root, error, features) from error
        if result is True or result is False:
            return result
        raise blame(names, library, node, root, NotBool(result), features)

    return evaluate


_FUSE_NESTING = 100
"""Goals nested deeper than this (only goals built in Python: a table's are
at most 40 deep) are evaluated by a chain of closures instead of one
function: Python's parser allows at most 200 nested parentheses, and the
fused expression opens one per level and three at a predicate."""


def _nesting(goal: Goal) -> int:
    """How deeply ``goal``'s connectives nest (a chain of one kind counts
    once, as :func:`_connective` flattens it); iterative, so a goal nested
    past the recursion limit is measured too."""
    deepest = 0
    pending: list[tuple[Goal, int, type | None]] = [(goal, 1, None)]
    while pending:
        current, depth, parent = pending.pop()
        kind = type(current)
        if kind is not parent or kind is Not:
            depth += 1
        deepest = max(deepest, depth)
        if isinstance(current, Not):
            pending.append((current.operand, depth, Not))
        elif isinstance(current, (And, Or)):
            pending.extend((operand, depth, kind) for operand in current.operands)
    return deepest


def _fused(goal: Goal, library: Library, names: tuple[str, ...], features: tuple[str, ...]) -> GoalFn:
    """``goal`` as one Python function, compiled from source: each
    predicate (and comparison) is called and its result checked to be a
    bool inline; ``and``/``or``/``not`` are Python's, short-circuiting
    alike. The goal's evaluation then costs the calls of its predicates
    alone, where a chain of closures adds a call per connective and per
    negation (the goals run at every search node). Only names this function
    makes up and the goal's depth constants reach the source."""
    namespace: dict[str, object] = {
        "_not_bool": not_bool,
        "_blame": blame,
        "_names": names,
        "_library": library,
        "_features": features,
    }

    def call(function: object) -> str:
        name = f"_f{len(namespace)}"
        namespace[name] = function
        return f"(v if (v := {name}(node, root)) is True or v is False else _not_bool(v))"

    def expression(goal: Goal) -> str:
        if isinstance(goal, Pred):
            return call(library.predicates[goal.name])
        if isinstance(goal, Compare):
            return call(_compile_compare(goal, library))
        if isinstance(goal, Const):
            return "True" if goal.value else "False"
        if isinstance(goal, DepthTest):
            return f"(node.depth {_OPERATORS[goal.op]} {int(goal.value)})"
        if isinstance(goal, Not):
            return f"(not {expression(goal.operand)})"
        if isinstance(goal, (And, Or)):
            return (
                "("
                + (" and " if isinstance(goal, And) else " or ").join(
                    expression(operand) for operand in _flattened(goal)
                )
                + ")"
            )
        raise TypeError(f"not a goal: {goal!r}")

    source = (
        f"def goal(node, root):\n"
        f"    try:\n"
        f"        return {expression(goal)}\n"
        f"    except KeyboardInterrupt:\n"
        f"        raise\n"
        f"    except BaseException as error:\n"
        f"        raise _blame(_names, _library, node, root, error, _features) "
        f"from error\n"
    )
    exec(compile(source, "<al0 goal>", "exec"), namespace)
    return namespace["goal"]  # type: ignore[return-value]


_OPERATORS = {"=": "==", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def _compile(goal: Goal, library: Library) -> GoalFn:
    """The closure of one AST node. Every closure returns a bool or raises;
    a predicate's result is checked wherever an operator consumes it."""
    if isinstance(goal, Pred):
        return library.predicates[goal.name]
    if isinstance(goal, Const):
        value = goal.value
        return lambda node, root: value
    if isinstance(goal, DepthTest):
        compare, k = _COMPARE[goal.op], goal.value
        return lambda node, root: compare(node.depth, k)
    if isinstance(goal, Not):
        inner = _compile(goal.operand, library)

        def negation(node: Node, root: Node) -> bool:
            value = inner(node, root)
            if value is True:
                return False
            if value is False:
                return True
            not_bool(value)

        return negation
    if isinstance(goal, Compare):
        return _compile_compare(goal, library)
    if isinstance(goal, (And, Or)):
        return _connective(goal, library)
    raise TypeError(f"not a goal: {goal!r}")


def _compile_compare(goal: Compare, library: Library) -> GoalFn:
    """``left OP right``; false when any feature in it has no value (a piece gone).

    The two sides become one weighted sum compared with 0, ``left - right OP
    0``, in which each distinct feature read at the node is called once
    whatever its multiple and however often it is written (``corner_dist(k,
    B)`` three times is one call, times 3), and the features read at the
    root, with the numbers, make one constant computed once per root (kept
    among the root node's facts): a node's comparison costs the calls of its
    distinct node features and nothing more."""
    compare = _COMPARE[goal.op]
    at_node, at_root, constant = _weights(goal, library)
    weighted = tuple(at_node.items())
    if not at_root:

        def evaluate(node: Node, root: Node) -> bool:
            total = constant
            for feature, times in weighted:
                value = feature(node)
                if value is None:
                    return False
                total += times * value
            if type(total) is not int:  # a library feature's float, NaN, ...
                raise NotWhole(total)
            return compare(total, 0)

        return evaluate
    at_root_weighted = tuple(at_root.items())

    def root_total(root: Node) -> tuple[int, ...]:
        """The root's part of the sum, in a tuple (empty: a feature has no value)."""
        total = constant
        for feature, times in at_root_weighted:
            value = feature(root)
            if value is None:
                return ()
            total += times * value
        return (total,)

    def evaluate_with_root(node: Node, root: Node) -> bool:
        known = root.facts.get(root_total)
        if known is None:
            known = root.fact(root_total)
        if not known:
            return False
        total: int = known[0]  # type: ignore[index]
        for feature, times in weighted:
            value = feature(node)
            if value is None:
                return False
            total += times * value
        if type(total) is not int:  # a library feature's float, NaN, ...
            raise NotWhole(total)
        return compare(total, 0)

    return evaluate_with_root


Weights = dict[Callable[[Node], "int | None"], int]


def _weights(goal: Compare, library: Library) -> tuple[Weights, Weights, int]:
    """``left - right`` of ``goal`` as the multiple of each distinct feature
    function at the node and at the root, and the sum of its numbers. Names
    bound to one function (``room`` and ``room(k)``) are one feature. A
    feature whose multiples cancel keeps its place (weight 0): it still
    makes the comparison false where it has no value."""
    at_node: Weights = {}
    at_root: Weights = {}
    constant = 0
    for side, sign in ((goal.left, 1), (goal.right, -1)):
        for coefficient, term in side.parts:
            if isinstance(term, int):
                constant += sign * coefficient * term
                continue
            weights = at_root if term.at_root else at_node
            feature = library.features[term.name]
            weights[feature] = weights.get(feature, 0) + sign * coefficient
    return at_node, at_root, constant


ValueFn = Callable[[Node, Node], "int | None"]


def compile_value(total: Sum, library: Library) -> ValueFn:
    """The value of a sum of features at (node, root), None where a feature
    has none: what ``prefer:`` compares between trees.

    :raises PredicateError: (when called) naming a feature that raised or
        returned what is not a whole number (a library's: it is read at
        a tree's leaves only, so each value is checked).
    """
    parts = [
        (
            coefficient,
            term if isinstance(term, int) else library.features[term.name],
            isinstance(term, Feature) and term.at_root,
            term.name if isinstance(term, Feature) else "",
        )
        for coefficient, term in total.parts
    ]

    def value(node: Node, root: Node) -> int | None:
        result = 0
        for coefficient, term, at_root, name in parts:
            if isinstance(term, int):
                result += coefficient * term
                continue
            at = root if at_root else node
            try:
                part = term(at)
            except KeyboardInterrupt:
                raise  # see al0.lang.failures: Ctrl-C always interrupts
            except BaseException as error:
                raise predicate_error(f"feature {name!r} {what_it_did(error)}", at.position) from error
            if part is None:
                return None
            if not isinstance(part, int):
                raise predicate_error(f"feature {name!r} {NotWhole(part)}", at.position)
            result += coefficient * part
        return result

    return value


def _flattened(goal: And | Or) -> list[Goal]:
    """The operands of ``goal`` with nested connectives of its kind
    flattened into it, in order."""
    kind = type(goal)
    operands: list[Goal] = []
    pending = list(reversed(goal.operands))
    while pending:
        operand = pending.pop()
        if type(operand) is kind:
            pending.extend(reversed(operand.operands))
        else:
            operands.append(operand)
    return operands


def _connective(goal: And | Or, library: Library) -> GoalFn:
    """``and``/``or`` over all operands in one loop, nested connectives of
    the same kind flattened first: a chain of 1,200 operands is one closure,
    not 1,200 nested calls (which would hit the recursion limit)."""
    kind = type(goal)
    parts = tuple(_compile(operand, library) for operand in _flattened(goal))
    if len(parts) == 2:
        # The common case, unrolled: two calls, no loop.
        first, second = parts
        if kind is And:

            def both(node: Node, root: Node) -> bool:
                value = first(node, root)
                if value is not True:
                    return False if value is False else not_bool(value)
                value = second(node, root)
                if value is True or value is False:
                    return value
                not_bool(value)

            return both

        def either(node: Node, root: Node) -> bool:
            value = first(node, root)
            if value is not False:
                return True if value is True else not_bool(value)
            value = second(node, root)
            if value is True or value is False:
                return value
            not_bool(value)

        return either
    if kind is And:

        def every(node: Node, root: Node) -> bool:
            for part in parts:
                value = part(node, root)
                if value is not True:
                    return False if value is False else not_bool(value)
            return True

        return every

    def some(node: Node, root: Node) -> bool:
        for part in parts:
            value = part(node, root)
            if value is not False:
                return True if value is True else not_bool(value)
        return False

    return some
