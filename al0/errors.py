"""The errors al0 raises: one base class, one subclass per kind of failure.

Every error subclasses :class:`AL0Error` (itself a ``ValueError``), and its
message names the offending value: ``file:line:col`` for a table, the FEN for a
position. The CLI turns any ``AL0Error`` into a one-line message and exit code 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for annotations only: al0.board.position itself imports this module
    import chess

    from al0.board.position import Position


class AL0Error(ValueError):
    """Base class of every error al0 reports to its user."""


def one_line(error: BaseException | str) -> str:
    """An error's message on one line: each run of spaces and line ends one
    space (a message that quotes a table's multi-line text, or python-chess's
    that quotes a FEN, stays one line of a report, a PGN or a protocol)."""
    return " ".join(str(error).split())


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
    """A predicate or generator raised while being evaluated.

    Besides the message it keeps what the message is made of: ``detail``
    (what went wrong, ``{move}`` standing for the move it names, if any),
    the compact ``position`` where it happened and that ``move``; so an
    error met while planning a mirror image can be told again about the
    position the user gave (:meth:`al0.engine.plan.Planner.plan_position`).
    """

    def __init__(
        self, message: str, detail: str = "", position: Position | None = None, move: chess.Move | None = None
    ):
        super().__init__(message)
        self.detail, self.position, self.move = detail, position, move


class SearchBudgetExceeded(AL0Error):
    """A forcing-tree search spent its node budget before it could decide.

    Besides the message it may keep what the message is made of:
    ``detail`` (which advice, what was spent) and the compact ``position``
    searched from, so that a search of a mirror image can be told again
    about the position the user gave (as :class:`PredicateError`)."""

    def __init__(self, message: str, detail: str = "", position: Position | None = None):
        super().__init__(message)
        self.detail, self.position = detail, position
