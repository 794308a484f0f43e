"""Predicate libraries: named predicates and move generators for advice tables.

A library is a plain Python module with a function ``library()`` that returns a
:class:`Library`. A predicate is a pure function ``(node, root) -> bool``; a
move generator is a function ``node -> Iterable[chess.Move]`` whose order is
the order in which the search tries the moves; a feature is a function
``node -> int`` (None when it has no value there) that goals compare. The
vocabulary every endgame needs (``mate``, ``stalemate``, ``check``,
``themtomove``, ``ustomove``, ``legal``, ``nomove``) is merged into every
library; the piece-parameterised chess vocabulary (``dist(K, k)``,
``moves(R)``) is :mod:`al0.lang.vocabulary`, bound by the loader.

A table names its library by file, by a bundled name (``krk``), or by the
name of an installed package's entry point in the group ``al0.libraries``;
a table with no ``library`` (or ``library: standard``) runs no Python of its own.

This module is what a library's author imports (:class:`Library`,
:func:`load_library`, :func:`standard_library`), with the node and the
function types from :mod:`al0.lang.node` (their one address); each idea
lives in a module of its own: the
basic names in :mod:`al0.lang.vocabulary.basics` (listed by the one
registry of standard names, :mod:`al0.lang.vocabulary.registry`), finding
and importing a library in :mod:`al0.lang.library_import`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from al0.errors import LibraryError
from al0.faces import lazy_face
from al0.lang.node import FeatureFunction, Generator, Predicate

if TYPE_CHECKING:
    from al0.lang.library_import import ENTRY_POINT_GROUP, find_library, load_library, resolve_library_path
    from al0.lang.vocabulary.basics import check, legal, mate, nomove, stalemate, themtomove, ustomove


@dataclass(frozen=True)
class Library:
    """The vocabulary an advice table may use, by name."""

    name: str
    predicates: Mapping[str, Predicate] = field(default_factory=dict)
    generators: Mapping[str, Generator] = field(default_factory=dict)
    path: str = ""
    """The Python file the library was imported from; empty for the standard
    vocabulary alone (which runs no code of the table's)."""
    features: Mapping[str, FeatureFunction] = field(default_factory=dict)
    symmetric: bool = False
    """The library's vocabulary reads a position and its mirror images alike
    (distances, edges, corners; no square or colour named): a table on it may
    be planned in one orientation per symmetry class (:mod:`al0.board.symmetry`).
    The standard vocabulary is; a Python library says so itself."""
    positional: frozenset[str] = frozenset()
    """The predicates and features known to read nothing but the node's
    position and side (and the root's, for a feature read at the root): the
    standard predicates and the bound vocabulary. A goal made of these alone
    has one value per position (:func:`al0.lang.infer.position_only`), which the
    search may keep; a table's own Python is not assumed to be so."""

    def with_standard(self) -> Library:
        """This library plus the standard vocabulary.

        A library may redefine a standard move generator: the order in which
        moves are tried is its domain knowledge (the KRK library tries
        ``legal`` moves in the book's order). Standard predicates mean the
        same everywhere and cannot be redefined.

        :raises LibraryError: if it redefines a standard predicate.
        """
        standard = standard_library()
        clash = sorted(set(self.predicates) & set(standard.predicates))
        if clash:
            raise LibraryError(
                f"{self.path or self.name}: library redefines the standard predicate {clash[0]!r}"
            )
        return Library(
            self.name,
            {**standard.predicates, **self.predicates},
            {**standard.generators, **self.generators},
            self.path,
            self.features,
            self.symmetric,
            self.positional | frozenset(standard.predicates),
        )

    def extended(
        self,
        predicates: Mapping[str, Predicate],
        generators: Mapping[str, Generator],
        features: Mapping[str, FeatureFunction],
    ) -> Library:
        """This library plus bound calls of the standard chess vocabulary."""
        return Library(
            self.name,
            {**self.predicates, **predicates},
            {**self.generators, **generators},
            self.path,
            {**self.features, **features},
            self.symmetric,
            self.positional | frozenset(predicates) | frozenset(features),
        )

    def describe(self, name: str) -> str:
        """The first paragraph of a predicate's, generator's or feature's
        docstring, on one line (a summary wrapped over lines is not cut
        mid-sentence)."""
        function = self.predicates.get(name) or self.generators.get(name) or self.features.get(name)
        doc = (getattr(function, "__doc__", None) or "").strip()
        return " ".join(doc.split("\n\n")[0].split())


def standard_library() -> Library:
    """The basic names every library gets (the registry's
    :data:`~al0.lang.vocabulary.registry.BASIC_PREDICATES` and
    :data:`~al0.lang.vocabulary.registry.BASIC_GENERATORS`)."""
    # Lazily: the vocabulary's modules import this one.
    from al0.lang.vocabulary.registry import BASIC_GENERATORS, BASIC_PREDICATES

    return Library("standard", dict(BASIC_PREDICATES), dict(BASIC_GENERATORS))


__all__ = [
    "ENTRY_POINT_GROUP",
    "Library",
    "check",
    "find_library",
    "legal",
    "load_library",
    "mate",
    "nomove",
    "resolve_library_path",
    "stalemate",
    "standard_library",
    "themtomove",
    "ustomove",
]

__getattr__ = lazy_face(
    "al0.lang",
    {
        **{
            name: "library_import"
            for name in ("ENTRY_POINT_GROUP", "find_library", "load_library", "resolve_library_path")
        },
        **{
            name: "vocabulary.basics"
            for name in ("check", "legal", "mate", "nomove", "stalemate", "themtomove", "ustomove")
        },
    },
)
"""Finding and importing a library, and the basic names, from their modules
(which import this one)."""
