"""One game, several tables: which table a game goes on with when a
capture or a promotion changes its material.

A game is begun by one table; once the material on the board is no longer
that table's (we took their rook: KQKR becomes KQK; our pawn promoted: KPK
becomes KQK), the table that plays the new material is, in order:

1. the one the first table's ``successors:`` names for it
   (:mod:`al0.lang.read_successors`), which may be the table itself;
2. the bundled table of the material (:func:`bundled_table`: ``kqk`` for
   KQK), where it plays our colour;
3. the first table itself, where it plays the material (ours unchanged,
   theirs fewer: its goals may be written for both).

Always from the first table, so a position's table does not depend on the
way the game came to it (verify's shared segments rely on it). Where none
plays the material, the game ends there (:mod:`al0.engine.play`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import chess

from al0.board import Material, reachable
from al0.bundled import TABLES_DIR, bundled_tables
from al0.errors import TableSyntaxError
from al0.lang.declared import Declared, declared

if TYPE_CHECKING:
    from al0.lang import AdviceTable


def bundled_table(material: Material) -> Path | None:
    """The bundled table of ``material`` (ours first, as a table's
    ``material:`` names it): the one named after it (``krk``, of the four
    KRK tables), else the only one that declares it (``kpk_hold`` plays KKP,
    the lone king against king and pawn); None where there is none or
    several are alike."""
    namesake = TABLES_DIR / f"{material.name.lower()}.yaml"
    if namesake.is_file():
        return namesake
    declaring = [
        path for path in bundled_tables() if (found := declared(path)) and found.material == material
    ]
    return declaring[0] if len(declaring) == 1 else None


def side_name(us: chess.Color) -> str:
    return "White" if us == chess.WHITE else "Black"


def successor_table(table: AdviceTable, material: Material) -> AdviceTable | None:
    """The table that plays ``material`` (ours first) in a game ``table``
    began, by the order above; None where none does, or where no capture
    or promotion makes ``material`` of the table's (:func:`reachable`).

    :raises AL0Error: a table ``successors:`` names that cannot be loaded
        or is not of that material and our side (at the entry).
    """
    # Imported here: the play loop imports this module, and the UCI
    # handshake, which imports the loop, reads no YAML.
    from al0.lang import load_table

    if not reachable(table.material, material):
        return None
    for entry in table.successors:
        if entry.material == material:
            if table.path and Path(entry.table).resolve() == Path(table.path).resolve():
                return table  # the table names itself: it plays on
            found = load_table(entry.table)
            if not plays(found, material, table.us):
                raise TableSyntaxError(
                    f"{entry.where}: the successor table {found.name} plays {found.material} for "
                    f"{side_name(found.us)}, not {material} for {side_name(table.us)}"
                )
            return found
    bundled = bundled_table(material)
    if bundled is not None:
        found = load_table(bundled)
        if plays(found, material, table.us):
            return found
    return table if plays(table, material, table.us) else None


def plays(table: AdviceTable, material: Material, us: chess.Color) -> bool:
    """Whether ``table`` plays ``material`` (ours first) for ``us``
    (:meth:`~al0.lang.declared.Declared.plays`)."""
    return Declared(table.material, table.us).plays(material, us)
