"""Fuzzing the position readers: mutated FENs and EPD lines must give a
board or al0's own error, never another exception.

Mutations start from real positions (the test suites' EPD files, full FENs
with move counters) and insert, delete, replace, repeat or cut characters,
drawn from FEN's alphabet and from what breaks parsers (digits beyond
``int``'s 4,300-digit limit, non-ASCII digits, a byte order mark, NUL,
control characters). The examples are derandomised and few, so the suite
stays fast and the same on every run.
"""

from __future__ import annotations

import os

import chess
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from al0.board.fen import check_not_over, parse_fen, read_epd
from al0.cli import cli
from al0.errors import PositionError
from conftest import POSITIONS, TABLES

BOOK = str(TABLES / "krk_bratko.yaml")

SEEDS = sorted(
    {
        line.strip()
        for path in POSITIONS.glob("*.epd")
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    | {
        "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1",
        chess.STARTING_FEN,
        "8/8/8/8/8/2k5/8/R1K5 w - - 12 40",
        '8/8/8/8/8/2k5/8/R1K5 w - - bm Rc1; id "x";',
    }
)
"""Real positions to mutate: EPD lines (some with opcodes) and full FENs."""

PIECES = "KQRBNPkqrbnp12345678/ -wb"
ODD = [
    "\ufeff",
    "\x00",
    "\t",
    "\r",
    "\u00a0",
    "²",
    "①",
    "٣",
    "é",
    '"',
    ";",
    "9" * 5000,
    "-1",
    "0x1f",
    "99999999999999999999",
    ' c0 "',
    " bm ",
    " am Kz9;",
    " dm 1;",
]
SNIPPETS = st.one_of(st.sampled_from(list(PIECES)), st.sampled_from(ODD), st.text(max_size=3))


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A seed position with up to four mutations."""
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "repeat", "cut"]))
        if kind == "insert":
            text = text[:at] + draw(SNIPPETS) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 3)) :]
        elif kind == "replace":
            text = text[:at] + draw(SNIPPETS) + text[at + 1 :]
        elif kind == "repeat":
            text = text[:at] + text[at : at + 8] * draw(st.integers(2, 5)) + text[at:]
        else:
            text = text[:at]
    return text


SCALE = int(os.environ.get("AL0_FUZZ_SCALE", "1"))
"""Multiplies every example count, for a longer run by hand; 1 in the suite."""


def fuzz(examples: int) -> settings:
    """Hypothesis settings for ``examples`` (times :data:`SCALE`)
    derandomised examples, without a deadline or an example database."""
    return settings(
        derandomize=True,
        deadline=None,
        database=None,
        max_examples=examples * SCALE,
        suppress_health_check=[HealthCheck.too_slow],
    )


@fuzz(400)
@given(mutated())
@pytest.mark.slow
def test_parse_fen_gives_a_board_or_a_position_error(fen):
    try:
        board = parse_fen(fen)
    except PositionError:
        event("clean error")
        return
    event("position")
    assert board.is_valid()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@fuzz(200)
@given(st.lists(mutated(), min_size=1, max_size=4))
@pytest.mark.slow
def test_read_epd_gives_positions_or_a_located_error(scratch, lines):
    path = scratch / "fuzz.epd"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogatepass"))
    try:
        positions = read_epd(str(path))
    except PositionError as error:
        event("clean error")
        assert str(error).startswith(f"{path}:")
        return
    event("positions")
    assert all(board.is_valid() for _, board in positions)


def one_clean_line(result) -> None:
    """Success, or exit 2 with one line ``Error: …`` and no traceback."""
    if result.exit_code == 0:
        event("planned")
        return
    event("clean error")
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output


@fuzz(100)
@given(mutated())
@pytest.mark.slow
def test_plan_fen_succeeds_or_exits_2_with_one_line(fen):
    if "\x00" in fen:
        return  # a NUL cannot be passed in a command-line argument
    one_clean_line(CliRunner().invoke(cli, ["plan", BOOK, "--budget", "2000", "--fen", fen]))


@fuzz(50)
@given(st.lists(mutated(), min_size=1, max_size=3))
@pytest.mark.slow
def test_plan_epd_succeeds_or_exits_2_with_one_line(scratch, lines):
    path = scratch / "plan.epd"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogatepass"))
    one_clean_line(CliRunner().invoke(cli, ["plan", BOOK, "--budget", "2000", "--epd", str(path)]))


@pytest.mark.parametrize(
    "fen, refused",
    [
        ("8/8/8/8/8/2k5/8/R3K3 w - - 0 1", None),
        ("8/8/8/8/8/2k5/8/R3K3 w - - 96 80", None),  # a mate may be four plies away
        ("8/8/8/8/8/2k5/8/R3K3 w - - 97 80", "before any mate"),  # none within three plies
        ("2k5/8/2K5/8/8/8/8/7R w - - 99 80", None),  # Rh8# on the last ply
        ("8/8/3k4/8/4r3/8/2Q5/3K4 w - - 99 80", None),  # Qxe4 resets the clock
        ("2k5/8/2K5/8/8/8/8/7R w - - 100 80", "has already ended"),  # mate too late
        ("8/8/8/8/8/2k5/8/R3K3 w - - 150 80", "has already ended"),  # the 75-move rule too
        ("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", "already over"),  # stalemate
        ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "already over"),  # mate
    ],
)
def test_a_position_the_game_has_ended_at_is_refused(fen, refused):
    board = chess.Board(fen)
    if refused is None:
        check_not_over(board)
    else:
        with pytest.raises(PositionError, match=refused):
            check_not_over(board)
    assert board.fen() == fen  # the search leaves the board as it was
