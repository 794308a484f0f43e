"""al0 serve --pgn: a practice game's PGN read back for review, each ply
with its position, its verdict (the comment, without its commands) and the
distance to mate of its [%eval]."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.engine import Tablebases
from al0.errors import PositionError
from al0.serve import Api, Tables
from al0.serve.review import read_games, tablebase_probe

KQK = "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1"


@pytest.fixture(scope="module")
def practised(tablebase_cache: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A practice game: a blunder taken back, a mistake, then the fastest move."""
    path = tmp_path_factory.mktemp("review") / "game.pgn"
    result = CliRunner().invoke(
        cli,
        ["practice", "kqk", "--fen", KQK, "--pgn", str(path), "--no-board"],
        input="Qb6\nretry\nQa2\nQb2\nquit\n",
    )
    assert result.exit_code == 0, result.output
    return path


def test_a_practice_game_reads_back_with_verdicts_and_distances(practised: Path) -> None:
    (game,) = read_games(str(practised))
    plies = game["plies"]
    assert game["headers"]["FEN"] == KQK and plies[0]["fen"] == KQK
    assert [ply["san"] for ply in plies[1:]] == ["Qa2+", "Kb8", "Qb2+", "Ka7"]
    assert plies[1]["comment"].startswith("mistake: mate in 2 after it instead of 1")
    assert "[%" not in plies[1]["comment"]
    assert [ply["mate"] for ply in plies] == [None, 2, None, 1, None]
    listed = Api(Tables(), games=("game.pgn", [game])).call("games", {})
    assert listed["name"] == "game.pgn" and listed["games"][0] == game


def test_the_review_has_the_retried_blunder_the_marks_the_arrows_and_every_plys_distance(
    practised: Path,
) -> None:
    (game,) = read_games(str(practised), tablebase_probe(Tablebases()))
    plies = game["plies"]
    # Every ply, the start and the defence's replies too, from the tablebase where no eval says.
    assert [ply["mate"] for ply in plies] == [1, 2, 2, 1, 1]
    assert [(ply["san"], ply["grade"], ply["mark"]) for ply in plies[1:]] == [
        ("Qa2+", "mistake", "?"),
        ("Kb8", None, ""),
        ("Qb2+", "fastest", ""),
        ("Ka7", None, ""),
    ]
    # The blunder taken back stays beside the move kept, with its verdict and no distance (a draw).
    ((blunder,),) = plies[1]["variations"]
    assert (blunder["san"], blunder["grade"], blunder["mark"], blunder["mate"]) == (
        "Qb6",
        "blunder",
        "??",
        None,
    )
    assert blunder["comment"].startswith("blunder: stalemate")
    assert blunder["fen"].startswith("k7/8/1QK5")
    # [%cal] and [%csl]: the method's move in green, the fastest in blue, the blunder's square in red.
    assert plies[1]["arrows"] == [
        {"from": "b1", "to": "b5", "color": "green"},
        {"from": "b1", "to": "b7", "color": "blue"},
    ]
    assert blunder["squares"] == [{"square": "b6", "color": "red"}]


def test_a_pgns_own_marks_grade_a_move_with_no_verdict(tmp_path: Path) -> None:
    pgn = tmp_path / "marked.pgn"
    pgn.write_text(f'[FEN "{KQK}"]\n\n1. Qb6 $4 ( 1. Qb7# ) 1/2-1/2\n')
    (game,) = read_games(str(pgn))
    assert (game["plies"][1]["grade"], game["plies"][1]["mark"]) == ("blunder", "??")
    assert game["plies"][1]["variations"][0][0]["san"] == "Qb7#"


def test_a_bad_pgn_is_one_line_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n\n1. e4 e5 2. Ke3 *\n')
    with pytest.raises(PositionError, match=r"bad.pgn: game 1: .*Ke3"):
        read_games(str(bad))
    empty = tmp_path / "empty.pgn"
    empty.write_text("")
    with pytest.raises(PositionError, match="no games"):
        read_games(str(empty))
    result = CliRunner().invoke(cli, ["serve", "--pgn", str(bad), "--no-browser"])
    assert result.exit_code == 2 and "bad.pgn: game 1:" in result.output
    result = CliRunner().invoke(cli, ["serve", "--pgn", str(tmp_path / "none.pgn"), "--no-browser"])
    assert result.exit_code == 2 and "none.pgn" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\xff\xfe binary \x81", "not a UTF-8 text file"),
        (b"root:x:0:0:root:/root:/bin/bash\n", "game 1: no tag and no move: not a PGN game"),
        (b"# A README\n\nSome prose.\n", "game 1: no tag and no move: not a PGN game"),
        (b'[Event "x"]\n\n1. e4 *\n\nstray words\n', "game 2: no tag and no move"),
        (b"x" * (4 * 1024 * 1024 + 1), "larger than 4,194,304 bytes"),
    ],
)
def test_a_file_that_is_not_pgn_is_refused_not_reviewed_as_empty_games(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "games.pgn"
    path.write_bytes(content)
    with pytest.raises(PositionError, match=f"games.pgn: .*{message}"):
        read_games(str(path))


@pytest.mark.parametrize(
    ("fen", "moves", "message"),
    [
        ("8/8/8/8/8/8/8/K5k1 w - - 0 1", "1. e8=Q *", "illegal san: 'e8=Q' in 8/8/8/8/8/8/8/K5k1 w - - 0 1"),
        (
            "8/4P3/8/8/8/8/8/K5k1 w - - 0 1",
            "1. e8=K *",
            "illegal san: 'e8=K' in 8/4P3/8/8/8/8/8/K5k1 w - - 0 1",
        ),
    ],
)
def test_an_illegal_move_is_one_line_with_no_log_of_python_chess(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, fen: str, moves: str, message: str
) -> None:
    # python-chess logged "illegal san: … while parsing <Game at 0x…>" on
    # standard error before al0's error line: two lines, one of them a repr.
    path = tmp_path / "games.pgn"
    path.write_text(f'[FEN "{fen}"]\n[SetUp "1"]\n\n{moves}\n')
    with pytest.raises(PositionError, match=f"^{re.escape(str(path))}: game 1: {re.escape(message)}$"):
        read_games(str(path))
    assert not caplog.records


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_or_a_device_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "games.pgn"
    os.mkfifo(fifo)
    for path in (str(fifo), os.devnull):
        with pytest.raises(PositionError, match="not a regular file"):
            read_games(path)
