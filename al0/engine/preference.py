"""``prefer:``: of the forcing trees that satisfy a piece of advice, the one
whose worst leaf scores least.

A leaf's score is the tuple of the advice's ``prefer:`` sums there, compared
first term first; a term without a value (a piece gone) counts above every
value. A tree's score is its worst (greatest) leaf's. The preferred tree is
found by branch and bound over the ordinary search, on either core: once a
tree is found, the advice is searched again *tightened* to the trees whose
every leaf scores below it, until none is. The tightening is written in the
language itself, so both cores search it unchanged: a node where the
better-goal holds is a leaf when its score is below the bound, and fails
otherwise (it is not searched past: the tightened trees are exactly the
advice's trees with every leaf below the bound). Each search returns one of
least worst-case depth, so of the trees of the least score the shallowest
is played, and of those the first in the generators' order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from al0.board.moves import apply
from al0.engine.tree import ForcingTree
from al0.lang.compile_goals import ValueFn
from al0.lang.model import Advice, And, Compare, Goal, Not, Or, Sum
from al0.lang.node import Node, node_at

Score = tuple["int | None", ...]
"""A leaf's values of the ``prefer:`` sums (None: no value)."""


def score_order(score: Score) -> tuple[tuple[bool, int], ...]:
    """``score`` as a key that sorts a missing value above every value."""
    return tuple((value is None, 0 if value is None else value) for value in score)


def below(terms: tuple[Sum, ...], bound: Score) -> Goal:
    """The goal "the leaf's score is below ``bound``" (lexicographically,
    a missing value above every value)."""
    options: list[Goal] = []
    for place, (term, limit) in enumerate(zip(terms, bound)):
        same = [_equal(earlier, value) for earlier, value in zip(terms[:place], bound[:place])]
        # Below no value is any value (the comparison of a sum with itself holds then).
        less = Compare("=", term, term) if limit is None else Compare("<", term, Sum(((1, limit),)))
        options.append(And((*same, less)) if same else less)
    return options[0] if len(options) == 1 else Or(tuple(options))


def _equal(term: Sum, value: int | None) -> Goal:
    """The goal "``term`` has ``value``" (None: has no value)."""
    return Not(Compare("=", term, term)) if value is None else Compare("=", term, Sum(((1, value),)))


def tightened(advice: Advice, bound: Score) -> Advice:
    """``advice`` with its trees restricted to those whose every leaf scores
    below ``bound``: a node where the better-goal holds is a leaf if it
    scores below, and fails if not (its holding-goal asks so)."""
    less = below(advice.prefer, bound)
    return replace(
        advice,
        better_goal=And((advice.better_goal, less)),
        holding_goal=And((advice.holding_goal, Or((Not(advice.better_goal), less)))),
        prefer=(),
    )


def worst_leaf(values: list[ValueFn], root: Node, tree: ForcingTree) -> Score:
    """The greatest score over the leaves of ``tree`` from ``root``."""
    worst: Score | None = None
    pending = [(root.position, 0, tree)]
    while pending:
        position, depth, subtree = pending.pop()
        if subtree.is_leaf:
            node = root if depth == 0 else node_at(position, depth, root.us)
            score = tuple(value(node, root) for value in values)
            if worst is None or score_order(score) > score_order(worst):
                worst = score
        for move, child in subtree.branches:
            pending.append((apply(position, move), depth + 1, child))
    assert worst is not None  # a tree has a leaf
    return worst


def preferred(
    values: list[ValueFn],
    root: Node,
    tree: ForcingTree,
    search: Callable[[Score], ForcingTree | None],
) -> ForcingTree:
    """Of an advice's trees from ``root``, one of the least score, starting
    from ``tree`` (one of its trees, with a move); ``values`` are its
    ``prefer:`` sums compiled, ``search(bound)`` searches the advice
    :func:`tightened` to ``bound`` from ``root``. The bound falls strictly
    each round, so the loop ends."""
    while True:
        found = search(worst_leaf(values, root, tree))
        if found is None or found.is_leaf:
            return tree
        tree = found
