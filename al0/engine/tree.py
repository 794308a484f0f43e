"""Forcing trees: the AND/OR trees that witness a piece of advice.

At our nodes a forcing tree keeps one move; at theirs, every reply the
them-constraint allows. A leaf is a node where the better-goal holds.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any, Iterator
from weakref import ref

import chess

from al0.board.position import MOVES, code_move, move_code, moved
from al0.board.symmetry import IDENTITY, SQUARE_MAPS, Symmetry


@dataclass(frozen=True, eq=False)
class ForcingTree:
    """A node of a forcing tree; ``height`` is its worst-case number of plies
    to a leaf (0 at a leaf)."""

    height: int
    branches: tuple[tuple[chess.Move, ForcingTree], ...] = ()

    # Equal by value, whatever the class: a tree the native core packed
    # (:class:`PackedTree`) equals the same tree made by the Python search.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ForcingTree):
            return NotImplemented
        return self is other or (self.height == other.height and self.branches == other.branches)

    def __hash__(self) -> int:
        return hash((self.height, self.branches))

    @property
    def is_leaf(self) -> bool:
        return not self.branches

    def child(self, move: chess.Move) -> ForcingTree | None:
        """The subtree after ``move``, or None when the tree does not cover it."""
        for branch, subtree in self.branches:
            if branch == move:
                return subtree
        return None


LEAF = ForcingTree(0)


class _PackedBranches:
    """:attr:`PackedTree.branches`: read on first use into the instance's
    dict, where later reads find them (a non-data descriptor, so the dict
    wins over it)."""

    def __get__(
        self, tree: ForcingTree, owner: type | None = None
    ) -> tuple[tuple[chess.Move, ForcingTree], ...]:
        fields = tree.__dict__
        code, made, at = fields["_code"], fields["_made"], fields["_at"]
        squares = fields.get("_squares")
        if isinstance(code, bytes):  # the root, as the core made it: read its bytes as ints
            code = fields["_code"] = memoryview(code).cast("i")
        branches = []
        for i in range(at + 2, at + 2 + 2 * code[at + 1], 2):
            move, child = code[i], code[i + 1]
            subtree: ForcingTree | None = LEAF
            if child >= 0:
                known = made.get(child)
                subtree = None if known is None else known()
                if subtree is None:
                    subtree = _packed_node(code, child, made, squares)
                    made[child] = ref(subtree)
            if squares is None:
                branches.append((code_move(move), subtree))
            elif move < 4096:
                branches.append((MOVES[squares[move >> 6]][squares[move & 63]], subtree))
            else:  # a promotion
                made_move = code_move(move)
                branches.append(
                    (moved(made_move, squares[made_move.from_square], squares[made_move.to_square]), subtree)
                )
        found = fields["branches"] = tuple(branches)
        return found


class PackedTree(ForcingTree):
    """A forcing tree as the native core wrote it (al0/core/tree.h: flat
    ints, each node its height, its number of branches, then each branch's
    move and the index of its subtree's node, -1 for a leaf). Its height
    is at hand; its branches are read from the ints the first time they
    are asked for, and kept: a caller that plays the first move, or asks
    the height, reads one node, not the whole tree. Made by
    :func:`packed_tree`; equal, as a value, to the tree the Python search
    makes (and written and pickled as one)."""

    # The fields live in the instance's dict: height, and _code (the ints;
    # the root's are bytes until first read), _at (this node's index),
    # _made (the subtrees made so far, by index, shared by the whole tree so
    # that a shared subtree stays shared: weak references, so that no node
    # and the map hold each other in a cycle), and _squares where the moves are
    # read under a symmetry (:func:`transform_tree`: its square map). The
    # core makes the root so (al0/core/_core.c, packed_tree), as
    # :func:`packed_tree` does.

    branches = _PackedBranches()

    def __repr__(self) -> str:
        return f"ForcingTree(height={self.height!r}, branches={self.branches!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (ForcingTree, (self.height, self.branches))


_new_object = object.__new__


def _packed_node(
    code: memoryview,
    at: int,
    made: dict[int, ref[ForcingTree]],
    squares: tuple[int, ...] | None = None,
) -> PackedTree:
    tree = _new_object(PackedTree)
    tree.__dict__.update(height=code[at], _code=code, _at=at, _made=made, _squares=squares)
    return tree


def packed_tree(data: bytes) -> PackedTree:
    """The tree the native core wrote into ``data`` (its root node first)."""
    return _packed_node(memoryview(data).cast("i"), 0, {})


def tree_code(tree: ForcingTree) -> bytes:
    """``tree`` as the native core writes it, which :func:`packed_tree`
    reads back (an equal tree): a tree the core made, as it stands (no copy);
    any other (the Python search's, a mirror image's) written so, a shared
    subtree once. A plan travels between processes so, for a few bytes a
    node, where pickling its tree made an object of every node at both ends."""
    fields = tree.__dict__
    if isinstance(tree, PackedTree) and not fields["_at"] and fields.get("_squares") is None:
        code = fields["_code"]
        return code if isinstance(code, bytes) else bytes(code)
    ints = array("i")
    written: dict[int, int] = {}

    def write(node: ForcingTree) -> int:
        at = written.get(id(node))
        if at is None:
            at = written[id(node)] = len(ints)
            branches = node.branches
            ints.extend((node.height, len(branches)))
            ints.extend([0, 0] * len(branches))  # each branch's move and subtree, below
            for place, (move, child) in enumerate(branches):
                slot = at + 2 + 2 * place
                ints[slot] = move_code(move)
                ints[slot + 1] = -1 if child.is_leaf and not child.height else write(child)
        return at

    write(tree)
    return ints.tobytes()


def tree_lines(tree: ForcingTree, board: chess.Board, indent: str = "  ") -> Iterator[str]:
    """The tree as indented SAN lines, one move a line, children indented
    under their parent's move. ``board`` is left as it was."""
    for move, subtree in tree.branches:
        number = board.fullmove_number
        prefix = f"{number}." if board.turn == chess.WHITE else f"{number}..."
        suffix = "  (goal)" if subtree.is_leaf else ""
        yield f"{prefix} {board.san(move)}{suffix}"
        board.push(move)
        for line in tree_lines(subtree, board, indent):
            yield indent + line
        board.pop()


def principal_line(tree: ForcingTree) -> list[chess.Move]:
    """The tree's worst-case line: our move at our nodes, at theirs the first
    reply whose subtree is highest (their longest resistance)."""
    line: list[chess.Move] = []
    ours = True
    while tree.branches:
        branches = tree.branches if ours else sorted(tree.branches, key=lambda b: -b[1].height)
        move, tree = branches[0]
        line.append(move)
        ours = not ours
    return line


def transform_tree(tree: ForcingTree, symmetry: Symmetry) -> ForcingTree:
    """``tree`` with every move under ``symmetry`` (shared subtrees stay
    shared)."""
    if symmetry == IDENTITY:
        return tree
    squares = SQUARE_MAPS[symmetry]
    if isinstance(tree, PackedTree):
        # The same ints read under the symmetry, as lazily as the tree.
        fields = tree.__dict__
        before = fields.get("_squares")
        mapped = squares if before is None else tuple(squares[square] for square in before)
        root = _new_object(PackedTree)
        root.__dict__.update(
            height=tree.height, _code=fields["_code"], _at=fields["_at"], _made={}, _squares=mapped
        )
        return root
    done: dict[int, ForcingTree] = {}

    def walk(node: ForcingTree) -> ForcingTree:
        found = done.get(id(node))
        if found is None:
            found = done[id(node)] = ForcingTree(
                node.height,
                tuple(
                    (moved(move, squares[move.from_square], squares[move.to_square]), walk(child))
                    for move, child in node.branches
                ),
            )
        return found

    return walk(tree)
