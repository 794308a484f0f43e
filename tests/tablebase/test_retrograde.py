"""The native core's retrograde build (``al0/core/retrograde.c``) against
its twin in numpy (:func:`al0.tablebase.retrograde.build_twin`): the same
bytes at every index, illegal ones and symmetric copies included, from the
same smaller tables; the same bytes on any number of threads."""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest

from al0 import tablebase as tb
from al0.core import native
from al0.tablebase.geometry import Layout
from al0.tablebase.material import exits, parse_material
from al0.tablebase.retrograde import build, build_twin

pytestmark = pytest.mark.skipif(native() is None, reason="the native core is not running")


def _both(material: str, cache: Path) -> tuple[np.ndarray, np.ndarray]:
    """The core's table of ``material`` and the twin's, from the same
    smaller tables (those the cache holds)."""
    smaller = {name: table.values for name, table in tb.load(material, cache).smaller.items()}
    parsed = parse_material(material)
    return build(parsed, smaller), build_twin(parsed, smaller)


@pytest.mark.parametrize("material", ["KRK", "KQK", "KBK", "KNK", "KPK"])
def test_the_core_builds_three_men_as_the_twin(tablebase_cache: Path, material: str) -> None:
    core, twin = _both(material, tablebase_cache)
    assert core.shape == twin.shape
    assert np.array_equal(core, twin), f"{int((core != twin).sum())} entries differ"


@pytest.mark.slow
def test_the_core_builds_a_four_man_table_as_the_twin(tablebase_cache: Path) -> None:
    """KRKN: both sides win somewhere, captures lead both ways (into KRK,
    and into KNK with the sides named the other way round), the longest
    mate takes 40 moves; the twin takes seconds. (A pair of like men, KBBK,
    is held to python-chess's moves on a sample in test_tablebase.py.)"""
    core, twin = _both("KRKN", tablebase_cache)
    assert np.array_equal(core, twin), f"{int((core != twin).sum())} entries differ"


@pytest.mark.slow
def test_the_core_builds_en_passant_as_the_twin(tablebase_cache: Path) -> None:
    """KPKP: en passant's coded entries, a capture into KPK with the sides
    named the other way round (the ranks flipped), Black's promotions into
    KQKP and the rest, swapped too; the twin takes some 17 s of CPU."""
    core, twin = _both("KPKP", tablebase_cache)
    assert np.array_equal(core, twin), f"{int((core != twin).sum())} entries differ"


def _exits(material: str, cache: Path) -> list[tuple[object, ...]]:
    """The exits of ``material`` as the core reads them."""
    table = tb.load(material, cache)
    return [
        (taken, promoted, piece, after.types, after.sides, mapping, swapped, table.smaller[after.name].values)
        for taken, promoted, piece, after, mapping, swapped in exits(table.material)
    ]


def test_any_number_of_threads_builds_the_same_bytes(tablebase_cache: Path) -> None:
    """KQK's passes are ten chunks and more: every thread takes some."""
    core = native()
    assert core is not None
    material = "KQK"
    parsed = parse_material(material)
    tables = []
    for threads in (1, 2, 3):
        values = np.empty((2, Layout(parsed).size), dtype=np.uint8)
        core.retrograde(parsed.types, parsed.sides, _exits(material, tablebase_cache), threads, values)
        tables.append(values)
    assert np.array_equal(tables[0], tables[1]) and np.array_equal(tables[0], tables[2])
    assert np.array_equal(tables[0], tb.load(material, tablebase_cache).values)


def test_the_core_refuses_malformed_builds(tablebase_cache: Path) -> None:
    core = native()
    assert core is not None
    krk = parse_material("KRK")
    out = np.empty((2, Layout(krk).size), dtype=np.uint8)
    exits = _exits("KRK", tablebase_cache)
    with pytest.raises(ValueError, match="king first"):
        core.retrograde((4, 6, 6), krk.sides, exits, 1, out)
    for sides in ((0, 5, 1), (0, -1, 1), (0, 0, 2**20)):  # read as indices before they were checked
        with pytest.raises(ValueError, match="sides 0 or 1"):
            core.retrograde(krk.types, sides, exits, 1, out)
    with pytest.raises(ValueError, match="two rows"):
        core.retrograde(krk.types, krk.sides, exits, 1, out[:, :-1].copy())
    with pytest.raises(ValueError, match="smaller table's size"):
        core.retrograde(krk.types, krk.sides, [(*exits[0][:7], b"\0" * 10)], 1, out)
    with pytest.raises(ValueError, match="slots here"):
        core.retrograde(krk.types, krk.sides, [(0, *exits[0][1:])], 1, out)  # a king taken
    with pytest.raises(ValueError, match="every capture and promotion"):
        core.retrograde(krk.types, krk.sides, [], 1, out)


def test_a_pawns_promotions_are_exits_the_core_requires(tablebase_cache: Path) -> None:
    """KPK without its promotion into KNK: refused, not built wrong."""
    core = native()
    assert core is not None
    kpk = tb.parse_material("KPK")
    out = np.empty((2, Layout(kpk).size), dtype=np.uint8)
    every = _exits("KPK", tablebase_cache)
    assert {exit[2] for exit in every} == {0, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT}
    with pytest.raises(ValueError, match="every capture and promotion"):
        core.retrograde(kpk.types, kpk.sides, [exit for exit in every if exit[2] != chess.KNIGHT], 1, out)
