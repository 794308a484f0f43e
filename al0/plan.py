"""Choosing a plan (AL0 section 6): the first rule whose precondition holds,
its pieces of advice in order, the first satisfiable one gives the tree."""

from __future__ import annotations

import time
from dataclasses import dataclass

import chess

from al0.goals import compile_goal
from al0.library import Node
from al0.model import AdviceTable
from al0.positions import material_counts
from al0.search import (CompiledAdvice, ForcingTreeSearch, PositionKey, compile_advice,
                        position_key)
from al0.tree import ForcingTree

DEFAULT_BUDGET = 1_000_000
"""Nodes one forcing-tree search may evaluate; the book's KRK table needs
far fewer (a few thousand at most), so reaching it signals a runaway table."""


@dataclass(frozen=True)
class Plan:
    """The outcome of plan selection at one position.

    ``tried`` lists the advice passed over, in order: unsatisfiable, or
    already satisfied at the root (which leaves no move to play). ``advice``
    and ``tree`` are None when the table has no plan: then ``rule`` is None
    when no precondition held.
    """
    board: chess.Board
    """The position planned for (a copy: do not mutate)."""
    rule: str | None
    advice: str | None
    tried: tuple[str, ...]
    tree: ForcingTree | None
    nodes: int
    seconds: float

    @property
    def fen(self) -> str:
        return self.board.fen()

    def describe_failure(self) -> str:
        """Why there is no plan, in words."""
        if self.rule is None:
            return "no rule's precondition holds"
        return (f"rule {self.rule}: no advice gives a move to play "
                f"(tried {', '.join(self.tried)})")


class Planner:
    """Plans for one advice table. Compiles the table once and, with
    ``cache``, remembers the plan of every position it has planned (a plan
    depends on the position only, never on the game's history)."""

    def __init__(self, table: AdviceTable, budget: int = DEFAULT_BUDGET, cache: bool = True):
        self.table = table
        self.budget = budget
        self.rules = [(rule, compile_goal(rule.precondition, table.library))
                      for rule in table.rules]
        self.advice: dict[str, CompiledAdvice] = {
            name: compile_advice(advice, table.library) for name, advice in table.advice.items()}
        self.needed_material = material_counts(table.material)
        """Our pieces the table needs (see :func:`al0.positions.piece_counts`)."""
        self.cache: dict[PositionKey, Plan] | None = {} if cache else None
        self.search_seconds: list[float] = []
        """The time of every plan actually searched (not taken from the cache)."""

    def plan(self, board: chess.Board) -> Plan:
        """The plan at ``board`` (our move).

        :raises SearchBudgetExceeded: when one search spends the budget.
        """
        key = position_key(board)
        if self.cache is not None and key in self.cache:
            return self.cache[key]
        plan = self._search(board)
        self.search_seconds.append(plan.seconds)
        if self.cache is not None:
            self.cache[key] = plan
        return plan

    def _search(self, board: chess.Board) -> Plan:
        started = time.perf_counter()
        root = Node(board.copy(stack=False), 0, self.table.us)
        work = board.copy(stack=False)
        nodes = 0
        for rule, precondition in self.rules:
            if not precondition(root, root):
                continue
            tried: list[str] = []
            for name in rule.advice:
                search = ForcingTreeSearch(self.advice[name], root, work, self.budget)
                tree = search.run()
                nodes += search.nodes
                # A better-goal that already holds at the root is satisfied
                # with no move to play: it cannot guide play, so pass it over.
                if tree is not None and not tree.is_leaf:
                    return Plan(root.board, rule.name, name, tuple(tried), tree, nodes,
                                time.perf_counter() - started)
                tried.append(name)
            return Plan(root.board, rule.name, None, tuple(tried), None, nodes,
                        time.perf_counter() - started)
        return Plan(root.board, None, None, (), None, nodes, time.perf_counter() - started)
