"""Reversi: rules, perft against the published figures, the novice and professional players, matches."""

from __future__ import annotations

import random

import pytest

from al0.errors import PositionError
from al0.games.base import IllegalMoveError, PlayerSpecError, ScoredGame
from al0.games.base import perft as generic_perft
from al0.games.players import AlphaBetaPlayer, StaticPlayer
from al0.games.reversi import (
    BLACK,
    PASS,
    WHITE,
    NovicePlayer,
    NoviceWeights,
    ProfessionalPlayer,
    Reversi,
    ReversiState,
    disc_difference,
    flips,
    legal_moves,
    make_player,
    match,
    parse_square,
    perft,
    square_name,
    standings,
    start_position,
)
from al0.games.solvers import alphabeta, minimax, prove_win

GAME = Reversi()

# Othello perft from the start position: move sequences of each length, passes
# counted as moves (the published table; OEIS A124004 lists the same numbers).
PUBLISHED_PERFT = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216]


@pytest.mark.parametrize(("depth", "count"), list(enumerate(PUBLISHED_PERFT)))
def test_perft_matches_the_published_figures(depth: int, count: int) -> None:
    assert perft(start_position(), depth) == count


def test_generic_perft_through_the_game_interface_agrees() -> None:
    """The Game methods (moves, result) generate the same tree as the bitboard perft."""
    for depth in range(6):
        assert generic_perft(GAME, start_position(), depth, count_finished=True) == PUBLISHED_PERFT[depth]


def _naive_flips(mover: int, other: int, square: int) -> int:
    """Flips by walking the eight directions square by square, with coordinates."""
    row, col = divmod(square, 8)
    flipped = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            r, c, run = row + dr, col + dc, 0
            while 0 <= r < 8 and 0 <= c < 8 and other >> (8 * r + c) & 1:
                run |= 1 << (8 * r + c)
                r, c = r + dr, c + dc
            if 0 <= r < 8 and 0 <= c < 8 and mover >> (8 * r + c) & 1:
                flipped |= run
    return flipped


def test_bitboard_moves_and_flips_agree_with_a_naive_walk() -> None:
    rng = random.Random(3)
    for _ in range(300):
        cells = [rng.choice((0, 1, 2)) for _ in range(64)]
        mover = sum(1 << i for i, v in enumerate(cells) if v == 1)
        other = sum(1 << i for i, v in enumerate(cells) if v == 2)
        empty = [i for i, v in enumerate(cells) if v == 0]
        naive = {sq: _naive_flips(mover, other, sq) for sq in empty}
        assert legal_moves(mover, other) == sum(1 << sq for sq, f in naive.items() if f)
        for sq, f in naive.items():
            assert flips(mover, other, sq) == f


def test_start_position_and_square_names() -> None:
    s = start_position()
    assert [square_name(m) for m in GAME.moves(s)] == ["d3", "c4", "f5", "e6"]
    assert parse_square("D3") == 19 and square_name(19) == "d3" and parse_square("pass") == PASS
    assert GAME.to_move(s) == BLACK
    after = GAME.result(s, parse_square("d3"))
    assert (after.black.bit_count(), after.white.bit_count(), after.turn) == (4, 1, WHITE)


def test_no_flanking_across_the_board_edge() -> None:
    """h1 and a2 are neighbours in bit order, not on the board."""
    s = ReversiState.from_rows(
        """
        . . . . . . . X
        O . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        """
    )
    assert s.legal == 0
    assert GAME.is_terminal(s)  # Neither side can flank anything.
    assert GAME.winner(s) is None and GAME.outcome_text(s) == "game over: Black 1, White 1: draw"


def test_a_move_flips_every_flanked_line() -> None:
    s = ReversiState.from_rows(
        """
        X . . X . . . .
        . O . O . . . .
        . . O O . . . .
        X O O . O O X .
        . . . . . . . .
        . . . . . . . .
        . . . X . . . .
        . . . . . . . .
        """
    )
    after = GAME.result(s, parse_square("d4"))
    # Up the d-file to d1, up-left to a1, left to a4, right to g4; not down (d7 has no run).
    expected_white = {"d2", "d3", "c3", "b2", "b4", "c4", "e4", "f4"}
    assert {square_name(sq) for sq in range(64) if s.white >> sq & 1} == expected_white
    assert after.white == 0 and after.black.bit_count() == 5 + 8 + 1


def test_a_player_without_a_move_passes() -> None:
    s = ReversiState.from_rows(
        """
        X O . . . . . .
        O O . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        """,
        turn=WHITE,
    )
    assert GAME.moves(s) == [PASS] and not GAME.is_terminal(s)
    assert GAME.parse_move(s, "pass") == PASS
    after = GAME.result(s, PASS)
    assert after.turn == BLACK and (after.black, after.white) == (s.black, s.white)
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(after, "pass")  # Black can move, so may not pass.


def test_the_game_ends_when_one_colour_is_gone() -> None:
    s = ReversiState.from_rows(
        """
        X O . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        """
    )
    proof = prove_win(GAME, s, 1)  # The generic prover works on Reversi too.
    assert proof is not None and proof.moves == 1
    end = GAME.result(s, parse_square("c1"))
    assert GAME.is_terminal(end) and GAME.winner(end) == BLACK
    assert GAME.utility(end, BLACK) > 1000 and GAME.utility(end, WHITE) < -1000


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("X" * 8, "8 rows"),
        ("\n".join(["........"] * 7 + ["...Z...."]), "bad cell"),
    ],
)
def test_bad_board_pictures_raise_position_error(rows: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        ReversiState.from_rows(rows)


@pytest.mark.parametrize(
    "text",
    ["z9", "d33", "", "e4"],  # e4 is occupied at the start.
)
def test_bad_moves_raise_illegal_move_error(text: str) -> None:
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(start_position(), text)


def test_novice_value_counts_edge_discs_and_square_bonus() -> None:
    s = ReversiState.from_rows(
        """
        . O O X . . . .
        O O . . . . . .
        X . X . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        """
    )
    w = NoviceWeights(inner=1.0, edge=2.0, corner_bonus=0.8, edge_bonus=0.4)
    # a1 (corner) flips b1, c1 (edge), a2 (edge) and b2 (inner).
    assert w.gain(s, parse_square("a1")) == pytest.approx(2 + 2 + 2 + 1 + 0.8)
    assert w.gain(s, PASS) == 0.0
    assert NovicePlayer(w).choose(GAME, s) == parse_square("a1")
    assert NoviceWeights(edge=5.0).gain(s, parse_square("a1")) == pytest.approx(5 + 5 + 5 + 1 + 0.8)


def _midgame_positions(count: int, seed: int) -> list[ReversiState]:
    """Positions after 4–30 random moves, at least two moves from the end."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = start_position()
        for _ in range(rng.randint(4, 30)):
            s = GAME.result(s, rng.choice(GAME.moves(s)))
        if not any(
            GAME.is_terminal(GAME.result(GAME.result(s, m), r))
            for m in GAME.moves(s)
            for r in GAME.moves(GAME.result(s, m))
        ):
            out.append(s)
    return out


def test_novice_and_professional_are_one_and_two_ply_search_of_the_novice_score() -> None:
    """R summed along the line (own minus opponent's) is a position evaluation:
    1-ply search of it is the novice, 2-ply search the professional."""
    w = NoviceWeights()
    scored = ScoredGame(GAME, w.gain)
    pro = ProfessionalPlayer(w)
    for s in _midgame_positions(25, seed=1):
        assert NovicePlayer(w).choose(GAME, s) == StaticPlayer(scored.evaluate).choose(scored, scored.wrap(s))
        found = alphabeta(scored, scored.wrap(s), 2, scored.evaluate)
        assert found.value == pytest.approx(max(pro.value(GAME, s, m) for m in GAME.moves(s)))
        assert found.move == pro.choose(GAME, s)


def test_alphabeta_agrees_with_minimax_on_reversi_and_saves_nodes() -> None:
    mm_nodes = ab_nodes = 0
    for s in _midgame_positions(8, seed=2):
        mm = minimax(GAME, s, 3, disc_difference)
        ab = alphabeta(GAME, s, 3, disc_difference)
        assert (ab.value, ab.pv) == (mm.value, mm.pv)
        mm_nodes += mm.nodes
        ab_nodes += ab.nodes
    assert ab_nodes < mm_nodes


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("novice", "novice"),
        ("pro", "pro"),
        ("professional", "pro"),
        ("random", "random"),
        ("alphabeta:3", "alphabeta:3"),
        ("alphabeta:2:discs", "alphabeta:2:discs"),
        ("minimax:2:novice", "minimax:2:novice"),
        ("human", PlayerSpecError),
        ("alphabeta", PlayerSpecError),
        ("alphabeta:0", PlayerSpecError),
        ("alphabeta:x", PlayerSpecError),
        ("alphabeta:3:material", PlayerSpecError),
        ("grandmaster", PlayerSpecError),
        ("novice:2", PlayerSpecError),
    ],
)
def test_player_specs(spec: str, name: str | type[Exception]) -> None:
    if isinstance(name, str):
        assert make_player(spec, random.Random(0)).name == name
    else:
        with pytest.raises(name):
            make_player(spec, random.Random(0))


def test_a_seeded_match_is_reproducible_and_alternates_colours() -> None:
    first = list(match("novice", "alphabeta:1", 4, seed=5))
    assert first == list(match("novice", "alphabeta:1", 4, seed=5))
    assert [g.a_black for g in first] == [True, False, True, False]
    for g in first:
        end = g.black_discs + g.white_discs
        assert 4 < end <= 64 and g.plies >= end - 4
    a, b = standings("A", "B", first)
    assert a.games == b.games == 4 and (a.wins, a.losses) == (b.losses, b.wins)
    assert a.disc_diff == -b.disc_diff == sum(g.a_diff for g in first)


def test_alphabeta_player_counts_its_nodes() -> None:
    player = make_player("alphabeta:2:discs", random.Random(1))
    assert isinstance(player, AlphaBetaPlayer)
    player.choose(GAME, start_position())
    assert player.nodes > 1 + 4
