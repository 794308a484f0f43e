"""The basic names every table may use, whatever its library and material:
the end of the game (``mate``, ``stalemate``, ``stalemated``), ``check``, whose move it is
(``themtomove``, ``ustomove``) and the two plain move generators
(``legal``, ``nomove``). They take no arguments, so nothing binds them:
:mod:`al0.lang.vocabulary.registry` lists them beside the families, and
every library is merged with them
(:func:`al0.lang.library.standard_library`)."""

from __future__ import annotations

from typing import Iterable

import chess

from al0.board.checks import is_checkmate, is_stalemate
from al0.board.position import is_check
from al0.lang.node import Node


def mate(node: Node, root: Node) -> bool:
    """Them to move, in check, with no legal move."""
    if node.position.turn == node.us:
        return False
    known = node.known_legal_moves()
    if known is None:
        return is_checkmate(node.position)
    return not known and is_check(node.position)


def stalemate(node: Node, root: Node) -> bool:
    """Them to move, not in check, with no legal move."""
    if node.position.turn == node.us:
        return False
    known = node.known_legal_moves()
    if known is None:
        return is_stalemate(node.position)
    return not known and not is_check(node.position)


def stalemated(node: Node, root: Node) -> bool:
    """Us to move, not in check, with no legal move: the stalemate the
    defending side may aim at, a draw."""
    if node.position.turn != node.us:
        return False
    known = node.known_legal_moves()
    if known is None:
        return is_stalemate(node.position)
    return not known and not is_check(node.position)


def check(node: Node, root: Node) -> bool:
    """The side to move is in check."""
    return is_check(node.position)


def themtomove(node: Node, root: Node) -> bool:
    """It is their move."""
    return node.position.turn != node.us


def ustomove(node: Node, root: Node) -> bool:
    """It is our move."""
    return node.position.turn == node.us


def legal(node: Node) -> Iterable[chess.Move]:
    """Every legal move, in python-chess's generation order."""
    return node.legal_moves()


def nomove(node: Node) -> Iterable[chess.Move]:
    """No move at all: the better-goal must already hold."""
    return ()
