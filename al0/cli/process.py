"""The process's edges: SIGTERM and SIGHUP taken as Ctrl-C, exit codes of
128 + the signal, a broken pipe (141, nothing more written), an output
with no room left (one line, exit 2) and standard streams that were closed
when al0 started."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any, Iterator

import click

from al0.cli.messages import error_line, shown_path

TERMINATING = (signal.SIGTERM, signal.SIGHUP)
"""What ``timeout``, CI cancellation, systemd and a dropped ssh session
send: a request to stop, taken as Ctrl-C is."""


class Terminated(KeyboardInterrupt):
    """A signal of :data:`TERMINATING`, raised where Ctrl-C raises
    ``KeyboardInterrupt`` so that a command stops the same way (``verify``
    writes what it has); ``signal_number`` says which."""

    def __init__(self, signal_number: int):
        super().__init__(signal.Signals(signal_number).name)
        self.signal_number = signal_number


def _terminate(signal_number: int, frame: FrameType | None) -> None:
    raise Terminated(signal_number)


@contextlib.contextmanager
def terminating_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise :class:`Terminated`
    (a ``KeyboardInterrupt``); the handlers before are put back after. Only
    the main thread may set handlers: elsewhere (a test runner's thread)
    the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {number: signal.getsignal(number) for number in TERMINATING}
    try:
        _set_handlers(dict.fromkeys(TERMINATING, _terminate))
        yield
    finally:
        _set_handlers(previous)


def _set_handlers(handlers: dict[int, Any]) -> None:
    """Set every handler of ``handlers``. ``signal.signal`` first runs the
    handlers of signals already come, and one that raises (Ctrl-C) stops it
    before it sets its own: each is set again until it is, and the first
    such interrupt is raised once all are (a handler left half-changed
    outlives the command in a process that goes on, a test runner's)."""
    interrupted: KeyboardInterrupt | None = None
    for number, handler in handlers.items():
        while True:
            try:
                signal.signal(number, handler)
                break
            except KeyboardInterrupt as interrupt:
                interrupted = interrupted or interrupt
    if interrupted is not None:
        raise interrupted


def exit_interrupted(interrupt: KeyboardInterrupt) -> click.exceptions.Exit:
    """The exit of a command stopped by ``interrupt``, after one line on
    stderr: 128 + the signal's number, as a shell reports a process that a
    signal ended (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP)."""
    number = interrupt.signal_number if isinstance(interrupt, Terminated) else signal.SIGINT
    name = "" if number == signal.SIGINT else f" ({signal.Signals(number).name})"
    click.echo(f"\nAborted{name}!", err=True)
    return click.exceptions.Exit(128 + number)


BROKEN_PIPE = 128 + signal.SIGPIPE
"""The exit code of a command whose reader went away (``al0 … | head``):
what a shell reports for a process that SIGPIPE ended (141)."""

_STREAMS = ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w"))


def open_closed_streams() -> None:
    """Give a standard stream that was closed when al0 started (``2>&-``, a
    daemon) the null device, as its descriptor and as ``sys``'s stream:
    Python leaves ``sys.stderr`` None then (a command's first message would
    raise, unseen, exit 1), and the first file al0 opened would take the
    free descriptor and receive what is meant for the stream."""
    for number, name, mode in _STREAMS:
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(number)
            taken = True  # something opened since start holds the number
        except OSError:
            taken = False
        if not taken:
            null = os.open(os.devnull, os.O_RDWR)
            if null != number:
                os.dup2(null, number)
                os.close(null)
            setattr(sys, name, open(number, mode, closefd=False))  # noqa: SIM115 (for the process's life)
        else:
            setattr(sys, name, open(os.devnull, mode))  # noqa: SIM115


def silence_output(names: tuple[str, ...] = ("stdout", "stderr")) -> None:
    """Send whatever is still written to the standard streams ``names`` (a
    buffer flushed at exit included) to the null device: after a broken
    pipe a command writes nothing more."""
    for number, name, mode in _STREAMS[1:]:
        if name not in names:
            continue
        stream = getattr(sys, name)
        try:
            fileno = stream.fileno()
        except (AttributeError, OSError, ValueError):  # a test runner's buffer
            fileno = -1
        if fileno == number:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, number)
            os.close(null)
        else:
            setattr(sys, name, open(os.devnull, mode))  # noqa: SIM115


NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
"""A write's errors that say the output has no room left: a full disk, a
quota, a file too large (and ``/dev/full``)."""
UNWRITABLE = NO_ROOM | {errno.EBADF, errno.EIO}
"""A write's errors that say the output cannot take it: no room, a stream
not open for writing (``1</dev/null``: a descriptor open to read), a
terminal gone (an I/O error)."""


@contextlib.contextmanager
def full_output_exits() -> Iterator[None]:
    """A write in the block that finds no room (standard output on a full
    disk) or cannot be made (:data:`UNWRITABLE`: standard output open only
    to read) ends the command with one line on stderr and exit code 2, as any
    error does (click would show a traceback and exit 1, verify's code for
    a failed expectation). The command's own ``finally`` blocks have run
    by then, so what it keeps (practice's record and PGN) is kept; what
    standard output still buffers is dropped, not written at exit."""
    try:
        yield
    except OSError as error:
        if error.errno not in UNWRITABLE:
            raise
        silence_output(("stdout",))
        what = shown_path(str(error.filename)) if error.filename else "the output"
        # No room is a write's; a descriptor refused or gone may be a read's too (0>/dev/full).
        said = f"cannot write {what}" if error.errno in NO_ROOM else f"cannot use {what} or the input"
        try:
            click.echo(f"Error: {error_line(f'{said}: {error.strerror}')}", err=True)
        except OSError:  # standard error has no room either: nowhere to say it
            silence_output(("stderr",))
        raise click.exceptions.Exit(2) from None


@contextlib.contextmanager
def unsayable_error_exits() -> Iterator[None]:
    """An error whose one line cannot be written (standard error full, or
    open only to read) still ends the command with exit code 2, as an
    error does, silently: click would let the write's own error end it with
    a traceback no one sees and exit code 1, verify's code for a failed
    expectation."""
    try:
        yield
    except OSError as error:
        if error.errno not in UNWRITABLE:
            raise
        silence_output()
        raise SystemExit(2) from None


@contextlib.contextmanager
def broken_pipe_exits() -> Iterator[None]:
    """A broken pipe in the block (the reader went away: ``al0 … | head``)
    ends the command with :data:`BROKEN_PIPE` and nothing more written: what
    was asked is cut short, not failed, and there is no one to tell (click
    would exit 1, verify's code for a failed expectation)."""
    try:
        yield
    except BrokenPipeError:
        silence_output()
        raise click.exceptions.Exit(BROKEN_PIPE) from None
