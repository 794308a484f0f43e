"""Errors and warnings as one line each, exit code 2: what every command
shows a person when something is wrong."""

from __future__ import annotations

import contextlib
import functools
import re
from typing import Any, Callable, Iterator, TextIO

import click

from al0.errors import AL0Error, one_line

LONGEST_ERROR = 1000
"""Most characters of an error line: one that quotes a 3 MB ``start:`` or
EPD line (python-chess's message quotes it again) is cut to this."""


def escape_line_ends(message: str) -> str:
    """``message`` with its line ends written as ``\\n``: an error stays one
    line whatever a path or value in it holds (and shows where the line ends
    were, unlike :func:`al0.errors.one_line`)."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


def shown_path(path: str) -> str:
    """A path as an error shows it: as written, or quoted (``repr``) when it
    holds a line end or another character that does not print."""
    return path if path.isprintable() else repr(path)


LONGEST_QUOTED = 240
"""Most characters of one quoted value (``'…'``) in an error line that is
too long: a message may quote its value twice or three times (``term 1
'<expr>':1: … found '<expr>'``), and what is wrong stands between them."""
QUOTED = re.compile(r"'(?:[^'\\\n]|\\.){%d,}'" % (LONGEST_QUOTED + 1))
"""A value quoted as ``repr`` quotes it, longer than :data:`LONGEST_QUOTED`."""


def error_line(message: str) -> str:
    """``message`` as an error line: one line (:func:`escape_line_ends`) of at most
    :data:`LONGEST_ERROR` characters. In a longer one each quoted value over
    :data:`LONGEST_QUOTED` characters is cut in its middle first, then, if it
    is still too long, the message in its middle, each cut saying so: a
    message names its file or option first and what is wrong last or
    between the values it quotes (``term 1 '<30,000 characters>':1: a '('
    is never closed``)."""
    message = escape_line_ends(message)
    if len(message) <= LONGEST_ERROR:
        return message
    message = QUOTED.sub(lambda quoted: _cut(quoted.group(), LONGEST_QUOTED), message)
    return message if len(message) <= LONGEST_ERROR else _cut(message, LONGEST_ERROR)


def _cut(text: str, longest: int) -> str:
    """``text`` cut in its middle to at most ``longest`` characters, saying how many went."""
    kept = longest - 50
    return f"{text[: kept // 2]} … ({len(text) - kept:,} characters cut) … {text[-(kept - kept // 2) :]}"


class CommandError(click.ClickException):
    """A user-facing failure: one line on stderr, exit code 2 (see
    :func:`error_line`)."""

    exit_code = 2

    def __init__(self, message: str):
        super().__init__(error_line(message))


@contextlib.contextmanager
def one_line_usage() -> Iterator[None]:
    """A usage error without click's usage block and help hint: the error
    alone, one line, exit code 2 (the usage is one ``--help`` away).

    A group given no command (bare ``al0``) is click's ``NoArgsIsHelpError``,
    a usage error whose message is the help: it keeps its context, which it
    needs to print (click's convention: the help on stderr, exit code 2).
    """
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.UsageError as error:
        error.ctx = None  # what makes click print the usage and the hint
        # One short line whatever a value in it holds (click types the field final).
        setattr(error, "message", error_line(error.message))
        raise


def warning_line(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """Show a warning (e.g. a tablebase cache that cannot be written) as one
    line for a person, not Python's ``file:line: Category`` and source line."""
    click.echo(f"warning: {message}", err=True)


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
            raise CommandError(one_line(error)) from None
        except SystemExit as error:
            raise CommandError(
                f"library code called sys.exit({error.code!r}): a predicate "
                f"or generator must return, not exit"
            ) from None

    return wrapper
