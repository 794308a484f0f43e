"""``AL0_CORE`` chooses the core: ``native`` (or unset), ``python``; any
other value is one error, never a silent choice of the native core."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from al0.board.moves import TWIN, move_generator
from al0.cli import cli
from al0.core import native, status
from al0.errors import AL0Error


@pytest.mark.parametrize(
    "value, twin",
    [
        ("", False),
        ("native", False),
        (" Native ", False),
        ("python", True),
        ("PYTHON", True),
        ("pyhton", AL0Error),
        ("garbage", AL0Error),
        ("1", AL0Error),
        ("c", AL0Error),
    ],
)
def test_the_core_named_runs_and_any_other_name_is_an_error(value, twin, monkeypatch):
    monkeypatch.setenv("AL0_CORE", value)
    if twin is AL0Error:
        for ask in (native, status, move_generator):
            with pytest.raises(AL0Error, match=rf"^AL0_CORE={value!r}: give native or python"):
                ask()
        return
    assert ("python (the reference twin" in status()) is (twin or native() is None)
    assert (move_generator() is TWIN) is (twin or native() is None)  # the board's moves too
    if twin:
        assert native() is None


@pytest.mark.parametrize("args", [["--version"], ["check", "krk"]])
def test_a_core_that_is_not_one_is_one_line_and_exit_2_at_the_command_line(args, monkeypatch):
    monkeypatch.setenv("AL0_CORE", "pyhton")
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == (
        "Error: AL0_CORE='pyhton': give native or python (or leave it unset)"
    )


@pytest.mark.parametrize("args", [["--version"], ["check", "krk"]])
def test_the_core_option_chooses_the_twin_for_the_command_and_what_it_starts(args, monkeypatch):
    # The variable's value before the command, restored after it (the option sets it).
    monkeypatch.setenv("AL0_CORE", "native")
    result = CliRunner().invoke(cli, ["--core", "python", *args])
    assert result.exit_code == 0, result.output
    assert "core: python (the reference twin: AL0_CORE=python)" in result.output
    assert native() is None  # as seen by the processes it starts


def test_a_core_option_that_names_no_core_is_one_line_and_exit_2(monkeypatch):
    monkeypatch.setenv("AL0_CORE", "native")
    result = CliRunner().invoke(cli, ["--core", "c", "check", "krk"])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1].startswith("Error: Invalid value for '--core': 'c' is not one of")
