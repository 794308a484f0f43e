"""Forcing-tree search against the definition in docs/language.md (Semantics).

The reference below is that definition written out as a plain exhaustive
recursion (no memo, no ordering, no bounds); the builder must agree with it
on whether a tree exists and on its least worst-case depth.
"""

from __future__ import annotations

import functools

import chess
import pytest

from al0.board import Material
from al0.board.sampling import random_positions
from al0.engine.compiled import CompiledAdvice, compile_advice
from al0.engine.search import ForcingTreeSearch
from al0.engine.tree import ForcingTree, tree_lines
from al0.errors import SearchBudgetExceeded
from al0.lang.loader import load_table, parse_table
from al0.lang.model import AdviceTable
from al0.lang.node import Node
from conftest import TABLES, mates


def reference_height(advice: CompiledAdvice, board: chess.Board, depth: int, root: Node) -> int | None:
    """Least worst-case depth of a forcing tree, by exhaustive recursion."""
    node = Node(board, depth, chess.WHITE)
    if not advice.holding(node, root):
        return None
    if advice.better(node, root):
        return 0
    ours = board.turn == chess.WHITE
    moves = [move for moves, _ in (advice.us_moves if ours else advice.them_moves)(node) for move in moves]
    heights = []
    for move in moves:
        board.push(move)
        heights.append(reference_height(advice, board, depth + 1, root))
        board.pop()
    if ours:
        found = [h for h in heights if h is not None]
        return 1 + min(found) if found else None
    if not heights or None in heights:
        return None
    return 1 + max(heights)  # type: ignore[type-var]


def assert_forcing_tree(
    tree: ForcingTree, advice: CompiledAdvice, board: chess.Board, depth: int, root: Node
) -> None:
    """``tree`` satisfies the definition: holding-goal everywhere, leaves
    exactly where the better-goal holds, one allowed move at our nodes,
    every allowed reply at theirs, heights consistent."""
    node = Node(board, depth, chess.WHITE)
    assert advice.holding(node, root), board.fen()
    if tree.is_leaf:
        assert advice.better(node, root), board.fen()
        assert tree.height == 0
        return
    ours = board.turn == chess.WHITE
    allowed = [move for moves, _ in (advice.us_moves if ours else advice.them_moves)(node) for move in moves]
    if ours:
        assert len(tree.branches) == 1 and tree.branches[0][0] in allowed
    else:
        assert [move for move, _ in tree.branches] == allowed
    assert tree.height == 1 + max(sub.height for _, sub in tree.branches)
    for move, subtree in tree.branches:
        board.push(move)
        assert_forcing_tree(subtree, advice, board, depth + 1, root)
        board.pop()


def search(table: AdviceTable, name: str, fen: str, budget: int = 1_000_000) -> ForcingTreeSearch:
    board = chess.Board(fen)
    advice = compile_advice(table.advice[name], table.library)
    return ForcingTreeSearch(advice, Node(board, 0, table.us), budget)


def table_from(text: str) -> AdviceTable:
    """A table from YAML text, with paths relative to advice_tables/."""
    return parse_table(text, "<test>", TABLES)


@functools.cache
def positions() -> list[chess.Board]:
    """Seeded KRK positions, drawn when a test first asks (not on import:
    every worker of a run collects this file)."""
    return random_positions(Material.parse("KRK"), 60, seed=11)


@functools.cache
def edge_positions() -> list[chess.Board]:
    """Positions where mate_in_2 has a chance: their king on an edge, kings close."""
    return [
        b
        for b in random_positions(Material.parse("KRK"), 3000, seed=12)
        if (
            chess.square_file(b.king(chess.BLACK)) in (0, 7)
            or chess.square_rank(b.king(chess.BLACK)) in (0, 7)
        )
        and chess.square_distance(b.king(chess.WHITE), b.king(chess.BLACK)) < 4
    ][:80]


@pytest.mark.parametrize("name", ["mate_in_2", "squeeze", "approach", "keeproom", "divide_in_2"])
@pytest.mark.slow
def test_search_agrees_with_exhaustive_reference(bratko, name):
    advice = compile_advice(bratko.advice[name], bratko.library)
    outcomes = set()
    for board in positions() + edge_positions():
        root = Node(board.copy(), 0, chess.WHITE)
        expected = reference_height(advice, board.copy(), 0, root)
        tree = ForcingTreeSearch(advice, root).run()
        assert (tree.height if tree else None) == expected, (name, board.fen())
        outcomes.add(expected)
        if tree is not None:
            assert_forcing_tree(tree, advice, board.copy(), 0, root)
    # The sample must give more than one outcome for the comparison to mean anything.
    assert len(outcomes) > 1 and outcomes != {None}


def test_mate_in_2_found_exactly_where_a_constrained_mate_in_2_exists(bratko):
    """Independent of the advice machinery: python-chess alone decides
    whether White mates within two moves with a rook check as the second."""

    def rook_check(board: chess.Board, move: chess.Move) -> bool:
        king = board.king(chess.BLACK)
        return board.piece_type_at(move.from_square) == chess.ROOK and (
            chess.square_file(move.to_square) == chess.square_file(king)
            or chess.square_rank(move.to_square) == chess.square_rank(king)
        )

    def rook_safe(board: chess.Board) -> bool:
        rook = board.pieces(chess.ROOK, chess.WHITE)
        if not rook:
            return False
        r = next(iter(rook))
        return not (
            board.turn == chess.BLACK
            and chess.square_distance(board.king(chess.BLACK), r) == 1
            and chess.square_distance(board.king(chess.WHITE), r) > 1
        )

    def edge(board: chess.Board) -> bool:
        k = board.king(chess.BLACK)
        return chess.square_file(k) in (0, 7) or chess.square_rank(k) in (0, 7)

    def ok(board: chess.Board) -> bool:
        return rook_safe(board) and edge(board)

    def mates_in_2(board: chess.Board) -> int | None:
        if not ok(board):
            return None
        best = None
        for first in list(board.legal_moves):
            board.push(first)
            if ok(board) and board.is_checkmate():
                best = 1
            elif ok(board) and best is None and not board.is_game_over():

                def answered(reply: chess.Move) -> bool:
                    board.push(reply)
                    try:
                        if not ok(board):
                            return False
                        for second in [m for m in board.legal_moves if rook_check(board, m)]:
                            board.push(second)
                            mated = ok(board) and board.is_checkmate()
                            board.pop()
                            if mated:
                                return True
                        return False
                    finally:
                        board.pop()

                if all(answered(reply) for reply in list(board.legal_moves)):
                    best = 3
            board.pop()
        return best

    heights = []
    for board in edge_positions():
        tree = search(bratko, "mate_in_2", board.fen()).run()
        expected = mates_in_2(board.copy())
        assert (tree.height if tree else None) == expected, board.fen()
        heights.append(expected)
    assert 1 in heights and 3 in heights and None in heights


def test_shallowest_tree_is_preferred(bratko):
    # Rh8 mates at once; mate_in_2 allows two moves but must not take them.
    tree = search(bratko, "mate_in_2", "k7/8/1K6/8/8/8/8/7R w - - 0 1").run()
    assert tree is not None and tree.height == 1
    assert tree.branches[0][0] == chess.Move.from_uci("h1h8")


def test_mate_in_2_tree_covers_every_reply(bratko):
    board = chess.Board("8/8/8/8/8/1K6/2R5/1k6 w - - 0 1")
    tree = search(bratko, "mate_in_2", board.fen()).run()
    assert tree is not None and tree.height == 3
    first, reply_node = tree.branches[0]
    board.push(first)
    assert {m for m, _ in reply_node.branches} == set(board.legal_moves)
    assert "\n".join(tree_lines(tree, chess.Board("8/8/8/8/8/1K6/2R5/1k6 w - - 0 1")))


def test_each_position_and_depth_is_evaluated_once(bratko):
    for name in ("mate_in_2", "divide_in_2", "divide_in_3"):
        for board in positions()[:10]:
            run = search(bratko, name, board.fen())
            run.run()
            assert run.nodes == len(run.memo)


def test_budget_is_reported_not_hung(bratko):
    with pytest.raises(SearchBudgetExceeded, match="divide_in_3.*budget of 50"):
        search(bratko, "divide_in_3", "8/8/8/8/3k4/8/8/R3K3 w - - 0 1", budget=50).run()


MATE_IN_ONE_ONLY = """
name: mate_in_one
material: KRK
library: ../library/krk.py
rules: [{{name: only, if: true, then: [mate_now]}}]
advice:
  mate_now:
    better-goal: {better}
    holding-goal: not rooklost
    us-moves: {{0: legal}}
    them-moves: {them}
"""


def test_nomove_means_the_better_goal_must_hold_right_after_our_move():
    table = table_from(MATE_IN_ONE_ONLY.format(better="mate", them="nomove"))
    assert search(table, "mate_now", "k7/8/1K6/8/8/8/8/7R w - - 0 1").run().height == 1
    # Mate in two (1. Rc8 Ka1 2. Rc1#) but none in one: nomove forbids waiting.
    board = chess.Board("8/8/8/8/8/1K6/2R5/1k6 w - - 0 1")
    assert not any(board.gives_check(m) and mates(board, m) for m in board.legal_moves)
    assert search(table, "mate_now", board.fen()).run() is None


# Black Ka8, White Kc6 and Rb3: 1. Rb7 stalemates; no move mates.
STALEMATE_TRAP = "k7/8/2K5/8/8/1R6/8/8 w - - 0 1"


def test_stalemate_is_never_a_success_unless_the_goal_says_so():
    board = chess.Board(STALEMATE_TRAP)
    assert not any(mates(board, m) for m in board.legal_moves)
    mate_only = table_from(MATE_IN_ONE_ONLY.format(better="mate", them="{1: legal}"))
    # Their node after Rb7 has no allowed reply: that is a failure, not a
    # vacuous "every reply is answered".
    assert search(mate_only, "mate_now", STALEMATE_TRAP).run() is None
    mate_or_stalemate = table_from(MATE_IN_ONE_ONLY.format(better="mate or stalemate", them="{1: legal}"))
    tree = search(mate_or_stalemate, "mate_now", STALEMATE_TRAP).run()
    assert tree is not None and tree.branches[0][0] == chess.Move.from_uci("b3b7")


# A holding-goal their nodes can fail while every reply reaches a leaf.
KEEP_AWAY = """
name: keep_away
material: KRK
rules:
  - {name: all, if: true, then: [to_edge]}
advice:
  to_edge:
    better-goal: ustomove and edge_dist(K) < root.edge_dist(K)
    holding-goal: not (themtomove and dist(K, k) <= 2)
    us-moves: {0: legal}
    them-moves: {1: legal}
"""


@pytest.mark.parametrize(
    "table_name, name, count",
    [
        ("kbnk", "progress", 40),
        ("kbnk", "progress_in_2", 40),
        ("kbnk", "progress_in_3", 12),
        (KEEP_AWAY, "to_edge", 60),
    ],
    ids=["kbnk-progress", "kbnk-progress_in_2", "kbnk-progress_in_3", "keep_away-to_edge"],
)
@pytest.mark.slow
def test_the_last_nodes_of_theirs_decided_apart_give_the_full_search_trees(table_name, name, count):
    # Leaves with us to move and position-only goals: the last nodes of
    # theirs skip their memo records and their own holding-goal until no
    # reply refutes them (ForcingTreeSearch._last_reply); the trees must be
    # the ones the full search finds, node for node.
    table = table_from(table_name) if "\n" in table_name else load_table(TABLES / f"{table_name}.yaml")
    advice = compile_advice(table.advice[name], table.library)
    outcomes = set()
    for board in random_positions(table.material, count, seed=27):
        root = Node(board.copy(), 0, table.us)
        shortcut = ForcingTreeSearch(advice, root)
        assert shortcut.last_theirs == advice.horizon - 1
        full = ForcingTreeSearch(advice, root)
        full.last_theirs = -1
        tree = shortcut.run()
        assert tree == full.run(), board.fen()
        outcomes.add(tree is not None and tree.height)
        if tree is not None:
            assert_forcing_tree(tree, advice, board.copy(), 0, root)
    assert len(outcomes) > 1
