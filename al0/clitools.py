"""What every command module of the CLI shares: errors as one line, exit 2."""

from __future__ import annotations

import functools
from typing import Any, Callable

import click

from al0.errors import AL0Error


class CommandError(click.ClickException):
    """A user-facing failure: one line on stderr, exit code 2."""
    exit_code = 2


def reports_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn every :class:`AL0Error` into a one-line message and exit code 2."""
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except AL0Error as error:
            # One line, whatever the error text holds (a FEN, a library's message).
            raise CommandError(" ".join(str(error).split())) from None
    return wrapper
