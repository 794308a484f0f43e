"""The tablebases one process has loaded, by material: each read from its
cache file (or built) once, however many games, defenders, hints and
scores ask for it, and a build announced to whoever should hear of it.

A :class:`Tablebases` is made by a front end and handed down (a game's
:class:`~al0.engine.match.Match`, the UCI engine, the web server): an
object, not a module global, so two of them never share what they loaded
and a test's temporary cache folder is never mixed with another's.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import chess

from al0.board import Material

MAX_MEN = 4
"""The most men a tablebase holds (as :data:`al0.tablebase.material.MAX_MEN`,
which this module does not import: that would load numpy)."""

if TYPE_CHECKING:
    from al0.tablebase import Tablebase
    from al0.tablebase.retrograde import Progress


class Tablebases:
    """A memo of tablebase loads. ``say`` hears that a table is being built
    (one line naming it and its cache folder) and how the build goes; without
    it a build is silent. Safe to share between threads: a load holds a lock,
    so two threads asking for one table build it once."""

    def __init__(self, say: Progress | None = None):
        self.say = say
        self._loaded: dict[str, Tablebase | None] = {}
        self._lock = threading.Lock()

    def get(self, material: Material) -> Tablebase | None:
        """The tablebase of ``material`` (KRK, KNKR: either side first),
        None where there is none (pawns, more than four men). A table loaded
        as a smaller table of another (KRK inside KQKR's captures) is that
        one, not read again."""
        name = _name(material)
        if name is None:
            return None
        with self._lock:
            if name not in self._loaded:
                self._loaded[name] = self._inside_loaded(name) or self._load(name)
            return self._loaded[name]

    def cached(self, material: Material) -> Tablebase | None:
        """:meth:`get` where that costs no build: the tablebase of
        ``material`` when it is loaded or its cache file is on disk (reading
        it takes milliseconds), else None (a search's leaf cannot wait
        seconds for a build)."""
        from al0 import tablebase  # lazily: numpy

        name = _name(material)
        if name is None:
            return None
        with self._lock:
            if name not in self._loaded:
                inside = self._inside_loaded(name)
                if inside is None and not tablebase.cache_path(name).is_file():
                    return None  # not remembered: a later build may make it
                self._loaded[name] = inside or tablebase.load(name)
            return self._loaded[name]

    def _inside_loaded(self, name: str) -> Tablebase | None:
        """The table ``name`` among the smaller tables of those loaded."""
        for table in self._loaded.values():
            if table is not None and name in table.smaller:
                return table.smaller[name]
        return None

    def _load(self, name: str) -> Tablebase:
        from al0 import tablebase  # lazily: numpy

        path = tablebase.cache_path(name)
        if self.say is not None and not path.exists():
            # A four-man build takes a second or two on the native core (6 to
            # 10 s on the Python twin), once: say so before it starts.
            self.say(f"building the {name} tablebase, once: it is kept in {path.parent}")
        return tablebase.load(name, progress=self.say)


def _name(material: Material) -> str | None:
    """The name of ``material``'s tablebase (the stronger side first), None
    where there is none: more than :data:`MAX_MEN` men, or pawns of a
    material the tablebase does not build yet."""
    from al0.tablebase.material import PAWN_MATERIALS  # (chess and board only: no numpy)

    name = material.stronger_first().name
    if material.men > MAX_MEN or (
        chess.PAWN in material.first + material.second and name not in PAWN_MATERIALS
    ):
        return None
    return name
