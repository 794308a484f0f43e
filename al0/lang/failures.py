"""What library code did wrong, as a :class:`~al0.errors.PredicateError`.

What library code returns is checked where goals and move constraints are
compiled (:mod:`al0.lang.compile_goals`, :mod:`al0.lang.compile_moves`): a
predicate must return a bool, a generator must yield legal ``chess.Move``
objects of the side to move. A predicate or generator that raises, or
returns anything else, becomes a :class:`~al0.errors.PredicateError`
naming it and the FEN; this module words that error.

Any ``BaseException`` from library code counts as its failure (a library
that calls ``sys.exit()`` mid-search is broken, not finished), except
``KeyboardInterrupt``: a real Ctrl-C arrives as a ``KeyboardInterrupt``
raised wherever the interpreter happens to be, very often inside a
predicate, and nothing tells it apart from a library raising one itself.
So it always propagates, and the run stops the way Ctrl-C stops it.
"""

from __future__ import annotations

from typing import NoReturn

import chess

from al0.board.position import Position, fen
from al0.errors import PredicateError
from al0.lang.library import Library
from al0.lang.node import Node


class NotBool(Exception):
    """A predicate returned ``value``, which is not a bool."""

    def __init__(self, value: object):
        super().__init__(f"returned {value!r} ({type(value).__name__}), not a bool")
        self.value = value


def not_bool(value: object) -> NoReturn:
    raise NotBool(value)


class NotWhole(Exception):
    """A feature returned ``value``, which is neither a whole number nor None."""

    def __init__(self, value: object):
        super().__init__(
            f"returned {value!r} ({type(value).__name__}), not a whole number (or None: no value)"
        )
        self.value = value


def blame(
    names: tuple[str, ...],
    library: Library,
    node: Node,
    root: Node,
    error: BaseException,
    features: tuple[str, ...] = (),
) -> PredicateError:
    """Name the predicate that raised ``error`` (or returned a non-bool), or
    else the feature that raised or returned what is not a whole number
    (at the node or at the root). Predicates and features are pure, so
    re-evaluating them one by one finds it; the check sits on the whole goal
    (a comparison checks only its sum) rather than on each call, to keep
    evaluation fast."""
    culprit, failure = "?", error
    for name in names:
        try:
            value = library.predicates[name](node, root)
        except KeyboardInterrupt:
            raise
        except BaseException as raised:
            culprit, failure = f"predicate {name!r}", raised
            break
        if value is not True and value is not False:
            culprit, failure = f"predicate {name!r}", NotBool(value)
            break
    else:
        for name, at in ((name, at) for name in features for at in (node, root)):
            try:
                number: object = library.features[name](at)
            except KeyboardInterrupt:
                raise
            except BaseException as raised:
                culprit, failure = f"feature {name!r}", raised
                break
            if number is not None and not isinstance(number, int):
                culprit, failure = f"feature {name!r}", NotWhole(number)
                break
        else:
            culprit = "predicate '?'" if isinstance(error, NotBool) else "goal"
    return predicate_error(f"{culprit} {what_it_did(failure)}", node.position)


def what_it_did(failure: BaseException) -> str:
    """What library code did, in words: returned a non-bool, called
    ``sys.exit()``, or raised."""
    if isinstance(failure, (NotBool, NotWhole)):
        return str(failure)
    if isinstance(failure, SystemExit):
        return f"called sys.exit({failure.code!r})"
    return f"raised {type(failure).__name__}: {failure}"


def predicate_error(detail: str, position: Position, move: chess.Move | None = None) -> PredicateError:
    """The error for library code that failed at ``position``: ``detail``,
    with ``{move}`` standing for ``move`` in UCI, then the position's FEN."""
    try:
        where = fen(position)
    except Exception:  # a message must not fail for want of a FEN
        where = repr(position)
    text = detail if move is None else detail.replace("{move}", move.uci())
    return PredicateError(f"{text} at {where}", detail, position, move)
