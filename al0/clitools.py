"""What every command module of the CLI shares: errors as one line, exit 2."""

from __future__ import annotations

import functools
import shlex
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


def command_line(context: click.Context) -> str:
    """The command that ``context`` runs, every parameter spelled out, so a
    report can say how to reproduce it."""
    words = context.command_path.split()
    for param in context.command.params:
        value = context.params.get(param.name or "")
        if isinstance(param, click.Argument):
            words.append(str(value))
        elif isinstance(param, click.Option) and value not in (None, False, ()):
            option = max(param.opts, key=len)
            words += [option] if param.is_flag else [option, str(value)]
    return shlex.join(words)
