"""Predicate libraries: named predicates and move generators for advice tables.

A library is a plain Python module with a function ``library()`` that returns a
:class:`Library`. A predicate is a pure function ``(node, root) -> bool``; a
move generator is a function ``node -> Iterable[chess.Move]`` whose order is
the order in which the search tries the moves; a feature is a function
``node -> int`` (None when it has no value there) that goals compare. The
vocabulary every endgame needs (``mate``, ``stalemate``, ``check``,
``themtomove``, ``ustomove``, ``legal``, ``nomove``) lives here and is merged
into every library; the piece-parameterised chess vocabulary (``dist(K, k)``,
``moves(R)``) is :mod:`al0.lang.vocabulary`, bound by the loader.

A table names its library by file, by a bundled name (``krk``), or by the
name of an installed package's entry point in the group ``al0.libraries``;
a table with no ``library`` (or ``library: standard``) runs no Python of its own.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import chess

from al0.board.checks import is_checkmate, is_stalemate
from al0.board.moves import apply, legal_moves
from al0.board.position import Position, from_board, is_check, to_board
from al0.bundled import LIBRARY_DIR
from al0.errors import LibraryError


class Node:
    """A search node: a position, its depth (plies from the root) and the
    side the table plays for.

    Predicates read ``node.position``, the compact immutable position of
    :mod:`al0.board.position` (piece bitboards and side to move; see that module
    for the functions that read it): it is what the search walks over, and
    reading it is cheap. ``node.board`` is a python-chess ``Board`` at the
    same position, built on first use, for libraries that want python-chess's
    API; it is the library's own copy (mutating it changes nothing for the
    search) and costs a board per node, so fast libraries avoid it.
    :meth:`fact` memoises a derived value (e.g. piece squares) for the node's
    lifetime, so predicates that share it compute it once; ``node.facts`` is
    that memo (function -> value), which a predicate run at every node may
    read directly (``node.facts.get(compute)``) to save the call.
    """

    __slots__ = ("position", "depth", "us", "facts", "_board")

    def __init__(self, position: Position | chess.Board, depth: int, us: chess.Color):
        if isinstance(position, chess.Board):
            self._board: chess.Board | None = position
            position = from_board(position)
        else:
            self._board = None
        self.position: Position = position
        self.depth = depth
        self.us = us
        self.facts: dict[Callable[[Node], object], Any] = {}

    @property
    def board(self) -> chess.Board:
        """A python-chess board at this node's position (built once, lazily)."""
        if self._board is None:
            self._board = to_board(self.position)
        return self._board

    @property
    def fen(self) -> str:
        """The node's position as FEN, for messages."""
        return self.board.fen()

    def legal_moves(self) -> list[chess.Move]:
        """Every legal move at this node, in python-chess's order (computed
        once per node, without playing them; do not mutate the list)."""
        return self.fact(_legal_moves)  # type: ignore[return-value]

    def known_legal_moves(self) -> list[chess.Move] | None:
        """:meth:`legal_moves` if something has asked for them already, else None."""
        return self.facts.get(_legal_moves)

    def successors(self) -> dict[chess.Move, Position]:
        """Every legal move at this node, in python-chess's order, with the
        position it leads to (computed once per node)."""
        return self.fact(_successor_map)  # type: ignore[return-value]

    def fact(self, compute: Callable[[Node], object]) -> object:
        """``compute(self)``, computed once per node (``compute`` must not return None)."""
        value = self.facts.get(compute)
        if value is None:
            value = self.facts[compute] = compute(self)
        return value


def node_at(position: Position, depth: int, us: chess.Color) -> Node:
    """``Node(position, depth, us)`` for a compact position, made without
    the class call: calling a class runs its ``__init__`` through a slower
    path than a function's (the search makes a node at every position it
    meets)."""
    node = _new_object(Node)
    node.position = position
    node.depth = depth
    node.us = us
    node.facts = {}
    node._board = None
    return node


_new_object = object.__new__


def _legal_moves(node: Node) -> list[chess.Move]:
    return legal_moves(node.position)


def _successor_map(node: Node) -> dict[chess.Move, Position]:
    position = node.position
    return {move: apply(position, move) for move in node.legal_moves()}


Predicate = Callable[[Node, Node], bool]
Generator = Callable[[Node], Iterable[chess.Move]]
FeatureFunction = Callable[[Node], "int | None"]
"""A feature of a library: a number (or None) of a node; the goal
language's :class:`~al0.lang.model.Feature` names one in an expression."""


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


# ------------------------------------------------- standard vocabulary


def mate(node: Node, root: Node) -> bool:
    """Them to move, in check, with no legal move."""
    if node.position.turn == node.us:
        return False
    known = node.known_legal_moves()
    if known is None:
        return is_checkmate(node.position)
    return not known and is_check(node.position)


def stalemate(node: Node, root: Node) -> bool:
    """Them to move, not in check, with no legal move."""
    if node.position.turn == node.us:
        return False
    known = node.known_legal_moves()
    if known is None:
        return is_stalemate(node.position)
    return not known and not is_check(node.position)


def check(node: Node, root: Node) -> bool:
    """The side to move is in check."""
    return is_check(node.position)


def themtomove(node: Node, root: Node) -> bool:
    """It is their move."""
    return node.position.turn != node.us


def ustomove(node: Node, root: Node) -> bool:
    """It is our move."""
    return node.position.turn == node.us


def legal(node: Node) -> Iterable[chess.Move]:
    """Every legal move, in python-chess's generation order."""
    return node.legal_moves()


def nomove(node: Node) -> Iterable[chess.Move]:
    """No move at all: the better-goal must already hold."""
    return ()


def standard_library() -> Library:
    """The vocabulary every library gets."""
    return Library(
        "standard",
        {
            "mate": mate,
            "stalemate": stalemate,
            "check": check,
            "themtomove": themtomove,
            "ustomove": ustomove,
        },
        {"legal": legal, "nomove": nomove},
    )


# ------------------------------------------------------------ loading

ENTRY_POINT_GROUP = "al0.libraries"
"""Installed packages offer libraries by name in this entry-point group; an
entry point names a module with a ``library()`` function, or that function."""


def resolve_library_path(spec: str, table_dir: Path) -> Path:
    """Where the library ``spec`` of a table in ``table_dir`` lives.

    A spec with a ``/`` or ending in ``.py`` is a file relative to the table;
    a bare name (``krk``) is a bundled library (``library/`` in the
    repository, shipped inside the installed package).
    """
    if "/" in spec or spec.endswith(".py"):
        return (table_dir / spec).resolve()
    return LIBRARY_DIR / f"{spec}.py"


def find_library(spec: str, table_dir: Path) -> Library:
    """The library a table names: ``standard`` (the vocabulary alone, no
    Python), a file, a bundled name, or an installed entry point's name.

    :raises LibraryError: when none of these is found or it is broken.
    """
    if spec == "standard":
        return Library("standard", symmetric=True).with_standard()
    path = resolve_library_path(spec, table_dir)
    if "/" in spec or spec.endswith(".py") or _is_file(path):
        return load_library(path)
    points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=spec)
    for point in points:
        return _load_entry_point(point)
    raise LibraryError(
        f"{spec[:80]!r}: no such library (not a file, not bundled in "
        f"{LIBRARY_DIR}, no installed '{ENTRY_POINT_GROUP}' entry point)"
    )


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False when the name cannot be one (too long)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _load_entry_point(point: importlib.metadata.EntryPoint) -> Library:
    """The library an installed package offers under ``point``."""
    where = f"entry point {point.name!r} ({point.value})"

    def make() -> object:
        target = point.load()
        made = getattr(target, "library", target)
        if not callable(made):
            raise LibraryError(f"{where}: names neither library() nor a module defining it")
        return made()

    library = _run_library_code(make, where)
    module = importlib.import_module(point.module)
    path = getattr(module, "__file__", None) or where
    return Library(
        library.name, library.predicates, library.generators, path, library.features, library.symmetric
    ).with_standard()


def _run_library_code(make: Callable[[], object], where: str) -> Library:
    """The :class:`Library` that ``make`` (the user's code: an import and its
    ``library()``) returns, or a LibraryError naming ``where``.

    Any failure of the user's code is reported, not raised: also sys.exit(),
    which would otherwise end al0 with no word and exit 0. KeyboardInterrupt
    is the exception, as in the search: a real Ctrl-C (or SIGTERM, which the
    CLI raises as one) during a slow import arrives the same way, and must
    stop al0 as a signal does, not blame the library.
    """
    try:
        library = make()
    except (LibraryError, KeyboardInterrupt):
        raise
    except BaseException as error:
        detail = f": {error}" if str(error) else ""
        raise LibraryError(f"{where}: library raised {type(error).__name__}{detail}") from error
    if not isinstance(library, Library):
        raise LibraryError(f"{where}: library() returned {type(library).__name__}, not Library")
    return library


def load_library(path: Path) -> Library:
    """Import the library module at ``path`` and return its vocabulary merged
    with the standard one.

    :raises LibraryError: if the file is missing, raises anything (even
        ``SystemExit``) on import or in ``library()``, or has no
        ``library()`` returning a :class:`Library`.
    """
    if not _is_file(path):
        raise LibraryError(f"{str(path)[:200]}: predicate library not found")
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(f"al0_library_{path.stem}_{digest}", path)
    if spec is None or spec.loader is None:
        raise LibraryError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    loader = spec.loader

    def make() -> object:
        loader.exec_module(module)
        made = getattr(module, "library", None)
        if not callable(made):
            raise LibraryError(f"{path}: a library module must define library()")
        return made()

    library = _run_library_code(make, str(path))
    return Library(
        library.name, library.predicates, library.generators, str(path), library.features, library.symmetric
    ).with_standard()
