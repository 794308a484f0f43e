"""Whole numbers from text: the one parser of every option, spec and table value.

``int()`` is too lenient for text a person or a program typed: it takes any
Unicode digit (``int("٣") == 3``), underscores (``1_000``) and surrounding
whitespace, and raises a ``ValueError`` with no name for text ``str.isdigit()``
accepts (``"²"``) or for more than 4,300 digits. :func:`parse_int` takes
ASCII digits alone, at most :data:`MAX_DIGITS` of them, and names what was
being read in its error.
"""

from __future__ import annotations

import re

from al0.errors import AL0Error

MAX_DIGITS = 18
"""Most digits of a whole number: far more than any count, depth, budget or
seed needs (search bounds beyond 2**30 must still load), and far below the
4,300 digits over which Python refuses to convert an integer."""

_WHOLE = re.compile(r"-?[0-9]+")
"""ASCII digits only: ``\\d`` and ``str.isdigit`` also accept digits (``²``,
``٣``) that are not what anyone means by a number."""

SHOWN = 24
"""Most characters of a bad value an error quotes: 5,000 digits are not read back."""


class IntegerError(AL0Error):
    """Text that is not a whole number in the range asked for."""


def shown(text: str) -> str:
    """``text`` quoted for an error, cut after :data:`SHOWN` characters."""
    if len(text) <= SHOWN:
        return repr(text)
    return f"{text[:SHOWN]!r}… ({len(text):,} characters)"


def parse_int(text: str, what: str, minimum: int | None = 0, maximum: int | None = None) -> int:
    """The whole number ``text`` spells in ASCII digits, after an optional
    ``-`` where ``minimum`` is None or negative, from ``minimum`` to
    ``maximum`` (None: unbounded on that side). Spaces, tabs and line
    ends around it are ignored (not the other characters Python counts as
    whitespace).

    :raises IntegerError: naming ``what`` and the value: not a whole number,
        more than :data:`MAX_DIGITS` digits, or out of range.
    """
    value = text.strip(" \t\r\n")
    if minimum is None:
        wanted = "a whole number" if maximum is None else f"a whole number <= {maximum}"
    else:
        wanted = (
            f"a whole number >= {minimum}"
            if maximum is None
            else f"a whole number from {minimum} to {maximum}"
        )
    negative_allowed = minimum is None or minimum < 0
    if not _WHOLE.fullmatch(value) or value.startswith("-") and not negative_allowed:
        raise IntegerError(f"{what} must be {wanted}, not {shown(text)}")
    if len(value.lstrip("-")) > MAX_DIGITS:
        raise IntegerError(f"{what} is too large (at most {MAX_DIGITS} digits): {shown(text)}")
    number = int(value)
    if minimum is not None and number < minimum or maximum is not None and number > maximum:
        raise IntegerError(f"{what} must be {wanted}, not {number}")
    return number
