"""Tests of the DTM tablebase, established from first principles.

The strongest check is Bellman consistency against python-chess's own move
generator: a table that is legal where python-chess says a position is valid,
0 exactly at checkmates, and satisfies "White to move = 1 + min over White's
moves, Black to move = max over Black's replies, a draw if any reply draws" at
every entry is *the* DTM table. (A finite value is sound: following the
minimising White move strictly lowers it down to a mate. And by induction on
the true DTM every won position gets a finite value equal to it.) KRK is
checked at every one of its 524,288 indices; KQK, KBK and KNK on seeded
samples to keep the suite fast. Hand-worked positions, the published KRK
statistics and the board's symmetries check it independently.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from al0 import tablebase as tb
from al0.cli import cli
from al0.errors import AL0Error, PositionError


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache directory for the session, so each table is built once."""
    return tmp_path_factory.mktemp("tablebase-cache")


@pytest.fixture(scope="session")
def krk(cache_dir: Path) -> tb.Tablebase:
    return tb.load("KRK", cache_dir)


@pytest.fixture(scope="session")
def kqk(cache_dir: Path) -> tb.Tablebase:
    return tb.load("KQK", cache_dir)


def _bellman_errors(table: tb.Tablebase, indices: list[int]) -> list[str]:
    """Entries at ``indices`` that disagree with one step of python-chess play.

    Legality comes from ``Board.is_valid()``, moves from ``Board.legal_moves``;
    a successor's value is read from the table by its squares (pushing every
    move would make the full KRK check several times slower).
    """
    piece = chess.Piece(table.piece_type, chess.WHITE)
    white_king = chess.Piece(chess.KING, chess.WHITE)
    black_king = chess.Piece(chess.KING, chess.BLACK)
    board = chess.Board(None)
    errors: list[str] = []
    for i in indices:
        white_to_move = i < tb.SIDE_SIZE
        wk, p, bk = i >> 12 & 63, i >> 6 & 63, i & 63
        entry = table.table[i]
        if len({wk, p, bk}) < 3:
            if entry != tb.ILLEGAL:
                errors.append(f"index {i}: pieces share a square but entry is {entry}")
            continue
        board.set_piece_map({wk: white_king, p: piece, bk: black_king})
        board.turn = chess.WHITE if white_to_move else chess.BLACK
        if not board.is_valid():
            if entry != tb.ILLEGAL:
                errors.append(f"{board.fen()}: invalid but entry is {entry}")
            continue
        values: list[int | None] = []
        for move in board.legal_moves:
            if board.is_capture(move):
                values.append(None)  # K vs K
                continue
            squares = {wk: wk, p: p, bk: bk}
            squares[move.from_square] = move.to_square
            value = table.table[tb.index(squares[wk], squares[p], squares[bk], not white_to_move)]
            assert value != tb.ILLEGAL, f"{board.fen()} {move}: legal move to an ILLEGAL entry"
            values.append(None if value == tb.DRAW else value)
        wins = [value for value in values if value is not None]
        if white_to_move:
            expected = 1 + min(wins) if wins else None
        elif not values:
            expected = 0 if board.is_check() else None  # mate, or stalemate
        else:
            expected = max(wins) if len(wins) == len(values) else None
        actual = None if entry == tb.DRAW else entry
        if actual != expected:
            errors.append(f"{board.fen()}: entry {actual}, one step of play gives {expected}")
    return errors


def test_krk_bellman_consistent_at_every_index(krk: tb.Tablebase) -> None:
    assert _bellman_errors(krk, list(range(tb.TABLE_SIZE)))[:5] == []


def test_bellman_check_catches_a_wrong_entry(krk: tb.Tablebase) -> None:
    """The checker above is itself checked: a single altered entry is reported."""
    i = tb.index(chess.G6, chess.A1, chess.H8, True)  # mate in 1 by Ra8 (below)
    wrong = bytearray(krk.table)
    wrong[i] = 2
    assert len(_bellman_errors(tb.Tablebase("KRK", bytes(wrong)), [i])) == 1


@pytest.mark.parametrize("material, sample", [("KQK", 40_000), ("KBK", 10_000), ("KNK", 10_000)])
def test_other_materials_bellman_consistent_on_a_sample(cache_dir: Path, material: str, sample: int) -> None:
    # A seeded sample, not every index: the full KQK check alone takes ~40 s.
    table = tb.load(material, cache_dir)
    indices = random.Random(f"bellman {material}").sample(range(tb.TABLE_SIZE), sample)
    assert _bellman_errors(table, indices)[:5] == []


# Positions worked out by hand; each comment is the proof.
HAND_CHECKED = [
    # Black is mated: Ra8 checks along the 8th rank; g8 is on that rank, g7 and
    # h7 are next to the White king on g6.
    ("R6k/8/6K1/8/8/8/8/8 b - - 0 1", 0),
    # The same mate one move earlier: Ra1-a8# (a8 is reachable, a2..a7 empty).
    ("7k/8/6K1/8/8/8/8/R7 w - - 0 1", 1),
    # Mate in 2: Black's king on e8 may go to d8, f8 or f7 (d7, e7 are covered
    # by Kd6). No mate in 1: Re5+ leaves d8, Rf8+ is met by Kxf8. A rook move
    # along the f-file that keeps off f7 (where Kxf7 takes it) leaves only Kd8,
    # and then Rf8 is mate (c8 is x-rayed through the king, c7 d7 e7 by Kd6).
    ("4k3/8/3K4/5R2/8/8/8/8 w - - 0 1", 2),
    # ...after 1.Rf6, Black to move: Kd8 is forced and 2.Rf8#.
    ("4k3/8/3K1R2/8/8/8/8/8 b - - 0 1", 1),
    # Black takes the undefended rook: Kxf7 (Kd6 does not reach f7): a draw.
    ("4k3/5R2/3K4/8/8/8/8/8 b - - 0 1", None),
    # Stalemate: a7 and b8 are on the rook's lines, b7 is defended by Kc6, and
    # a8 is not attacked.
    ("k7/1R6/2K5/8/8/8/8/8 b - - 0 1", None),
    # A queen mates at once: Qb7# next to the cornered king, guarded by Kc6.
    ("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1", 1),
]


@pytest.mark.parametrize("fen, dtm", HAND_CHECKED)
def test_hand_checked_positions(krk: tb.Tablebase, kqk: tb.Tablebase, fen: str, dtm: int | None) -> None:
    board = chess.Board(fen)
    table = kqk if board.queens else krk
    assert table.dtm(board) == dtm


def test_hand_checked_best_moves(krk: tb.Tablebase) -> None:
    # Mate in 1 has exactly one mating move; Rh1+ would leave g8 free.
    assert krk.best_moves(chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")) == [chess.Move.from_uci("a1a8")]
    # Mate in 2 (see above): the rook keeps the f-file, off f7 and f8.
    mate_in_2 = chess.Board("4k3/8/3K4/5R2/8/8/8/8 w - - 0 1")
    assert [move.uci() for move in krk.best_moves(mate_in_2)] == ["f5f1", "f5f2", "f5f3", "f5f4", "f5f6"]
    # A lost rook: the best defence is to take it.
    assert krk.best_defence(chess.Board("4k3/5R2/3K4/8/8/8/8/8 b - - 0 1")).uci() == "e8f7"
    assert krk.best_defence(chess.Board("4k3/8/3K1R2/8/8/8/8/8 b - - 0 1")).uci() == "e8d8"


def test_best_moves_of_a_draw_is_empty(cache_dir: Path) -> None:
    board = chess.Board("8/8/8/4k3/8/8/8/K1N5 w - - 0 1")
    assert tb.load("KNK", cache_dir).best_moves(board) == []


def test_longest_krk_win_is_16_and_is_played_out(krk: tb.Tablebase) -> None:
    """Max DTM with White to move is 16; following the table from such a
    position mates in exactly 16 moves, one DTM step per move."""
    assert krk.stats()["white"]["max_dtm"] == 16
    board = chess.Board("8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
    assert krk.dtm(board) == 16
    for remaining in range(16, 0, -1):
        assert krk.dtm(board) == remaining
        board.push(krk.best_moves(board)[0])
        assert krk.dtm(board) == remaining - 1
        if remaining > 1:
            board.push(krk.best_defence(board))
    assert board.is_checkmate()


def test_longest_kqk_win_is_10(kqk: tb.Tablebase) -> None:
    assert kqk.stats()["white"]["max_dtm"] == 10


def test_krk_matches_published_statistics(krk: tb.Tablebase) -> None:
    """The UCI "Chess (King-Rook vs. King)" data set (krkopt, Bain 1994) lists
    28,056 Black-to-move positions, White king in the a1-d1-d4 triangle and
    one of each pair mirrored in the a1-h8 diagonal when the White king is on
    it, classed by optimal depth of win. Ours must give the same classes."""
    published = {
        None: 2796, 0: 27, 1: 78, 2: 246, 3: 81, 4: 198, 5: 471, 6: 592, 7: 683, 8: 1433,
        9: 1712, 10: 1985, 11: 2854, 12: 3597, 13: 4194, 14: 4553, 15: 2166, 16: 390,
    }
    triangle = [chess.A1, chess.B1, chess.C1, chess.D1, chess.B2, chess.C2, chess.D2, chess.C3, chess.D3, chess.D4]

    def reflect(square: chess.Square) -> chess.Square:
        return chess.square(chess.square_rank(square), chess.square_file(square))

    counts: Counter[int | None] = Counter()
    for wk in triangle:
        on_diagonal = chess.square_file(wk) == chess.square_rank(wk)
        for p in chess.SQUARES:
            for bk in chess.SQUARES:
                if on_diagonal and (reflect(p), reflect(bk)) < (p, bk):
                    continue  # counted as its mirror image
                entry = krk.table[tb.index(wk, p, bk, False)]
                if entry != tb.ILLEGAL:
                    counts[None if entry == tb.DRAW else entry] += 1
    assert dict(counts) == published


def test_krk_stats(krk: tb.Tablebase) -> None:
    stats = krk.stats()
    # 3612 ordered pairs of non-adjacent king squares, 62 squares left for the
    # rook; with Black to move every such position is legal.
    assert stats["black"]["legal"] == 3612 * 62 == 223_944
    # With White to move every legal KRK position is won.
    assert stats["white"]["draws"] == 0
    for side in ("white", "black"):
        part = stats[side]
        assert part["wins"] == sum(part["by_dtm"])
        assert part["wins"] + part["draws"] == part["legal"]
    assert json.loads(json.dumps(stats)) == stats


_FLIPS = [chess.flip_vertical, chess.flip_horizontal, chess.flip_diagonal, chess.flip_anti_diagonal]


@pytest.mark.parametrize("material", ["KRK", "KQK"])
@pytest.mark.parametrize("flip", _FLIPS, ids=lambda flip: flip.__name__)
def test_table_is_invariant_under_board_symmetries(cache_dir: Path, material: str, flip) -> None:
    """Rook and queen move alike in every reflection of the board (which, with
    their compositions, give all 8 symmetries), so the entire table must map
    onto itself."""
    table = tb.load(material, cache_dir).table
    image = [chess.lsb(flip(chess.BB_SQUARES[square])) for square in chess.SQUARES]
    mapped = bytes(
        table[tb.index(image[i >> 12 & 63], image[i >> 6 & 63], image[i & 63], i < tb.SIDE_SIZE)]
        for i in range(tb.TABLE_SIZE)
    )
    assert mapped == table


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/2k5/1Q6/K7 w - - 0 1",  # another piece
        "8/8/8/8/8/2k5/1R6/KR6 w - - 0 1",  # two rooks
        "8/8/8/8/r7/2k5/1R6/K7 w - - 0 1",  # a Black piece
        "8/8/8/8/8/2k5/1RK5/8 w - - 0 1",  # kings adjacent
        "8/8/8/8/8/1Rk5/8/K7 w - - 0 1",  # Black, not to move, in check
        "8/8/8/8/3k4/8/8/4K2R w K - 0 1",  # castling rights
    ],
)
def test_boards_that_do_not_fit_are_rejected_with_their_fen(krk: tb.Tablebase, fen: str) -> None:
    with pytest.raises(PositionError, match=fen.split()[0]):
        krk.dtm(chess.Board(fen))


@pytest.mark.parametrize("material", ["KPK", "KRKR", "krk", "KK", "KQQK", ""])
def test_unsupported_material_is_rejected(tmp_path: Path, material: str) -> None:
    with pytest.raises(PositionError, match="unsupported material"):
        tb.load(material, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_wrong_side_to_move_is_rejected(krk: tb.Tablebase) -> None:
    with pytest.raises(PositionError, match="side with the R to move"):
        krk.best_moves(chess.Board("4k3/8/3K1R2/8/8/8/8/8 b - - 0 1"))
    with pytest.raises(PositionError, match="lone king.s side to move"):
        krk.best_defence(chess.Board("4k3/8/3K4/5R2/8/8/8/8 w - - 0 1"))
    with pytest.raises(PositionError, match="no legal move"):
        krk.best_defence(chess.Board("R6k/8/6K1/8/8/8/8/8 b - - 0 1"))


# Cache behaviour: KNK builds in a fraction of a second, so it stands in for all.


def test_cache_is_written_and_then_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = tb.load("KNK", tmp_path)
    path = tb.cache_path("KNK", tmp_path)
    assert path.read_bytes().startswith(b"AL0TB 1 KNK 524288 ")
    assert [p.name for p in tmp_path.iterdir()] == ["KNK.dtm"]  # no temp file left behind

    def no_build(material: str) -> bytes:
        raise AssertionError("a valid cache must not be rebuilt")

    monkeypatch.setattr(tb, "build", no_build)
    assert tb.load("KNK", tmp_path) == built


def _corrupt_truncate(data: bytes) -> bytes:
    return data[:-1000]


def _corrupt_flip_payload_byte(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


def _corrupt_header(data: bytes) -> bytes:
    return data.replace(b"AL0TB 1 ", b"AL0TB 0 ", 1)  # an older format version


def _corrupt_garbage(data: bytes) -> bytes:
    return b"not a table"


@pytest.mark.parametrize(
    "corrupt", [_corrupt_truncate, _corrupt_flip_payload_byte, _corrupt_header, _corrupt_garbage, lambda data: b""]
)
def test_invalid_cache_is_rebuilt(tmp_path: Path, corrupt) -> None:
    good = tb.load("KNK", tmp_path)
    path = tb.cache_path("KNK", tmp_path)
    valid = path.read_bytes()
    path.write_bytes(corrupt(valid))
    assert tb.load("KNK", tmp_path) == good
    assert path.read_bytes() == valid


def test_cache_of_another_material_is_not_trusted(tmp_path: Path) -> None:
    knk_file = tb.cache_path("KNK", tmp_path)
    tb.load("KNK", tmp_path)
    tb.cache_path("KBK", tmp_path).write_bytes(knk_file.read_bytes())
    assert tb.load("KBK", tmp_path).table == tb.build("KBK")


def test_cache_directory_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("AL0_CACHE_DIR", raising=False)
    assert tb.default_cache_dir() == tmp_path / "xdg" / "al0"
    monkeypatch.setenv("AL0_CACHE_DIR", str(tmp_path / "own"))
    tb.load("KNK")
    assert (tmp_path / "own" / "KNK.dtm").is_file()
    monkeypatch.delenv("AL0_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert tb.default_cache_dir() == tmp_path / "home" / ".cache" / "al0"


def test_unwritable_cache_warns_and_still_answers(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    with pytest.warns(RuntimeWarning, match="cannot cache"):
        table = tb.load("KNK", blocker / "cache")
    assert table.table == tb.build("KNK")


# CLI


def test_cli_stats_json(krk: tb.Tablebase, cache_dir: Path) -> None:
    result = CliRunner().invoke(cli, ["tablebase", "KRK", "--stats", "--json"], env={"AL0_CACHE_DIR": str(cache_dir)})
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == krk.stats()


def test_cli_stats_text(cache_dir: Path) -> None:
    result = CliRunner().invoke(cli, ["tablebase", "KRK"], env={"AL0_CACHE_DIR": str(cache_dir)})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "KRK: 175168 legal positions with White to move, 223944 with Black to move"
    assert lines[-2].split() == ["16", "916", "3056"]
    assert lines[-1].split() == ["draw", "0", "22244"]


def test_cli_fen(cache_dir: Path) -> None:
    env = {"AL0_CACHE_DIR": str(cache_dir)}
    result = CliRunner().invoke(cli, ["tablebase", "KRK", "--fen", "7k/8/6K1/8/8/8/8/R7 w - - 0 1"], env=env)
    assert result.exit_code == 0, result.output
    assert "dtm: 1\nbest moves: Ra8#\n" in result.output
    fen = "4k3/8/3K1R2/8/8/8/8/8 b - - 0 1"
    result = CliRunner().invoke(cli, ["tablebase", "KRK", "--fen", fen, "--json"], env=env)
    assert json.loads(result.output) == {"fen": fen, "dtm": 1, "best_defence": "e8d8", "best_defence_san": "Kd8"}


@pytest.mark.parametrize(
    "args, message",
    [
        (["KPK"], "unsupported material 'KPK'"),
        (["KRK", "--fen", "8/8/8/8/8/2k5/1Q6/K7 w - - 0 1"], "not a KRK position: 8/8/8/8/8/2k5/1Q6/K7 w"),
        (["KRK", "--fen", "nonsense"], "Invalid value for --fen"),
        (["KRK", "--stats", "--fen", "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"], "either --stats or --fen"),
    ],
)
def test_cli_errors_exit_2(cache_dir: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["tablebase", *args], env={"AL0_CACHE_DIR": str(cache_dir)})
    assert result.exit_code == 2
    assert message in result.output
    assert not isinstance(result.exception, AL0Error)  # turned into a message, not a traceback


def test_black_with_the_rook_reads_the_mirrored_table(krk):
    white = chess.Board("8/8/4R3/8/3K4/8/2k5/8 w - - 0 1")
    black = white.mirror()
    assert krk.dtm(black) == krk.dtm(white)
    mirrored = [chess.Move(chess.square_mirror(m.from_square), chess.square_mirror(m.to_square))
                for m in krk.best_moves(white)]
    assert sorted(krk.best_moves(black), key=chess.Move.uci) == sorted(mirrored, key=chess.Move.uci)
    black.push(krk.best_moves(black)[0])
    assert black.is_legal(krk.best_defence(black))
