"""Why a piece of advice found no forcing tree, move by move.

For each of our moves the advice allows, the search knows only that it
fails. This walks the failure down: the reply that refutes the move (the
first of theirs from which no forcing tree exists), until the node where
the holding-goal breaks or the better-goal is not reached with no move left
to try, and names the conjuncts of that goal which fail there. ``al0 plan
--why`` prints it, grouped by what failed, so an author reads which part of
a goal each move misses rather than only that the advice failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import chess

from al0.board.moves import apply
from al0.engine.compiled import CompiledAdvice, compile_advice
from al0.engine.limits import SearchLimits
from al0.engine.search import ForcingTreeSearch
from al0.errors import SearchBudgetExceeded
from al0.lang.compile_goals import compile_goal
from al0.lang.model import AdviceTable, Goal
from al0.lang.node import Node
from al0.teach.explain import conjuncts, goal_text

SHOWN_LINES = 3
"""Lines shown for each kind of failure; the rest are counted."""
SHOWN_GROUPS = 4
"""Kinds of failure shown for one advice; the rest are counted."""


@dataclass(frozen=True)
class Refutation:
    """Why one of our moves fails the advice: along ``line`` (our move,
    their refuting reply, …, in SAN) ``goal`` fails at its end, by the
    conjuncts ``failed`` (as the table writes them)."""

    line: tuple[str, ...]
    goal: str
    """``holding-goal``, or ``better-goal`` when it is not reached and no
    move is left to try."""
    failed: tuple[str, ...]
    moves_left: int = 0
    """Our moves allowed where the better-goal was not reached, none of which
    reaches it (0 when the constraints allow none there)."""

    @property
    def reason(self) -> str:
        """What fails, without the line: the key of grouping."""
        text = f"{self.goal}: {' and '.join(self.failed)} fails"
        return text + (", and no move of ours allowed there reaches it" if self.moves_left else "")

    def to_json(self) -> dict[str, object]:
        return {
            "line": list(self.line),
            "goal": self.goal,
            "failed": list(self.failed),
            "moves_left": self.moves_left,
        }


class Refuter:
    """Walks the failures of one piece of advice from one position."""

    def __init__(self, table: AdviceTable, advice: str, board: chess.Board, budget: int):
        self.table = table
        self.advice = table.advice[advice]
        self.compiled: CompiledAdvice = compile_advice(self.advice, table.library)
        self.root = Node(board.copy(stack=False), 0, table.us)
        self.search = ForcingTreeSearch(self.compiled, self.root, SearchLimits(budget))

    def refutations(self) -> list[Refutation]:
        """One for each of our moves the advice allows at the root and the
        search refutes, in the generator's order (none when the goals decide
        the root itself: :func:`al0.report.render.why_passed_over` says so)."""
        root = self.root
        if not self.compiled.holding(root, root) or self.compiled.better(root, root):
            return []
        found = []
        board = root.board.copy(stack=False)
        for move in self._allowed(root):
            child = apply(root.position, move)
            if self.search.at(child, 1) is not None:
                continue
            san = board.san(move)
            board.push(move)
            refutation = self._walk(Node(child, 1, self.table.us), board, (san,))
            board.pop()
            if refutation is not None:
                found.append(refutation)
        return found

    def _walk(self, node: Node, board: chess.Board, line: tuple[str, ...]) -> Refutation | None:
        """Why ``node`` (reached by ``line``, a node the search refutes) fails."""
        root, advice = self.root, self.advice
        if not self.compiled.holding(node, root):
            return Refutation(line, "holding-goal", self._failed(advice.holding_goal, node))
        if self.compiled.better(node, root):
            return None  # a leaf: refuted only by the game's history, which plan has none of
        moves = self._allowed(node)
        if node.position.turn == self.table.us or not moves:
            return Refutation(line, "better-goal", self._failed(advice.better_goal, node), len(moves))
        for reply in moves:
            child = apply(node.position, reply)
            if self.search.at(child, node.depth + 1) is None:
                san = board.san(reply)
                board.push(reply)
                refutation = self._walk(Node(child, node.depth + 1, self.table.us), board, (*line, san))
                board.pop()
                return refutation
        return None

    def _allowed(self, node: Node) -> list[chess.Move]:
        """The legal moves the advice's constraints allow at ``node``, in order."""
        if node.depth >= self.compiled.horizon:
            return []
        ours = node.position.turn == self.table.us
        segments = (self.compiled.us_moves if ours else self.compiled.them_moves)(node)
        legal = set(node.legal_moves())
        allowed = [move for moves, _ in segments for move in moves if move in legal]
        return list(dict.fromkeys(allowed))

    def _failed(self, goal: Goal, node: Node) -> tuple[str, ...]:
        """The conjuncts of ``goal`` that fail at ``node``, as written."""
        library = self.table.library
        return tuple(
            goal_text(part) for part in conjuncts(goal) if not compile_goal(part, library)(node, self.root)
        )


def refutations(table: AdviceTable, advice: str, board: chess.Board, budget: int) -> list[Refutation]:
    """:meth:`Refuter.refutations` of ``advice`` at ``board`` (our move);
    empty when the search reaches ``budget`` (the plan said so already)."""
    try:
        return Refuter(table, advice, board, budget).refutations()
    except SearchBudgetExceeded:
        return []


def refutation_lines(found: list[Refutation]) -> Iterator[str]:
    """The refutations grouped by what failed, most moves first, a few
    lines of each shown: ``after Qg5; Qg6 Kf2 (and 14 more): better-goal: … fails``."""
    groups: dict[str, list[Refutation]] = {}
    for refutation in found:
        groups.setdefault(refutation.reason, []).append(refutation)
    ordered = sorted(groups.items(), key=lambda item: -len(item[1]))
    for reason, members in ordered[:SHOWN_GROUPS]:
        lines = "; ".join(" ".join(member.line) for member in members[:SHOWN_LINES])
        more = f" (and {len(members) - SHOWN_LINES} more)" if len(members) > SHOWN_LINES else ""
        yield f"after {lines}{more}: {reason}"
    rest = sum(len(members) for _, members in ordered[SHOWN_GROUPS:])
    if rest:
        yield f"(and {rest} more of our moves, failing otherwise: --json lists each)"
