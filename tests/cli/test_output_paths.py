"""Nothing lost: an output never overwrites an input or another output,
under any spelling of its path; ``-`` is standard output wherever a command
can write there, refused elsewhere; a folder is never taken for a file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import chess
import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from al0.cli import cli
from al0.cli.outputs import check_no_overwrite
from conftest import POSITIONS, ROOT, TABLES, files_in

POSITION = "8/8/4R3/8/3K4/8/2k5/8 w - -\n"


# ------------------------------------------------------------ the check


def scratch_files(root: Path) -> dict[str, str]:
    """Spellings of paths under ``root`` -> which file each one is: ``a``
    through a hard link, a symlink and ``..``; ``c`` that does not exist yet,
    through a dangling symlink; ``/dev/null``, which is written through and
    so is no file anyone loses."""
    (root / "sub").mkdir()
    (root / "a").write_text("a")
    (root / "b").write_text("b")
    os.link(root / "a", root / "hard_a")
    (root / "link_a").symlink_to(root / "a")
    (root / "link_c").symlink_to(root / "c")
    return {
        "a": "a",
        "./a": "a",
        "sub/../a": "a",
        "hard_a": "a",
        "link_a": "a",
        "b": "b",
        "c": "c",
        "sub/../c": "c",
        "link_c": "c",
        "d": "d",
        "/dev/null": "null",
    }


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("paths")
    return root, scratch_files(root)


SPELLINGS = ["a", "./a", "sub/../a", "hard_a", "link_a", "b", "c", "sub/../c", "link_c", "d", "/dev/null"]


@settings(max_examples=300, deadline=None)
@given(
    inputs=st.lists(st.sampled_from(SPELLINGS), max_size=2),
    outputs=st.lists(st.sampled_from([*SPELLINGS, "-"]), max_size=4),
)
@pytest.mark.slow
def test_an_output_is_refused_exactly_when_something_is_lost(scratch, inputs, outputs):
    root, identity = scratch

    def path(spelling: str) -> str:
        return spelling if spelling in ("-", "/dev/null") else str(root / spelling)

    files = [identity[spelling] for spelling in outputs if spelling != "-"]
    lost = (
        outputs.count("-") > 1
        or any(files.count(file) > 1 for file in files if file != "null")
        or any(identity[spelling] in files for spelling in inputs if identity[spelling] != "null")
    )
    named_inputs = {f"IN{n}": path(spelling) for n, spelling in enumerate(inputs)}
    named_outputs = {f"--out{n}": path(spelling) for n, spelling in enumerate(outputs)}
    named_outputs["--absent"] = None  # an option not given collides with nothing
    if lost:
        with pytest.raises(click.UsageError):
            check_no_overwrite(named_inputs, named_outputs)
    else:
        check_no_overwrite(named_inputs, named_outputs)
    assert (root / "a").read_text() == "a" and not (root / "c").exists()


# ------------------------------------------------------------ the commands


def one_line_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.fixture
def files(tmp_path, monkeypatch) -> Path:
    """A table (with its library beside it) and an EPD file in the current folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my.yaml").write_text(
        (TABLES / "krk.yaml").read_text().replace("library: ../library/krk.py", "library: krk.py")
    )
    (tmp_path / "krk.py").write_text((ROOT / "library" / "krk.py").read_text())
    (tmp_path / "F.epd").write_text(POSITION)
    return tmp_path


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["--json", "my.yaml"], ["--json my.yaml would overwrite TABLE"]),
        (["--json", "./my.yaml"], ["--json ./my.yaml would overwrite TABLE"]),
        (["--json", "r.out", "--failures", "r.out"], ["--failures r.out would overwrite --json"]),
        (["--html", "r.html", "--json", "r.html"], ["--html r.html would overwrite --json"]),
        (["--positions", "F.epd", "--failures", "F.epd"], ["--failures F.epd would overwrite --positions"]),
        (["--pgn", "krk.py"], ["--pgn krk.py would overwrite the table's library"]),
        (["--failures", "-", "--html", "-"], ["--failures and --html both write to standard output"]),
        (["--json", "x.json/"], ["'x.json/' is a folder"]),
        (["--json", "."], ["'.' is a folder"]),
        (["--failures", ""], ["an empty path: give a file for failures"]),
    ],
    ids=[
        "table",
        "table-dot",
        "json-failures",
        "html-json",
        "positions-failures",
        "library",
        "two-stdout",
        "trailing-slash",
        "folder",
        "empty",
    ],
)
def test_verify_refuses_before_the_run(files, args, fragments):
    before = files_in(files)
    result = CliRunner().invoke(cli, ["verify", "my.yaml", "--positions", "sample:2", *args])
    one_line_error(result, *fragments)
    assert files_in(files) == before


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["--pgn", "my.yaml"], ["--pgn my.yaml would overwrite TABLE"]),
        (["--pgn", "krk.py"], ["--pgn krk.py would overwrite the table's library"]),
        (["--pgn", "g.pgn", "--svg", "g.pgn"], ["--svg g.pgn would overwrite --pgn"]),
        (["--pgn", "-"], ["PGN cannot go to standard output (-) here"]),
        (["--pgn", "game/"], ["'game/' is a folder"]),
    ],
    ids=["table", "library", "svg-pgn", "stdout", "trailing-slash"],
)
def test_play_refuses_before_the_game(files, args, fragments):
    before = files_in(files)
    result = CliRunner().invoke(cli, ["play", "my.yaml", "--opponent", "random", *args])
    one_line_error(result, *fragments)
    assert files_in(files) == before


@pytest.mark.parametrize(
    "option, starts",
    [
        ("--json", "{"),
        ("--failures", '8/8/8/8/8/8/1R6/k1K5 w - - c0 "stalemate";'),
        ("--html", "<!DOCTYPE html>"),
        ("--pgn", "[Event "),
    ],
)
def test_one_output_may_go_to_standard_output(tmp_path, monkeypatch, option, starts):
    # --failures - and --html - wrote a file named "-".
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        cli,
        [
            "verify",
            str(TABLES / "krk_bratko.yaml"),
            "--positions",
            str(POSITIONS / "krk_bratko_stalemates.epd"),
            option,
            "-",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(starts), result.stdout[:200]
    assert "11 of 11 positions: stalemate 11" in result.stderr  # the summary, out of the way
    assert not (tmp_path / "-").exists()
    if option == "--json":
        assert json.loads(result.stdout)["games"] == 11


# ------------------------------------------------------ at write time


@pytest.mark.parametrize("option", ["--json", "--html", "--failures", "--pgn"])
def test_an_output_that_becomes_a_link_to_the_table_during_the_run_is_refused(files, monkeypatch, option):
    # Checked at the start only, the report overwrote the table.
    import al0.cli.verify

    real = al0.cli.verify.run_with_progress

    def run_then_link(*args):
        report = real(*args)
        (files / "out").symlink_to(files / "my.yaml")
        return report

    monkeypatch.setattr(al0.cli.verify, "run_with_progress", run_then_link)
    before = (files / "my.yaml").read_bytes()
    result = CliRunner().invoke(cli, ["verify", "my.yaml", "--positions", "F.epd", option, "out"])
    one_line_error(result, "out: cannot write", "it is (a link to)", "which this run reads")
    assert (files / "my.yaml").read_bytes() == before


def test_a_board_that_is_a_link_to_the_table_is_not_written_through(files):
    # Between the game's start and a board's write, a board became a link to the table.
    from al0.cli.play import board_pictures

    picture = board_pictures("boards", (str(files / "my.yaml"),))
    (files / "boards" / "ply-000.svg").symlink_to(files / "my.yaml")
    before = (files / "my.yaml").read_bytes()
    with pytest.raises(click.ClickException, match="boards: cannot write: it is"):
        picture(chess.Board(), ["start"])
    assert (files / "my.yaml").read_bytes() == before


def test_a_board_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    # A full disk cut the board after the earlier game's were removed.
    from al0.report.render import write_board_svg

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(OSError, match="No space left"):
        write_board_svg(tmp_path, chess.Board(), ["start"])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args, shown",
    [
        (["verify", "my.yaml", "--positions", "F.epd", "--json", "a\nb/r.json"], "'a\\nb/r.json'"),
        (
            ["verify", "my.yaml", "--positions", "F.epd", "--json", "my\nyaml", "--html", "my\nyaml"],
            "'my\\nyaml'",
        ),
        (["play", "my.yaml", "--opponent", "random", "--pgn", "x\ry/g.pgn"], "'x\\ry/g.pgn'"),
    ],
)
def test_a_line_end_in_an_output_path_gives_a_one_line_error(files, args, shown):
    one_line_error(CliRunner().invoke(cli, args), shown)
