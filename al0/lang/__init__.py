"""The advice language: expressions are read (``expr``) into the table
model (``model``); ``yaml_reader`` reads YAML with line numbers, the
loader (``loader``, with ``names``, ``read_moves`` and ``read_expect``)
checks and locates every name, and ``compile_goals`` and ``compile_moves``
turn goals and move constraints into functions of search nodes
(``infer``: what the search may know of them beforehand; ``failures``:
library code that misbehaves; ``lint``: what a valid table probably gets
wrong, for ``al0 check``'s warnings). ``library`` is the registry of predicates,
features and generators a table may name; ``vocabulary`` is the standard
one, so that tables need no Python. ``specs`` parses what a user or a
table gives in words (positions, defenders) into typed values.

The folder's face: :func:`load_table` and :func:`parse_table`, the
:class:`AdviceTable` they return, and the specs; each imported from its
module when first asked for, so that a command that only parses a spec
(``al0 uci`` before its handshake) does not load the YAML reader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face

if TYPE_CHECKING:
    from al0.lang.library_import import ENTRY_POINT_GROUP
    from al0.lang.lint import TableWarning, table_warnings
    from al0.lang.loader import MAX_TABLE_BYTES, load_table, parse_table
    from al0.lang.model import AdviceTable
    from al0.lang.node import Node
    from al0.lang.specs import VERIFY_KINDS, DefenderError, DefenderKind, DefenderSpec, PositionsSpec

_HOMES = {
    "ENTRY_POINT_GROUP": "library_import",
    "MAX_TABLE_BYTES": "loader",
    "load_table": "loader",
    "TableWarning": "lint",
    "table_warnings": "lint",
    "parse_table": "loader",
    "AdviceTable": "model",
    "Node": "node",
    "VERIFY_KINDS": "specs",
    "DefenderError": "specs",
    "DefenderKind": "specs",
    "DefenderSpec": "specs",
    "PositionsSpec": "specs",
}
"""Each name of the face and the module it lives in."""

__all__ = [
    "ENTRY_POINT_GROUP",
    "MAX_TABLE_BYTES",
    "VERIFY_KINDS",
    "AdviceTable",
    "DefenderError",
    "DefenderKind",
    "DefenderSpec",
    "Node",
    "PositionsSpec",
    "TableWarning",
    "load_table",
    "parse_table",
    "table_warnings",
]


__getattr__ = lazy_face(__name__, _HOMES)
