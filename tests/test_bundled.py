"""Which file a TABLE argument names: a bundled table's name, or a path."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from al0.bundled import TABLES_DIR, table_path
from al0.cli import cli


@pytest.mark.parametrize(
    "spec, names",
    [
        ("krk", TABLES_DIR / "krk.yaml"),
        ("kbnk", TABLES_DIR / "kbnk.yaml"),
        ("./krk", Path("./krk")),
        ("krk.yaml", Path("krk.yaml")),
        ("tables/krk", Path("tables/krk")),
        ("my_table", Path("my_table")),
        ("x" * 5000, Path("x" * 5000)),
    ],
)
def test_a_bundled_name_wins_over_what_the_working_folder_holds(tmp_path, monkeypatch, spec, names):
    # The working folder holds a file and a folder named like bundled tables.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "krk").write_text("not a table\n")
    (tmp_path / "kbnk").mkdir()
    assert table_path(spec) == names


@pytest.mark.parametrize("command", ["check", "uci"])
def test_the_command_line_takes_a_bundled_name_beside_a_folder_of_that_name(tmp_path, monkeypatch, command):
    # click's path check refused it ("File 'kpk' is a directory") before the
    # name was ever looked up: a user with a kpk/ folder could not play kpk
    # (al0 uci kpk still could not, its argument a path of its own).
    monkeypatch.chdir(tmp_path)
    (tmp_path / "krk").mkdir()
    (tmp_path / "mine.yaml").mkdir()
    assert CliRunner().invoke(cli, [command, "krk"], input="quit\n").exit_code == 0
    refused = CliRunner().invoke(cli, [command, "mine.yaml"], input="quit\n")
    assert refused.exit_code == 2 and "'mine.yaml' is a folder, not a table file" in refused.output
