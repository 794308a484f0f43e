"""The errors al0 raises: one base class, one subclass per kind of failure.

Every error subclasses :class:`AL0Error` (itself a ``ValueError``), and its
message names the offending value: ``file:line:col`` for a table, the FEN for a
position. The CLI turns any ``AL0Error`` into a one-line message and exit code 2.
"""

from __future__ import annotations


class AL0Error(ValueError):
    """Base class of every error al0 reports to its user."""


class TableSyntaxError(AL0Error):
    """An advice table is malformed: bad YAML, a missing or unexpected key,
    an unparsable expression or depth guard."""


class UnknownNameError(AL0Error):
    """A table names a predicate, generator or piece of advice that does not exist."""


class LibraryError(AL0Error):
    """A predicate library is missing, raises on import or is malformed."""


class PositionError(AL0Error):
    """A position is illegal, unparsable, or does not fit the table's material."""


class PredicateError(AL0Error):
    """A predicate or generator raised while being evaluated."""


class SearchBudgetExceeded(AL0Error):
    """A forcing-tree search spent its node budget before it could decide."""
