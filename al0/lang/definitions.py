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
from al0.lang.model import And, Call, Compare, Feature, Goal, Not, Or, Pred, Sum
from al0.lang.yaml_reader import MAX_YAML_NODES

# The YAML reader's bound, for what the definitions expand to: a name used
# twice in the next one's definition doubles it, so 45 short lines would
# otherwise make a goal of 2**45 nodes that checking and compiling never
# finish. Counted over the whole table (each use is checked and compiled
# on its own); a real table expands to hundreds.
MAX_EXPANDED_NODES = MAX_YAML_NODES


class DefinitionError(TableSyntaxError):
    """A defined name used as what it is not; ``call`` is the use, for the
    location (None: no one use is to blame)."""

    def __init__(self, reason: str, call: Call | None):
        super().__init__(reason)
        self.reason = reason
        self.call = call


@dataclass
class Definitions:
    """The names a table defines: goals (used as predicates) and sums (used
    as features), and how many nodes the table's goals have expanded to so
    far (``expanded``, bounded by :data:`MAX_EXPANDED_NODES`)."""

    goals: dict[str, Goal] = field(default_factory=dict)
    sums: dict[str, Sum] = field(default_factory=dict)
    expanded: int = 0
    sizes: dict[str, int] = field(default_factory=dict, repr=False)  # a defined goal's, once counted

    def __contains__(self, name: str) -> bool:
        return name in self.goals or name in self.sums

    def expand(self, goal: Goal) -> Goal:
        """``goal`` with every defined name replaced by its definition.

        :raises DefinitionError: a defined sum used as a predicate, a defined
            goal compared as a number, a defined name given arguments, or
            the table's goals past :data:`MAX_EXPANDED_NODES` nodes expanded.
        """
        self._count(self._size(goal), _defined_calls(goal, self))
        return self._expand(goal)

    def expand_sum(self, total: Sum) -> Sum:
        """``total`` with each defined sum spliced in, its signs multiplied
        through, its features read at the root where the use says ``root.``.

        :raises DefinitionError: as :meth:`expand`.
        """
        self._count(self._sum_size(total), _defined_calls(total, self))
        return self._expand_sum(total)

    def _count(self, size: int, calls: list[Call]) -> None:
        """Add ``size`` expanded nodes to the table's, which must stay in bound."""
        self.expanded += size
        if self.expanded > MAX_EXPANDED_NODES:
            raise DefinitionError(
                f"the table's goals expand to more than "
                f"{MAX_EXPANDED_NODES:,} nodes with each defined name "
                f"written out (a name used twice in the next one doubles "
                f"it)",
                calls[0] if calls else None,
            )

    def _size(self, goal: Goal) -> int:
        """How many nodes ``goal`` has once expanded, counted without expanding it."""
        if isinstance(goal, Not):
            return 1 + self._size(goal.operand)
        if isinstance(goal, (And, Or)):
            return 1 + sum(self._size(operand) for operand in goal.operands)
        if isinstance(goal, Pred) and goal.name in self.goals:
            if goal.name not in self.sizes:  # its tree shares subtrees: walk it once
                self.sizes[goal.name] = self._size(self.goals[goal.name])
            return self.sizes[goal.name]
        if isinstance(goal, Compare):
            return 1 + self._sum_size(goal.left) + self._sum_size(goal.right)
        return 1

    def _sum_size(self, total: Sum) -> int:
        return sum(
            len(self.sums[term.name].parts) if isinstance(term, Feature) and term.name in self.sums else 1
            for _, term in total.parts
        )

    def _expand(self, goal: Goal) -> Goal:
        if isinstance(goal, Not):
            return Not(self._expand(goal.operand))
        if isinstance(goal, (And, Or)):
            return type(goal)(tuple(self._expand(operand) for operand in goal.operands))
        if isinstance(goal, Pred):
            self._check_call(goal.call)
            if goal.name in self.sums:
                raise DefinitionError(
                    f"{goal.name!r} is a defined number: compare it (e.g. {goal.name} < root.{goal.name})",
                    goal.call,
                )
            return self.goals.get(goal.name, goal)
        if isinstance(goal, Compare):
            return Compare(goal.op, self._expand_sum(goal.left), self._expand_sum(goal.right))
        return goal

    def _expand_sum(self, total: Sum) -> Sum:
        parts: list[tuple[int, Feature | int]] = []
        for sign, term in total.parts:
            if not isinstance(term, Feature):
                parts.append((sign, term))
                continue
            self._check_call(term.call)
            if term.name in self.goals:
                raise DefinitionError(
                    f"{term.name!r} is a defined goal, not a number: "
                    f"use it as a condition, without a comparison",
                    term.call,
                )
            if term.name not in self.sums:
                parts.append((sign, term))
                continue
            for inner_sign, inner in self.sums[term.name].parts:
                if isinstance(inner, Feature):
                    inner = Feature(inner.call, inner.at_root or term.at_root)
                parts.append((sign * inner_sign, inner))
        return Sum(tuple(parts))

    def _check_call(self, call: Call) -> None:
        family, args = call.family, call.args
        if args and family in self:
            raise DefinitionError(f"{family!r} is defined in this table and takes no arguments", call)


def _defined_calls(value: Goal | Sum, definitions: Definitions) -> list[Call]:
    """The uses of defined names in ``value`` as written, left to right:
    where an expansion past the bound is reported."""
    if isinstance(value, Sum):
        return [
            term.call for _, term in value.parts if isinstance(term, Feature) and term.name in definitions
        ]
    if isinstance(value, Not):
        return _defined_calls(value.operand, definitions)
    if isinstance(value, (And, Or)):
        return [call for operand in value.operands for call in _defined_calls(operand, definitions)]
    if isinstance(value, Pred):
        return [value.call] if value.name in definitions else []
    if isinstance(value, Compare):
        return _defined_calls(value.left, definitions) + _defined_calls(value.right, definitions)
    return []
