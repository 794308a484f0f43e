"""One game, several tables (engine/successors.py): which table a game goes
on with when a capture changes the material, and the game that goes on."""

from __future__ import annotations

import chess
import pytest

from al0.board import Material
from al0.board.position import from_board
from al0.engine import Ending, GameEnd, Match, OurMove
from al0.engine.successors import successor_table
from al0.lang import DefenderSpec, load_table
from conftest import LIBRARIES, POSITIONS, TEST_TABLES

TAKE = TEST_TABLES / "kqkr_take.yaml"


@pytest.mark.parametrize(
    "table, material, expected",
    [
        # No successors: the bundled table named after the material.
        (TAKE, "KQK", "kqk"),
        (TAKE, "KRK", "krk"),
        # It names itself: its own rules play on.
        (LIBRARIES / "kqkr_win_rook.yaml", "KQK", "kqkr_win_rook"),
        # Black's queen: the bundled kqk plays White, the table itself plays on.
        (LIBRARIES / "kqkr_black.yaml", "KQK", "kqkr_black_test"),
        # Our men changed and no table plays them for Black.
        (LIBRARIES / "kqkr_black.yaml", "KRK", None),
    ],
)
def test_the_table_that_goes_on(table, material, expected):
    found = successor_table(load_table(table), Material.parse(material))
    assert (found.name if found is not None else None) == expected


def test_a_successor_of_another_side_is_an_error_at_its_entry(tmp_path):
    text = TAKE.read_text() + "successors:\n  KQK: krk\n"
    (tmp_path / "t.yaml").write_text(text)
    with pytest.raises(
        Exception, match=r"t\.yaml:\d+:8: the successor table krk plays KRK for White, not KQK"
    ):
        successor_table(load_table(tmp_path / "t.yaml"), Material.parse("KQK"))


def test_the_rook_taken_the_bundled_kqk_table_mates(tablebase_cache):
    """From each start of kqkr_forks.epd the table takes the rook, then every
    move names the kqk table, its rule and advice, up to mate."""
    match, kqk = Match.load(TAKE), load_table("kqk")
    boards = [
        chess.Board(line.split(" id ")[0])
        for line in POSITIONS.joinpath("kqkr_forks.epd").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert len(boards) == 2
    for board in boards:
        events = list(match.play(board, match.opponent(DefenderSpec("tablebase")), 60))
        ours = [event for event in events if isinstance(event, OurMove)]
        assert ours[0].table.name == "kqkr_take" and ours[0].plan.rule == "win_rook"
        assert ours[1].new_plan and {move.table.name for move in ours[1:]} == {"kqk"}
        assert {move.plan.rule for move in ours[1:]} <= {rule.name for rule in kqk.rules}
        end = events[-1]
        assert isinstance(end, GameEnd) and end.ending is Ending.MATE and end.result == "1-0"
    # One planner per table, made once.
    after = chess.Board("8/8/3k4/8/4Q3/8/8/3K4 b - - 0 1")
    assert match.planner.playing(from_board(after)) is match.planner.playing(from_board(after))
    assert match.planner.playing(from_board(after)).table.name == "kqk"


def test_the_rook_taken_by_the_knight_the_game_is_drawn():
    """krkn_hold takes a rook it can take: king and knight against king
    cannot mate, the game ends there, drawn."""
    match = Match.load("krkn_hold")
    board = chess.Board("8/8/8/3k4/3n4/5R2/8/7K b - - 0 1")
    events = list(match.play(board, match.opponent(DefenderSpec("random")), 10))
    assert [type(event) for event in events] == [OurMove, GameEnd]
    assert events[0].move == chess.Move.from_uci("d4f3")
    end = events[1]
    assert (end.ending, end.detail, end.result) == (
        Ending.INSUFFICIENT,
        "insufficient material: KNK, a draw",
        "1/2-1/2",
    )
