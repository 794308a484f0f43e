"""What the engine reports of a move: its UCI ``score`` — the line al0
plays: the forcing tree's height where the plan mates, the tablebase's
distance after the move it plays, or the material — and the line it sends
as ``pv``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from al0.engine import ForcingTree
from al0.uci.short_search import material_balance
from al0.uci.verdict import Verdict

if TYPE_CHECKING:
    from al0.games.chess_game import ChessState
    from al0.games.solvers import Proof


def table_score(board: chess.Board, tree: ForcingTree, verdict: Verdict | None) -> tuple[str, str]:
    """The ``score`` of the line al0 plays from ``board`` with ``tree``, and
    where it comes from: the tree's height when every leaf is a mate (al0
    follows the tree: it mates within that), else the tablebase's distance
    after the tree's move (from its ``verdict`` at ``board``), else the
    material. Where the tablebase's distance from ``board`` differs, the
    source says so."""
    best = None if verdict is None else verdict.score()
    if leaves_mate(board.copy(stack=False), tree):
        score, source = f"mate {(tree.height + 1) // 2}", "the plan, a forcing tree to mate"
    elif verdict is not None:
        score, source = verdict.move_score(tree.branches[0][0]), "the tablebase"
        if score != best:
            source = "the tablebase after the plan's move"
    else:
        return f"cp {material_balance(board, board.turn)}", "the material"
    if best is not None and score != best:
        source += f" (the tablebase's best: {best})"
    return score, source


def leaves_mate(board: chess.Board, tree: ForcingTree) -> bool:
    """Whether every leaf of ``tree`` from ``board`` is a checkmate."""
    if tree.is_leaf:
        return board.is_checkmate()
    for move, subtree in tree.branches:
        board.push(move)
        try:
            if not leaves_mate(board, subtree):
                return False
        finally:
            board.pop()
    return True


def playable(board: chess.Board, line: tuple[chess.Move, ...]) -> list[chess.Move]:
    """``line`` from ``board`` (with its game's moves) up to a draw the
    game's history makes (a threefold repetition, the fifty-move rule),
    which the short search, blind to history, plays through."""
    board = board.copy()
    played = []
    for move in line:
        played.append(move)
        board.push(move)
        if board.is_repetition(3) or board.is_fifty_moves():
            break
    return played


def proof_line(proof: Proof[ChessState, chess.Move]) -> list[chess.Move]:
    """A mate proof's worst-case line: at their nodes the reply that delays mate longest."""
    line: list[chess.Move] = []
    while proof.branches:
        move, proof = max(proof.branches, key=lambda branch: branch[1].moves)
        line.append(move)
    return line
