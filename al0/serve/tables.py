"""The tables ``al0 serve`` may read (:class:`Tables`) and each one ready
to play (:class:`Matches`: its :class:`~al0.engine.Match`, made once). A
material named in capitals (``KQKR``) instead of a table is practised from
the tablebase alone, as ``al0 practice KQKR`` is: it has no plan."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import chess

from al0.board import Material
from al0.bundled import bundled_tables
from al0.engine import Match, Tablebases
from al0.errors import PositionError
from al0.lang import load_table
from al0.serve.api import ApiError
from al0.teach import practised_side

if TYPE_CHECKING:
    from al0.engine import Planner
    from al0.lang import AdviceTable
    from al0.tablebase import Tablebase


def named_material(name: str) -> Material | None:
    """The material ``name`` names in capitals (``KQKR``, as ``al0
    practice`` reads it), None for a table's name."""
    try:
        return Material.parse(name)
    except PositionError:
        return None


class Tables:
    """The tables the server may read: the bundled ones by name, and the one
    named on the command line (its path, or its name when bundled). Each is
    loaded once, when first asked for."""

    def __init__(self, named: str | None = None):
        self.paths: dict[str, str] = {path.stem: path.stem for path in bundled_tables()}
        self.first: str | None = None
        self.material: Material | None = None
        """The material named instead of a table (practised from the tablebase alone)."""
        if named is not None:
            self.material = named_material(named)
            key = Path(named).stem if ("/" in named or named.endswith((".yaml", ".yml"))) else named
            if self.material is None:
                self.paths[key] = named
            self.first = key
        self._loaded: dict[str, AdviceTable] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        return sorted({*self.paths, *([self.first] if self.first is not None else [])})

    def material_of(self, name: str) -> Material | None:
        """The material ``name`` names when it is the one served without a
        table; None for a table's name."""
        return self.material if self.material is not None and name == self.first else None

    def get(self, name: str) -> AdviceTable:
        """The table called ``name``; 403 for any other name or path, 400
        for the material served without a table."""
        if self.material_of(name) is not None:
            raise ApiError(400, f"{name} has no table, so no plan: it is practised from the tablebase alone")
        if name not in self.paths:
            raise ApiError(
                403, f"{name!r} is not a table this server serves (it serves {', '.join(self.names())})"
            )
        with self._lock:
            if name not in self._loaded:
                self._loaded[name] = load_table(self.paths[name])
            return self._loaded[name]


@dataclass
class Served:
    """A table as the server plays it: its name, material and side, its
    match (None for a material practised from the tablebase alone), and the
    lock its searches take in turn (they share the planner and its memo,
    which one search at a time may use)."""

    name: str
    material: Material
    us: chess.Color
    match: Match | None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def planner(self) -> Planner | None:
        return self.match.planner if self.match is not None else None

    @property
    def start(self) -> str | None:
        """The table's start position (None: it has none, or there is no table)."""
        return self.match.table.start_fen if self.match is not None else None


class Matches:
    """Each table of ``tables`` ready to play, made when first asked for:
    a :class:`~al0.engine.Match` with the server's node ``budget`` (``al0
    plan``'s), its searches ending when ``stop`` is set, and one
    :class:`~al0.engine.Tablebases` for the server's life (every game of an
    ending probes the same tablebase, read or built once)."""

    def __init__(self, tables: Tables, budget: int, stop: threading.Event):
        self.tables = tables
        self.budget = budget
        self.stop = stop
        self.tablebases = Tablebases()
        self._served: dict[str, Served] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> Served:
        """The table called ``name`` ready to play (the material served
        without a table: its stronger side's, as ``al0 practice`` plays it,
        :func:`~al0.teach.practised_side`); 403 as
        :meth:`Tables.get`."""
        material = self.tables.material_of(name)
        table = self.tables.get(name) if material is None else None
        with self._lock:
            served = self._served.get(name)
            if served is None:
                if table is None:
                    assert material is not None
                    us, ours = practised_side(material)
                    served = Served(name, ours, us, None)
                else:
                    match = Match(table, self.budget, self.tablebases)
                    match.planner.limits = replace(match.planner.limits, stop=self.stop)
                    served = Served(table.name, table.material, table.us, match)
                self._served[name] = served
            return served

    def tablebase(self, material: Material) -> Tablebase:
        """The tablebase of ``material``; 400 where there is none."""
        found = self.tablebases.get(material)
        if found is None:
            raise ApiError(400, f"practice needs a tablebase, and there is none for {material}")
        return found
