"""Exact distance-to-mate tablebases for every ending up to four men,
pawns included (en passant, promotions into the tables they make).

``load("KRK")``, ``load("KBNK")``, ``load("KQKR")`` … return a
:class:`Tablebase`: for any legal position of that material, either side to
move and either colour holding either side's pieces, the result with best
play by both sides (who mates, in how many moves, or a draw), the moves that
keep it, and every position class of the ending. It is the exact oracle an
advice table is judged against, and the defender that resists it longest.

A table is built by retrograde analysis (:mod:`al0.tablebase.retrograde`,
on the native core where it runs) over an index that uses the board's 8
symmetries, the file mirror alone with pawns (:mod:`al0.tablebase.geometry`);
captures and promotions lead into other tables, which are loaded (or
built) first. Tables are cached on disk with an integrity
header, so that a truncated or tampered file is rebuilt rather than trusted.

Distances: :meth:`Tablebase.result` gives the winner and the plies (half-moves)
to mate; :meth:`Tablebase.dtm` keeps the older, narrower convention: moves of
the stronger side to mate (the side named first in the canonical material,
e.g. the rook's in KRKN; White when both sides have the same pieces), or
``None`` when the stronger side cannot force mate — also when the weaker side
wins, which only :meth:`~Tablebase.result` tells.

This module is the folder's face (a lazy one, :mod:`al0.faces`: numpy is
loaded when a name is first used): what clients use, from the modules of
one idea each: ``table`` (a table and its questions), ``classes`` (its
position classes), ``cache`` (loading: the cache or a build), ``probe``
(the native core's probe of a table), ``retrograde`` (the build),
``geometry`` (symmetries and the index), ``material`` (which endings),
``graph`` (an ending's moves as index arrays).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face

if TYPE_CHECKING:
    from al0.tablebase.cache import FORMAT_VERSION, cache_path, default_cache_dir, load, load_if_any
    from al0.tablebase.classes import PositionClass, PositionClasses
    from al0.tablebase.material import parse_material, stronger_colour
    from al0.tablebase.retrograde import DRAW, ILLEGAL, build
    from al0.tablebase.table import Result, SideStats, Stats, Tablebase

_HOMES = {
    "FORMAT_VERSION": "cache",
    "cache_path": "cache",
    "default_cache_dir": "cache",
    "load": "cache",
    "load_if_any": "cache",
    "PositionClass": "classes",
    "PositionClasses": "classes",
    "parse_material": "material",
    "stronger_colour": "material",
    "DRAW": "retrograde",
    "ILLEGAL": "retrograde",
    "build": "retrograde",
    "Result": "table",
    "SideStats": "table",
    "Stats": "table",
    "Tablebase": "table",
}
"""Each name of the face and the module it lives in."""

__all__ = [
    "DRAW",
    "ILLEGAL",
    "FORMAT_VERSION",
    "PositionClass",
    "PositionClasses",
    "Result",
    "SideStats",
    "Stats",
    "Tablebase",
    "build",
    "cache_path",
    "default_cache_dir",
    "load",
    "load_if_any",
    "parse_material",
    "stronger_colour",
]

__getattr__ = lazy_face(__name__, _HOMES)
