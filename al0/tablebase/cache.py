"""Loading a tablebase: from the cache on disk, checked against its
integrity header, or built by retrograde analysis (with the smaller tables
its captures lead to, first) and cached, so that a truncated or tampered
file is rebuilt rather than trusted."""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import warnings
from pathlib import Path

import numpy as np
import platformdirs

from al0.board import Material
from al0.errors import PositionError
from al0.files import (
    one_maker_at_a_time,
    read_regular_file,
    read_start,
    remove_stale_temporaries,
    write_atomically,
)
from al0.tablebase.geometry import Layout
from al0.tablebase.material import exits, parse_material
from al0.tablebase.retrograde import Progress, Values, build
from al0.tablebase.table import Tablebase

#: Bumped whenever the table layout or the build changes, so that an old cache
#: is rebuilt instead of being read with the wrong meaning. Version 2: plies
#: for the side to move, the symmetric index, any pawnless material.
FORMAT_VERSION = 2

_MAGIC = b"AL0TB"


def default_cache_dir() -> Path:
    """Where tables are cached: ``$AL0_CACHE_DIR``, else the platform's cache
    folder for al0 as platformdirs knows it: ``$XDG_CACHE_HOME/al0`` or
    ``~/.cache/al0`` on Linux, ``~/Library/Caches/al0`` on macOS,
    ``%LOCALAPPDATA%\\al0\\Cache`` on Windows."""
    explicit = os.environ.get("AL0_CACHE_DIR")
    if explicit:
        return Path(explicit)
    return Path(platformdirs.user_cache_dir("al0", appauthor=False))


def cache_path(material: str, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The file that caches the table of ``material`` (by its canonical name).

    :raises PositionError: if ``material`` is not supported.
    """
    directory = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    return directory / f"{parse_material(material).name}.dtm"


def _header(name: str, payload: bytes) -> bytes:
    """The cache header: what the payload is and a digest to check it against."""
    digest = hashlib.sha256(payload).hexdigest()
    return b"%s %d %s %d %s\n" % (_MAGIC, FORMAT_VERSION, name.encode(), len(payload), digest.encode())


def _read_cache(path: Path, material: Material) -> Values | None:
    """The table cached at ``path``, or ``None`` if it is missing, of another
    version or material, truncated or corrupt: a cache is never trusted blindly.

    Only a regular file is read: a FIFO or a device there would block the
    read or never end it."""
    size = Layout(material).size
    # A cache file of this material has exactly this length and these first
    # bytes (the digest is 64 hex digits): any other file there, a 4 GB one
    # included, is rejected by them, without reading it whole.
    prefix = b"%s %d %s %d " % (_MAGIC, FORMAT_VERSION, material.name.encode(), 2 * size)
    expected = len(prefix) + 64 + 1 + 2 * size
    try:
        if os.stat(path).st_size != expected or read_start(path, len(prefix)) != prefix:
            return None
        data = read_regular_file(path, expected)
    except OSError:
        return None
    header, newline, payload = data.partition(b"\n")
    if not newline or len(payload) != 2 * size or header + newline != _header(material.name, payload):
        return None
    return np.frombuffer(payload, dtype=np.uint8).reshape(2, size)


def _not_a_file(path: Path) -> bool:
    """Something other than a regular file (or a link to one) is at ``path``."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False


def load(
    material: str, cache_dir: str | os.PathLike[str] | None = None, progress: Progress | None = None
) -> Tablebase:
    """The tablebase of ``material`` (e.g. ``"KRK"``, ``"KNKR"`` for KRKN),
    from the cache or built, with the smaller tables its captures lead to.

    A missing or invalid cache file is rebuilt and rewritten; if it cannot be
    written the table is still returned, with one ``RuntimeWarning``, since
    the cache only saves time. ``progress`` hears what a long build is doing.

    :raises PositionError: if ``material`` is not supported.
    """
    unwritable: list[str] = []
    table = _load(parse_material(material), cache_dir, progress, unwritable)
    if unwritable:
        # The smaller tables go to the same folder: one warning says it all.
        warnings.warn(unwritable[-1], RuntimeWarning, stacklevel=2)
    return table


def load_if_any(material: str, progress: Progress | None = None) -> Tablebase | None:
    """:func:`load` for a material that may have no tablebase (five men or
    more, a material of no ending): None then, instead of the error."""
    try:
        return load(material, progress=progress)
    except PositionError:
        return None


def _load(
    parsed: Material,
    cache_dir: str | os.PathLike[str] | None,
    progress: Progress | None,
    unwritable: list[str],
) -> Tablebase:
    """:func:`load`, adding what could not be cached to ``unwritable``."""
    smaller: dict[str, Tablebase] = {}
    for _, _, _, rest, _, _ in exits(parsed):
        if rest.name not in smaller:
            table = _load(rest, cache_dir, progress, unwritable)
            smaller[rest.name] = table
            smaller.update(table.smaller)
    path = cache_path(parsed.name, cache_dir)
    values = _read_cache(path, parsed)
    if values is None:
        with contextlib.suppress(OSError):  # the folder to lock; if not, the write says why
            path.parent.mkdir(parents=True, exist_ok=True)
        with one_maker_at_a_time(path.parent):
            # Another process may have built it while this one waited.
            values = _read_cache(path, parsed)
            if values is None:
                values = _build_and_cache(parsed, smaller, path, progress, unwritable)
    return Tablebase(parsed, values, smaller)


def _build_and_cache(
    parsed: Material,
    smaller: dict[str, Tablebase],
    path: Path,
    progress: Progress | None,
    unwritable: list[str],
) -> Values:
    """The table of ``parsed`` built, and cached at ``path`` where it can
    be (else why not is added to ``unwritable``)."""
    values = build(parsed, {name: table.values for name, table in smaller.items()}, progress)
    values.setflags(write=False)  # shared by every probe: nobody may change it
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if _not_a_file(path):
            # Writing would go through it (a FIFO blocks with no reader),
            # replacing it would change what it is: it is not al0's.
            raise OSError("not a regular file, left as it is")
        payload = values.tobytes()
        remove_stale_temporaries(path)  # a build killed while writing left its file
        write_atomically(path, _header(parsed.name, payload) + payload)
    except OSError as error:
        unwritable.append(f"cannot cache tablebase at {path}: {error}")
    return values
