"""Report and cache writes: atomic for regular files, and never changing
what the path is (a device, a FIFO, a symlink) or the mode a file gets.
Reads of tables, EPD files and caches: regular files of bounded size only,
never blocking on a FIFO or reading a device for ever."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from al0.files import (
    STALE_SECONDS,
    WouldOverwrite,
    check_writable,
    read_regular_file,
    remove_stale_temporaries,
    write_atomically,
)


def test_a_new_file_gets_the_umask_mode_and_an_old_one_keeps_its_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomically(tmp_path / "new.json", b"{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o640
    kept = tmp_path / "kept.json"
    kept.write_bytes(b"old")
    kept.chmod(0o604)
    write_atomically(kept, b"new")
    assert kept.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o604
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json", "new.json"]


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "real.json"
    target.write_bytes(b"old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomically(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"


def test_a_fifo_is_written_through_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_atomically(fifo, b"through the pipe")
    reader.join(timeout=30)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("reader_first", [True, False])
def test_a_fifo_no_process_reads_is_waited_for_and_said_so(tmp_path, reader_first):
    # Opening it waited for a reader in silence (al0 play --pgn FIFO hung):
    # now ``waiting`` is told first, and only when there is none yet.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    told: list[str] = []
    if reader_first:
        held = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader there before the write
        write_atomically(fifo, b"read", waiting=lambda: told.append("waiting"))
        got.append(os.read(held, 100))
        os.close(held)
    else:
        write_atomically(fifo, b"read", waiting=lambda: told.append("waiting") or reader.start())
        reader.join(timeout=30)
    assert got == [b"read"] and told == ([] if reader_first else ["waiting"])


def test_a_pipe_named_through_dev_fd_is_written(tmp_path):
    # --pgn >(gzip > game.gz) names /dev/fd/63, a link to "pipe:[N]", which
    # is no file: it was refused as missing, or written beside as a new one.
    read, write = os.pipe()
    try:
        check_writable(f"/dev/fd/{write}")
        write_atomically(f"/dev/fd/{write}", b"piped")
        assert os.read(read, 100) == b"piped"
    finally:
        os.close(read)
        os.close(write)


def test_check_writable_finds_a_typo_before_anything_is_written(tmp_path):
    with pytest.raises(FileNotFoundError):
        check_writable(tmp_path / "no such folder" / "report.json")
    with pytest.raises(IsADirectoryError):
        check_writable(tmp_path)
    check_writable(tmp_path / "report.json")
    assert list(tmp_path.iterdir()) == []


def test_the_file_is_synced_before_the_rename_and_its_folder_after(tmp_path, monkeypatch):
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        calls.append("sync folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "sync file")
        real_fsync(fd)

    def replace(source, target) -> None:
        calls.append("rename")
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_atomically(tmp_path / "report.json", b"{}")
    assert calls == ["sync file", "rename", "sync folder"]
    assert (tmp_path / "report.json").read_bytes() == b"{}"


def test_a_regular_file_is_read_through_a_link_and_within_its_bound(tmp_path):
    (tmp_path / "table.yaml").write_bytes(b"name: t\n")
    (tmp_path / "link.yaml").symlink_to(tmp_path / "table.yaml")
    assert read_regular_file(tmp_path / "link.yaml", limit=8) == b"name: t\n"
    with pytest.raises(OSError, match="larger than 7 bytes"):
        read_regular_file(tmp_path / "table.yaml", limit=7)


def without_blocking(read, *args):
    """What ``read(*args)`` raises, or fail if it does not return within
    seconds (it would block for ever: the test must fail, not hang)."""
    outcome: list[BaseException | bytes] = []

    def attempt() -> None:
        try:
            outcome.append(read(*args))
        except OSError as error:
            outcome.append(error)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(timeout=20)
    assert outcome, f"reading {args} blocked"
    return outcome[0]


@pytest.mark.parametrize(
    "make, why",
    [
        (
            lambda tmp_path: os.mkfifo(tmp_path / "fifo") or tmp_path / "fifo",
            "not a regular file",
        ),  # no writer: a plain open() waits for one for ever
        (lambda tmp_path: "/dev/zero", "not a regular file"),  # never ends
        (lambda tmp_path: tmp_path, "Is a directory"),
        # A ValueError of os.open, which callers catching OSError let through.
        (lambda tmp_path: f"{tmp_path}/kr\0k.yaml", "NUL byte"),
    ],
)
def test_anything_but_a_regular_file_is_refused_at_once(tmp_path, make, why):
    error = without_blocking(read_regular_file, make(tmp_path), 1000)
    assert isinstance(error, OSError) and why in str(error.strerror)


@pytest.mark.parametrize("make", ["link", "hard link", "same path"])
def test_a_file_to_keep_is_never_written_whatever_the_path_has_become(tmp_path, make):
    kept = tmp_path / "table.yaml"
    kept.write_bytes(b"table")
    path = tmp_path / "report.json"
    if make == "link":
        path.symlink_to(kept)
    elif make == "hard link":
        os.link(kept, path)
    else:
        path = tmp_path / "sub" / ".." / "table.yaml"
        (tmp_path / "sub").mkdir()
    with pytest.raises(WouldOverwrite, match="it is \\(a link to\\) .*table.yaml"):
        write_atomically(path, b"report", keep=[None, str(kept)])
    assert kept.read_bytes() == b"table"
    write_atomically(tmp_path / "other.json", b"report", keep=[str(kept)])
    assert (tmp_path / "other.json").read_bytes() == b"report"


def test_only_stale_temporaries_of_the_target_are_removed(tmp_path):
    target = tmp_path / "KRK.dtm"
    names = {
        ".KRK.dtm.0123abcd.tmp": True,  # a killed write's, old: removed
        ".KRK.dtm.89abcdef.tmp": False,  # a write under way: kept
        ".KRK.dtm.0123abcd.tmp.keep": False,  # not one of ours
        ".KQK.dtm.0123abcd.tmp": False,  # another target's
        "KRK.dtm": False,
    }
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    now = os.stat(tmp_path / "KRK.dtm").st_mtime
    old = now - STALE_SECONDS - 1
    for name in (".KRK.dtm.0123abcd.tmp", ".KRK.dtm.0123abcd.tmp.keep", ".KQK.dtm.0123abcd.tmp"):
        os.utime(tmp_path / name, (old, old))
    assert remove_stale_temporaries(target, now) == 1
    assert {path.name for path in tmp_path.iterdir()} == {name for name, gone in names.items() if not gone}
