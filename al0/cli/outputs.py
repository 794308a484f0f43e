"""Files a command writes: checked when the command line is read (a folder,
an unwritable path, an output over an input), written whole or not at all."""

from __future__ import annotations

import os
from typing import Any, Iterable

import click

from al0.cli.messages import CommandError, shown_path
from al0.files import check_writable, same_file, write_atomically

STDOUT = "-"
"""The output path that means standard output."""


class OutputPath(click.ParamType[str]):
    """A file an option writes, checked when the command line is read, so
    that a typo does not lose a long run: a folder (or a name ending in
    ``/``) and a file that cannot be written are refused; ``-`` means
    standard output where the command can write there (``stdout``) and is
    refused where it cannot. See :func:`check_no_overwrite` for the checks
    between paths."""

    name = "file"

    def __init__(self, what: str, stdout: bool):
        self.what = what
        self.stdout = stdout

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        path = str(value)
        if not path:
            self.fail(f"an empty path: give a file for {self.what}", param, ctx)
        if path == STDOUT:
            if not self.stdout:
                self.fail(f"{self.what} cannot go to standard output (-) here: give a file", param, ctx)
            return path
        if path.endswith("/") or os.path.isdir(path):
            self.fail(f"{path!r} is a folder: give a file for {self.what}", param, ctx)
        try:
            check_writable(path)
        except OSError as error:
            self.fail(f"{shown_path(path)}: cannot write {self.what}: {error.strerror}", param, ctx)
        return path


def check_no_overwrite(inputs: dict[str, str | None], outputs: dict[str, str | None]) -> None:
    """Refuse, before any work, an output that would overwrite an input or
    another output (the same file under any name: :func:`~al0.files.same_file`),
    and more than one output on standard output. The keys name each path in
    the message (``TABLE``, ``--json``); None is a path not given.

    :raises click.UsageError: naming both options and the path.
    """
    given = {name: path for name, path in outputs.items() if path is not None}
    to_stdout = [name for name, path in given.items() if path == STDOUT]
    if len(to_stdout) > 1:
        raise click.UsageError(
            f"{' and '.join(to_stdout)} "
            f"{'both' if len(to_stdout) == 2 else 'all'} write to standard "
            f"output (-): give a file to all but one"
        )
    seen = [(name, path) for name, path in inputs.items() if path is not None]
    for name, path in given.items():
        if path == STDOUT:
            continue
        for other, earlier in seen:
            if same_file(path, earlier):
                same = "" if path == earlier else f" ({shown_path(earlier)})"
                raise click.UsageError(
                    f"{name} {shown_path(path)} would overwrite {other}{same}: give another file"
                )
        seen.append((name, path))


def write_output(path: str, text: str, what: str, keep: Iterable[str | None] = ()) -> None:
    """Write an output atomically (standard output for ``-``), or fail with
    a one-line error; never over a file of ``keep`` (the run's inputs: the
    path may have become a link to one since :func:`check_no_overwrite`).
    A FIFO no process reads is waited for, and said so on standard error."""
    if path == STDOUT:
        click.echo(text, nl=False)
        return

    def waiting() -> None:
        click.echo(f"waiting for a process to read the FIFO {shown_path(path)} (Ctrl-C stops)", err=True)

    try:
        write_atomically(path, text.encode("utf-8"), keep, waiting)
    except OSError as error:
        raise CommandError(f"{shown_path(path)}: cannot write {what}: {error.strerror}") from None
