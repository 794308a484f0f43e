"""One game, several tables (engine/successors.py): which table a game goes
on with when a capture changes the material, and the game that goes on."""

from __future__ import annotations

import chess
import pytest

from al0.board import Material, reachable
from al0.board.position import from_board, piece_counts
from al0.engine import Ending, GameEnd, Match, OurMove
from al0.engine.play import resets_count
from al0.engine.successors import bundled_table, successor_table
from al0.lang import DefenderSpec, load_table
from conftest import LIBRARIES, POSITIONS, TEST_TABLES

TAKE = TEST_TABLES / "kqkr_take.yaml"


@pytest.mark.parametrize(
    "table, material, expected",
    [
        # No successors: the bundled table named after the material.
        (TAKE, "KQK", "kqk"),
        (TAKE, "KRK", None),  # a queen never becomes a rook: no game reaches it
        # It names itself: its own rules play on.
        (LIBRARIES / "kqkr_win_rook.yaml", "KQK", "kqkr_win_rook"),
        # Black's queen: the bundled kqk plays White, the table itself plays on.
        (LIBRARIES / "kqkr_black.yaml", "KQK", "kqkr_black_test"),
        # Our queen taken: no table plays a bare king.
        (LIBRARIES / "kqkr_black.yaml", "KKR", None),
    ],
)
def test_the_table_that_goes_on(table, material, expected):
    found = successor_table(load_table(table), Material.parse(material))
    assert (found.name if found is not None else None) == expected


@pytest.mark.parametrize(
    "material, expected",
    [
        ("KRK", "krk"),  # four KRK tables: the one named after the material
        ("KQKR", "kqkr"),
        ("KKP", "kpk_hold"),  # none named so: the only one of that material
        ("KNKR", "krkn_hold"),
        ("KRKN", None),  # the rook's side: no bundled table
        ("KPKP", None),
    ],
)
def test_the_bundled_table_of_a_material(material, expected):
    found = bundled_table(Material.parse(material))
    assert (found.stem if found is not None else None) == expected


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


def _played(match: Match, fen: str, seed: int = 1) -> list[OurMove | GameEnd]:
    """Our moves and the end of the game from ``fen`` against the random mover."""
    events = match.play(chess.Board(fen), match.opponent(DefenderSpec("random"), seed=seed), 60)
    return [event for event in events if isinstance(event, (OurMove, GameEnd))]


def test_the_pawn_promoted_the_bundled_kqk_table_mates():
    played = _played(Match.load(TEST_TABLES / "kpk_push.yaml"), "8/P7/8/8/8/8/8/K6k w - - 0 1")
    promotion, *rest, end = played
    assert isinstance(promotion, OurMove) and promotion.san == "a8=Q+" and promotion.table.name == "kpk_push"
    assert {move.table.name for move in rest if isinstance(move, OurMove)} == {"kqk"}
    assert isinstance(end, GameEnd) and end.ending is Ending.MATE


def test_no_table_plays_the_new_material_the_game_ends_saying_so(tmp_path):
    """The same table playing Black: the bundled kqk plays White, and the
    table does not play a queen, so the game stops where the pawn promotes."""
    text = (
        (TEST_TABLES / "kpk_push.yaml")
        .read_text()
        .replace("start: 8/8/8/8/P7/8/8/K6k w - - 0 1", "side: black")
    )
    (tmp_path / "black.yaml").write_text(text)
    promotion, end = _played(Match.load(tmp_path / "black.yaml"), "7k/8/8/8/8/8/p7/7K b - - 0 1")
    assert isinstance(promotion, OurMove) and promotion.san == "a1=Q+"
    assert isinstance(end, GameEnd)
    assert (end.ending, end.detail, end.result) == (
        Ending.NO_TABLE,
        "no table: none of this game plays KQK for Black",
        "*",
    )


@pytest.mark.parametrize(
    "fen, move, resets",
    [
        ("8/8/8/8/P7/8/8/K6k w - - 0 1", "a1b1", False),  # a king's step
        ("8/8/8/8/P7/8/8/K6k w - - 0 1", "a4a5", True),  # a pawn's step
        ("8/P7/8/8/8/8/8/K6k w - - 0 1", "a7a8n", True),  # a promotion
        ("8/8/8/3k4/4r3/8/2Q5/3K4 w - - 0 1", "c2e4", True),  # a capture
        ("8/8/8/3k4/4r3/8/2Q5/3K4 w - - 0 1", "c2c3", False),  # a queen's move
        ("8/8/8/8/Pp6/8/8/K6k b - a3 0 1", "b4a3", True),  # en passant
    ],
)
def test_a_capture_or_a_pawn_move_starts_the_fifty_move_count_again(fen, move, resets):
    board = chess.Board(fen)
    before = from_board(board)
    board.push_uci(move)
    after = from_board(board)
    assert resets_count(before, after) is resets is (board.halfmove_clock == 0)
    # What ending_at leaves out after a half-move that does not reset: the men are the same.
    same_men = all(piece_counts(before, color) == piece_counts(after, color) for color in chess.COLORS)
    assert same_men is (move in ("a1b1", "c2c3", "a4a5"))


@pytest.mark.parametrize(
    "start, material, reached",
    [
        ("KQKR", "KQK", True),  # the rook taken
        ("KQKR", "KQKR", True),
        ("KQKR", "KKR", True),  # our queen taken (the play loop ends it: material lost)
        ("KQKR", "KRK", False),  # a queen never becomes a rook
        ("KRK", "KQK", False),  # a rook never becomes a queen
        ("KPK", "KQK", True),  # a promotion
        ("KPK", "KNK", True),  # an under-promotion
        ("KPK", "KQPK", False),  # a pawn does not multiply
        ("KPPK", "KQPK", True),
        ("KPPK", "KQQK", True),
        ("KQKP", "KQKQ", True),  # their promotion
        ("KQKP", "KQKRQ", False),
        ("KRK", "KK", True),
    ],
)
def test_a_material_a_game_can_reach(start, material, reached):
    assert reachable(Material.parse(start), Material.parse(material)) is reached
