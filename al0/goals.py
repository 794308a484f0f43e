"""Turning checked goal and move-constraint ASTs into fast Python closures.

Names were resolved when the table was loaded; compiling only binds them to
the library's functions, so evaluation is a chain of plain calls that
short-circuits like the book's ``and``/``or``. A predicate or generator that
raises becomes a :class:`~al0.errors.PredicateError` naming it and the FEN.
"""

from __future__ import annotations

import operator
from typing import Callable

import chess

from al0.errors import PredicateError
from al0.library import Library, Node
from al0.model import (And, Const, DepthTest, Goal, MoveConstraint, Not, Or,
                       Pred, predicate_names)

GoalFn = Callable[[Node, Node], bool]
MovesFn = Callable[[Node], list[chess.Move]]

_COMPARE = {"=": operator.eq, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


def compile_goal(goal: Goal, library: Library) -> GoalFn:
    """A function ``(node, root) -> bool`` that evaluates ``goal``.

    :raises PredicateError: (when called) naming the predicate that raised.
    """
    fast = _compile(goal, library)
    names = tuple(dict.fromkeys(predicate_names(goal)))

    def evaluate(node: Node, root: Node) -> bool:
        try:
            return fast(node, root)
        except Exception as error:
            raise _blame(names, library, node, root, error) from error
    return evaluate


def _blame(names: tuple[str, ...], library: Library, node: Node, root: Node,
           error: Exception) -> PredicateError:
    """Name the predicate that raised ``error``. Predicates are pure, so
    re-evaluating them one by one finds it; the wrapper sits on the whole
    goal rather than on each predicate to keep evaluation fast."""
    culprit = "?"
    for name in names:
        try:
            library.predicates[name](node, root)
        except Exception:
            culprit = name
            break
    return PredicateError(f"predicate {culprit!r} raised {type(error).__name__}: "
                          f"{error} at {node.board.fen()}")


def _compile(goal: Goal, library: Library) -> GoalFn:
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
        return lambda node, root: not inner(node, root)
    if isinstance(goal, (And, Or)):
        # Fold into nested two-operand closures: plain `and`/`or` chains are
        # much faster than all()/any() over a generator, and short-circuit the same.
        parts = [_compile(g, library) for g in goal.operands]
        combined = parts[-1]
        for part in reversed(parts[:-1]):
            combined = _both(part, combined) if isinstance(goal, And) else _either(part, combined)
        return combined
    raise TypeError(f"not a goal: {goal!r}")


def _both(first: GoalFn, second: GoalFn) -> GoalFn:
    return lambda node, root: first(node, root) and second(node, root)


def _either(first: GoalFn, second: GoalFn) -> GoalFn:
    return lambda node, root: first(node, root) or second(node, root)


def compile_constraint(constraint: MoveConstraint, library: Library) -> MovesFn:
    """A function ``node -> list of allowed moves``, in trying order.

    Alternatives apply in order, each only at depths in its range; a move
    already allowed by an earlier alternative is not repeated. The list is
    materialised because the search pushes moves while it iterates.
    """
    alternatives = tuple((alt.depths, [library.generators[g] for g in alt.generators],
                          alt.generators) for alt in constraint.alternatives)

    def allowed(node: Node) -> list[chess.Move]:
        moves: list[chess.Move] = []
        for depths, generators, names in alternatives:
            if node.depth not in depths:
                continue
            try:
                found = list(generators[0](node))
                for generator in generators[1:]:
                    admitted = set(generator(node))
                    found = [move for move in found if move in admitted]
            except Exception as error:
                raise PredicateError(f"generator {' and '.join(names)!r} raised "
                                     f"{type(error).__name__}: {error} at "
                                     f"{node.board.fen()}") from error
            mine = node.board.occupied_co[node.board.turn]
            for move in found:
                if not mine & chess.BB_SQUARES[move.from_square]:
                    raise PredicateError(f"generator {names[0]!r} yielded {move.uci()}, "
                                         f"not a move of the side to move, at "
                                         f"{node.board.fen()}")
            # Only a second alternative can repeat a move an earlier one allowed.
            if moves:
                seen = set(moves)
                found = [move for move in found if move not in seen]
            moves = moves + found
        return moves

    return allowed
