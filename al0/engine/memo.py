"""What a forcing-tree search remembers per node, and the trees it makes.

Split from :mod:`al0.engine.search` (the search itself): a search's memo
maps a :data:`SearchKey` to an :class:`Entry`, and the planner keeps these
memos (and the per-position :data:`FAILS`/:data:`HOLDS`/:data:`LEAF_HERE`
values) to share them between searches. Entries and trees are made without
Python-level ``__init__`` calls, as the search makes one of each per node.
"""

from __future__ import annotations

import chess

from al0.board.position import Position
from al0.engine.tree import ForcingTree

SearchKey = tuple[Position, int]
"""A search node: its position and depth."""

FAILS, HOLDS, LEAF_HERE = 0, 1, 2
"""What a node's goals say: it fails the holding-goal, holds it and is no
leaf, or is a leaf (kept per position in a search's ``values``)."""


_new_object = object.__new__


def make_tree(height: int, branches: tuple[tuple[chess.Move, ForcingTree], ...]) -> ForcingTree:
    """``ForcingTree(height, branches)``, made without the dataclass's
    ``__init__``: a frozen dataclass sets each field through
    ``object.__setattr__``, which costs more than the rest of making it
    (the search makes a tree at every node it solves)."""
    tree = _new_object(ForcingTree)
    fields = tree.__dict__
    fields["height"] = height
    fields["branches"] = branches
    return tree


class Child:
    """One child of an expanded node, in the search's trying order: its
    move, its key once the move is played (None until then: a move is
    played, and checked legal unless known to be, the first time it is
    tried), its place in the generator's order (the tree lists replies in
    it), the generator that gave it (named in an illegal move's error) and
    whether the move is known legal."""

    __slots__ = ("move", "key", "place", "generator", "legal")

    def __init__(self, move: chess.Move, place: int, generator: str, legal: bool):
        self.move = move
        self.key: SearchKey | None = None
        self.place = place
        self.generator = generator
        self.legal = legal


class Entry:
    """What one search knows of one (position, depth).

    ``lo``: the node fails at every bound <= lo (-1: nothing known yet; the
    search's ``never``: at every bound).
    ``tree``: the best forcing tree found so far, if any.
    ``children``: its :class:`Child` records, in trying order, once expanded.

    Every fact an entry holds is true of its (position, depth) whatever the
    search that found it, and the tree it holds is the one any search finds
    (see :class:`~al0.engine.search.ForcingTreeSearch`): this is what lets searches share entries.
    """

    __slots__ = ("lo", "tree", "children")
    # No __init__: :meth:`~al0.engine.search.ForcingTreeSearch._visit`,
    # which makes one per node, sets the three fields itself (a Python-level
    # __init__ costs more than the rest of its bookkeeping).
    lo: int
    tree: ForcingTree | None
    children: list[Child] | None
