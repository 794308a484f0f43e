"""What every command module of the CLI shares: errors as one line, exit 2."""

from __future__ import annotations

import functools
from typing import Any, Callable

import click

from al0.errors import AL0Error
from al0.files import check_writable, write_atomically


class CommandError(click.ClickException):
    """A user-facing failure: one line on stderr, exit code 2."""
    exit_code = 2


def reports_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn every :class:`AL0Error` into a one-line message and exit code 2.

    A ``SystemExit`` that reaches here came from library code (a predicate
    calling ``sys.exit()``; al0's own commands exit through click): it is
    reported too, or the game would stop without a word and exit 0.
    """
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except AL0Error as error:
            # One line, whatever the error text holds (a FEN, a library's message).
            raise CommandError(" ".join(str(error).split())) from None
        except SystemExit as error:
            raise CommandError(f"library code called sys.exit({error.code!r}): a predicate "
                               f"or generator must return, not exit") from None
    return wrapper


def check_output_path(path: str | None, what: str) -> None:
    """Fail at once when an output file given on the command line cannot be
    written, so that a typo does not lose a long run (``-`` is stdout)."""
    if path is None or path == "-":
        return
    try:
        check_writable(path)
    except OSError as error:
        raise CommandError(f"{path}: cannot write {what}: {error.strerror}") from None


def write_output(path: str, text: str, what: str) -> None:
    """Write an output file atomically, or fail with a one-line error."""
    try:
        write_atomically(path, text.encode("utf-8"))
    except OSError as error:
        raise CommandError(f"{path}: cannot write {what}: {error.strerror}") from None
