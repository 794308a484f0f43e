"""``prefer:`` on a piece of advice: of all its forcing trees within the
constraints (not only the shallowest), the planner plays one whose worst
leaf has the least score, the sums compared first term first; checked
against a brute-force min-max over python-chess's moves on real positions,
and the same trees and node counts on both cores."""

from __future__ import annotations

import re
from pathlib import Path

import chess
import pytest

from al0.board.material import Material
from al0.board.sampling import random_positions
from al0.core import native
from al0.engine.plan import Planner
from al0.engine.preference import score_order
from al0.errors import TableSyntaxError, UnknownNameError
from al0.lang.loader import parse_table
from conftest import TABLES

TABLE = """\
name: nearer
material: KRK
rules:
  - {{name: only, if: true, then: [nearer]}}
advice:
  nearer:
    better-goal: themtomove and dist(K, k) < root.dist(K, k)
    holding-goal: not stalemate and not lost(R)
    us-moves: {{0: legal, 2: legal}}
    them-moves: {{1: legal}}
{prefer}
"""

PREFER = "    prefer:\n      - dist(K, k)\n      - edge_dist(k)"

Score = tuple[int, int]


def planner(prefer: str = "") -> Planner:
    return Planner(parse_table(TABLE.format(prefer=prefer), "nearer.yaml", Path(".")), cache=False)


def kings_apart(board: chess.Board) -> int:
    ours, theirs = board.king(chess.WHITE), board.king(chess.BLACK)
    assert ours is not None and theirs is not None
    return chess.square_distance(ours, theirs)


def score(board: chess.Board) -> Score:
    """The leaf's (dist(K, k), edge_dist(k))."""
    theirs = board.king(chess.BLACK)
    assert theirs is not None
    file, rank = chess.square_file(theirs), chess.square_rank(theirs)
    return kings_apart(board), min(file, rank, 7 - file, 7 - rank)


def best_score(board: chess.Board, start: int, depth: int = 0) -> Score | None:
    """The least worst-leaf score of the advice's trees from ``board``
    (``start``: dist(K, k) at the root), None where it has none: a min-max
    over every line the constraints allow."""
    if depth and (
        not board.pieces(chess.ROOK, chess.WHITE) or not any(board.legal_moves) and not board.is_check()
    ):
        return None  # the holding-goal fails: the rook gone, or stalemate
    if board.turn == chess.BLACK and kings_apart(board) < start:
        return score(board)
    if depth == 3 or not any(board.legal_moves):
        return None  # no allowed move and no leaf
    found = []
    for move in list(board.legal_moves):
        board.push(move)
        found.append(best_score(board, start, depth + 1))
        board.pop()
    if board.turn == chess.WHITE:
        return min((s for s in found if s is not None), default=None)
    return None if None in found else max(s for s in found if s is not None)


def tree_score(board: chess.Board, tree) -> Score:  # type: ignore[no-untyped-def]
    """The worst leaf score of ``tree`` from ``board``."""
    if tree.is_leaf:
        return score(board)
    worst = []
    for move, child in tree.branches:
        board.push(move)
        worst.append(tree_score(board, child))
        board.pop()
    return max(worst)


BOARDS = random_positions(Material.parse("KRK"), 12, seed=3)


def test_the_tree_played_has_the_least_worst_leaf_of_all_trees():
    shallow, preferring = planner(), planner(PREFER)
    deeper = 0
    for board in BOARDS:
        best = best_score(board, kings_apart(board))
        plan = preferring.plan(board)
        if best is None:
            assert plan.tree is None, board.fen()
            continue
        assert plan.tree is not None, board.fen()
        assert tree_score(board.copy(), plan.tree) == best, board.fen()
        first = shallow.plan(board).tree
        assert first is not None and first.height <= plan.tree.height
        deeper += plan.tree.height > first.height
    # The preferred tree is deeper than the shallowest one somewhere: the
    # preference is among all the trees, not only those of least depth.
    assert deeper >= 2


@pytest.mark.skipif(native() is None, reason="the native core is not running")
def test_both_cores_prefer_the_same_trees_with_the_same_nodes(monkeypatch):
    found = {}
    for core_name in ("native", "python"):
        monkeypatch.setenv("AL0_CORE", core_name)
        one = planner(PREFER)
        assert bool(one.native) == (core_name == "native")
        found[core_name] = [(plan.tree, plan.nodes) for plan in map(one.plan, BOARDS)]
    assert found["native"] == found["python"]


FITTED = '    prefer: "area(k) + 5*dist(K, k) + 3*mobility(k) - 2*dist(Q, k) - 5*edge_dist(K)"\n'


def fitted_kqk() -> str:
    """The bundled KQK table with docs/progress.md's fitted preference on
    its one-move squeezes and approach, for the table's own."""
    text = re.sub(r"^    prefer: .*\n", "", (TABLES / "kqk.yaml").read_text(encoding="utf-8"), flags=re.M)
    for advice in ("squeeze_half", "squeeze", "approach"):
        start = text.index(f"  {advice}:\n")
        end = text.index("\n", text.index("them-moves:", start)) + 1
        text = text[:end] + FITTED + text[end:]
    return text


@pytest.mark.skipif(native() is None, reason="the native core is not running")
def test_a_bundled_table_with_a_fitted_preference_plans_alike_on_both_cores(monkeypatch):
    boards = random_positions(Material.parse("KQK"), 15, seed=8)
    found = {}
    for core_name in ("native", "python"):
        monkeypatch.setenv("AL0_CORE", core_name)
        one = Planner(parse_table(fitted_kqk(), "kqk.yaml", TABLES), cache=False)
        found[core_name] = [(plan.advice, plan.tree, plan.nodes) for plan in map(one.plan, boards)]
    assert found["native"] == found["python"]
    # The preference chose differently from the bundled table somewhere.
    plain = Planner(parse_table((TABLES / "kqk.yaml").read_text(encoding="utf-8"), "kqk.yaml", TABLES))
    assert any(plain.plan(board).tree != tree for board, (_, tree, _) in zip(boards, found["python"]))


@pytest.mark.parametrize(
    "scores, order",
    [
        ([(2, 5), (1, 9), (2, None)], [(1, 9), (2, 5), (2, None)]),
        ([(None, 0), (7, 7)], [(7, 7), (None, 0)]),
        ([(-3, 1), (-3, 0)], [(-3, 0), (-3, 1)]),
    ],
)
def test_a_missing_value_scores_above_every_value(scores, order):
    assert sorted(scores, key=score_order) == order


@pytest.mark.parametrize(
    "prefer, kind, fragment",
    [
        (
            '    prefer: ["dist(K, k)", "edge_dist(k) <"]',
            TableSyntaxError,
            "nearer.yaml:11:42: advice 'nearer' prefer:",
        ),
        (
            '    prefer: ["dist(K, k)", 3 + 4]',
            TableSyntaxError,
            "nearer.yaml:11:28: advice 'nearer' prefer: a number",
        ),
        ('    prefer: ["dist(K, q)"]', UnknownNameError, "nearer.yaml:11:15: dist: KRK has no piece"),
        ("    prefer: [dist(K, k), mobility]", TableSyntaxError, "nearer.yaml:11:20: .* quote each sum"),
        (
            "    prefer:\n      - dist(K, k)\n      - mate",
            UnknownNameError,
            "nearer.yaml:13:9: unknown feature 'mate'",
        ),
        ("    prefer: []", TableSyntaxError, "nearer.yaml:11:13: advice 'nearer' prefer: an empty list"),
        (
            "    prefer: dist(K, k)\n    minimise: dist(K, k)",
            TableSyntaxError,
            "nearer.yaml:12:5: advice 'nearer': minimise",
        ),
    ],
)
def test_a_bad_prefer_is_an_error_at_its_place(prefer, kind, fragment):
    with pytest.raises(kind, match=fragment.replace("(", r"\(")):
        planner(prefer)


def test_a_single_sum_is_a_preference_of_one_term():
    table = planner("    prefer: 2*dist(K, k) + edge_dist(k)").table
    assert [str(term) for term in table.advice["nearer"].prefer] == ["2 * dist(K, k) + edge_dist(k)"]
