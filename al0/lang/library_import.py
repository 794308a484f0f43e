"""Finding and importing the library a table names: ``standard`` (the
vocabulary alone, no Python), a file relative to the table, a bundled name
(``krk``), or the name of an installed package's entry point in the group
:data:`ENTRY_POINT_GROUP`. The user's code runs here, and any way it fails
is a :class:`~al0.errors.LibraryError` naming where."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import signal
import threading
from pathlib import Path
from types import FrameType
from typing import Callable, Iterator

from al0.bundled import LIBRARY_DIR
from al0.errors import LibraryError
from al0.lang.library import Library

LIBRARY_SECONDS = 20.0
"""Wall time a library's import and ``library()`` may take before al0 stops
them as a loop without end: the bundled libraries take some 30 ms, and a
library's code only defines its names; a loop in it was a hang with no word
(Ctrl-C was the way out). A budget of time, not of steps, as nothing counts
the steps of a user's Python."""

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


class _OverTime(BaseException):
    """Raised into a library's code that has run over :data:`LIBRARY_SECONDS`:
    a BaseException, as KeyboardInterrupt is, so that the code's own
    ``except Exception`` does not take it for one of its errors."""


@contextlib.contextmanager
def _within(seconds: float) -> Iterator[None]:
    """While the block runs, :class:`_OverTime` is raised into it once
    ``seconds`` of wall time have passed. Only where a timer's signal can
    reach it: the main thread, on a platform with ``setitimer``, no other
    timer armed (a test runner's); elsewhere the block runs unbounded."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0] > 0
    ):
        yield
        return
    armed = [True]

    def over(signal_number: int, frame: FrameType | None) -> None:
        if armed[0]:  # not once the block is done, in its last instants
            raise _OverTime

    previous = signal.signal(signal.SIGALRM, over)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _run_library_code(make: Callable[[], object], where: str) -> Library:
    """The :class:`Library` that ``make`` (the user's code: an import and its
    ``library()``) returns, or a LibraryError naming ``where``.

    Any failure of the user's code is reported, not raised: also sys.exit(),
    which would otherwise end al0 with no word and exit 0, and code still
    running after :data:`LIBRARY_SECONDS` (a loop without end hung ``al0
    check`` and ``play`` in silence). KeyboardInterrupt is the exception, as
    in the search: a real Ctrl-C (or SIGTERM, which the CLI raises as one)
    during a slow import arrives the same way, and must stop al0 as a signal
    does, not blame the library.
    """
    try:
        with _within(LIBRARY_SECONDS):
            library = make()
    except (LibraryError, KeyboardInterrupt):
        raise
    except _OverTime:
        raise LibraryError(
            f"{where}: its import and library() ran over {LIBRARY_SECONDS:g} s and were stopped "
            "(a loop without end?)"
        ) from None
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
