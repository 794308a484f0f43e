"""What a game's history asks of a plan: not to come back to a position.

A threefold repetition is the table's failure, not the game's (issue 36):
so where a piece of advice has several forcing trees, the planner prefers
one whose moves of ours never lead to a position the game has already
seen after a move of ours. :func:`seen_after_ours` reads those positions
off a board's move stack (since its last capture: a repetition never looks
back past one), :func:`repeated` says whether a tree would reach one; the
searches exclude them (``excluded`` of
:class:`~al0.engine.search.ForcingTreeSearch` and its native twin).
"""

from __future__ import annotations

from collections.abc import Iterator, Set

import chess

from al0.board.moves import apply
from al0.board.position import Position, from_board
from al0.engine.tree import ForcingTree

EVERYWHERE = 1 << 30
"""An exclusion ``reach`` beyond every horizon: every move of ours in the
tree avoids the positions seen, not only the first."""


def seen_after_ours(board: chess.Board, us: chess.Color) -> frozenset[Position]:
    """The positions of ``board``'s game, since its last capture, that came
    after a move of ours (them to move): what our plan should not lead to
    again. Empty for a board without moves."""
    if not board.move_stack:
        return frozenset()
    seen = []
    game = board.copy()
    while game.move_stack:
        if game.turn != us:
            seen.append(from_board(game))
        move = game.pop()
        if game.is_irreversible(move):
            break
    return frozenset(seen)


def our_children(position: Position, tree: ForcingTree, reach: int = EVERYWHERE) -> Iterator[Position]:
    """The positions the moves of ours in ``tree`` (from ``position``, our
    move) lead to, down to depth ``reach``, each shared subtree walked once
    per position it is met at."""
    pending = [(position, tree, 0)]
    # By position and subtree; the subtree kept, so that its id stays its
    # own (the core's trees make their nodes as they are read).
    done: dict[tuple[Position, int], ForcingTree] = {}
    while pending:
        at, subtree, depth = pending.pop()
        if depth >= reach or not subtree.branches:
            continue
        move, after = subtree.branches[0]
        child = apply(at, move)
        yield child
        for reply, below in after.branches:
            reached = apply(child, reply)
            if (reached, id(below)) not in done:
                done[reached, id(below)] = below
                pending.append((reached, below, depth + 2))


def repeated(position: Position, tree: ForcingTree, seen: Set[Position], reach: int = EVERYWHERE) -> bool:
    """Whether a move of ours in ``tree`` (within ``reach`` plies of its root)
    leads to a position of ``seen``."""
    return bool(seen) and any(child in seen for child in our_children(position, tree, reach))
