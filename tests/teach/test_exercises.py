"""Exercise sets by level band, seeded; the progress record's file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

import chess
import pytest

from al0 import tablebase
from al0.board import Material
from al0.errors import AL0Error, PositionError
from al0.tablebase import Tablebase
from al0.teach.exercises import Level, level_starts, parse_level, practised_side
from al0.teach.record import Attempt, add_attempt, check_record, read_record, record_lines, record_path
from al0.teach.verdict import holding_moves


@pytest.fixture
def endgame(tablebase_cache: Path) -> Callable[[str], Tablebase]:
    """The tablebase of a material, built once per session in the test cache."""
    return lambda material: tablebase.load(material, tablebase_cache)


@pytest.fixture(autouse=True)
def own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A progress record of the test's own (the suite's tablebase cache is shared)."""
    monkeypatch.setenv("AL0_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("3", Level(3, 3)),
        ("1..5", Level(1, 5)),
        (" 2..2 ", Level(2, 2)),
        ("0..5", PositionError),
        ("5..1", PositionError),
        ("1-5", PositionError),
        ("", PositionError),
        ("a..b", PositionError),
    ],
)
def test_parse_level(text, expected):
    if isinstance(expected, Level):
        assert parse_level(text) == expected
    else:
        with pytest.raises(expected):
            parse_level(text)


def test_a_level_draws_the_same_positions_for_the_same_seed_all_in_the_band(endgame):
    krk = endgame("KRK")
    first = level_starts(krk, Level(3, 5), 6, seed=7)
    assert [b.fen() for b in first] == [b.fen() for b in level_starts(krk, Level(3, 5), 6, 7)]
    assert [b.fen() for b in first] != [b.fen() for b in level_starts(krk, Level(3, 5), 6, 8)]
    assert len({b.fen() for b in first}) == 6
    assert all(3 <= krk.dtm(b) <= 5 and b.turn == chess.WHITE for b in first)


def test_a_band_too_rare_for_the_draws_is_found_by_the_scan(endgame):
    # Mate in one: too rare in KRK for 1000 random draws to find 5 (4 were).
    ending = endgame("KRK")
    starts = level_starts(ending, Level(1, 1), 5, seed=0)
    assert len({board.fen() for board in starts}) == 5
    assert all(ending.dtm(board) == 1 for board in starts)
    assert [b.fen() for b in starts] == [b.fen() for b in level_starts(ending, Level(1, 1), 5, seed=0)]


@pytest.mark.parametrize(
    "named, colour, ours",
    [
        ("KRK", chess.WHITE, "KRK"),
        ("KNKR", chess.BLACK, "KRKN"),  # White's knight named first: the rook is Black's
        ("KKP", chess.BLACK, "KPK"),
        ("KPKQ", chess.BLACK, "KQKP"),
        ("KPKP", chess.WHITE, "KPKP"),  # a mirror material: White's
    ],
)
def test_a_material_is_practised_by_its_stronger_side_as_named(named, colour, ours):
    assert practised_side(Material.parse(named)) == (colour, Material.parse(ours))


def test_a_level_of_a_pawn_ending_given_to_black_is_black_s_pawn_going_down(endgame):
    # practice KKP --level: the classes were White's recoloured, a black
    # pawn going up: an illegal position (opposite check) refused.
    kpk = endgame("KPK")
    starts = level_starts(kpk, Level(2, 5), 4, seed=0, us=chess.BLACK)
    for board in starts:
        assert board.is_valid() and board.turn == chess.BLACK and kpk.result(board).winner == chess.BLACK
        assert Material.of(board, chess.BLACK).name == "KPK" and 2 <= kpk.dtm(board) <= 5


def test_a_band_with_no_position_is_an_error_naming_it(endgame):
    with pytest.raises(PositionError, match=r"KQK: found 0 of 2 positions mating in 40\.\.50"):
        level_starts(endgame("KQK"), Level(40, 50), 2, seed=0)


def test_the_record_counts_attempts_by_ending(tmp_path, own_folders):
    path = record_path()
    assert path == own_folders / "progress.json"
    assert record_lines(read_record(path)) == ["no exercises recorded yet"]
    add_attempt(path, Attempt("KRK", "fen", True, 10, 8, 2, 1, 0))
    add_attempt(path, Attempt("KRK", "fen", False, 3, 8, 0, 0, 1))
    data = add_attempt(path, Attempt("KQK", "fen", True, 9, 9, 0, 0, 0))
    assert data == read_record(path)
    assert data["endings"]["KRK"] == {
        "tried": 2,
        "solved": 1,
        "moves": 10,
        "over_optimum": 2,
        "hints": 2,
        "mistakes": 1,
        "blunders": 1,
    }
    assert record_lines(data) == [
        "KQK: 1 of 1 exercises solved, 0.0 moves over the optimum a mate; 0 hints, 0 mistakes, 0 blunders",
        "KRK: 1 of 2 exercises solved, 2.0 moves over the optimum a mate; 2 hints, 1 mistakes, 1 blunders",
    ]


COUNTED = {"tried": 1, "solved": 1, "moves": 9, "over_optimum": 1, "hints": 0, "mistakes": 0, "blunders": 0}
"""One ending's counts, as al0 writes them."""


@pytest.mark.parametrize(
    "text, why",
    [
        ("not json", "Expecting value"),
        ("[]", "its top level is not an object"),
        (b"\xff\xfe", "can't decode"),
        (json.dumps({"version": 99, "endings": {}}), "version 99"),
        (json.dumps({"version": True, "endings": {}}), "version True"),
        (json.dumps({"version": 1, "endings": []}), "no 'endings' object"),
        (json.dumps({"version": 1, "endings": {"KRK": 5}}), "'KRK' does not hold the counts"),
        (json.dumps({"version": 1, "endings": {"KRK": {}}}), "'KRK' does not hold the counts"),
        (json.dumps({"version": 1, "endings": {"KRK": {**COUNTED, "extra": 1}}}), "does not hold"),
        (
            json.dumps({"version": 1, "endings": {"KRK": {**COUNTED, "tried": "x"}}}),
            "tried is 'x', not a count",
        ),
        (json.dumps({"version": 1, "endings": {"KRK": {**COUNTED, "moves": -1}}}), "moves is -1"),
        (json.dumps({"version": 1, "endings": {"KRK": {**COUNTED, "hints": 1.5}}}), "hints is 1.5"),
        (json.dumps({"version": 1, "endings": {"KRK": {**COUNTED, "solved": True}}}), "solved is True"),
        ('{"version": 1, "endings": {"KRK": {"tried": NaN}}}', "does not hold"),
    ],
)
def test_a_file_that_is_not_a_record_is_one_error_naming_it_and_why(tmp_path, text, why):
    path = tmp_path / "progress.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(AL0Error, match="progress.json") as error:
        read_record(path)
    assert why in str(error.value) and "\n" not in str(error.value)
    with pytest.raises(AL0Error):  # counting into it fails as cleanly
        add_attempt(path, Attempt("KRK", "fen", True, 9, 8, 0, 0, 0))


def test_a_record_that_is_a_fifo_or_a_folder_is_refused_not_waited_for(tmp_path):
    fifo = tmp_path / "fifo" / "progress.json"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    with pytest.raises(AL0Error, match="not a regular file"):
        read_record(fifo)
    folder = tmp_path / "folder" / "progress.json"
    folder.mkdir(parents=True)
    with pytest.raises(AL0Error, match="Is a directory"):
        check_record(folder)


def test_a_record_whose_folder_is_a_file_fails_before_the_session(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(AL0Error, match="cannot read the progress record: Not a directory"):
        check_record(tmp_path / "file" / "deeper" / "progress.json")
    check_record(tmp_path / "new" / "deeper" / "progress.json")  # made when written


def test_a_record_written_through_a_link_keeps_the_link(tmp_path):
    target = tmp_path / "kept.json"
    link = tmp_path / "progress.json"
    link.symlink_to(target)
    add_attempt(link, Attempt("KRK", "fen", True, 9, 8, 0, 0, 0))
    assert link.is_symlink() and read_record(target)["endings"]["KRK"]["tried"] == 1


def _add_many(path: Path, count: int) -> None:
    for _ in range(count):
        add_attempt(path, Attempt("KRK", "fen", False, 3, 8, 1, 0, 0))


@pytest.mark.slow
def test_sessions_counting_at_once_lose_no_exercise(tmp_path):
    # Each read the record, counted and wrote it back: two at once lost counts.
    import multiprocessing

    path = tmp_path / "data" / "progress.json"
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_add_many, args=(path, 40)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert [worker.exitcode for worker in workers] == [0] * 4
    counts = read_record(path)["endings"]["KRK"]
    assert counts["tried"] == counts["hints"] == 160


def test_a_defences_exercises_are_drawn_positions_where_few_moves_hold(tablebase_cache):
    krkn = tablebase.load("KRKN", tablebase_cache)
    starts = level_starts(krkn, Level(1, 1), 3, seed=2, us=chess.BLACK, holds=True)
    assert len({board.fen() for board in starts}) == 3
    for board in starts:
        assert board.turn == chess.BLACK and krkn.result(board).winner is None
        assert not any(board.is_capture(move) for move in board.legal_moves)  # no rook to take
        assert len(holding_moves(krkn, board)) == 1
