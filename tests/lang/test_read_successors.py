"""A table's ``successors:`` (lang/read_successors.py): the table a game goes
on with after a capture or a promotion, each mistake at its file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

from al0.board import Material
from al0.errors import TableSyntaxError
from al0.lang.declared import Declared, declared
from al0.lang.loader import parse_table
from conftest import ROOT

KQKR = """name: t
material: KQKR
rules:
  - name: only
    if: true
    then: [take]
advice:
  take:
    better-goal: lost(r)
    holding-goal: true
    us-moves: {0: legal}
    them-moves: nomove
"""


def test_a_bundled_name_and_a_file_beside_the_table(tmp_path: Path):
    (tmp_path / "mine.yaml").write_text("not read until a game needs it")
    table = parse_table(KQKR + "successors:\n  kqk: kqk\n  KKR: mine.yaml\n", "t.yaml", tmp_path)
    assert [(entry.material, entry.table) for entry in table.successors] == [
        (Material.parse("KQK"), "kqk"),
        (Material.parse("KKR"), str((tmp_path / "mine.yaml").resolve())),
    ]
    assert table.successors[0].where == "t.yaml:14:8"


def test_no_successors_by_default():
    assert parse_table(KQKR, "t.yaml", ROOT).successors == ()


@pytest.mark.parametrize(
    "entries, where, fragment",
    [
        ("successors: KQK", "13:13", "successors must be a mapping"),
        ("successors:\n  KZK: kqk", "14:3", "successors: material must look like"),
        ("successors:\n  KQKR: kqk", "14:3", "successors: KQKR is the table's own material"),
        ("successors:\n  KRK: krk", "14:3", "successors: no capture or promotion makes KRK of KQKR"),
        ("successors:\n  KQKQ: kqk", "14:3", "successors: no capture or promotion makes KQKQ of KQKR"),
        (
            "successors:\n  KQK: nowhere",
            "14:8",
            "successor table 'nowhere': no bundled table and no such file",
        ),
        ("successors:\n  KQK: ../kqk.yaml", "14:8", "a bundled table (kqk) or a file in this table's folder"),
        ("successors:\n  KQK: /etc/passwd", "14:8", "a bundled table (kqk) or a file in this table's folder"),
        ("successors:\n  KQK: [kqk]", "14:8", "the successor table of KQK must be a single value"),
        ("successors:\n  KQK: kqk\n  KQK: krk", "15:3", "duplicate key"),
        # One material spelt twice: check showed the last, a game played the first.
        (
            "successors:\n  KQK: kqk\n  kqk: krk",
            "15:3",
            "successors: 'kqk' names KQK again (as 'KQK' before)",
        ),
        ("successors:\n  KQK: kqk\n  ' KQK': kqk", "15:5", "successors: ' KQK' names KQK again"),
        # Another material or side: found when the table loads, not when a game got there.
        ("successors:\n  KQK: krk", "14:8", "the successor table krk plays KRK for White, not KQK for White"),
        (
            "successors:\n  KQK: black.yaml",
            "14:8",
            "the successor table black.yaml plays KQK for Black, not KQK for White",
        ),
    ],
)
def test_a_mistake_names_its_place(tmp_path: Path, entries: str, where: str, fragment: str):
    folder = tmp_path / "tables"
    folder.mkdir()
    (tmp_path / "kqk.yaml").write_text("outside the table's folder")
    (folder / "black.yaml").write_text("name: b\nmaterial: KQK\nside: black\n")
    with pytest.raises(TableSyntaxError) as error:
        parse_table(KQKR + entries + "\n", "t.yaml", folder)
    message = str(error.value)
    assert message.startswith(f"t.yaml:{where}: ") and fragment in message, message


@pytest.mark.parametrize(
    "table, material, us, plays",
    [
        ("KQKR", "KQKR", True, True),
        ("KQKR", "KQK", True, True),  # theirs fewer: it may play on after a capture
        ("KQKR", "KQKR", False, False),  # the other colour
        ("KQK", "KQKR", True, False),  # theirs more
        ("KQKR", "KRKR", True, False),  # ours other
        ("KPK", "KQK", True, False),  # a promotion makes our men other
    ],
)
def test_which_material_a_declared_table_plays(table: str, material: str, us: bool, plays: bool):
    assert Declared(Material.parse(table), True).plays(Material.parse(material), us) is plays


@pytest.mark.parametrize(
    "text, found",
    [
        ("material: KQKR\n", "KQKR for White"),
        ("material: kqkr\nside: Black\n", "KQKR for Black"),
        ("material: KQKR\nside: red\n", None),
        ("material: KZK\n", None),
        ("name: t\n", None),
        ("[a list]", None),
        ("material: [KQKR\n", None),  # no YAML: loading the table says where
    ],
)
def test_what_a_table_file_declares(tmp_path: Path, text: str, found: str | None):
    path = tmp_path / "t.yaml"
    path.write_text(text)
    result = declared(path)
    assert (str(result) if result is not None else None) == found
