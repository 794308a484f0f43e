"""Advice compiled for the search: its goals and move constraints bound to a
library, with what the search may infer from them beforehand.

Split from :mod:`al0.engine.search` (the search itself): compiling reads the
advice's expressions once (which goals are position-only, whether leaves
need check, at which depths the moves are the legal ones), so that the
search only reads the flags it leaves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from al0.lang.compile_goals import GoalFn, compile_goal
from al0.lang.compile_moves import MovesFn, compile_constraint
from al0.lang.infer import (
    leaf_side,
    legal_alone,
    mate_alone,
    needs_check,
    position_only,
    reads_root,
    root_features,
)
from al0.lang.library import Library
from al0.lang.model import Advice, DepthRange, Goal, feature_names, leaves
from al0.lang.node import Node

RootKey = tuple["int | None", ...]


def root_key(advice: CompiledAdvice, root: Node) -> RootKey:
    """The values at ``root`` of the features ``advice`` reads there: for
    advice whose goals are position-only, searches from roots with equal
    keys find the same facts everywhere, and may share ``values`` and
    ``memo`` (empty for advice that reads nothing at the root)."""
    return tuple(feature(root) for feature in advice.root_features)


@dataclass(frozen=True)
class CompiledAdvice:
    """A piece of advice with its goals and constraints bound to a library."""

    name: str
    better: GoalFn
    holding: GoalFn
    us_moves: MovesFn
    them_moves: MovesFn
    horizon: int
    """No node deeper than this has an allowed move, so no tree is higher."""
    reads_root: bool = True
    """Whether its goals may depend on the root (:func:`al0.lang.infer.reads_root`).
    When they do not, a (position, depth) has the same outcome in every
    search for this advice, and searches from different roots may share a
    memo (:class:`~al0.engine.search.ForcingTreeSearch`'s ``memo``)."""
    leaf_in_check: bool = False
    """Whether the better-goal holds only where the side to move is in check
    (:func:`al0.lang.infer.needs_check`): then a node not in check is no leaf, and
    where only a leaf would do, the search need not visit it."""
    leaf_ours: bool | None = None
    """Whether a leaf has us to move (True), them (False), or either (None)
    (:func:`al0.lang.infer.leaf_side`): where the children of a node have the
    other side to move, none is a leaf, and the search need not visit them
    to learn it."""
    legal_depths: tuple[DepthRange, ...] = ()
    """The depths at which our allowed moves are the standard ``legal``
    generator's alone: there the search knows them without asking it."""
    their_legal_depths: tuple[DepthRange, ...] = ()
    """The same for their allowed moves."""
    position_only: bool = False
    """Whether both goals are :func:`al0.lang.infer.position_only`: then what a
    node's goals say (fails the holding-goal, holds, is a leaf) depends on
    its position and the values of :attr:`root_features` at the root, and
    searches keep it per position (:class:`~al0.engine.search.ForcingTreeSearch`'s ``values``)."""
    root_features: tuple[Callable[[Node], int | None], ...] = ()
    """The features its goals read at the root (:func:`al0.lang.infer.root_features`)."""
    mate_alone: bool = False
    """Whether the better-goal is exactly the standard ``mate`` and the
    holding-goal ``true`` (:func:`al0.lang.infer.mate_alone`): then the search
    decides a node from its position alone, without a Node, and knows that
    a node with us to move holds and is no leaf."""
    cost: int = 1
    """How many nodes of a search's budget one evaluation of its goals
    counts as (:func:`goal_cost`): a goal of thousands of terms takes
    milliseconds a node, and must not keep a search within its node budget
    busy for minutes."""


TERMS_PER_NODE = 100
"""Terms of goals (predicates, comparisons, their features) that count as
one node of the budget: every bundled table's advice has fewer than 40, so
each of its nodes counts as one."""


def goal_cost(*goals: Goal) -> int:
    """How many nodes of the budget one evaluation of ``goals`` counts as:
    one per :data:`TERMS_PER_NODE` terms begun, at least one."""
    terms = sum(1 for goal in goals for _ in leaves(goal)) + sum(
        1 for goal in goals for _ in feature_names(goal)
    )
    return max(1, -(-terms // TERMS_PER_NODE))


def compile_advice(advice: Advice, library: Library) -> CompiledAdvice:
    """Bind ``advice`` to ``library``; its names were checked at load time."""
    horizons = [advice.us_moves.horizon(), advice.them_moves.horizon()]
    bounded = [h for h in horizons if h is not None]
    if len(bounded) < 2:
        raise ValueError(f"advice {advice.name!r} has an unbounded move constraint")
    return CompiledAdvice(
        advice.name,
        compile_goal(advice.better_goal, library),
        compile_goal(advice.holding_goal, library),
        compile_constraint(advice.us_moves, library),
        compile_constraint(advice.them_moves, library),
        max(bounded),
        reads_root(advice.better_goal, library) or reads_root(advice.holding_goal, library),
        needs_check(advice.better_goal, library),
        leaf_side(advice.better_goal, library),
        legal_alone(advice.us_moves, library),
        legal_alone(advice.them_moves, library),
        position_only(advice.better_goal, library) and position_only(advice.holding_goal, library),
        root_features(advice.better_goal, library) + root_features(advice.holding_goal, library),
        mate_alone(advice.better_goal, advice.holding_goal, library),
        goal_cost(advice.better_goal, advice.holding_goal),
    )
