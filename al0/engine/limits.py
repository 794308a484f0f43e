"""How much one forcing-tree search may spend.

Split from :mod:`al0.engine.search` so that callers that only bound a search
(the planner, the UCI engine) import the bounds alone: reaching one raises
:class:`~al0.errors.SearchBudgetExceeded`, which stops a search but never
changes its result.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class SearchLimits:
    """How much one forcing-tree search may spend before it gives up with
    :class:`~al0.errors.SearchBudgetExceeded`. The book's KRK table needs a
    few thousand nodes at most; the bounds are there to stop runaway tables."""

    nodes: int = 1_000_000
    """Nodes whose goals are evaluated, each counting as its advice's
    :attr:`~al0.engine.compiled.CompiledAdvice.cost` (one per 100 terms of goals)."""
    moves: int = 3_000_000
    """Moves stored in the memo. They are most of a search's memory, about
    150 bytes each with their positions: the default bounds it near 500 MB."""
    seconds: float = 120.0
    """Wall-clock seconds (looked at every 64 nodes of the budget)."""
    stop: threading.Event | None = None
    """Set from another thread (a UCI ``stop``, a move's clock) to end the
    search at its next look at the clock (every 64 nodes of the budget)."""


def node_budget(limits: SearchLimits, cost: int) -> str:
    """A spent node budget as an error names it: with the advice's cost per
    node (:attr:`~al0.engine.compiled.CompiledAdvice.cost`) when above one."""
    return f"node budget of {limits.nodes}" + (
        f" (each node counting as {cost}, one per 100 terms of its goals)" if cost > 1 else ""
    )
