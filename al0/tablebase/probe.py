"""A tablebase's probe on the native core (``al0/core/probe.c``): the entry
of a compact position and the tablebase defender's move, found in C over
the same arrays and by the same index as :meth:`Tablebase._place
<al0.tablebase.Tablebase>`, its Python twin (``tests/tablebase/test_probe.py``
holds them equal). An adapter of shape only: the table chooses its twin
(:attr:`Tablebase._prober <al0.tablebase.Tablebase>`), as the build
does in :func:`al0.tablebase.retrograde.build`."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

import chess
import numpy as np

from al0.tablebase.geometry import ONTO, SYMMETRIES, TRIANGLE_INDEX

if TYPE_CHECKING:
    from al0.tablebase import Tablebase

Men = tuple[tuple[chess.PieceType, chess.Color], ...]
"""The men besides the kings, sorted: what a table's layout is keyed by."""

Slots = Mapping[Men, "tuple[Tablebase, chess.Color, tuple[tuple[bool, int], ...]]"]
"""What :attr:`Tablebase._slots` holds: per kind of men, the table, the
colour of its first side and where each slot's square comes from."""


def men_key(men: Men) -> int:
    """The core's key of a kind of men (``probe_key`` in ``probe.c``): two
    bits a (piece type, colour), that man's count."""
    return sum(1 << 2 * ((piece - chess.PAWN) * 2 + int(colour)) for piece, colour in men)


def make_prober(core: ModuleType, slots: Slots) -> Any:
    """``core``'s ``Prober`` for a table's ``slots``."""
    layouts = [
        (
            men_key(men),
            np.ascontiguousarray(table.values),
            first,
            # A king's slot (its colour) as the core reads it: -1 Black's, -2 White's.
            [-1 - index if is_king else index for is_king, index in where],
            chess.PAWN in table.material.types,
        )
        for men, (table, first, where) in slots.items()
    ]
    return core.Prober(
        [int(g) for g in ONTO[:64]],
        [int(s) for row in SYMMETRIES for s in row[:64]],
        [int(t) for t in TRIANGLE_INDEX[:64]],
        layouts,
    )
