"""What the search may infer from a goal or move constraint beforehand.

Whether a goal reads the root, depends on the position alone, can hold
only in check or only with one side to move; at which depths the allowed
moves are exactly the legal ones. :mod:`al0.engine.compiled` asks once per
advice, so that the search reads flags instead of walking expressions.
"""

from __future__ import annotations

import dis
import inspect
import types
from typing import Callable

from al0.lang.library import Library
from al0.lang.model import (
    And,
    Call,
    Compare,
    Const,
    DepthRange,
    DepthTest,
    Feature,
    Goal,
    MoveConstraint,
    Or,
    Pred,
    leaves,
)
from al0.lang.node import Node
from al0.lang.vocabulary.basics import check as standard_check
from al0.lang.vocabulary.basics import legal as standard_legal
from al0.lang.vocabulary.basics import mate as standard_mate
from al0.lang.vocabulary.basics import stalemate as standard_stalemate
from al0.lang.vocabulary.basics import themtomove as standard_themtomove
from al0.lang.vocabulary.basics import ustomove as standard_ustomove


def reads_root(goal: Goal, library: Library) -> bool:
    """Whether ``goal``'s value may depend on the search's root node.

    A goal that does not read the root has the same value at a node whatever
    the root, so every search for an advice made of such goals gives each
    (position, depth) the same outcome, and a planner may share one memo
    between them. A ``root.`` feature reads the root; so may a predicate,
    unless it is a plain Python function that never touches its second
    parameter (see :func:`_ignores_root`): anything else counts as reading it.
    """
    for leaf in leaves(goal):
        if isinstance(leaf, Pred) and not _ignores_root(library.predicates[leaf.name]):
            return True
        if isinstance(leaf, Compare) and any(
            isinstance(term, Feature) and term.at_root
            for side in (leaf.left, leaf.right)
            for _, term in side.parts
        ):
            return True
    return False


def position_only(goal: Goal, library: Library) -> bool:
    """Whether ``goal``'s value at a node depends on the node's position
    alone, given the values of the features it reads at the root: it names
    no depth and only the library's :attr:`~al0.lang.library.Library.positional`
    predicates and features. The search may then keep its value per
    position (and per those root values) instead of evaluating it again."""
    for leaf in leaves(goal):
        if isinstance(leaf, DepthTest):
            return False
        if isinstance(leaf, Pred) and leaf.name not in library.positional:
            return False
        if isinstance(leaf, Compare) and any(
            isinstance(term, Feature) and term.name not in library.positional
            for side in (leaf.left, leaf.right)
            for _, term in side.parts
        ):
            return False
    return True


def root_features(goal: Goal, library: Library) -> tuple[Callable[[Node], int | None], ...]:
    """The distinct feature functions ``goal`` reads at the root, in order:
    with :func:`position_only`, the goal's value at a position is fixed by
    their values at the root."""
    found: dict[Callable[[Node], int | None], None] = {}
    for leaf in leaves(goal):
        if isinstance(leaf, Compare):
            for side in (leaf.left, leaf.right):
                for _, term in side.parts:
                    if isinstance(term, Feature) and term.at_root:
                        found[library.features[term.name]] = None
    return tuple(found)


def needs_check(goal: Goal, library: Library) -> bool:
    """Whether ``goal`` can hold only where the side to move is in check:
    it is the standard ``mate`` or ``check``, a conjunction with such an
    operand, or a disjunction of such goals. The search need not evaluate
    such a goal where the side to move is not in check."""
    if isinstance(goal, Pred):
        return library.predicates.get(goal.name) in _IN_CHECK
    if isinstance(goal, And):
        return any(needs_check(operand, library) for operand in goal.operands)
    if isinstance(goal, Or):
        return all(needs_check(operand, library) for operand in goal.operands)
    return False


_IN_CHECK = (standard_mate, standard_check)
"""The standard predicates that hold only with the side to move in check."""


def leaf_side(goal: Goal, library: Library) -> bool | None:
    """Whether ``goal`` can hold only where we are to move (True), only
    where they are (False), or may hold either way (None): it is the
    standard ``ustomove`` (True), ``themtomove``, ``mate`` or ``stalemate``
    (False), a conjunction with such an operand, or a disjunction of goals
    alike. The search need not visit a node to learn it is no leaf where
    the other side is to move."""
    if isinstance(goal, Pred):
        function = library.predicates.get(goal.name)
        if function is standard_ustomove:
            return True
        return False if function in _THEM_TO_MOVE else None
    if isinstance(goal, (And, Or)):
        sides = {leaf_side(operand, library) for operand in goal.operands}
        if isinstance(goal, And):
            sides.discard(None)
        return sides.pop() if len(sides) == 1 else None
    return None


_THEM_TO_MOVE = (standard_themtomove, standard_mate, standard_stalemate)
"""The standard predicates that hold only with them to move."""


def mate_alone(better: Goal, holding: Goal, library: Library) -> bool:
    """Whether an advice's better-goal is exactly the standard ``mate`` and
    its holding-goal the constant ``true``: then a node is a leaf exactly
    when it is checkmate with them to move, every node holds, and the search
    may decide both from the position alone."""
    return (
        isinstance(better, Pred)
        and library.predicates.get(better.name) is standard_mate
        and holding == Const(True)
    )


_INTROSPECTION = frozenset(
    {"locals", "vars", "eval", "exec", "_getframe", "currentframe", "f_locals", "signature"}
)
"""Names through which a function could reach its parameters other than by name."""


def _ignores_root(predicate: object) -> bool:
    """Whether ``predicate`` is a plain function ``(node, root)`` whose code
    never names its second parameter (no load, store or closure of it) nor
    reaches its own frame: then its value cannot depend on the root."""
    if type(predicate) is not types.FunctionType:
        return False
    code = predicate.__code__
    if code.co_argcount < 2 or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return False
    root = code.co_varnames[1]
    if root in code.co_cellvars or _INTROSPECTION & set(code.co_names):
        return False
    for instruction in dis.get_instructions(code):
        value = instruction.argval
        if value == root or (isinstance(value, tuple) and root in value):
            return False
    return True


def legal_alone(constraint: MoveConstraint, library: Library) -> tuple[DepthRange, ...]:
    """The depths at which the allowed moves of ``constraint`` are exactly
    the standard ``legal`` generator's (its only alternative there), as
    ranges: which alternatives apply changes only where a range starts or
    ends, so each span between those depths is decided by its first depth."""
    if library.generators.get("legal") is not standard_legal:
        return ()
    ranges = [alt.depths for alt in constraint.alternatives]
    edges = sorted({0} | {r.lo for r in ranges} | {r.hi for r in ranges if r.hi is not None})
    found = []
    for lo, hi in zip(edges, edges[1:] + [None]):
        applying = [alt for alt in constraint.alternatives if lo in alt.depths]
        if len(applying) == 1 and applying[0].generators == (Call("legal"),):
            found.append(DepthRange(lo, hi))
    return tuple(found)
