"""Whether pieces are safe: hanging pieces, and a piece lost, attacked,
en prise or threatened by the lone king."""

from __future__ import annotations

import chess

from al0.board.position import attackers, king_square
from al0.lang.node import FeatureFunction, Node, Predicate
from al0.lang.vocabulary.squares import _side, _side_attacks
from al0.lang.vocabulary.terms import PieceRef


def hanging() -> FeatureFunction:
    """Our pieces (kings aside) attacked by them and not defended by us."""

    def feature(node: Node) -> int:
        position, us = node.position, node.us
        return sum(
            1
            for square in chess.scan_forward(_side(position, us) & ~position.kings)
            if attackers(position, not us, square) and not attackers(position, us, square)
        )

    return feature


def lost(p: PieceRef) -> Predicate:
    """The piece is no longer on the board."""

    def predicate(node: Node, root: Node) -> bool:
        return p.square(node) is None

    return predicate


def attacked(p: PieceRef) -> Predicate:
    """The piece is attacked by the other side."""

    def predicate(node: Node, root: Node) -> bool:
        square = p.square(node)
        return square is not None and bool(attackers(node.position, not p.colour(node), square))

    return predicate


def en_prise(p: PieceRef) -> Predicate:
    """The piece is attacked by the other side and not defended by its own
    (whoever is to move: write ``themtomove and en_prise(R)`` for "they can
    take it now")."""

    def predicate(node: Node, root: Node) -> bool:
        square = p.square(node)
        if square is None:
            return False
        colour = p.colour(node)
        return bool(attackers(node.position, not colour, square)) and not attackers(
            node.position, colour, square
        )

    return predicate


def threatened(p: PieceRef) -> Predicate:
    """The piece is not defended by its own side, and the other side's king
    attacks it or can step next to it (to a square it may step to: not held
    by its own side, not attacked by the piece's side, attacks seen through
    that king).

    The lone king's only threat to a piece. With them to move,
    ``not threatened(B)`` says their king cannot even come at the bishop.
    It is judged from the squares, not from distances as the book's
    ``rookexposed`` is, so a bishop shielded by its partner's diagonals
    counts as safe however near their king stands."""

    def predicate(node: Node, root: Node) -> bool:
        square = p.square(node)
        if square is None:
            return False
        position, colour = node.position, p.colour(node)
        king = king_square(position, not colour)
        if king < 0 or attackers(position, colour, square):
            return False
        near = chess.BB_KING_ATTACKS[square]
        if near & chess.BB_SQUARES[king]:
            return True
        occupied = (position.white | position.black) & ~chess.BB_SQUARES[king]
        steps = (
            chess.BB_KING_ATTACKS[king]
            & ~_side(position, not colour)
            & ~_side_attacks(position, colour, occupied, kings=True)
        )
        return bool(steps & near)

    return predicate
