"""Reading and writing files safely. A file is written so that a reader
never sees half of one, without changing what the path is: a device stays a
device, a symlink stays a symlink, and a new file gets the mode a plain
``open()`` would give it. A file is read only when it is a regular one of a
bounded size, so no input can block al0 or fill its memory."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: files are written unguarded
    fcntl = None  # type: ignore[assignment]

STALE_SECONDS = 600.0
"""Age past which a temporary file of :func:`write_atomically` is left over
from a process that was killed (``kill -9``, a power cut): a write holds one
for the seconds it takes to write and sync the data, never minutes."""


def _temporaries(target: Path) -> Iterator[Path]:
    """The temporary files :func:`write_atomically` makes for ``target``."""
    prefix = f".{target.name}."
    try:
        names = os.listdir(target.parent)
    except OSError:
        return
    for name in names:
        if name.startswith(prefix) and name.endswith(".tmp") and len(name) == len(prefix) + 8 + len(".tmp"):
            yield target.parent / name


def remove_stale_temporaries(target: Path, now: float | None = None) -> int:
    """Remove the temporary files that writes of ``target`` left behind when
    their process was killed (older than :data:`STALE_SECONDS`: a live write's
    is seconds old and is left alone); how many were removed."""
    now = time.time() if now is None else now
    removed = 0
    for temporary in _temporaries(target):
        try:
            if now - os.lstat(temporary).st_mtime > STALE_SECONDS:
                os.unlink(temporary)
                removed += 1
        except OSError:  # another process removed it, or may not
            continue
    return removed


@contextlib.contextmanager
def one_maker_at_a_time(folder: Path) -> Iterator[None]:
    """While the block runs, no other process runs one for ``folder``: they
    wait on a lock of the folder itself, so that processes that would all
    make the same file there (a run's workers, or two commands, needing one
    tablebase) make it once, and the later ones find it made; no file is
    added for it. The kernel lets go of the lock when its process ends,
    however it ends. Where no lock can be had (no ``fcntl``, no folder
    there) the block runs unguarded, as it would alone."""
    descriptor = -1
    if fcntl is not None:
        try:
            descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        except OSError:
            if descriptor >= 0:
                os.close(descriptor)
            descriptor = -1
    try:
        yield
    finally:
        if descriptor >= 0:
            os.close(descriptor)


def _create_beside(target: Path) -> tuple[int, Path]:
    """A new, empty temporary file in ``target``'s folder, opened for
    writing with mode ``0666`` less the umask (the kernel applies it, as for
    any ``open()``); ``O_EXCL`` makes sure it is ours alone."""
    while True:
        temporary = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), temporary
        except FileExistsError:
            continue  # another writer's name: draw again


def read_regular_file(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (or a link to one), refusing
    anything else: a FIFO would block the open until a writer comes, and a
    device such as ``/dev/zero`` or a terminal would never end the read. The
    open does not wait for a FIFO's writer (``O_NONBLOCK``), and the file
    read is the one looked at. ``limit`` bounds the size (None: unbounded).

    :raises OSError: as ``open()`` would (``strerror`` says why), or with
        ``strerror`` "not a regular file …" or "larger than N bytes".
    """
    # One byte past the limit tells a file that is too large, whatever its
    # size says (/proc files say 0).
    data = _read_regular(path, None if limit is None else limit + 1)
    if limit is not None and len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes", str(path))
    return data


def read_start(path: str | os.PathLike[str], count: int) -> bytes:
    """The first ``count`` bytes (fewer in a shorter file) of the regular
    file at ``path``, refusing anything else as :func:`read_regular_file`
    does: enough to tell a file of ours by its header before reading it."""
    return _read_regular(path, count)


def _read_regular(path: str | os.PathLike[str], count: int | None) -> bytes:
    """At most ``count`` bytes (None: all) of the regular file at ``path``."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except ValueError:  # a NUL byte: no file has that name, say so as open() says the rest
        raise OSError(errno.EINVAL, "a file name cannot hold a NUL byte", str(path)) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file (a FIFO, a device or a socket)", str(path))
        with os.fdopen(fd, "rb", closefd=False) as stream:
            return stream.read() if count is None else stream.read(count)
    finally:
        os.close(fd)


class WouldOverwrite(OSError):
    """The file a path leads to when it is written is one that must be kept
    (an input of the run): the path became a link to it after it was checked."""


def write_atomically(
    path: str | os.PathLike[str],
    data: bytes,
    keep: Iterable[str | os.PathLike[str] | None] = (),
    waiting: Callable[[], None] | None = None,
) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the
    whole new one, never replacing one of the files ``keep`` names (None
    entries ignored): that is checked here, where the path is resolved for
    the write, not only when a run starts.

    A regular file (or a new one) is written through a temporary file in the
    same folder and a rename; the new file keeps the old one's mode, or gets
    ``0666`` less the umask as ``open()`` would give it. A symlink is
    followed, so its target is replaced and the link stays. Anything else
    that exists (``/dev/null``, a FIFO, a terminal) is written through:
    replacing it would turn a device into a regular file; ``waiting`` is
    told when that waits for a FIFO's reader. The temporary file
    is removed if anything fails. The file is synced to disk before the
    rename and its folder after it, so a crash leaves the old file or the
    whole new one there too.

    :raises WouldOverwrite: when ``path`` leads to a file of ``keep``.
    :raises OSError: when the folder or the file cannot be written.
    """
    target = Path(os.path.realpath(path))
    for kept in keep:
        if kept is not None and same_file(target, kept):
            raise WouldOverwrite(
                errno.EEXIST, f"it is (a link to) {os.fspath(kept)!r}, which this run reads", os.fspath(path)
            )
    try:
        # The path as given, links followed: /proc's links to a pipe
        # (``--pgn >(gzip > game.gz)``, /dev/stdout) resolve to no file.
        existing = os.stat(path)
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        _write_through(path, data, waiting)
        return
    fd, temporary = _create_beside(target)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            if existing is not None:
                os.fchmod(stream.fileno(), stat.S_IMODE(existing.st_mode))
            # On disk before the rename: else a crash just after it can
            # leave the new name on an empty or partial file.
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename in ``folder`` durable, where the system can: POSIX
    syncs a folder through a descriptor opened on it; Windows cannot open
    one, and some file systems refuse to sync one (the rename is done
    either way, so that is no error)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_through(target: str | os.PathLike[str], data: bytes, waiting: Callable[[], None] | None) -> None:
    """Write ``data`` into what exists at ``target`` and is no regular file
    (a device, a terminal, a FIFO). Opening a FIFO no process reads waits
    until one does, as a shell's ``>`` does: ``waiting`` (when given) is
    told first, so the wait is not a silent hang.

    :raises OSError: as opening or writing it would.
    """
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as error:
        if error.errno != errno.ENXIO:  # ENXIO: a FIFO with no reader
            raise
        if waiting is not None:
            waiting()
        fd = os.open(target, os.O_WRONLY)
    os.set_blocking(fd, True)  # the reader takes it at its pace
    with os.fdopen(fd, "wb") as stream:
        stream.write(data)


def check_writable(path: str | os.PathLike[str]) -> None:
    """Fail now, not after a long run, if ``path`` cannot be written: an
    existing file (or device) must be writable, and a new one's folder must
    exist and be writable. Nothing is created or changed.

    :raises OSError: naming why, as opening it for writing would.
    """
    # Links followed as opening would, /proc's to a pipe included (their
    # resolved names, pipe:[N], are no files).
    if os.path.isdir(path):
        raise IsADirectoryError(21, "Is a directory", str(path))
    if os.path.exists(path):
        if not os.access(path, os.W_OK):
            raise PermissionError(13, "Permission denied", str(path))
        return
    target = Path(os.path.realpath(path))
    folder = target.parent
    if not folder.is_dir():
        raise FileNotFoundError(2, "No such file or directory", str(folder))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(13, "Permission denied", str(folder))


def same_file(path: str | os.PathLike[str], other: str | os.PathLike[str]) -> bool:
    """Whether writing ``path`` would replace the regular file ``other`` is
    (or will be): the same file by device and inode when both exist (links,
    ``./`` and ``..`` spellings included), else the same path once links
    are resolved. A device or FIFO is written through, never replaced, so
    two names for ``/dev/null`` are not one file here."""
    try:
        return os.path.samefile(path, other) and stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(path) == os.path.realpath(other)
