"""Finding and importing the library a table names: ``standard`` (the
vocabulary alone, no Python), a file relative to the table, a bundled name
(``krk``), or the name of an installed package's entry point in the group
:data:`ENTRY_POINT_GROUP`. The user's code runs here, and any way it fails
is a :class:`~al0.errors.LibraryError` naming where."""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
from pathlib import Path
from typing import Callable

from al0.bundled import LIBRARY_DIR
from al0.errors import LibraryError
from al0.lang.library import Library

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
