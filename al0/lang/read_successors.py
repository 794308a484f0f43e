"""Reading a table's ``successors:``: which table the game goes on with
once a capture or a promotion changes the material.

Each entry maps a material (ours first, as ``material:`` is written) to a
bundled table's name or a table file in the naming table's folder or
below::

    successors:
      KQK: kqk                  # the bundled table
      KRK: krk_endgame.yaml     # a file beside this one

The file must exist and declare a material and side that play the entry's
(:mod:`al0.lang.declared`, read without loading it); the table itself is
loaded when a game first needs it (:mod:`al0.engine.successors`), so
tables may name one another.
"""

from __future__ import annotations

from pathlib import Path

import chess

from al0.board import Material, reachable
from al0.bundled import TABLES_DIR
from al0.errors import PositionError
from al0.lang.declared import Declared, declared
from al0.lang.model import Successor
from al0.lang.yaml_reader import Reader, YamlNode


def read_successors(
    reader: Reader, node: YamlNode, material: Material, us: chess.Color
) -> tuple[Successor, ...]:
    """The entries of ``successors:`` (``node``) of a table of ``material``
    playing ``us``.

    :raises TableSyntaxError: at the entry: a material that does not parse,
        is named twice (``KQK`` and ``kqk``), is the table's own or no
        capture or promotion makes of it
        (:func:`al0.board.reachable`), a table that is neither a bundled
        name nor a file in the table's folder or below, or one that declares
        another material or side (a game found it only when it got there).
    """
    entries = reader.mapping(node, "successors", ())
    found = []
    named: dict[Material, str] = {}
    for key, (key_node, value_node) in entries.items():
        try:
            after = Material.parse(key.strip().upper())
        except PositionError as error:
            raise reader.error(key_node, f"successors: {error}") from None
        if after in named:
            # Two spellings of one material (KQK, kqk): al0 check showed the
            # last, and a game went on with the first.
            raise reader.error(
                key_node, f"successors: {key!r} names {after} again (as {named[after]!r} before)"
            )
        named[after] = key
        if after == material:
            raise reader.error(key_node, f"successors: {after} is the table's own material")
        if not reachable(material, after):
            raise reader.error(
                key_node, f"successors: no capture or promotion makes {after} of {material} (ours first)"
            )
        name = reader.string(value_node, f"the successor table of {after}")
        table = _table_file(reader, value_node, name)
        plays = declared(TABLES_DIR / f"{table}.yaml" if table == name else Path(table))
        if plays is not None and not plays.plays(after, us):
            raise reader.error(
                value_node, f"the successor table {name} plays {plays}, not {Declared(after, us)}"
            )
        found.append(Successor(after, table, str(reader.where(value_node))))
    return tuple(found)


def _table_file(reader: Reader, node: YamlNode, name: str) -> str:
    """The bundled table's name ``name``, or the path of the file it names
    in the table's folder (or below).

    :raises TableSyntaxError: for anything else, naming ``name`` alone.
    """
    bare = "/" not in name and "\\" not in name and not name.endswith((".yaml", ".yml"))
    if bare and (TABLES_DIR / f"{name}.yaml").is_file():
        return name
    base = reader.folder.resolve()
    try:
        path = (base / name).resolve()
    except (OSError, ValueError):
        raise reader.error(node, f"successor table {name!r}: not a file name") from None
    if Path(name).is_absolute() or not path.is_relative_to(base):
        raise reader.error(
            node,
            f"successor table {name!r}: name a bundled table (kqk) or a file in this table's folder or below",
        )
    if not path.is_file():
        raise reader.error(node, f"successor table {name!r}: no bundled table and no such file")
    return str(path)
