"""The queen against a piece, kqkr.yaml, kqkb.yaml and kqkn.yaml (standard
vocabulary, no Python of their own): KQKB's claims on its fixed sample
against the tablebase defender, and the tactics a coach teaches played out
on real positions (Philidor's position, a fork, a skewer, a pin), and games
that repeated or had no plan before, mated."""

from __future__ import annotations

import chess
import pytest
from click.testing import CliRunner

from al0.board import Material
from al0.cli import cli
from al0.engine.defenders import TablebaseDefender
from al0.engine.plan import Planner
from al0.engine.play import GameEnd, OurMove, TheirMove, play_game
from al0.lang.expr import parse_call
from al0.lang.loader import load_table
from al0.lang.node import Node
from al0.lang.vocabulary.binding import Binder


def play_out(table: str, fen: str, max_moves: int = 50) -> tuple[list[chess.Board], list[OurMove], GameEnd]:
    """A game of ``table`` from ``fen`` against the tablebase's defence:
    the board after each of our moves, our moves, the end."""
    planner = Planner(load_table(table))
    board = chess.Board(fen)
    events = list(play_game(planner, board.copy(), TablebaseDefender(planner.table.material.name), max_moves))
    boards, ours = [], []
    for event in events:
        if isinstance(event, (OurMove, TheirMove)):
            board.push(event.move)
        if isinstance(event, OurMove):
            boards.append(board.copy())
            ours.append(event)
    end = events[-1]
    assert isinstance(end, GameEnd)
    return boards, ours, end


@pytest.mark.slow
def test_kqkb_claims_hold_on_its_fixed_sample():
    result = CliRunner().invoke(cli, ["verify", "kqkb", "--jobs", "1", "--positions", "sample:200"])
    assert result.exit_code == 0, result.output
    assert "200 of 200 positions: mate 200" in result.output
    for claim in ("mates-all", "stalemates", "material-lost", "no-plan", "max-moves", "mean-moves"):
        assert f"expect {claim}: ok" in result.output


def test_philidor_with_us_to_move_passes_the_move_and_wins_the_rook():
    # White Kc6 Qa5, Black Kb8 Rb7, White to move: the queen's triangle
    # (Qe5+, Qa1+, Qa5) gives Black the move, the rook must leave its king
    # and a run of checks wins it.
    boards, ours, end = play_out("kqkr", "1k6/1r6/2K5/Q7/8/8/8/8 w - - 0 1")
    assert [m.plan.advice for m in ours[:3]] == ["triangulate"] * 3
    assert boards[2].board_fen() == "1k6/1r6/2K5/Q7/8/8/8/8"
    won = next(i for i, b in enumerate(boards) if not b.pieces(chess.ROOK, chess.BLACK))
    assert won <= 10 and end.ending.value == "mate", end


def test_kqkr_mates_from_its_start():
    # `al0 play kqkr` begins here: the rook beside its king, and the game
    # goes on with kqk.yaml once the rook is won (the start drew before).
    table = load_table("kqkr")
    assert table.start_fen is not None
    boards, ours, end = play_out("kqkr", table.start_fen)
    assert end.ending.value == "mate", end
    assert ours[-1].table.name == "kqk", "the rook is won, and kqk.yaml mates"


@pytest.mark.parametrize(
    "table, fen",
    [
        ("kqkr", "8/8/8/8/1r3k2/8/8/3QK3 w - - 0 1"),  # Qd6+ or Qd2+ forks king and rook
        ("kqkr", "3r4/8/8/3k4/8/8/8/K5Q1 w - - 0 1"),  # Qg8+ forks, Qd1+ skewers
        ("kqkn", "8/8/8/1n2k3/8/7Q/8/7K w - - 0 1"),  # Qe2+ forks, Qh5+ skewers
        ("kqkb", "8/8/8/1b2k3/8/7Q/8/7K w - - 0 1"),  # Qh5+ skewers (Qe2+ meets Bxe2)
    ],
)
def test_the_piece_is_won_by_the_check_that_forks_or_skewers_it(table, fen):
    boards, ours, end = play_out(table, fen, max_moves=3)
    piece = load_table(table).material.name[-1].lower()
    binder = Binder(Material.parse(load_table(table).material.name))
    after = Node(boards[0], 0, chess.WHITE)
    shapes = [binder.bind(parse_call(f"{shape}({piece})"), "predicate") for shape in ("forked", "skewered")]
    assert any(shape(after, after) for shape in shapes), boards[0].fen()
    assert ours[0].plan.advice == "fork" and boards[0].is_check()
    assert len(chess.SquareSet(boards[1].occupied)) == 3, boards[1].fen()


@pytest.mark.parametrize(
    "table, fen, first",
    [
        # The knight beside its king checked ours back from e6/g5 and c5/e6
        # until the position came a third time; out of its checks, mate.
        ("kqkn", "7Q/8/6k1/8/4n3/8/1K6/8 w - - 0 1", "keep_safe"),
        # In check, their king boxed in by the queen: only our king moves,
        # and each leaves theirs without a move; no plan before the last
        # resort allowed it.
        ("kqkb", "k7/2Q5/8/8/8/8/4b3/3K4 w - - 0 1", "last_resort"),
        ("kqkb", "7k/7b/8/8/8/6Q1/8/1K6 w - - 0 1", "last_resort"),
        # Their king boxed in, not ours in check: keep_safe gives it air
        # (Qd3, leaving it none, lets Nc2+ draw).
        ("kqkn", "8/8/8/5Q2/8/4n3/8/K1k5 w - - 0 1", "keep_safe"),
        # The queen checked round their king while ours stood off, until
        # the position came a third time; ours kept from the bishop, mate.
        ("kqkb", "8/8/6b1/4k3/7Q/8/8/1K6 w - - 0 1", "progress"),
        # Their king in the centre, the bishop beside it, ours two steps
        # off: the queen's checks (Qa3+, Qa6+ ...) came back to the same
        # positions; a quiet move first, mate.
        ("kqkb", "8/2b5/Q7/2k5/4K3/8/8/8 w - - 0 1", "keep_quiet"),
        # Kc2 let Bg6 pin the queen to our king, their king in its corner:
        # Qxg6 was stalemate and no other queen move safe, no plan. The
        # queen is never left pinned.
        ("kqkb", "7k/5b2/8/8/8/3Q4/8/1K6 w - - 0 1", "progress"),
        # Our king held in its corner by theirs (Kb2 against Kd3), the
        # queen moving to and fro: out of the corner, mate.
        ("kqkb", "8/8/4b3/8/7Q/3k4/8/K7 w - - 0 1", "progress"),
        # The bishop checked ours back along the back rank (Bg6+ Bf5+):
        # the drive out of its checks, mate.
        ("kqkb", "3K3k/7b/8/8/8/8/8/4Q3 w - - 0 1", "progress"),
        # Their king beside the corner: quiet moves repeated; the checks
        # that mate (Qb4+ Kc1 Qa3+).
        ("kqkb", "8/8/8/8/4Q3/3K3b/1k6/8 w - - 0 1", "keep_quiet"),
        # Qd5 would meet Nc2+ Ka2 Nb4+, the queen forked after our answer
        # to the check: no plan before keep_safe looked past the check.
        ("kqkn", "8/8/8/8/8/8/6Q1/K1k1n3 w - - 0 1", "keep_safe"),
        # The knight beside their king in the middle: the drive's check
        # (Qb5+) and keep_safe's check back (Qc6+) came round again; the
        # drive without checks there, mate.
        ("kqkn", "8/8/4n3/3k4/1Q6/8/2K5/8 w - - 0 1", "progress"),
    ],
)
def test_games_that_repeated_or_had_no_plan_are_mated(table, fen, first):
    boards, ours, end = play_out(table, fen)
    assert end.ending.value == "mate", (end, boards[-1].fen())
    assert ours[0].plan.advice == first
