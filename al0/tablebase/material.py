"""Which pawnless endings a tablebase covers.

Tables are colour-blind (a pawnless position with the colours swapped is the
same position), so a tablebase's material is :class:`~al0.board.material.Material`
with the stronger side first (:meth:`~al0.board.material.Material.stronger_first`),
of at most :data:`MAX_MEN` men. ``Material`` is importable from here as before.
"""

from __future__ import annotations

import chess

from al0.board.material import PIECE_LETTERS, Material
from al0.errors import PositionError

__all__ = ["MAX_MEN", "PIECE_LETTERS", "Material", "parse_material", "stronger_colour"]

MAX_MEN = 4
"""Two kings and at most two other pieces: the largest tables built here."""


def parse_material(text: str) -> Material:
    """The tablebase's material that ``text`` names, e.g. ``"KNKR"`` → ``KRKN``.

    :raises PositionError: for anything but two kings and at most two queens,
        rooks, bishops or knights (no pawns).
    """
    try:
        material = Material.parse(text)
    except PositionError:
        material = None
    if material is None or material.men > MAX_MEN:
        raise PositionError(
            f"unsupported material {text!r}: expected two kings and up to {MAX_MEN - 2} "
            f"pieces of {', '.join(PIECE_LETTERS)}, e.g. 'KRK', 'KBNK' or 'KQKR'"
        )
    return material.stronger_first()


def stronger_colour(material: str, us: chess.Color) -> chess.Color:
    """The colour that holds the stronger (canonically first) side when ``us``
    holds the side that ``material`` names first: ``("KRK", WHITE)`` is White,
    ``("KNKR", WHITE)`` Black.

    :raises PositionError: if ``material`` is not supported.
    """
    table = parse_material(material)
    return us if Material.parse(material).first == table.first else not us
