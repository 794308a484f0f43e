"""Tests of the tablebases, established from first principles.

The strongest check is Bellman consistency against python-chess's own move
generator: a table that is illegal exactly where python-chess says a position
is invalid, 0 exactly at checkmates, and satisfies "win in 1 + the fewest
plies of a move to a lost position, else a draw if a move draws, else a loss
in 1 + the most plies of any move" at every entry, with captures read from
the smaller tables, is *the* table. (A finite value is sound: following the
optimal move strictly lowers it down to a mate. And by induction on the true
distance every decided position gets a finite value equal to it.) KRK is
checked at every index, the others on seeded samples. Hand-worked
positions, the published longest mates and the board's symmetries check it
independently.
"""

from __future__ import annotations

import json
import os
import random
import stat
import sys
import threading
import warnings
from pathlib import Path

import chess
import numpy as np
import platformdirs
import pytest
from click.testing import CliRunner

from al0 import tablebase as tb
from al0.cli import cli
from al0.errors import AL0Error, PositionError
from al0.tablebase.geometry import Layout
from conftest import LIBRARIES, POSITIONS, one_step_value

# Four-man tables the suite builds once per session (about 10-20 s each on a
# 2-core machine): one per kind of ending, each with a published longest mate.
FOUR_MEN = ["KQKR", "KRKN", "KRKB", "KBNK", "KBBK"]

# The longest forced mates, in moves, as published for the Nalimov DTM
# tables (Peter Karrer's max-DTM statistics of the 3-to-5-man tables, e.g.
# "kbnk wtm: max win 33"; Guido's KQK 10 and KRK 16 on the Kryukov endgame
# forum; KQKR 35 on the "macechess" KQKR article): K+Q 10, K+R 16, two
# bishops 19, bishop and knight 33, queen against rook 35, rook against
# bishop 29, rook against knight 40.
PUBLISHED_LONGEST = {"KQK": 10, "KRK": 16, "KBBK": 19, "KBNK": 33, "KQKR": 35, "KRKB": 29, "KRKN": 40}


@pytest.fixture(scope="session")
def table(tablebase_cache: Path):
    """``table(material)``: the session's table of ``material``."""
    return lambda material: tb.load(material, tablebase_cache)


def _board(
    table: tb.Tablebase, side: int, index: int, squares: list[int] | None = None
) -> chess.Board | None:
    """The board of an index (the stronger side White), or None when two
    men share a square. ``squares``: the index decoded already."""
    if squares is None:
        squares = [int(s[0]) for s in Layout(table.material).decode(np.array([index]))]
    if len(set(squares)) < len(squares):
        return None
    board = chess.Board(None)
    for square, piece, owner in zip(squares, table.material.types, table.material.sides):
        board.set_piece_at(square, chess.Piece(piece, chess.WHITE if owner == 0 else chess.BLACK))
    board.turn = chess.WHITE if side == 0 else chess.BLACK
    return board


def _valid(board: chess.Board) -> bool:
    """python-chess's ``is_valid()``, except that a check no move could give
    (two bishops on one king) counts as valid: the tables keep such
    positions (no move leads to them, so they change nothing else)."""
    return board.status() & ~chess.STATUS_IMPOSSIBLE_CHECK == chess.STATUS_VALID


def _bellman_errors(table: tb.Tablebase, entries: list[tuple[int, int]]) -> list[str]:
    """Entries that disagree with one step of python-chess play: legality
    from ``Board.status()``, moves from ``Board.legal_moves``, each
    successor's value read by its men (captures from the smaller tables)."""
    errors: list[str] = []
    illegal = tb.ILLEGAL  # read once: each read of the folder's face imports
    decoded = zip(
        *(column.tolist() for column in Layout(table.material).decode(np.array([i for _, i in entries])))
    )
    for (side, index), squares in zip(entries, decoded):
        entry = int(table.values[side, index])
        board = _board(table, side, index, list(squares))
        if board is None or not _valid(board):
            if entry != illegal:
                errors.append(f"{side}/{index} {board and board.fen()}: invalid but entry is {entry}")
            continue
        expected = one_step_value(table, board)
        if entry != expected:
            errors.append(f"{board.fen()}: entry {entry}, one step of play gives {expected}")
    return errors


def _every_class(table: tb.Tablebase) -> list[tuple[int, int]]:
    """The least index of every class of positions, either side to move,
    after checking that every other index holds the same entry as its
    class's least (the same position, mirrored in the diagonal)."""
    layout = Layout(table.material)
    index = np.arange(layout.size)
    least = layout.canonical(layout.decode(index))
    assert (table.values[:, least] == table.values).all()
    return [(side, int(first)) for side in (0, 1) for first in np.flatnonzero(least == index)]


def _sample(table: tb.Tablebase, count: int) -> list[tuple[int, int]]:
    rng = random.Random(f"bellman {table.name}")
    return [(rng.randrange(2), rng.randrange(table.values.shape[1])) for _ in range(count)]


@pytest.mark.slow
def test_krk_every_index_holds_its_class_and_a_sample_of_classes_is_bellman_consistent(table) -> None:
    # Every index holds the entry of its class's least (the one a lookup
    # reads); one step of play at a seeded 10,000 of KRK's 65,792 classes
    # (all of them took 11 s of the suite's CPU: the retrograde build is
    # held to its numpy twin byte for byte besides, test_retrograde.py).
    classes = _every_class(table("KRK"))
    chosen = random.Random("bellman KRK classes").sample(classes, 10_000)
    assert _bellman_errors(table("KRK"), chosen)[:5] == []


@pytest.mark.parametrize(
    "material, count",
    [("KQK", 10_000), ("KBK", 2_000), ("KNK", 2_000), *[(material, 2_000) for material in FOUR_MEN]],
)
@pytest.mark.slow
def test_bellman_consistent_on_a_sample(table, material: str, count: int) -> None:
    # Seeded samples, not every index: through python-chess a full KQK takes
    # half a minute, a four-man table (5 million entries) hours. Each table
    # is built here, once for the session.
    assert _bellman_errors(table(material), _sample(table(material), count))[:5] == []


def test_bellman_check_catches_a_wrong_entry(table) -> None:
    """The checker above is itself checked: a single altered entry is reported."""
    krk = table("KRK")
    board = chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")  # mate in 1 (Ra8#)
    layout = Layout(krk.material)
    index = int(layout.canonical([np.array([chess.G6]), np.array([chess.A1]), np.array([chess.H8])])[0])
    assert krk.values[0, index] == 1 and krk.result(board).plies == 1
    wrong = krk.values.copy()
    wrong[0, index] = 3
    assert len(_bellman_errors(tb.Tablebase(krk.material, wrong, krk.smaller), [(0, index)])) == 1


def _hand_checked() -> list[tuple[str, str, str, int]]:
    cases = []
    text = (POSITIONS / "tablebase_hand_checked.epd").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            board, operations = chess.Board.from_epd(line)
            material, winner, plies = str(operations["c0"]).split()
            cases.append((board.fen(), material, winner, int(plies)))
    return cases


@pytest.mark.parametrize("fen, material, winner, plies", _hand_checked())
def test_hand_checked_positions(table, fen: str, material: str, winner: str, plies: int) -> None:
    result = table(material).result(chess.Board(fen))
    if winner == "draw":
        assert result == tb.Result(None, None)
    else:
        assert result == tb.Result(chess.COLOR_NAMES.index(winner) == 1, plies)


def test_dtm_counts_the_stronger_sides_moves(table) -> None:
    krkn = table("KRKN")
    assert krkn.dtm(chess.Board("8/8/8/8/3n4/8/R7/K1k5 b - - 0 1")) is None  # the knight's side mates
    assert krkn.result(chess.Board("8/8/8/8/3n4/8/R7/K1k5 b - - 0 1")).moves == 1
    krk = table("KRK")
    assert krk.dtm(chess.Board("4k3/8/3K1R2/8/8/8/8/8 b - - 0 1")) == 1
    assert krk.dtm(chess.Board("4k3/8/3K4/5R2/8/8/8/8 w - - 0 1")) == 2
    assert krk.dtm(chess.Board("4k3/5R2/3K4/8/8/8/8/8 b - - 0 1")) is None


def test_a_table_answers_the_positions_its_captures_lead_to(table) -> None:
    """A game of KQKR goes on as KQK once the rook is taken, or as KRK once
    the queen is: the KQKR table answers those positions as their own tables
    do, and ``dtm`` counts the moves of the side it is asked about."""
    kqkr = table("KQKR")
    rook_taken = chess.Board("8/8/8/3k4/8/8/4Q3/3K4 b - - 0 1")
    assert kqkr.result(rook_taken) == table("KQK").result(rook_taken)
    assert kqkr.dtm(rook_taken, chess.WHITE) == table("KQK").dtm(rook_taken) is not None
    queen_taken = chess.Board("8/8/8/3k4/8/8/8/r2K4 w - - 0 1")
    assert kqkr.result(queen_taken).winner == chess.BLACK
    assert kqkr.dtm(queen_taken, chess.WHITE) is None
    assert kqkr.dtm(queen_taken, chess.BLACK) == table("KRK").dtm(queen_taken)
    assert kqkr.stronger(queen_taken) == chess.BLACK  # the rook's side now
    assert kqkr.best_defence(rook_taken) == table("KQK").best_defence(rook_taken)
    assert table("KRK").result(chess.Board("8/8/8/8/3k4/8/8/K7 w - - 0 1")) == tb.Result(None, None)


def test_hand_checked_best_moves(table) -> None:
    krk = table("KRK")
    # Mate in 1 has exactly one mating move; Rh1+ would leave g8 free.
    assert krk.best_moves(chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")) == [chess.Move.from_uci("a1a8")]
    # Mate in 2 (see the EPD file): the rook keeps the f-file, off f7 and f8.
    mate_in_2 = chess.Board("4k3/8/3K4/5R2/8/8/8/8 w - - 0 1")
    assert [move.uci() for move in krk.best_moves(mate_in_2)] == ["f5f1", "f5f2", "f5f3", "f5f4", "f5f6"]
    # A lost rook: the best defence is to take it.
    assert krk.best_defence(chess.Board("4k3/5R2/3K4/8/8/8/8/8 b - - 0 1")).uci() == "e8f7"
    assert krk.best_defence(chess.Board("4k3/8/3K1R2/8/8/8/8/8 b - - 0 1")).uci() == "e8d8"
    # The knight's side to move, winning: its mate.
    assert table("KRKN").best_moves(chess.Board("8/8/8/8/3n4/8/R7/K1k5 b - - 0 1")) == [
        chess.Move.from_uci("d4b3")
    ]


def test_best_defence_takes_a_piece_when_that_is_best(table) -> None:
    """KQKR, Black to move: Rxe2 takes the queen and Black, the rook's side,
    then wins; any other move leaves the queen on the board."""
    board = chess.Board("k3r3/8/8/8/8/8/4Q3/6K1 b - - 0 1")
    move = table("KQKR").best_defence(board)
    assert move.uci() == "e8e2"
    board.push(move)
    assert table("KRK").result(board).winner == chess.BLACK


@pytest.mark.parametrize("material", ["KQKR", "KBBK"])
def test_the_positions_answers_are_the_boards(table, material: str) -> None:
    """result_at, dtm_at and best_defence_at (a compact position, no board)
    give what result, dtm and best_defence give for its board, captures
    into a smaller table and a pair of like pieces included."""
    from al0.board.position import from_board

    rng = random.Random(7)
    tablebase = table(material)
    classes = tablebase.positions(chess.BLACK)
    checked = 0
    while checked < 150:
        board = classes[rng.randrange(len(classes))].board()
        if not board.is_valid() or not any(board.legal_moves):
            continue
        position = from_board(board)
        assert tablebase.result_at(position) == tablebase.result(board)
        assert tablebase.dtm_at(position, chess.WHITE) == tablebase.dtm(board, chess.WHITE)
        assert tablebase.best_defence_at(position) == tablebase.best_defence(board)
        checked += 1


def test_best_moves_of_a_draw_is_empty(table) -> None:
    board = chess.Board("8/8/8/8/4k3/8/8/K1N5 w - - 0 1")
    assert table("KNK").best_moves(board) == []
    assert board.is_legal(table("KNK").best_defence(board))


@pytest.mark.parametrize("material", PUBLISHED_LONGEST)
def test_longest_mate_is_the_published_one(table, material: str) -> None:
    assert table(material).stats()["max_dtm"] == PUBLISHED_LONGEST[material]


@pytest.mark.parametrize("material, classes", [("KQK", 1), ("KBNK", 138)])
def test_longest_wins_are_as_many_as_published(table, material: str, classes: int) -> None:
    """The same sources count the positions, up to symmetry, where the side
    to move wins in the longest time: KQK only Ka1 Qb2 kf5, KBNK 138."""
    stats = table(material).stats()
    assert stats["stronger"]["wins_by_dtm"][PUBLISHED_LONGEST[material]] == 8 * classes


def test_longest_krk_win_is_played_out(table) -> None:
    """Following the table from a 16-move win mates in exactly 16 moves,
    one step per move."""
    krk = table("KRK")
    board = chess.Board("8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
    for remaining in range(16, 0, -1):
        assert krk.dtm(board) == remaining
        board.push(krk.best_moves(board)[0])
        assert krk.dtm(board) == remaining - 1
        if remaining > 1:
            board.push(krk.best_defence(board))
    assert board.is_checkmate()


def test_krk_stats(table) -> None:
    stats = table("KRK").stats()
    # 3612 ordered pairs of non-adjacent king squares, 62 squares left for the
    # rook; with Black to move every such position is legal.
    assert stats["weaker"]["legal"] == 3612 * 62 == 223_944
    assert stats["stronger"]["legal"] == stats["stronger"]["wins"] == 175_168  # every one won
    assert stats["weaker"]["draws"] == 22_244
    assert stats["weaker"]["losses_by_dtm"][16] == 3056
    for side in ("stronger", "weaker"):
        part = stats[side]
        assert part["wins"] + part["losses"] + part["draws"] == part["legal"]
    assert json.loads(json.dumps(stats)) == stats


def test_krkn_both_sides_can_win(table) -> None:
    stats = table("KRKN").stats()
    assert stats["weaker"]["wins"] > 0 and stats["stronger"]["losses"] > 0


_TRANSFORMS = [chess.flip_vertical, chess.flip_horizontal, chess.flip_diagonal, chess.flip_anti_diagonal]


@pytest.mark.parametrize("material", ["KRK", "KBNK", "KRKN"])
def test_values_are_invariant_under_symmetries_and_colours(table, material: str) -> None:
    """Every reflection of the board (they and their compositions give all 8
    symmetries), and swapping the colours, keep a pawnless position's value."""
    chosen = table(material)
    rng = random.Random(f"symmetry {material}")
    checked = 0
    while checked < 300:
        board = _board(chosen, rng.randrange(2), rng.randrange(chosen.values.shape[1]))
        if board is None or not board.is_valid():
            continue  # result() rejects what python-chess calls invalid
        checked += 1
        result = chosen.result(board)
        for transform in _TRANSFORMS:
            assert chosen.result(board.transform(transform)) == result, (board.fen(), transform)
        swapped = chosen.result(board.mirror())
        assert swapped.plies == result.plies
        assert swapped.winner == (None if result.winner is None else not result.winner)


def test_every_symmetric_index_holds_its_class_value(table) -> None:
    krkn = table("KRKN")
    layout = Layout(krkn.material)
    index = np.arange(0, layout.size, 97)
    for image in layout.images(layout.decode(index)):
        ok = image >= 0
        assert (krkn.values[:, image[ok]] == krkn.values[:, index[ok]]).all()


def _compose(*flips):
    def transform(bitboard: chess.Bitboard) -> chess.Bitboard:
        for flip in flips:
            bitboard = flip(bitboard)
        return bitboard

    return transform


# The 8 symmetries of the board from python-chess's flips.
_ALL_SYMMETRIES = [
    _compose(*flips)
    for flips in [
        (),
        (chess.flip_vertical,),
        (chess.flip_horizontal,),
        (chess.flip_vertical, chess.flip_horizontal),
        (chess.flip_diagonal,),
        (chess.flip_diagonal, chess.flip_vertical),
        (chess.flip_diagonal, chess.flip_horizontal),
        (chess.flip_anti_diagonal,),
    ]
]


@pytest.mark.parametrize("material, positions", [("KRK", 175_168), ("KBBK", None), ("KRKN", None)])
@pytest.mark.slow
def test_positions_are_one_per_class_with_its_size(table, material: str, positions: int | None) -> None:
    chosen = table(material)
    classes = chosen.positions(chess.WHITE, won=True)
    total = sum(position.size for position in classes)
    assert total == chosen.stats()["stronger"]["wins"] == (positions or total)
    for position in classes[:: max(1, len(classes) // 300)]:
        board = position.board()
        assert board.turn == chess.WHITE and chosen.result(board).winner == chess.WHITE
        assert position.size == len({board.transform(symmetry).board_fen() for symmetry in _ALL_SYMMETRIES})
    # Black holding the pieces and to move: the same classes, colours swapped.
    swapped = chosen.positions(chess.BLACK, stronger=chess.BLACK, won=True)
    assert len(swapped) == len(classes)
    for position in (0, len(classes) // 2, -1):
        board = swapped[position].board()
        assert board.turn == chess.BLACK and chosen.result(board).winner == chess.BLACK
        assert board.board_fen() == classes[position].board().board_fen().swapcase()


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/2k5/1Q6/K7 w - - 0 1",  # another piece
        "8/8/8/8/8/2k5/1R6/KR6 w - - 0 1",  # two rooks
        "8/8/8/8/r7/2k5/1R6/K7 w - - 0 1",  # a Black piece
        "8/8/8/8/8/2k5/1RK5/8 w - - 0 1",  # kings adjacent
        "8/8/8/8/8/1Rk5/8/K7 w - - 0 1",  # Black, not to move, in check
        "8/8/8/8/3k4/8/8/4K2R w K - 0 1",  # castling rights
        "8/8/8/8/3k4/8/4P3/4K2R w - - 0 1",  # a pawn
    ],
)
def test_boards_that_do_not_fit_are_rejected_with_their_fen(table, fen: str) -> None:
    with pytest.raises(PositionError, match=fen.split()[0]):
        table("KRK").dtm(chess.Board(fen))


@pytest.mark.parametrize(
    "material, name",
    [("KRK", "KRK"), ("KNKR", "KRKN"), ("KNBK", "KBNK"), ("KBKN", "KBKN"), ("KNKB", "KBKN"), ("KK", "KK")],
)
def test_material_names_are_canonical(material: str, name: str) -> None:
    assert tb.parse_material(material).name == name


@pytest.mark.parametrize("material", ["KPPKP", "krk", "KQQKR", "", "KRQ", "KRKRK", "KXK"])
def test_unsupported_material_is_rejected(tmp_path: Path, material: str) -> None:
    with pytest.raises(PositionError, match="unsupported material"):
        tb.load(material, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_best_defence_without_a_move_is_rejected(table) -> None:
    with pytest.raises(PositionError, match="no legal move"):
        table("KRK").best_defence(chess.Board("R6k/8/6K1/8/8/8/8/8 b - - 0 1"))


@pytest.mark.parametrize(
    "material, us, colour",
    [
        ("KRK", chess.WHITE, chess.WHITE),
        ("KRK", chess.BLACK, chess.BLACK),
        ("KNKR", chess.WHITE, chess.BLACK),
    ],
)
def test_stronger_colour(material: str, us: chess.Color, colour: chess.Color) -> None:
    assert tb.stronger_colour(material, us) == colour


# Cache behaviour: KNK builds in a fraction of a second, so it stands in for all.


def test_cache_is_written_and_then_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = tb.load("KNK", tmp_path)
    path = tb.cache_path("KNK", tmp_path)
    assert path.read_bytes().startswith(b"AL0TB 2 KNK 81920 ")
    # K vs K is cached too: captures lead there. No temp file is left behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["KK.dtm", "KNK.dtm"]

    def no_build(*args: object) -> None:
        raise AssertionError("a valid cache must not be rebuilt")

    monkeypatch.setattr("al0.tablebase.cache.build", no_build)  # where load finds it
    assert (tb.load("KNK", tmp_path).values == built.values).all()


def test_a_table_another_process_is_making_is_read_once_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Processes that need one table at once (a run's workers, two commands)
    build it once: the others wait for the cache folder's lock and read
    what the first wrote. Here this test is the first: it holds the lock
    until a loader in a thread has found no table and gone to wait."""
    from al0.files import one_maker_at_a_time
    from al0.tablebase import cache

    tb.load("KK", tmp_path)  # the smaller table, built before the lock
    looked = threading.Event()
    reads: list[bool] = []  # of the loader's table: whether it was there
    read_cache = cache._read_cache

    def read_and_tell(path: Path, material: object) -> object:
        values = read_cache(path, material)
        if path == tmp_path / "KNK.dtm":
            reads.append(values is not None)
            looked.set()
        return values

    built: list[str] = []
    build = cache.build
    monkeypatch.setattr(cache, "_read_cache", read_and_tell)
    monkeypatch.setattr(
        cache, "build", lambda material, *rest: built.append(material.name) or build(material, *rest)
    )
    loaded: list[tb.Tablebase] = []
    with one_maker_at_a_time(tmp_path):
        loader = threading.Thread(target=lambda: loaded.append(tb.load("KNK", tmp_path)), daemon=True)
        loader.start()
        assert looked.wait(timeout=60)  # a bound on a hang, not a speed goal
        made = tb.load("KNK", tmp_path / "elsewhere").values  # what the first process writes
        payload = made.tobytes()
        (tmp_path / "KNK.dtm").write_bytes(cache._header("KNK", payload) + payload)
        built.clear()
    loader.join(timeout=60)
    assert loaded and (loaded[0].values == made).all()
    assert built == [] and reads == [False, True]  # read again under the lock, not built


def _corrupt_truncate(data: bytes) -> bytes:
    return data[:-1000]


def _corrupt_flip_payload_byte(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


def _corrupt_header(data: bytes) -> bytes:
    return data.replace(b"AL0TB 2 ", b"AL0TB 1 ", 1)  # an older format version


def _corrupt_garbage(data: bytes) -> bytes:
    return b"not a table"


@pytest.mark.parametrize(
    "corrupt",
    [_corrupt_truncate, _corrupt_flip_payload_byte, _corrupt_header, _corrupt_garbage, lambda data: b""],
)
def test_invalid_cache_is_rebuilt(tmp_path: Path, corrupt) -> None:
    good = tb.load("KNK", tmp_path)
    path = tb.cache_path("KNK", tmp_path)
    valid = path.read_bytes()
    path.write_bytes(corrupt(valid))
    assert (tb.load("KNK", tmp_path).values == good.values).all()
    assert path.read_bytes() == valid


def _huge_sparse(path: Path, valid: bytes) -> None:
    with open(path, "wb") as stream:
        stream.truncate(4 << 30)  # 4 GB that take no disk


def _same_size_foreign(path: Path, valid: bytes) -> None:
    path.write_bytes(b"x" * len(valid))


def _same_header_longer(path: Path, valid: bytes) -> None:
    path.write_bytes(valid + b"\0" * 1000)


@pytest.mark.parametrize("make", [_huge_sparse, _same_size_foreign, _same_header_longer])
def test_a_foreign_file_at_the_cache_path_is_refused_without_being_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make
) -> None:
    # A 4 GB file there was read whole: a MemoryError traceback.
    good = tb.load("KNK", tmp_path)
    path = tb.cache_path("KNK", tmp_path)
    valid = path.read_bytes()
    make(path, valid)
    import al0.files

    real = al0.files._read_regular
    read: list[int | None] = []

    def counted(where, count):
        read.append(count)
        return real(where, count)

    monkeypatch.setattr(al0.files, "_read_regular", counted)
    assert (tb.load("KNK", tmp_path).values == good.values).all()
    assert all(count is not None and count <= len(valid) + 1 for count in read)
    assert path.read_bytes() == valid


def test_a_killed_builds_temporary_file_is_removed_by_the_next_build(tmp_path: Path) -> None:
    path = tb.cache_path("KNK", tmp_path)
    stale, live = tmp_path / ".KNK.dtm.0123abcd.tmp", tmp_path / ".KNK.dtm.4567cdef.tmp"
    for temporary in (stale, live):
        temporary.write_bytes(b"AL0TB 2 KNK half a t")
    os.utime(stale, (1, 1))  # kill -9 long ago; the other one is a build under way
    tb.load("KNK", tmp_path)
    assert path.exists() and not stale.exists() and live.exists()


def test_cache_of_another_material_is_not_trusted(tmp_path: Path) -> None:
    knk = tb.load("KNK", tmp_path)
    tb.cache_path("KBK", tmp_path).write_bytes(tb.cache_path("KNK", tmp_path).read_bytes())
    kbk = tb.load("KBK", tmp_path)
    assert kbk.name == "KBK"
    assert kbk.result(chess.Board("8/8/8/8/4k3/8/8/K1B5 w - - 0 1")) == tb.Result(None, None)
    assert knk.name == "KNK"


def test_cache_directory_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AL0_CACHE_DIR", raising=False)
    assert tb.default_cache_dir() == Path(platformdirs.user_cache_dir("al0", appauthor=False))
    monkeypatch.setenv("AL0_CACHE_DIR", str(tmp_path / "own"))
    tb.load("KNK")
    assert (tmp_path / "own" / "KNK.dtm").is_file()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's cache folders")
def test_cache_directory_on_linux_is_where_it_always_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AL0_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert tb.default_cache_dir() == tmp_path / "xdg" / "al0"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert tb.default_cache_dir() == tmp_path / "home" / ".cache" / "al0"


def test_unwritable_cache_warns_and_still_answers(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    with pytest.warns(RuntimeWarning, match="cannot cache"):
        knk = tb.load("KNK", blocker / "cache")
    assert (knk.values == tb.load("KNK", tmp_path).values).all()


@pytest.mark.parametrize("make", [os.mkfifo, os.mkdir], ids=["fifo", "folder"])
def test_a_cache_path_that_is_not_a_file_is_rebuilt_and_left_alone(tmp_path: Path, make) -> None:
    # A FIFO there blocked the read (and the write) for ever: only a regular
    # file is read, and what is not one is not written through or replaced.
    good = tb.load("KNK", tmp_path / "good")
    path = tb.cache_path("KNK", tmp_path / "odd")
    path.parent.mkdir()
    make(path)
    loaded: list[tb.Tablebase] = []
    caught: list[list[warnings.WarningMessage]] = []

    def load() -> None:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            loaded.append(tb.load("KNK", tmp_path / "odd"))
        caught.append(seen)

    worker = threading.Thread(target=load, daemon=True)  # a hang fails, not blocks, the suite
    worker.start()
    worker.join(timeout=60)
    assert loaded and (loaded[0].values == good.values).all()
    assert [str(w.message) for w in caught[0]] == [
        f"cannot cache tablebase at {path}: not a regular file, left as it is"
    ]
    assert not stat.S_ISREG(os.stat(path).st_mode)


# CLI


def _invoke(cache: Path, *args: str):
    return CliRunner().invoke(cli, ["tablebase", *args], env={"AL0_CACHE_DIR": str(cache)})


def test_cli_stats_json(table, tablebase_cache: Path) -> None:
    result = _invoke(tablebase_cache, "KRK", "--stats", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == table("KRK").stats()


def test_cli_stats_text(tablebase_cache: Path) -> None:
    result = _invoke(tablebase_cache, "KRK")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "KRK: 175168 legal positions with KR to move, 223944 with K to move"
    assert lines[1] == "longest mate: 16 moves"
    assert lines[-2].split() == ["16", "916", "0", "0", "3056"]
    assert lines[-1].split() == ["draw", "0", "22244"]


def test_cli_stats_of_a_four_man_table(tablebase_cache: Path) -> None:
    result = _invoke(tablebase_cache, "KNKR", "--json")  # any order of the sides
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["material"] == "KRKN"
    assert json.loads(result.output)["max_dtm"] == 40


def test_cli_fen(tablebase_cache: Path) -> None:
    result = _invoke(tablebase_cache, "KRK", "--fen", "7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    assert result.exit_code == 0, result.output
    assert "result: white mates in 1\nbest moves: Ra8#\n" in result.output
    fen = "4k3/8/3K1R2/8/8/8/8/8 b - - 0 1"
    result = _invoke(tablebase_cache, "KRK", "--fen", fen, "--json")
    assert json.loads(result.output) == {
        "fen": fen,
        "winner": "white",
        "moves": 1,
        "plies": 2,
        "dtm": 1,
        "best_defence": "e8d8",
        "best_defence_san": "Kd8",
        "fifty_move_rule": None,
    }


@pytest.mark.parametrize(
    "clock, note",
    [
        (0, None),
        (89, None),  # 89 + 11 half-moves: the mate on the hundredth still counts
        (90, "the mate takes 11 half-moves and the half-move clock is 90: past the 50-move rule"),
        (150, "the half-move clock is 150: the 50-move rule has ended the game (a draw by the laws)"),
    ],
)
def test_cli_fen_says_what_the_fifty_move_rule_makes_of_the_mate(tablebase_cache: Path, clock, note) -> None:
    # The distance is the position's with no clock (mate in 6: 11 half-moves).
    result = _invoke(tablebase_cache, "KQK", "--fen", f"8/8/8/8/8/3k4/8/QK6 w - - {clock} 80", "--json")
    probe = json.loads(result.output)
    assert probe["plies"] == 11
    assert (probe["fifty_move_rule"] or "").startswith(note or "") and (probe["fifty_move_rule"] is None) == (
        note is None
    )


@pytest.mark.parametrize("fen", ["8/8/4r3/8/3k4/8/2K5/8 b - - 0 1", "8/8/4r3/8/3k4/8/2K5/8 w - - 0 1"])
def test_cli_fen_with_black_holding_the_rook(tablebase_cache: Path, fen: str) -> None:
    """Either side to move: the table is read by which side is stronger."""
    result = _invoke(tablebase_cache, "KRK", "--fen", fen, "--json")
    assert result.exit_code == 0, result.output
    probe = json.loads(result.output)
    mirrored = _invoke(tablebase_cache, "KRK", "--fen", chess.Board(fen).mirror().fen(), "--json")
    assert probe["winner"] == "black" and probe["moves"] == json.loads(mirrored.output)["moves"]


def test_cli_fen_four_men_weaker_side_mates(tablebase_cache: Path) -> None:
    result = _invoke(tablebase_cache, "KRKN", "--fen", "8/8/8/8/3n4/8/R7/K1k5 b - - 0 1")
    assert result.exit_code == 0, result.output
    assert "result: black mates in 1\nbest moves: Nb3#" in result.output


def test_cli_material_in_any_case_and_order_is_the_canonical_one(tablebase_cache: Path) -> None:
    """``knkr`` names KRKN: the stronger side first, letters in any case."""
    result = _invoke(tablebase_cache, "knkr", "--fen", "8/8/8/8/3n4/8/R7/K1k5 b - - 0 1")
    assert result.exit_code == 0, result.output
    assert "result: black mates in 1\nbest moves: Nb3#" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["KPPKP"], "unsupported material 'KPPKP'"),
        (["KRK", "--fen", "8/8/8/8/8/2k5/1Q6/K7 w - - 0 1"], "not a KRK position: 8/8/8/8/8/2k5/1Q6/K7 w"),
        (["KRK", "--fen", "nonsense"], "Invalid value for --fen"),
        (["KRK", "--stats", "--fen", "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"], "either --stats or --fen"),
    ],
)
def test_cli_errors_exit_2(tablebase_cache: Path, args: list[str], message: str) -> None:
    result = _invoke(tablebase_cache, *args)
    assert result.exit_code == 2
    assert message in result.output
    assert not isinstance(result.exception, AL0Error)  # turned into a message, not a traceback


def test_play_against_the_tablebase_that_takes_our_queen(tablebase_cache: Path) -> None:
    """KQKR: the tablebase defender takes the queen (Qc8+ Rxc8+); play reports
    the lost material instead of asking the KQKR table about a KRK board."""
    table = str(LIBRARIES / "kqkr.yaml")
    result = CliRunner().invoke(
        cli,
        [
            "play",
            table,
            "--fen",
            "5r2/1k6/8/8/6Q1/2K5/8/8 w - - 0 1",
            "--opponent",
            "tablebase",
            "--no-board",
        ],
        env={"AL0_CACHE_DIR": str(tablebase_cache)},
    )
    assert result.exit_code == 0, result.output
    assert "... Rxc8+" in result.output and "material lost" in result.output
