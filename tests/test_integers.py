"""The one parser of whole numbers (``al0.integers.parse_int``): ASCII digits
only, bounded length and range, an error naming the value; and every option
and spec that reads a number goes through it."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from al0.cli import cli
from al0.errors import PositionError, TableSyntaxError
from al0.games.base import PlayerSpecError
from al0.games.reversi import make_player
from al0.integers import MAX_DIGITS, IntegerError, parse_int
from al0.lang.loader import load_table
from al0.lang.specs import PositionsSpec
from conftest import BROKEN_TABLES, TABLES

BOOK = str(TABLES / "krk_bratko.yaml")
HUGE = "9" * 5000  # over the 4,300 digits of Python's int() limit


@pytest.mark.parametrize(
    "text, minimum, maximum, expected",
    [
        ("0", 0, None, 0),
        ("42", 0, None, 42),
        (" 7\n", 1, None, 7),
        ("007", 0, None, 7),
        ("-3", None, None, -3),
        ("-3", -5, 5, -3),
        ("9" * MAX_DIGITS, 0, None, int("9" * MAX_DIGITS)),
        ("\u00b2", 0, None, "must be a whole number >= 0, not '\u00b2'"),  # isdigit() is True
        ("\u0663", 0, None, "not '\u0663'"),  # int() reads it as 3
        ("\uff11", 0, None, "not '\uff11'"),  # a full-width 1
        ("1_000", 0, None, "not '1_000'"),
        ("+1", 0, None, "not '+1'"),
        ("1.0", 0, None, "not '1.0'"),
        ("0x1f", 0, None, "not '0x1f'"),
        ("", 0, None, "not ''"),
        ("-", None, None, "not '-'"),
        ("-1", 0, None, "must be a whole number >= 0, not '-1'"),
        ("0", 1, None, "must be a whole number >= 1, not 0"),
        ("11", 1, 10, "must be a whole number from 1 to 10, not 11"),
        ("9" * (MAX_DIGITS + 1), 0, None, f"is too large (at most {MAX_DIGITS} digits)"),
        (HUGE, 0, None, "'999999999999999999999999'… (5,000 characters)"),
    ],
)
def test_parse_int(text, minimum, maximum, expected):
    if isinstance(expected, int):
        assert parse_int(text, "x", minimum, maximum) == expected
    else:
        with pytest.raises(IntegerError) as caught:
            parse_int(text, "x", minimum, maximum)
        assert str(caught.value).startswith("x ") and expected in str(caught.value)


@given(st.text())
def test_any_text_is_a_number_or_an_integer_error(text):
    try:
        number = parse_int(text, "x", minimum=None)
    except IntegerError as error:
        message = str(error)
        # The value is cut short: 24 characters, each at most 10 when escaped.
        assert message.startswith("x ") and len(message) < 300
    else:
        assert re.fullmatch(r"[ \t\r\n]*-?[0-9]{1,18}[ \t\r\n]*", text)
        assert number == int(text.strip(" \t\r\n"))


@given(st.integers(min_value=-(10**MAX_DIGITS) + 1, max_value=10**MAX_DIGITS - 1))
def test_every_number_of_at_most_18_digits_reads_back(number):
    assert parse_int(str(number), "x", minimum=None) == number


@given(st.text(), st.integers(-5, 5), st.integers(-5, 5))
def test_a_number_read_is_within_its_bounds(text, low, high):
    try:
        number = parse_int(text, "x", low, high)
    except IntegerError:
        return
    assert low <= number <= high


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("all", None),
        ("every", None),
        ("krk.epd", None),
        ("sample:5", 5),
        (" sample:5 ", 5),  # spaces a shell quote left: 'all ' was read as a file
        ("sample:\u00b2", "'sample:\u00b2': N in sample:N must be a whole number >= 1, not '\u00b2'"),
        ("sample:0", "'sample:0': N in sample:N must be a whole number >= 1, not 0"),
        ("sample:" + HUGE, "N is too large (at most 18 digits)"),
    ],
)
def test_sample_size(spec, expected):
    if expected is None or isinstance(expected, int):
        assert PositionsSpec.parse(spec).count == expected
    else:
        with pytest.raises(PositionError) as caught:
            PositionsSpec.parse(spec)
        assert expected in str(caught.value) and len(str(caught.value)) < 200


@pytest.mark.parametrize("spec, kind", [("all ", "all"), (" every", "every"), (" krk.epd", "file")])
def test_spaces_around_a_keyword_leave_it_a_keyword(spec, kind):
    # 'all ' was read as a file while 'sample:3 ' was a sample; a file's name is kept as typed.
    parsed = PositionsSpec.parse(spec)
    assert parsed.kind == kind and (kind != "file" or parsed.path == spec)


def test_a_tables_sample_of_unicode_digits_is_a_located_error(tmp_path):
    table = tmp_path / "t.yaml"
    table.write_text(
        (BROKEN_TABLES / "positions_absolute.yaml").read_text().replace("/etc/passwd", "sample:\u00b2")
    )
    with pytest.raises(
        TableSyntaxError,
        match=r"t.yaml:16:14: expect positions 'sample:\u00b2': "
        r"N in sample:N must be a whole number >= 1",
    ):
        load_table(table)


@pytest.mark.parametrize("spec", ["alphabeta:\u00b2", "minimax:\u0663", f"alphabeta:{HUGE}", "alphabeta:9"])
def test_a_reversi_players_depth_is_read_by_the_one_parser(spec):
    with pytest.raises(
        PlayerSpecError, match="the depth of .*:D must be a whole number from 1 to 8|too large"
    ):
        make_player(spec, None)


@pytest.mark.parametrize(
    "args",
    [
        ["plan", BOOK, "--budget", "\u0663"],
        ["plan", BOOK, "--budget", "1_000"],
        ["plan", BOOK, "--budget", HUGE],
        ["verify", BOOK, "--seed", "\u00b2"],
        ["verify", BOOK, "--max-moves", "-1"],
        ["verify", BOOK, "--jobs", "\uff12"],
        ["verify", BOOK, "--positions", "sample:\u00b2"],
        ["verify", BOOK, "--positions", f"sample:{HUGE}"],
        ["bench", BOOK, "--count", "\u00b2"],
        ["reversi", "--black", "alphabeta:\u00b2"],
        ["solve", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "--moves", "11"],
    ],
)
def test_every_number_on_the_command_line_is_read_by_the_one_parser(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and len(lines[0]) < 300, lines
    assert re.search("whole number|too large", lines[0]), lines[0]
