"""benchmarks/progress_depth.py: its numpy min-max over the tablebase's
index gives, position by position, the depth at which al0's own forcing-tree
search finds the same forced progress (tests/good_tables/krk_room_in_2.yaml)."""

from __future__ import annotations

import random
import re

import chess
import numpy as np
import pytest

from al0.lang.loader import load_table
from al0.engine.plan import Planner
from al0.progress import analysis as progress_depth
from conftest import ROOT


@pytest.fixture(scope="module")
def graph() -> progress_depth.Graph:
    """KRK's move graph, built once for the module's tests."""
    return progress_depth.Graph("KRK")


def assert_depths_are_the_plans(graph, found, table):
    """On 150 seeded KRK classes, ``found`` (the lab's depths) is the depth
    of the advice ``table`` (in tests/good_tables) plans with
    (room_in_1, room_in_2, or none: 0), and every depth occurs."""
    planner = Planner(load_table(str(ROOT / "tests" / "good_tables" / table)))
    classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
    seen = set()
    for position in random.Random(3).sample(classes, 150):
        board = position.board()
        plan = planner.plan(board)
        expected = {None: 0, "room_in_1": 1, "room_in_2": 2}[plan.advice]
        assert found[graph.index(board)] == expected, board.fen()
        seen.add(expected)
    assert seen == {0, 1, 2}


def test_depths_agree_with_the_forcing_tree_search(graph):
    potential = graph.values(["room"])
    found = graph.depths(potential, 2)
    assert_depths_are_the_plans(graph, found, "krk_room_in_2.yaml")


def test_a_lexicographic_potential_compares_its_terms_in_order(graph):
    # Rook a8, their king h6: room 49 (files b-h, ranks 1-7); the critical
    # square is b7, 8 steps (files plus ranks) from our king d1 and 7 from
    # d2. Rook a4 instead: room 28 (ranks 5-8), critical square b5, 10
    # steps from our king h1. Room is compared first.
    potential = graph.values(["room", "critical_mdist(K, R, k)"])
    start = graph.index(chess.Board("R7/8/7k/8/8/8/8/3K4 w - - 0 1"))
    closer = graph.index(chess.Board("R7/8/7k/8/8/8/3K4/8 w - - 0 1"))
    smaller_room = graph.index(chess.Board("8/8/7k/8/R7/8/8/7K w - - 0 1"))
    assert potential[closer] < potential[start]
    assert potential[smaller_room] < potential[closer]


def test_a_holding_condition_agrees_with_the_forcing_tree_search(graph):
    # The same progress with a holding-goal: dist(K, k) <= 3 after every
    # move on the way (the lab does not read it at the start position, the
    # table says so by depth = 0).
    potential = graph.values(["room"])
    found = graph.depths(potential, 2, hold=graph.holds("dist(K, k) <= 3"))
    assert_depths_are_the_plans(graph, found, "krk_room_in_2_held.yaml")
    assert (found > 0).sum() < (graph.depths(potential, 2) > 0).sum()


def test_a_holding_condition_with_an_unknown_name_is_an_error(graph):
    with pytest.raises(SystemExit, match="--hold.*nonesuch"):
        graph.holds("nonesuch(k) < 3")


def room_closure(graph):
    """KRK's room, then our king's steps to the critical square, within two
    moves: the potential, its closure (the won positions from which each
    fall can land where it can fall again) and the depths and replies that
    count only the closure."""
    potential = graph.values(["room", "critical_mdist(K, R, k)"])
    won = np.zeros(graph.layout.size, dtype=bool)
    won[graph.roots] = graph.won[graph.roots]
    closure = won
    while True:
        replies: list = []
        found = graph.depths(potential, 2, closure, replies=replies)
        kept = closure & (found > 0)
        if (kept == closure).all():
            return potential, closure, found, replies
        closure = kept


def test_the_closure_walk_mates_every_start_inside_the_closure(graph):
    # KRK's room, then our king's steps to the critical square, within two
    # moves: kept inside its closure (each fall lands where it can fall
    # again) the value falls at every plan, so every start inside mates; the
    # walk by the first move that forces a fall leaves the closure, and each
    # such plan is described with a move that would have kept it.
    potential, closure, found, replies = room_closure(graph)
    classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
    boards = [c.board() for c in random.Random(0).sample(classes, 40)]
    inside = [board for board in boards if closure[graph.index(board)]]
    assert len(inside) > 30
    text, _ = graph.walk(potential, found, replies, inside, closure)
    assert text.startswith(f"{len(inside)} of {len(inside)} mated")
    first_replies: list = []
    first = graph.depths(potential, 2, replies=first_replies)
    text, exits = graph.walk(potential, first, first_replies, boards, None, closure, (found, replies), greedy=True)
    assert not text.startswith(f"{len(boards)} of")
    assert exits and all("keeps the closure: " in line and "(in " in line for line in exits)


def test_the_fastest_walk_keeps_the_progress_and_beats_the_first_move(graph):
    # Among the moves that keep the fall forced, the one the tablebase rates
    # best: still every start inside the closure mates, and in fewer moves
    # than by the first such move, none of them under the optimum.
    potential, closure, found, replies = room_closure(graph)
    classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
    inside = [b for b in (c.board() for c in random.Random(0).sample(classes, 40)) if closure[graph.index(b)]]
    first, _ = graph.walk(potential, found, replies, inside, closure)
    fastest, _ = graph.walk(potential, found, replies, inside, closure, fastest=True)
    pattern = rf"{len(inside)} of {len(inside)} mated in ([\d.]+) moves on average \(optimal ([\d.]+)\)$"
    first_mean, optimal = map(float, re.fullmatch(pattern, first).groups())
    fastest_mean, fastest_optimal = map(float, re.fullmatch(pattern, fastest).groups())
    assert fastest_optimal == optimal
    assert optimal <= fastest_mean < first_mean


def test_a_condition_term_leads_a_lexicographic_potential(graph):
    # [EXPR] counts 1 where the condition holds at the position (us to
    # move), 0 elsewhere: kings two steps apart outrank any room.
    potential = graph.values(["[dist(K, k) <= 2]", "room"])
    near = graph.index(chess.Board("8/8/8/8/8/2k5/8/R1K5 w - - 0 1"))
    far = graph.index(chess.Board("R7/8/7k/8/8/8/8/3K4 w - - 0 1"))
    where = graph.where("dist(K, k) <= 2")
    assert where[near] and not where[far]
    assert potential[far] < potential[near]


def test_a_target_is_a_fall_of_every_value(graph):
    # With the target counted below every value (as --target does), a
    # position one move from it (kings two steps apart) falls in one move
    # where room alone would not.
    room = graph.values(["room"])
    target = graph.where("dist(K, k) <= 2")
    found = graph.depths(room, 1)
    with_target = graph.depths(np.where(target, progress_depth.MATE, room), 1)
    outside = np.zeros(graph.layout.size, dtype=bool)
    outside[graph.roots] = ~target[graph.roots]
    assert ((with_target > 0) >= (found > 0))[outside].all()
    assert (with_target > 0)[outside].sum() > (found > 0)[outside].sum()
