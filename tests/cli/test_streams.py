"""Streams that go away mid-run: a reader that closes the pipe (``| head``)
ends every command with exit 141 (128 + SIGPIPE) and nothing more written;
a standard stream closed from the start (``2>&-``, a daemon) is the null
device, so no command stops on its first message; an output with no room
left (a full disk, ``/dev/full``) ends every command with one line and exit
2, the work kept; ``play --pgn`` writes the game so far whichever way it
stops."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys

import chess.pgn
import pytest
from click.testing import CliRunner

from al0.cli import cli
from conftest import FAKE_ENGINE, ROOT

START = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"


class ClosedPipe(io.TextIOBase):
    """Standard output whose reader has gone: every write is a broken pipe."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


class FullDisk(io.TextIOBase):
    """Standard output on a full disk once a write holds ``after`` (at
    once when it is empty): every write from then on finds no room."""

    def __init__(self, after: str = ""):
        self.after = after
        self.full = not after
        self.written = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.full = self.full or self.after in text
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.written += text
        return len(text)


COMMANDS = [
    ("--help",),
    ("--version",),
    ("verify", "--help"),
    ("check", "krk"),
    ("plan", "krk", "--fen", START),
    ("tables",),
    ("play", "krk", "--fen", START, "--opponent", "random", "--max-moves", "2"),
    ("verify", "krk", "--positions", "sample:2", "--jobs", "1"),
    ("tablebase", "KRK"),
]
"""Commands of every kind, each writing to standard output."""


@pytest.mark.parametrize("args", COMMANDS)
def test_a_full_output_is_one_line_and_exit_2(args, monkeypatch, tablebase_cache):
    """Not a traceback and exit 1 (verify's code for a failed expectation)."""
    monkeypatch.setenv("AL0_CACHE_DIR", str(tablebase_cache))
    errors = io.StringIO()
    monkeypatch.setattr(sys, "stdout", FullDisk())
    monkeypatch.setattr(sys, "stderr", errors)
    with pytest.raises(SystemExit) as exit:
        cli.main(list(args), prog_name="al0")
    assert exit.value.code == 2
    assert errors.getvalue() == "Error: cannot write the output: No space left on device\n"


@pytest.mark.slow
def test_dev_full_is_one_line_and_exit_2_with_nothing_at_exit(tablebase_cache):
    """What standard output still buffers is not written (and refused) at exit."""
    with open("/dev/full", "w") as full:
        done = al0("tables", stdout=full, stderr=subprocess.PIPE, cache=str(tablebase_cache))
    assert (done.returncode, done.stderr) == (2, b"Error: cannot write the output: No space left on device\n")


@pytest.mark.slow
def test_an_output_open_only_to_read_is_one_line_and_exit_2(tablebase_cache):
    """``1</dev/null``: every write is refused (EBADF), not a traceback and exit 1."""
    with open(os.devnull) as read_only:
        done = al0("tables", stdout=read_only, stderr=subprocess.PIPE, cache=str(tablebase_cache))
    said = b"Error: cannot use the output or the input: Bad file descriptor\n"
    assert (done.returncode, done.stderr) == (2, said)


@pytest.mark.slow
def test_an_input_open_only_to_write_is_one_line_and_exit_2(tablebase_cache, tmp_path):
    """``0>/dev/full``: practice's first read is refused (EBADF), not a traceback."""
    with open(os.devnull, "w") as write_only:
        done = al0(
            "practice",
            "krk",
            stdin=write_only,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cache=str(tablebase_cache),
            data=str(tmp_path),
        )
    assert done.returncode == 2
    assert done.stderr.endswith(b"Error: cannot use the output or the input: Bad file descriptor\n")


@pytest.mark.parametrize("mode", ["w", "r"])  # full (/dev/full), open only to read (/dev/null)
@pytest.mark.slow
def test_an_error_that_cannot_be_said_still_exits_2(mode, tablebase_cache):
    """Not 1 (verify's code for a failed expectation) from the traceback of
    the error message's own write."""
    with open("/dev/full" if mode == "w" else os.devnull, mode) as errors:
        done = al0(
            "check", "no-such-table", stdout=subprocess.PIPE, stderr=errors, cache=str(tablebase_cache)
        )
    assert (done.returncode, done.stdout) == (2, b"")


def test_practice_on_a_full_output_keeps_the_move_played(monkeypatch, tmp_path, tablebase_cache):
    """The disk fills as the verdict of the student's mate is written: the
    exercise is counted in the record and the move is in the PGN."""
    monkeypatch.setenv("AL0_DATA_DIR", str(tmp_path / "data"))
    pgn = tmp_path / "games.pgn"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Qb7\nquit\n")))
    monkeypatch.setattr(sys, "stdout", FullDisk(after="1. Qb7#"))
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with pytest.raises(SystemExit) as exit:
        cli.main(["practice", "kqk", "--fen", "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1", "--pgn", str(pgn)])
    assert exit.value.code == 2
    record = json.loads((tmp_path / "data" / "progress.json").read_text())
    assert record["endings"]["KQK"]["solved"] == 1
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None and [move.uci() for move in game.mainline_moves()] == ["b1b7"]


def test_play_on_a_full_output_writes_the_game_so_far(monkeypatch, tmp_path):
    pgn = tmp_path / "game.pgn"
    monkeypatch.setattr(sys, "stdout", FullDisk(after="..."))  # full at their first reply
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with pytest.raises(SystemExit) as exit:
        cli.main(["play", "krk", "--fen", START, "--opponent", "random", "--pgn", str(pgn), "--no-board"])
    assert exit.value.code == 2
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None and game.headers["Result"] == "*"
    assert len(list(game.mainline_moves())) == 2  # ours, and the reply that found no room


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("verify", "--help"),
        ("check", "krk"),
        ("plan", "krk", "--fen", START),
        ("tables",),
        ("solve", "--fen", "k1K5/1R6/8/8/8/8/8/8 w - - 0 1", "-n", "2"),
        ("play", "krk", "--fen", START, "--opponent", "random", "--max-moves", "2"),
        ("verify", "krk", "--positions", "sample:2", "--jobs", "1"),
        ("tablebase", "KRK"),
    ],
)
def test_a_broken_pipe_exits_141_and_writes_nothing_more(args, monkeypatch, tablebase_cache):
    monkeypatch.setenv("AL0_CACHE_DIR", str(tablebase_cache))
    errors = io.StringIO()
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    monkeypatch.setattr(sys, "stderr", errors)
    with pytest.raises(SystemExit) as exit:
        cli.main(list(args), prog_name="al0")
    assert exit.value.code == 141
    assert errors.getvalue() == ""


def al0(*args: str, **options) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, AL0_CACHE_DIR=options.pop("cache"))
    if "data" in options:
        env["AL0_DATA_DIR"] = options.pop("data")
    return subprocess.run([sys.executable, "-m", "al0", *args], env=env, cwd=ROOT, timeout=120, **options)


@pytest.mark.slow
def test_a_reader_gone_before_play_writes_still_leaves_the_game(tmp_path, tablebase_cache):
    read, write = os.pipe()
    os.close(read)  # no reader at all: the first line is a broken pipe
    pgn = tmp_path / "game.pgn"
    done = al0(
        "play",
        "krk",
        "--fen",
        START,
        "--opponent",
        "random",
        "--pgn",
        str(pgn),
        stdout=write,
        stderr=subprocess.PIPE,
        cache=str(tablebase_cache),
    )
    os.close(write)
    assert (done.returncode, done.stderr) == (141, b"")
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None and game.headers["Result"] == "*"


@pytest.mark.parametrize(
    "args, written",
    [
        (("verify", "krk", "--positions", "sample:2", "--jobs", "1", "--json", "{out}"), True),
        (("play", "krk", "--fen", START, "--opponent", "random", "--max-moves", "3", "--pgn", "{out}"), True),
        (("practice", "krk", "--fen", START), False),
        (("tablebase", "KRK", "--fen", START), False),
    ],
)
@pytest.mark.slow
def test_a_closed_standard_error_stops_no_command(args, written, tmp_path, tablebase_cache):
    # Python leaves sys.stderr None then: the first message raised, unseen, exit 1.
    out = tmp_path / "out"
    done = al0(
        *(arg.format(out=out) for arg in args),
        stdout=subprocess.DEVNULL,
        input=b"quit\n",
        preexec_fn=lambda: os.close(2),
        cache=str(tablebase_cache),
    )
    assert done.returncode == 0
    assert out.exists() is written


def test_a_dying_engine_in_play_leaves_the_game_so_far(tmp_path):
    pgn = tmp_path / "game.pgn"
    engine = f"uci:{sys.executable} {FAKE_ENGINE} --die-after 2"
    result = CliRunner().invoke(
        cli, ["play", "krk", "--fen", START, "--opponent", engine, "--pgn", str(pgn), "--no-board"]
    )
    assert result.exit_code == 2
    assert f"PGN of the game so far written to {pgn}" in result.output
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None and game.headers["Result"] == "*"
    assert len(list(game.mainline_moves())) == 5  # ours, theirs, ours, theirs, ours
