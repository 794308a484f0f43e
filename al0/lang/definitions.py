"""A table's ``define:`` names, expanded into the goals that use them.

A table may name a goal (``held: edge_dist(k) = 0 and inward(k) = 0``) or a
sum of features (``count: corner_dist(k, B) + edge_dist(k) + dist(N, k)``)
once and use the name wherever a predicate or a feature may stand:
``held and count < root.count``. The loader expands every use when the
table loads (lispy's *expand*: the search only ever sees the vocabulary's
own names), so a defined name costs nothing at search time and ``root.``
before a defined sum reads each of its features at the root.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from al0.errors import TableSyntaxError
from al0.lang.model import And, Compare, Feature, Goal, Not, Or, Pred, Sum
from al0.lang.vocabulary.binding import split_call


class DefinitionError(TableSyntaxError):
    """A defined name used as what it is not; ``name`` is the use, for the location."""

    def __init__(self, reason: str, name: str):
        super().__init__(reason)
        self.reason = reason
        self.name = name


@dataclass(frozen=True)
class Definitions:
    """The names a table defines: goals (used as predicates) and sums (used as features)."""
    goals: dict[str, Goal] = field(default_factory=dict)
    sums: dict[str, Sum] = field(default_factory=dict)

    def __contains__(self, name: str) -> bool:
        return name in self.goals or name in self.sums

    def expand(self, goal: Goal) -> Goal:
        """``goal`` with every defined name replaced by its definition.

        :raises DefinitionError: a defined sum used as a predicate, a defined
            goal compared as a number, or a defined name given arguments.
        """
        if isinstance(goal, Not):
            return Not(self.expand(goal.operand))
        if isinstance(goal, (And, Or)):
            return type(goal)(tuple(self.expand(operand) for operand in goal.operands))
        if isinstance(goal, Pred):
            self._check_call(goal.name)
            if goal.name in self.sums:
                raise DefinitionError(f"{goal.name!r} is a defined number: compare it "
                                      f"(e.g. {goal.name} < root.{goal.name})", goal.name)
            return self.goals.get(goal.name, goal)
        if isinstance(goal, Compare):
            return Compare(goal.op, self.expand_sum(goal.left), self.expand_sum(goal.right))
        return goal

    def expand_sum(self, total: Sum) -> Sum:
        """``total`` with each defined sum spliced in, its signs multiplied
        through, its features read at the root where the use says ``root.``."""
        parts: list[tuple[int, Feature | int]] = []
        for sign, term in total.parts:
            if not isinstance(term, Feature):
                parts.append((sign, term))
                continue
            self._check_call(term.name)
            if term.name in self.goals:
                raise DefinitionError(f"{term.name!r} is a defined goal, not a number: "
                                      f"use it as a condition, without a comparison", term.name)
            if term.name not in self.sums:
                parts.append((sign, term))
                continue
            for inner_sign, inner in self.sums[term.name].parts:
                if isinstance(inner, Feature):
                    inner = Feature(inner.name, inner.at_root or term.at_root)
                parts.append((sign * inner_sign, inner))
        return Sum(tuple(parts))

    def _check_call(self, name: str) -> None:
        family, args = split_call(name)
        if args and family in self:
            raise DefinitionError(f"{family!r} is defined in this table and takes no "
                                  f"arguments", name)
