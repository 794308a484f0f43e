"""Which file a TABLE argument names: a bundled table's name, or a path."""

from pathlib import Path

import pytest

from al0.bundled import TABLES_DIR, table_path


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
