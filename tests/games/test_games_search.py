"""Minimax, alpha-beta and the AND/OR prover on explicit game trees."""

from __future__ import annotations

import random

import pytest
from game_trees import MAX, MIN, TreeGame, random_tree, tree

from al0.errors import SearchBudgetExceeded
from al0.games.base import ScoredGame, play
from al0.games.players import AlphaBetaPlayer, MinimaxPlayer, RandomPlayer, StaticPlayer
from al0.games.solvers import alphabeta, format_proof, minimax, prove_win

# Russell & Norvig, "Artificial Intelligence: A Modern Approach", Figure 5.2:
# MAX chooses among a1, a2, a3; MIN then picks a leaf.
RN_TREE = tree(
    {
        "A": (0, ["B", "C", "D"]),
        "B": (0, ["b1", "b2", "b3"]),
        "C": (0, ["c1", "c2", "c3"]),
        "D": (0, ["d1", "d2", "d3"]),
        "b1": (3, []),
        "b2": (12, []),
        "b3": (8, []),
        "c1": (2, []),
        "c2": (4, []),
        "c3": (6, []),
        "d1": (14, []),
        "d2": (5, []),
        "d3": (2, []),
    },
    "A",
)

# A three-ply tree whose inner nodes carry static values, so that the search
# horizon matters: each depth backs up a different value and line.
HORIZON_TREE = tree(
    {
        "root": (0, ["L", "R"]),
        "L": (5, ["LL", "LR"]),
        "R": (2, ["RL", "RR"]),
        "LL": (1, ["LL1", "LL2"]),
        "LR": (9, ["LR1", "LR2"]),
        "RL": (4, ["RL1", "RL2"]),
        "RR": (0, ["RR1", "RR2"]),
        "LL1": (3, []),
        "LL2": (5, []),
        "LR1": (6, []),
        "LR2": (1, []),
        "RL1": (2, []),
        "RL2": (8, []),
        "RR1": (7, []),
        "RR2": (9, []),
    },
    "root",
)


@pytest.mark.parametrize(
    ("game", "start", "depth", "value", "pv"),
    [
        (RN_TREE, "A", 2, 3, ("B", "b1")),
        (RN_TREE, "A", 1, 0, ("B",)),  # Inner static values are all 0: first move kept.
        (RN_TREE, "B", 1, 3, ("b1",)),  # MIN to move at B picks the leaf worth least to MAX.
        (HORIZON_TREE, "root", 1, 5, ("L",)),
        (HORIZON_TREE, "root", 2, 1, ("L", "LL")),
        (HORIZON_TREE, "root", 3, 8, ("R", "RL", "RL2")),
    ],
)
def test_minimax_backs_up_the_textbook_values(
    game: TreeGame, start: str, depth: int, value: float, pv: tuple[str, ...]
) -> None:
    # Values are for the side to move at the start; at B that is MIN, whose
    # value of a leaf worth 3 to MAX is -3.
    sign = 1 if game.to_move(start) == MAX else -1
    found = minimax(game, start, depth, game.evaluate)
    assert (found.value, found.pv) == (sign * value, pv)
    assert alphabeta(game, start, depth, game.evaluate).pv == pv


def test_alphabeta_prunes_the_textbook_cutoff() -> None:
    """In Figure 5.2, once MIN finds 2 under C, C's other leaves cannot matter."""
    mm = minimax(RN_TREE, "A", 2, RN_TREE.evaluate)
    ab = alphabeta(RN_TREE, "A", 2, RN_TREE.evaluate)
    assert (ab.value, ab.pv) == (mm.value, mm.pv) == (3, ("B", "b1"))
    assert (mm.nodes, ab.nodes) == (13, 11)


@pytest.mark.parametrize("alternate", [True, False])
def test_alphabeta_agrees_with_minimax_on_random_trees(alternate: bool) -> None:
    rng = random.Random(7)
    minimax_nodes = alphabeta_nodes = 0
    for _ in range(300):
        game = random_tree(rng, rng.randint(1, 6), alternate)
        root = game.initial()
        for depth in range(0, 7):
            mm = minimax(game, root, depth, game.evaluate)
            ab = alphabeta(game, root, depth, game.evaluate)
            assert (ab.value, ab.move, ab.pv) == (mm.value, mm.move, mm.pv)
            assert ab.nodes <= mm.nodes
            minimax_nodes += mm.nodes
            alphabeta_nodes += ab.nodes
    assert alphabeta_nodes < 0.8 * minimax_nodes


def test_search_follows_a_given_root_order() -> None:
    """Players shuffle the root moves to break ties: the first best one wins."""
    found = alphabeta(RN_TREE, "A", 1, RN_TREE.evaluate, moves=["D", "B", "C"])
    assert found.pv == ("D",)
    assert minimax(RN_TREE, "A", 1, RN_TREE.evaluate, moves=["D", "B", "C"]).pv == ("D",)


def _brute_force_win(game: TreeGame, state: str, side: str, n: int) -> bool:
    """The textbook definition, with no caches: ``side`` wins within ``n`` own moves."""
    if game.is_terminal(state):
        return game.winner(state) == side
    after = [game.result(state, m) for m in game.moves(state)]
    if game.to_move(state) == side:
        return n > 0 and any(_brute_force_win(game, t, side, n - 1) for t in after)
    return all(_brute_force_win(game, t, side, n) for t in after)


def _check_proof(game: TreeGame, proof, side: str, n: int) -> None:
    """A proof keeps one legal move at our turn, every move at theirs, and ends in wins."""
    state = proof.state
    if game.is_terminal(state):
        assert game.winner(state) == side and not proof.branches
        return
    moves = [m for m, _ in proof.branches]
    if game.to_move(state) == side:
        assert proof.ours and len(moves) == 1 and moves[0] in game.moves(state) and n > 0
        _check_proof(game, proof.branches[0][1], side, n - 1)
    else:
        assert not proof.ours and moves == list(game.moves(state))
        for _, child in proof.branches:
            _check_proof(game, child, side, n)


@pytest.mark.parametrize("alternate", [True, False])
def test_and_or_prover_matches_the_definition_on_random_trees(alternate: bool) -> None:
    rng = random.Random(11)
    proved = 0
    for _ in range(300):
        game = random_tree(rng, rng.randint(1, 6), alternate)
        root = game.initial()
        for side in (MAX, MIN):
            least = next((n for n in range(0, 5) if _brute_force_win(game, root, side, n)), None)
            proof = prove_win(game, root, 4, side=side)
            if least is None:
                assert proof is None
            else:
                proved += 1
                assert proof is not None and proof.moves == least
                _check_proof(game, proof, side, proof.moves)
    assert proved > 50  # The sample must exercise wins, not only failures.


def test_and_or_proof_of_the_textbook_tree() -> None:
    """MAX wins Figure 5.2 in one move: every leaf under B is positive."""
    proof = prove_win(RN_TREE, "A", 1)
    assert proof is not None and proof.moves == 1
    assert format_proof(RN_TREE, proof) == ["1. B", "   1... b1", "   1... b2", "   1... b3"]
    assert prove_win(RN_TREE, "A", 1, side=MIN) is None


def test_and_or_prover_respects_its_node_budget() -> None:
    game = random_tree(random.Random(3), 6)
    with pytest.raises(SearchBudgetExceeded):
        prove_win(game, game.initial(), 6, max_nodes=3)


def test_players_and_play_loop() -> None:
    """Every generic player finishes a game; the record replays to its final position."""
    rng = random.Random(5)
    game = random_tree(rng, 5)
    for black in (
        RandomPlayer(random.Random(1)),
        StaticPlayer(game.evaluate, random.Random(2)),
        MinimaxPlayer(3, game.evaluate, random.Random(3)),
        AlphaBetaPlayer(3, game.evaluate, random.Random(4)),
    ):
        shown: list[str] = []
        record = play(game, {MAX: black, MIN: RandomPlayer(random.Random(9))}, show=shown.append)
        assert not record.quit and game.is_terminal(record.final)
        state = record.start
        for move in record.moves:
            state = game.result(state, move)
        assert state == record.final
        assert shown[-1] in ("MAX wins", "MIN wins", "draw")


def test_minimax_player_equals_alphabeta_player() -> None:
    game = random_tree(random.Random(8), 6)
    for seed in range(20):
        a = MinimaxPlayer(4, game.evaluate, random.Random(seed)).choose(game, game.initial())
        b = AlphaBetaPlayer(4, game.evaluate, random.Random(seed)).choose(game, game.initial())
        assert a == b


def test_scored_game_sums_gains_from_the_movers_view() -> None:
    """The running score is own gains minus the opponent's, for whoever is to move."""
    gains = {"B": 5.0, "b1": 2.0}
    scored = ScoredGame(RN_TREE, lambda state, move: gains.get(move, 0.0))
    after_b = scored.result(scored.initial(), "B")
    assert scored.evaluate(after_b, MAX) == 5.0 and scored.evaluate(after_b, MIN) == -5.0
    after_b1 = scored.result(after_b, "b1")
    assert scored.evaluate(after_b1, MAX) == 3.0
