"""A plan avoids the positions its game has seen after our moves, where its
advice has another tree (issue 36: a repetition is the table's failure),
and the plan a position has without history stays what it was."""

from __future__ import annotations

import chess

from al0.board.position import from_board
from al0.engine.history import our_children, repeated, seen_after_ours
from al0.engine.plan import Planner
from al0.engine.play import Ending, OurMove, play_game
from al0.lang.loader import parse_table
from conftest import TABLES

SHUFFLE = "7k/8/8/8/3K4/8/8/R7 w - - 0 1"
"""Their king shuffles h8-g8 (:func:`_shuffle`); any rook move will do."""


def _table():  # type: ignore[no-untyped-def]
    text = (
        "name: t\nmaterial: KRK\nlibrary: ../library/krk.py\nrules: [{name: r, if: true, then: [s]}]\n"
        "advice: {s: {better-goal: themtomove, holding-goal: true, us-moves: {0: rookmove}, them-moves: nomove}}\n"
    )
    return parse_table(text, "<test>", TABLES)


def _shuffle(board: chess.Board) -> chess.Move:
    return chess.Move.from_uci("h8g8" if board.king(chess.BLACK) == chess.H8 else "g8h8")


def test_the_positions_seen_are_those_after_our_moves_since_the_last_capture() -> None:
    board = chess.Board("7k/8/8/8/3K4/8/1r6/R7 w - - 0 1")
    assert seen_after_ours(board, chess.WHITE) == frozenset()
    board.push_uci("a1a2")
    after_ours = from_board(board)
    board.push_uci("h8g8")
    board.push_uci("a2a1")
    assert seen_after_ours(board, chess.WHITE) == {after_ours, from_board(board)}
    board.push_uci("b2b1")
    board.push_uci("a1b1")  # a capture: what came before it cannot come again
    assert seen_after_ours(board, chess.WHITE) == {from_board(board)}


def test_a_plan_leaves_a_seen_position_alone_and_the_cached_plan_stays() -> None:
    planner = Planner(_table())
    board = chess.Board(SHUFFLE)
    first = planner.plan(board)
    move = first.tree.branches[0][0]
    for uci in (move.uci(), "h8g8", move.uci()[2:] + move.uci()[:2], "g8h8"):
        board.push_uci(uci)
    again = planner.plan(board)  # the same position, the first move's position seen
    assert again.by_history and again.tree.branches[0][0] != move
    assert not repeated(from_board(board), again.tree, seen_after_ours(board, chess.WHITE))
    assert planner.plan(chess.Board(SHUFFLE)) is first


def test_a_game_that_can_avoid_repeating_does() -> None:
    events = list(play_game(Planner(_table()), chess.Board(SHUFFLE), _shuffle, max_moves=30))
    assert events[-1].ending is Ending.MOVE_LIMIT
    assert sum(isinstance(event, OurMove) for event in events) == 30


def test_our_children_are_the_positions_our_moves_lead_to() -> None:
    planner = Planner(_table())
    board = chess.Board(SHUFFLE)
    plan = planner.plan(board)
    board.push(plan.tree.branches[0][0])
    assert list(our_children(plan.position, plan.tree)) == [from_board(board)]
    assert list(our_children(plan.position, plan.tree, reach=0)) == []


def test_where_every_tree_of_an_advice_comes_back_its_first_is_played() -> None:
    # From a1 the rook reaches mdist 5 to our king d4 and 13 to theirs on a2
    # or b1 only: once the game has had both, every tree of advice a comes
    # back, and a is still the advice played (the history chooses among an
    # advice's trees, never the advice), with its first tree.
    text = (
        "name: t\nmaterial: KRK\nrules: [{name: r, if: 'true', then: [a, b]}]\nadvice:\n"
        "  a: {better-goal: 'themtomove and mdist(R, K) = 5 and mdist(R, k) = 13', holding-goal: 'true',"
        " us-moves: {0: 'moves(R)'}, them-moves: nomove}\n"
        "  b: {better-goal: themtomove, holding-goal: 'true', us-moves: {0: 'moves(R)'}, them-moves: nomove}\n"
    )
    planner = Planner(parse_table(text, "<test>", TABLES))
    board = chess.Board(SHUFFLE)
    first = planner.plan(board)
    assert first.advice == "a"
    for uci in ("a1a2", "h8g8", "a2a1", "g8h8", "a1b1", "h8g8", "b1a1", "g8h8"):
        board.push_uci(uci)
    plan = planner.plan(board)
    assert (plan.advice, plan.tried, plan.by_history) == ("a", (), True)
    assert plan.tree == first.tree
