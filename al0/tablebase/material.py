"""Which endings a tablebase covers, and where their moves leave them.

Pawnless tables are colour-blind (a pawnless position with the colours
swapped is the same position), so a tablebase's material is
:class:`~al0.board.material.Material` with the stronger side first
(:meth:`~al0.board.material.Material.stronger_first`), of at most
:data:`MAX_MEN` men; in a table with pawns the first side is White, whose
pawns go up the board.
"""

from __future__ import annotations

import re

import chess

from al0.board import Material
from al0.board.material import PIECE_LETTERS
from al0.errors import PositionError

__all__ = [
    "MAX_MEN",
    "PAWN_MATERIALS",
    "PIECE_LETTERS",
    "Exit",
    "exits",
    "parse_material",
    "stronger_colour",
]

MAX_MEN = 4
"""Two kings and at most two other pieces: the largest tables built here."""

PAWN_MATERIALS = ("KPK", "KPKP", "KPPK", "KQKP", "KRKP", "KBKP", "KNKP", "KQPK", "KRPK", "KBPK", "KNPK")
"""Every material of at most :data:`MAX_MEN` men with a pawn, by its
tablebase's name (the stronger side first, then White)."""

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)

_WITH_PAWNS = re.compile(r"K([QRBNP]*)K([QRBNP]*)")

Exit = tuple[int, int, int, Material, tuple[int, ...], bool]
"""A move that leaves a material: the slot of the man taken (-1: none),
the slot of the pawn that promotes (-1: none), the piece it becomes (0:
none), the material it leads to (stronger side first), for each of that
material's slots the slot here that fills it, and whether that material's
first side is our second."""


def parse_material(text: str) -> Material:
    """The tablebase's material that ``text`` names, e.g. ``"KNKR"`` → ``KRKN``.

    :raises PositionError: for anything but two kings and at most two queens,
        rooks, bishops, knights or pawns; spaces around it are let pass
        (a shell's quotes), spaces within it named.
    """
    text = text.strip()
    if any(char.isspace() for char in text):
        raise PositionError(f"material {text!r}: write it without spaces ({''.join(text.split())!r})")
    match = _WITH_PAWNS.fullmatch(text)
    if match is not None and "P" in text:
        sides = [
            tuple(sorted((chess.PIECE_SYMBOLS.index(c.lower()) for c in group), reverse=True))
            for group in match.groups()
        ]
        with_pawns = Material(sides[0], sides[1]).stronger_first()
        if with_pawns.name in PAWN_MATERIALS:
            return with_pawns
        raise PositionError(
            f"unsupported material {text!r}: with pawns, two kings and up to {MAX_MEN - 2} men "
            f"({', '.join(PAWN_MATERIALS)})"
        )
    try:
        material = Material.parse(text)
    except PositionError:
        material = None
    if material is None or material.men > MAX_MEN:
        raise PositionError(
            f"unsupported material {text!r}: expected two kings and up to {MAX_MEN - 2} "
            f"men of {', '.join(PIECE_LETTERS)} or P, e.g. 'KRK', 'KBNK', 'KQKR' or 'KPK'"
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


def _leads_to(
    material: Material, taken: int, promoted: int, piece: chess.PieceType
) -> tuple[Material, tuple[int, ...], bool]:
    """The material after the man in slot ``taken`` (-1: none) is taken and
    the pawn in slot ``promoted`` (-1: none) becomes ``piece``, as
    :meth:`Material.without` tells it: the material (stronger side first),
    the slot here that fills each of its slots, and whether its first side
    is our second."""
    types = list(material.types)
    if promoted >= 0:
        types[promoted] = piece
    sides = material.sides
    rest = [s for s in range(len(types)) if s != taken]
    ours = [
        tuple(sorted((types[s] for s in rest if sides[s] == side and types[s] != chess.KING), reverse=True))
        for side in (0, 1)
    ]
    after = Material(ours[0], ours[1]).stronger_first()
    swapped = after.first != ours[0]
    mapping: list[int] = []
    for side in (1, 0) if swapped else (0, 1):
        mapping.append(next(s for s in rest if sides[s] == side and types[s] == chess.KING))
        left = [s for s in rest if sides[s] == side and types[s] != chess.KING]
        for kind in after.second if swapped == (side == 0) else after.first:
            chosen = next(s for s in left if types[s] == kind)
            left.remove(chosen)
            mapping.append(chosen)
    return after, tuple(mapping), swapped


def exits(material: Material) -> list[Exit]:
    """Every way a move can leave ``material``: each man but a king taken,
    each pawn promoted to each piece, taking a man of the other side or
    none. The tables they lead to are built before this one."""
    types, sides = material.types, material.sides
    found: list[Exit] = [
        (slot, -1, 0, *_leads_to(material, slot, -1, 0))
        for slot in range(len(types))
        if types[slot] != chess.KING
    ]
    for pawn in (slot for slot in range(len(types)) if types[slot] == chess.PAWN):
        for piece in PROMOTIONS:
            found.append((-1, pawn, piece, *_leads_to(material, -1, pawn, piece)))
            for other in range(len(types)):
                if sides[other] != sides[pawn] and types[other] != chess.KING:
                    found.append((other, pawn, piece, *_leads_to(material, other, pawn, piece)))
    return found
