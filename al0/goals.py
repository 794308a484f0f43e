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
from al0.library import Library, Node, Predicate
from al0.model import (And, Const, DepthTest, Goal, MoveConstraint, Not, Or,
                       Pred)

GoalFn = Callable[[Node, Node], bool]
MovesFn = Callable[[Node], list[chess.Move]]

_COMPARE = {"=": operator.eq, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


def compile_goal(goal: Goal, library: Library) -> GoalFn:
    """A function ``(node, root) -> bool`` that evaluates ``goal``."""
    if isinstance(goal, Pred):
        return _guarded_predicate(goal.name, library.predicates[goal.name])
    if isinstance(goal, Const):
        value = goal.value
        return lambda node, root: value
    if isinstance(goal, DepthTest):
        compare, k = _COMPARE[goal.op], goal.value
        return lambda node, root: compare(node.depth, k)
    if isinstance(goal, Not):
        inner = compile_goal(goal.operand, library)
        return lambda node, root: not inner(node, root)
    if isinstance(goal, And):
        parts = tuple(compile_goal(g, library) for g in goal.operands)
        return lambda node, root: all(part(node, root) for part in parts)
    if isinstance(goal, Or):
        parts = tuple(compile_goal(g, library) for g in goal.operands)
        return lambda node, root: any(part(node, root) for part in parts)
    raise TypeError(f"not a goal: {goal!r}")


def _guarded_predicate(name: str, predicate: Predicate) -> GoalFn:
    def evaluate(node: Node, root: Node) -> bool:
        try:
            return bool(predicate(node, root))
        except Exception as error:  # the library's bug, reported with where it happened
            raise PredicateError(f"predicate {name!r} raised {type(error).__name__}: "
                                 f"{error} at {node.board.fen()}") from error
    return evaluate


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
                if move not in moves:
                    moves.append(move)
        return moves

    return allowed
