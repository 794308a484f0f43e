"""Forcing trees: the AND/OR trees that witness a piece of advice.

At our nodes a forcing tree keeps one move; at theirs, every reply the
them-constraint allows. A leaf is a node where the better-goal holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import chess

from al0.board.position import MOVES
from al0.board.symmetry import IDENTITY, SQUARE_MAPS, Symmetry


@dataclass(frozen=True)
class ForcingTree:
    """A node of a forcing tree; ``height`` is its worst-case number of plies
    to a leaf (0 at a leaf)."""

    height: int
    branches: tuple[tuple[chess.Move, ForcingTree], ...] = ()

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
    done: dict[int, ForcingTree] = {}

    def walk(node: ForcingTree) -> ForcingTree:
        found = done.get(id(node))
        if found is None:
            found = done[id(node)] = ForcingTree(
                node.height,
                tuple(
                    (MOVES[squares[move.from_square]][squares[move.to_square]], walk(child))
                    for move, child in node.branches
                ),
            )
        return found

    return walk(tree)
