"""A worker process that ends when the process that started it dies.

verify's pool workers wait for tasks on pipes their parent writes to. Were
the parent killed (SIGKILL, the OOM killer, a crash), they would be
re-parented and idle for minutes, holding the parent's standard output and
error open, so that whoever reads those (a shell pipe, CI, a test) waits
for them too.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal this process gets when its parent dies."""

POLL_SECONDS = 0.5
"""How often, where the kernel cannot be asked, a thread looks whether the
parent is still there."""


def exit_with_parent(creator: int, main_thread: int) -> None:
    """End this process when its parent dies, however it dies.

    On Linux the kernel sends SIGKILL then (``PR_SET_PDEATHSIG``; a worker
    of a dead parent has no one to answer, and SIGKILL cannot be caught or
    held up by code that never returns). But the kernel watches the *thread*
    that forked this process, not the process: a worker forked by a thread
    that then ends is killed while its parent lives on, and the run lost
    it. So the kernel is asked only when the forking thread was the
    parent's main thread (``main_thread``, its ident: a fork keeps the
    forking thread's, so the child can tell), which lives as long as the
    process. Otherwise, and where the kernel cannot be asked, a daemon
    thread polls ``os.getppid()``, which changes only when the parent
    process is gone. ``creator``, the pid of the process that started the
    pool, is checked to be running after the watch is set, in case it died
    in between."""
    if threading.get_ident() != main_thread or not _kill_on_parent_death():
        parent = os.getppid()
        threading.Thread(target=_watch, args=(parent,), name="parent watch", daemon=True).start()
    if _ended(creator):
        os._exit(1)


def _ended(pid: int) -> bool:
    """Whether process ``pid`` has ended: it is gone, or a zombie (ended,
    not yet reaped by its own parent, which may take a while)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # someone else's process: it exists
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            # The state follows the command's name in brackets, which may hold anything.
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:  # no /proc: a zombie passes for running
        return False


def _kill_on_parent_death() -> bool:
    """Ask the kernel for SIGKILL when the parent dies; False where it cannot be asked."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):  # no C library to load, or no prctl in it
        return False


def _watch(parent: int) -> None:
    """Exit at once, running no clean-up (which could wait on the dead
    parent's pipes), when this process's parent is no longer ``parent``."""
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    os._exit(1)
