"""A tiny predicate library for the KQKR test table."""

from __future__ import annotations

import chess

from al0.library import Library, Node


def queen_kept(node: Node, root: Node) -> bool:
    """Our queen is still on the board."""
    return bool(node.board.pieces_mask(chess.QUEEN, node.us))


def library() -> Library:
    return Library("kqkr_test", predicates={"queen_kept": queen_kept})
