"""How many of our moves a potential needs to fall against every defence,
at every position of an ending at once: a min-max in numpy over the
tablebase's index (:class:`~al0.tablebase.graph.MoveGraph`), looking at every
legal move, not at a table's generators — so it bounds what any table on
this potential could reach."""

from __future__ import annotations

import numpy as np

from al0.progress.columns import INF, MATE, PerPosition
from al0.tablebase.geometry import Mask
from al0.tablebase.graph import MoveGraph

Hold = tuple[Mask, Mask]
"""Where a holding condition holds after our move and after their reply."""


def depths(
    graph: MoveGraph,
    potential: PerPosition,
    depth: int,
    counted: Mask | None = None,
    replies: list[PerPosition] | None = None,
    hold: Hold | None = None,
) -> PerPosition:
    """For every position with us to move, the least number of our moves
    (1 … ``depth``) in which we force a value below its own against every
    reply, 0 when we cannot.

    A position after their reply lowers the value only when it is in
    ``counted`` (all by default). ``hold`` (from
    :meth:`~al0.progress.columns.Terms.holds`) must hold at every position on
    the way after our move and after their reply, as a holding-goal must (a
    mate needs none). ``replies``, when given, receives per level (1 …
    depth) the value each position with them to move guarantees us within
    that level. Mate counts as lower than everything, and so does their
    piece won (a capture into a position still won, as in KQKR); a stalemate
    or a reply that takes one of our pieces as failure.
    """
    met = potential if counted is None else np.where(counted, potential, INF)
    best = np.full(graph.size, INF)
    found = np.zeros(graph.size, dtype=np.int64)
    for level in range(1, depth + 1):
        reached = np.minimum(met, best)
        if hold is not None:  # after their reply
            reached[~hold[1]] = INF
        reply = np.full(graph.size, MATE)
        for start, end in graph.theirs:
            reply[start] = np.maximum(reply[start], reached[end])
        if hold is not None:  # after our move
            reply[~hold[0]] = INF
        reply[graph.mated] = MATE
        reply[graph.stalemated | graph.capture] = INF
        if replies is not None:
            replies.append(reply)
        best = np.full(graph.size, INF)
        for start, end in graph.ours:
            best[start] = np.minimum(best[start], reply[end])
        best[graph.wins] = MATE
        found[(best < potential) & (found == 0)] = level
    return found


def closure(
    graph: MoveGraph,
    potential: PerPosition,
    depth: int,
    start: Mask,
    hold: Hold | None = None,
    kept_anyway: Mask | None = None,
) -> tuple[Mask, PerPosition, list[PerPosition]]:
    """The largest part of ``start`` from which the potential can be forced
    lower within ``depth`` moves into a position of that part itself,
    repeated until nothing changes (positions of ``kept_anyway``, a next
    phase, need no fall); with the depths and replies that count only it."""
    counted = start.copy()
    while True:
        replies: list[PerPosition] = []
        found = depths(graph, potential, depth, counted, replies=replies, hold=hold)
        kept = counted & (found > 0)
        if kept_anyway is not None:
            kept |= kept_anyway
        if (kept == counted).all():
            return counted, found, replies
        counted = kept


def histogram(found: PerPosition, where: Mask, depth: int) -> dict[str, int]:
    """How many positions of ``where`` fall in d = 1 … ``depth`` moves, and
    in none (``"none"``)."""
    counts = np.bincount(found[where], minlength=depth + 1)
    return {**{str(d): int(counts[d]) for d in range(1, depth + 1)}, "none": int(counts[0])}


def histogram_text(counts: dict[str, int]) -> str:
    """``d: positions (share)`` for each entry of :func:`histogram`."""
    total = sum(counts.values()) or 1
    return ", ".join(f"{d}: {n:,} ({100 * n / total:.1f} %)" for d, n in counts.items())
