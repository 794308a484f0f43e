"""Turning checked move constraints into functions of search nodes.

A constraint becomes one function giving the allowed moves at a node, in
trying order, one list per alternative. What a generator yields is checked
here, at the boundary: each item must be a ``chess.Move``, and a move the
search plays must be legal (:func:`play_checked`); anything else is a
:class:`~al0.errors.PredicateError` naming the generator
(:mod:`al0.lang.failures`).
"""

from __future__ import annotations

import sys
from typing import Callable, Iterable, NoReturn

import chess

from al0.board.moves import play
from al0.board.position import Position
from al0.lang.failures import predicate_error, what_it_did
from al0.lang.library import Library
from al0.lang.model import MoveConstraint
from al0.lang.node import Node

MovesFn = Callable[[Node], list[tuple[list[chess.Move], str]]]
"""The allowed moves at a node, in trying order, in lists each with the name
of the generator it comes from (to blame it if a move turns out illegal)."""


def compile_constraint(constraint: MoveConstraint, library: Library) -> MovesFn:
    """A function ``node -> [(moves, generator name)]``: the allowed moves in
    trying order, one list per alternative that allows any.

    Alternatives apply in order, each only at depths in its range; a move
    already allowed by an earlier alternative is not repeated. Every item a
    generator yields is checked to be a ``chess.Move``; whether it is legal
    is checked by :func:`play_checked` when the search plays it (most moves
    of our side are never played: the search stops at the first that works).

    :raises PredicateError: (when called) naming the generator that raised
        or yielded something that is not a move.
    """
    # Each alternative as its depths (``lo <= depth < hi``), its first
    # generator with its name and the others with theirs: this runs at every
    # node that is expanded, so nothing is looked up or sliced per call.
    alternatives = tuple(
        (
            alt.depths.lo,
            sys.maxsize if alt.depths.hi is None else alt.depths.hi,
            library.generators[alt.generators[0].text],
            alt.generators[0].text,
            tuple((library.generators[call.text], call.text) for call in alt.generators[1:]),
        )
        for alt in constraint.alternatives
    )

    def allowed(node: Node) -> list[tuple[list[chess.Move], str]]:
        found: list[tuple[list[chess.Move], str]] = []
        depth = node.depth
        for lo, hi, first, name, others in alternatives:
            if not lo <= depth < hi:
                continue
            moves = _generate(first, name, node)
            for generator, other in others:
                admitted = set(_generate(generator, other, node))
                moves = [move for move in moves if move in admitted]
            if found:
                # Only a later alternative can repeat a move an earlier one allowed.
                seen = {move for earlier, _ in found for move in earlier}
                moves = [move for move in moves if move not in seen]
            if moves:
                found.append((moves, name))
        return found

    return allowed


def play_checked(position: Position, move: chess.Move, generator: str) -> Position:
    """The position after ``move`` at ``position``.

    :raises PredicateError: naming ``generator`` when ``move`` is not a
        legal move of the side to move.
    """
    child = play(position, move)
    if child is None:
        _bad_move(generator, move, position)
    return child


def _generate(generator: Callable[[Node], Iterable[chess.Move]], name: str, node: Node) -> list[chess.Move]:
    """The moves ``generator`` yields at ``node``, as a list (the very list
    it returns, when it returns one: the search never changes it)."""
    try:
        moves = generator(node)
        if type(moves) is not list:
            moves = list(moves)
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        raise predicate_error(f"generator {name!r} {what_it_did(error)}", node.position) from error
    if not _MOVE_TYPE.issuperset(map(type, moves)):
        _bad_move(name, next(move for move in moves if type(move) is not chess.Move), node.position)
    return moves


_MOVE_TYPE = {chess.Move}


def _bad_move(culprit: str, move: object, position: Position) -> NoReturn:
    """Raise the error for a generator output that is not a legal move."""
    if type(move) is not chess.Move:
        raise predicate_error(
            f"generator {culprit!r} yielded {move!r} ({type(move).__name__}), not a chess.Move,", position
        )
    raise predicate_error(
        f"generator {culprit!r} yielded {{move}}, not a legal move of the side to move,", position, move
    )
