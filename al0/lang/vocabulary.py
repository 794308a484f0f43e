"""The standard chess vocabulary: numeric features, predicates and move
generators over named pieces, for any material, with no Python of a table's own.

A table names its pieces by the material: upper case ours, lower case theirs
(``KRK``: ``K R k``; ``KQKR``: ``K Q k r``); two of a kind take a suffix,
``B1``/``B2``, numbered by square (a1, b1, … h8) at the position looked at.
An entry of the vocabulary is a family (``dist``) that the loader binds to its
arguments (``dist(K, k)``) once, when the table is loaded: a name the material
does not have, or an argument of the wrong kind, is an error there.

A feature is ``node -> int | None`` (None: a piece it measures is gone); a
predicate ``(node, root) -> bool``; a generator ``node -> list of moves`` in
the order its docstring states. Each docstring's first paragraph is the
entry's reference text in ``docs/language.md`` (a test keeps the two equal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Union

import chess

from al0.errors import TableSyntaxError, UnknownNameError
from al0.lang.library import Node
from al0.board.position import Bitboard, Position, attackers, attacks, is_check, king_square

Colour = Union[bool, "PieceRef", None]
"""A square colour argument: chess.WHITE (light), chess.BLACK (dark), the
colour of a piece's square, or None (any colour)."""


@dataclass(frozen=True)
class PieceRef:
    """A named piece of a material: whose, which kind, which of its kind."""
    name: str
    ours: bool
    piece_type: chess.PieceType
    index: int
    """Its place among the pieces of its side and kind, by square a1 … h8."""

    def square(self, node: Node) -> chess.Square | None:
        """Where the piece stands at ``node``; None when it is gone."""
        position = node.position
        field = _FIELD[self.piece_type]
        if field is None:
            return None
        # Its side's pieces are White's exactly when ``ours`` equals ``node.us``.
        mask = position[field] & position[0 if node.us == self.ours else 1]
        if self.index:
            for _ in range(self.index):
                mask &= mask - 1
        return (mask & -mask).bit_length() - 1 if mask else None

    def colour(self, node: Node) -> chess.Color:
        """The side the piece plays for at ``node``."""
        return node.us if self.ours else not node.us


_FIELD = (None, None, 6, 5, 4, 3, 2)
"""The field of :class:`Position` that holds each piece type (none: pawns)."""


def material_pieces(material: str) -> dict[str, PieceRef]:
    """The piece names of a material such as ``KRK`` or ``KBBK``."""
    split = material.index("K", 1)
    names: dict[str, PieceRef] = {}
    for ours, letters in ((True, material[:split]), (False, material[split:])):
        for letter in dict.fromkeys(letters):
            count = letters.count(letter)
            piece_type = chess.PIECE_SYMBOLS.index(letter.lower())
            name = letter if ours else letter.lower()
            for index in range(count):
                full = name if count == 1 else f"{name}{index + 1}"
                names[full] = PieceRef(full, ours, piece_type, index)
    return names

# ------------------------------------------------------------ geometry

_XY = tuple((chess.square_file(s), chess.square_rank(s)) for s in chess.SQUARES)
_CORNERS = {None: (chess.A1, chess.H1, chess.A8, chess.H8),
            chess.BLACK: (chess.A1, chess.H8), chess.WHITE: (chess.H1, chess.A8)}
_EDGE_DIST = tuple(min(x, 7 - x, y, 7 - y) for x, y in _XY)
# python-chess's square_distance and square_manhattan_distance, tabulated
# from the coordinates (calling them 8,192 times costs every start noticeably).
_DIST = tuple(tuple(max(abs(ax - bx), abs(ay - by)) for bx, by in _XY) for ax, ay in _XY)
_MDIST = tuple(tuple(abs(ax - bx) + abs(ay - by) for bx, by in _XY) for ax, ay in _XY)
_STRAIGHT_LINES = _XY
"""A square's file and rank: the lines a rook or queen divides along."""
_DIAGONAL_LINES = tuple((x - y, x + y) for x, y in _XY)
"""A square's diagonal and anti-diagonal: the lines a bishop divides along."""


def _square_colour(square: chess.Square) -> bool:
    """chess.WHITE for a light square, chess.BLACK for a dark one."""
    return bool(chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[square])


def _side(position: Position, colour: chess.Color) -> Bitboard:
    """``colour``'s occupancy."""
    return position.white if colour else position.black


def _side_attacks(position: Position, colour: chess.Color, occupied: Bitboard,
                  kings: bool) -> Bitboard:
    """Every square ``colour``'s pieces attack with ``occupied`` on the board
    (its king's too when ``kings``)."""
    mask = 0
    side = _side(position, colour)
    if not kings:
        side &= ~position.kings
    while side:
        bit = side & -side
        mask |= attacks(position, bit.bit_length() - 1, occupied)
        side ^= bit
    return mask


def _spread(region: chess.Bitboard) -> chess.Bitboard:
    """``region`` and every square a king step away from it."""
    row = (region | ((region >> 1) & ~chess.BB_FILE_H)
           | ((region << 1) & ~chess.BB_FILE_A & chess.BB_ALL))
    return row | ((row << 8) & chess.BB_ALL) | (row >> 8)


def _region(start: chess.Bitboard, barrier: chess.Bitboard) -> chess.Bitboard:
    """The squares a king on ``start`` reaches by king steps that never
    enter ``barrier`` (``start`` itself always among them)."""
    region = start
    while True:
        grown = region | (_spread(region) & ~barrier)
        if grown == region:
            return region
        region = grown


def _reach(start: chess.Bitboard, barrier: chess.Bitboard) -> int:
    """How many squares :func:`_region` holds."""
    return chess.popcount(_region(start, barrier))

# ------------------------------------------------------------ features

Feature = Callable[[Node], Union[int, None]]
Predicate = Callable[[Node, Node], bool]
Generator = Callable[[Node], list[chess.Move]]


def dist(a: PieceRef, b: PieceRef) -> Feature:
    """Chebyshev (king-move) distance between two pieces."""
    def feature(node: Node) -> int | None:
        x, y = a.square(node), b.square(node)
        return None if x is None or y is None else _DIST[x][y]
    return feature


def mdist(a: PieceRef, b: PieceRef) -> Feature:
    """Manhattan distance (files apart plus ranks apart) between two pieces."""
    def feature(node: Node) -> int | None:
        x, y = a.square(node), b.square(node)
        return None if x is None or y is None else _MDIST[x][y]
    return feature


def edge_dist(a: PieceRef) -> Feature:
    """King steps from a piece to the nearest edge square (0 on the edge)."""
    def feature(node: Node) -> int | None:
        x = a.square(node)
        return None if x is None else _EDGE_DIST[x]
    return feature


def _towards_centre(square: chess.Square) -> chess.Square:
    """The square next to ``square`` on the straight line from it to the
    middle of the board (the point between d4, e4, d5 and e5)."""
    x, y = _XY[square]
    dx, dy = 3.5 - x, 3.5 - y
    longest = max(abs(dx), abs(dy))  # at least 0.5: the middle is between squares
    return chess.square(x + math.floor(dx / longest + 0.5), y + math.floor(dy / longest + 0.5))


_CENTRE_SIDE = tuple(_towards_centre(s) for s in chess.SQUARES)


def centre_side_dist(a: PieceRef, b: PieceRef) -> Feature:
    """King steps from the first piece to the square next to the second on
    its straight way to the middle of the board (0: standing on it).

    Guid, Možina, Sadikov and Bratko's ``cpdist``: a king on that square
    stands between the other king and the centre, the place to push from
    (a king that approaches from the edge side drives the other king back
    into the middle)."""
    def feature(node: Node) -> int | None:
        x, y = a.square(node), b.square(node)
        return None if x is None or y is None else _DIST[x][_CENTRE_SIDE[y]]
    return feature


def corner_dist(a: PieceRef, colour: Colour = None) -> Feature:
    """King steps from a piece to the nearest corner; with a second argument
    (``light``, ``dark``, or a piece: the colour of its square, e.g. a
    bishop's), to the nearest corner of that colour."""
    if isinstance(colour, PieceRef):
        shade = colour

        def by_shade(node: Node) -> int | None:
            x, y = a.square(node), shade.square(node)
            return None if x is None or y is None else _CORNER_DIST_BY_SHADE[y][x]
        return by_shade
    distances = _CORNER_DIST[colour]

    def feature(node: Node) -> int | None:
        x = a.square(node)
        return None if x is None else distances[x]
    return feature


_CORNER_DIST = {colour: tuple(min(_DIST[x][c] for c in corners) for x in chess.SQUARES)
                for colour, corners in _CORNERS.items()}
"""King steps from each square to the nearest corner (of a colour, or any)."""
_CORNER_DIST_BY_SHADE = tuple(_CORNER_DIST[_square_colour(s)] for s in chess.SQUARES)
"""The same for the corners of the colour of each square (a piece's)."""


def _corner_squares(node: Node, colour: Colour) -> tuple[chess.Square, ...] | None:
    """The corners of ``colour`` (a piece's: the colour of its square; None
    when that piece is gone)."""
    if isinstance(colour, PieceRef):
        shade = colour.square(node)
        return None if shade is None else _CORNERS[_square_colour(shade)]
    return _CORNERS[colour]


def room(p: PieceRef) -> Feature:
    """The squares a king can reach by king steps without stepping onto a
    square the other side's pieces (kings aside) stand on or attack — attacks
    seen through both kings; 64 when it stands on such a square itself (it is
    not confined). The book's KRK room, generalised: with a rook it is the
    rectangle the rook's lines leave the king."""
    def compute(node: Node) -> int:
        position = node.position
        square = p.square(node)
        if square is None:
            return 64
        other = not p.colour(node)
        without_kings = (position.white | position.black) & ~position.kings
        barrier = (_side_attacks(position, other, without_kings, kings=False)
                   | (_side(position, other) & ~position.kings))
        start = chess.BB_SQUARES[square]
        return 64 if barrier & start else _reach(start, barrier)

    def feature(node: Node) -> int:
        return node.fact(compute)  # type: ignore[return-value]
    return feature


def area(p: PieceRef) -> Feature:
    """The squares a king could reach by king steps if only it moved: its
    own square, and every square connected to it through squares the other
    side does not attack (kings included, lines blocked as on the board) and
    its own side does not hold. Unlike ``room`` it counts our king's work
    too, and lines as they are; it never grows when that king itself moves."""
    region = _area_region(p)

    def feature(node: Node) -> int:
        return chess.popcount(region(node))
    return feature


@dataclass(frozen=True)
class _AreaRegion:
    """The squares of ``area(king)`` at a node (none when the king is gone).
    Equal for equal kings, so as a :meth:`Node.fact` key it is computed once
    per node for every feature that reads it."""
    king: PieceRef

    def __call__(self, node: Node) -> chess.Bitboard:
        square = self.king.square(node)
        if square is None:
            return 0
        return _region(chess.BB_SQUARES[square], _area_barrier(node, self.king, square))


def _area_barrier(node: Node, king: PieceRef, square: chess.Square) -> chess.Bitboard:
    """The squares ``area(king)`` never enters, the king standing on
    ``square``: those the other side attacks (:func:`_area_attacks`) and
    those its own side holds (the king's own square among them)."""
    return _area_attacks(node, king, square) | _side(node.position, king.colour(node))


def _area_attacks(node: Node, king: PieceRef, square: chess.Square) -> chess.Bitboard:
    """The squares the other side attacks, lines seen through the king on
    ``square`` (a square behind it along a checking line is attacked)."""
    position = node.position
    occupied = (position.white | position.black) & ~chess.BB_SQUARES[square]
    return _side_attacks(position, not king.colour(node), occupied, kings=True)


def _area_region(p: PieceRef) -> Callable[[Node], chess.Bitboard]:
    """``node -> the squares of area(p)``, memoised per node."""
    key = _AreaRegion(p)

    def region(node: Node) -> chess.Bitboard:
        return node.fact(key)  # type: ignore[return-value]
    return region


def least_area(p: PieceRef) -> Feature:
    """The smallest ``area`` a king can leave itself with by one step of
    its own: its ``area`` when it is not in check (a step inside the box
    keeps the box); in check, the smallest of the boxes next to it that it
    can step into (0 when it has none).

    A check counts the king's attacked square in its ``area``, so the box
    can shrink when the king steps out of it: into a pocket of a single
    square, where every move of ours must free it again. ``least_area >= 2``
    after our move says their reply cannot make that pocket."""
    key = _AreaRegion(p)

    def feature(node: Node) -> int:
        square = p.square(node)
        if square is None:
            return 0
        start = chess.BB_SQUARES[square]
        attacked = _area_attacks(node, p, square)
        if not attacked & start:
            return chess.popcount(node.fact(key))  # type: ignore[arg-type]
        barrier = attacked | _side(node.position, p.colour(node))
        exits = _spread(start) & ~barrier
        least = 0
        while exits:
            box = _region(exits & -exits, barrier)
            size = chess.popcount(box)
            least = size if not least else min(least, size)
            exits &= ~box
        return least
    return feature


def area_corner_dist(p: PieceRef, colour: Colour = None) -> Feature:
    """King steps from the nearest square of a king's ``area`` to the nearest
    corner (with a second argument, a corner of that colour, as for
    ``corner_dist``): how near a corner the box it is held in reaches.

    The box is the same whichever of its squares the king stands on, so
    unlike ``corner_dist(k)`` this does not change as the king steps about
    inside it: it falls only when the box itself is moved towards a corner,
    which is how a king held on the edge is walked into one."""
    region = _area_region(p)

    def feature(node: Node) -> int | None:
        squares, corners = region(node), _corner_squares(node, colour)
        if not squares or corners is None:
            return None
        return min(_DIST[x][c] for x in chess.scan_forward(squares) for c in corners)
    return feature


def _farthest(table: tuple[chess.Bitboard, ...], region: chess.Bitboard) -> int:
    """The largest ``d`` with a square of ``region`` in ``table[d]``, where
    ``table[d]`` holds the squares at ``d`` or more from a square (``table[0]``
    every square, so a non-empty ``region`` has at least 0): a binary
    search over the masks instead of a scan over the region's squares."""
    low, high = 0, len(table) - 1  # table[high] is empty
    while high - low > 1:
        middle = (low + high) // 2
        if region & table[middle]:
            low = middle
        else:
            high = middle
    return low


_MDIST_BEYOND = {c: tuple(sum(chess.BB_SQUARES[s] for s in chess.SQUARES if _MDIST[c][s] >= d)
                           for d in range(16)) for c in _CORNERS[None]}
"""For each corner and ``d`` in 0 … 15, the squares at a Manhattan
distance of ``d`` or more from it (for :func:`_farthest`)."""


def _nearest(square: chess.Square, region: chess.Bitboard) -> int:
    """King steps from ``square`` to the nearest square of a non-empty
    ``region``."""
    rings = _DIST_WITHIN[square]
    steps = 0
    while not region & rings[steps]:
        steps += 1
    return steps


_DIST_WITHIN = tuple(tuple(sum(chess.BB_SQUARES[s] for s in chess.SQUARES if _DIST[c][s] <= d)
                           for d in range(8)) for c in chess.SQUARES)
"""For each square and ``d`` in 0 … 7, the squares within ``d`` king steps
of it (for :func:`_nearest`)."""


@dataclass(frozen=True)
class _TriangleCorners:
    """The size of the smallest corner triangle that holds ``area(king)``
    (see :func:`corner_triangle`) and the corners of that size, or
    ``(0, ())`` without a box or corners. Equal for equal arguments, so as
    a :meth:`Node.fact` key it is computed once per node for every feature
    that reads it."""
    king: PieceRef
    colour: Colour

    def __call__(self, node: Node) -> tuple[int, tuple[chess.Square, ...]]:
        region: chess.Bitboard = node.fact(_AreaRegion(self.king))  # type: ignore[assignment]
        corners = _corner_squares(node, self.colour)
        if not region or corners is None:
            return 0, ()
        reach = [_farthest(_MDIST_BEYOND[corner], region) for corner in corners]
        least = min(reach)
        return 1 + least, tuple(corner for corner, far in zip(corners, reach) if far == least)


def _triangle_corners(p: PieceRef, colour: Colour
                      ) -> Callable[[Node], tuple[int, tuple[chess.Square, ...]]]:
    """``node -> _TriangleCorners(p, colour)(node)``, memoised per node."""
    key = _TriangleCorners(p, colour)

    def found(node: Node) -> tuple[int, tuple[chess.Square, ...]]:
        return node.fact(key)  # type: ignore[return-value]
    return found


def corner_triangle(p: PieceRef, colour: Colour = None) -> Feature:
    """The size of the smallest corner triangle that holds a king's whole
    ``area``: 1 + the most files-plus-ranks steps from a square of the box to
    a corner, for the corner where that is least (with a second argument, a
    corner of that colour, as for ``corner_dist``).

    A bishop's diagonal cuts a corner off the board as a triangle, so this is
    the measure of a king driven into a corner by bishops: 1 is the corner
    square alone, 2 the corner and its two neighbours on the edges, 3 six
    squares; 8 or more, a box no diagonal separates from the middle. It
    does not change as the king steps about inside its box, and it falls
    only when the box is cut from the side away from its corner."""
    triangle = _triangle_corners(p, colour)

    def feature(node: Node) -> int | None:
        return triangle(node)[0] or None
    return feature


def diagonal_area(p: PieceRef, colour: Colour = None) -> Feature:
    """8 times the farthest diagonal a king's ``area`` reaches from a corner
    (files plus ranks from it), plus the squares of the area on that
    diagonal, for the corner where this is least (with a second argument, a
    corner of that colour, as for ``corner_dist``): Guid, Možina, Sadikov
    and Bratko's *king_area* of KBNK.

    Like ``corner_triangle`` it falls when the box is cut from the side away
    from the corner; it also falls, by less, when a square of the box's
    farthest diagonal is taken from it."""
    region = _area_region(p)

    def feature(node: Node) -> int | None:
        box, corners = region(node), _corner_squares(node, colour)
        if not box or corners is None:
            return None
        return min(_diagonal_measure(corner, box) for corner in corners)
    return feature


def _diagonal_measure(corner: chess.Square, box: chess.Bitboard) -> int:
    """8 times the farthest diagonal of ``box`` from ``corner``, plus its
    squares on that diagonal."""
    beyond = _MDIST_BEYOND[corner]
    far = _farthest(beyond, box)
    return 8 * far + chess.popcount(box & beyond[far] & ~beyond[far + 1])


def wrong_way(p: PieceRef, colour: PieceRef | bool) -> Feature:
    """``diagonal_area`` from the corner of that colour nearest to a king,
    of the part of its ``area`` that lies towards the nearest corner of the
    other colour (as near to it as to the other corner of that colour, files
    plus ranks): how far along the edge the king can still run the wrong
    way. Guid, Možina, Sadikov and Bratko's *wrong_corner_way* of KBNK.
    Where corners tie for nearest, the least of their measures.

    0 when that part of the box is empty."""
    region = _area_region(p)

    def feature(node: Node) -> int | None:
        box, square = region(node), p.square(node)
        corners = _corner_squares(node, colour)
        if not box or square is None or corners is None:
            return None
        wrong = tuple(corner for corner in _CORNERS[None] if corner not in corners)
        values = []
        for right in _nearest_corners(square, corners):
            for towards in _nearest_corners(square, wrong):
                other = wrong[0] if towards == wrong[1] else wrong[1]
                part = box & _AS_NEAR[towards][other]
                values.append(_diagonal_measure(right, part) if part else 0)
        return min(values)
    return feature


def _nearest_corners(square: chess.Square, corners: tuple[chess.Square, ...]
                     ) -> list[chess.Square]:
    """The corners of ``corners`` nearest to ``square`` (king steps)."""
    least = min(_DIST[square][corner] for corner in corners)
    return [corner for corner in corners if _DIST[square][corner] == least]


_AS_NEAR = {a: {b: sum(chess.BB_SQUARES[s] for s in chess.SQUARES if _MDIST[a][s] <= _MDIST[b][s])
                for b in _CORNERS[None]} for a in _CORNERS[None]}
"""``_AS_NEAR[a][b]``: the squares at least as near to corner ``a`` as to
corner ``b``, files plus ranks."""


def triangle_corner_dist(a: PieceRef, p: PieceRef) -> Feature:
    """King steps from a piece to the corner of a king's
    ``corner_triangle`` (the nearest of them when two corners tie): where
    our king goes to help mate a king boxed towards that corner.

    It depends only on the box, so it does not change as the boxed king
    steps about inside it."""
    triangle = _triangle_corners(p, None)

    def feature(node: Node) -> int | None:
        x, corners = a.square(node), triangle(node)[1]
        if x is None or not corners:
            return None
        return min(_DIST[x][corner] for corner in corners)
    return feature


def area_dist(a: PieceRef, p: PieceRef) -> Feature:
    """King steps from a piece to the nearest square of a king's ``area``
    (our king's way to the box their king is held in).

    Like ``area`` it does not change when that king steps about inside its
    box, so "our king came nearer the box" is progress the other king
    cannot undo (``dist(K, k)`` changes with every step of theirs)."""
    region = _area_region(p)

    def feature(node: Node) -> int | None:
        x, squares = a.square(node), region(node)
        if x is None or not squares:
            return None
        return _nearest(x, squares)
    return feature


def mobility(p: PieceRef) -> Feature:
    """The squares a king could step to: next to it, not held by its own
    side, not attacked by the other (attacks seen through the king itself).
    With them to move, their lone king's number of legal moves."""
    def feature(node: Node) -> int | None:
        square = p.square(node)
        if square is None:
            return None
        return chess.popcount(_free_steps(node, p, square))
    return feature


def _free_steps(node: Node, p: PieceRef, square: chess.Square) -> chess.Bitboard:
    """The squares the king ``p`` on ``square`` could step to: not held by
    its own side, not attacked by the other (attacks seen through the king
    itself), as :func:`mobility` counts them and :func:`inward` filters them."""
    position = node.position
    colour = p.colour(node)
    occupied = (position.white | position.black) & ~chess.BB_SQUARES[square]
    attacked = _side_attacks(position, not colour, occupied, kings=True)
    return chess.BB_KING_ATTACKS[square] & ~_side(position, colour) & ~attacked


def inward(p: PieceRef) -> Feature:
    """The squares a king could step to (as for ``mobility``) that lie
    farther from the edge than its own: 0 for a king held on its edge.

    A king driven along the edge (bishop and knight's walk to the right
    corner) must be kept there: ``inward(k) = 0`` says our pieces and king
    close every way off it, whatever its steps along the edge."""
    def feature(node: Node) -> int | None:
        square = p.square(node)
        if square is None:
            return None
        return chess.popcount(_free_steps(node, p, square) & _FARTHER_FROM_EDGE[square])
    return feature


_FARTHER_FROM_EDGE = tuple(sum(chess.BB_SQUARES[t] for t in chess.SQUARES
                               if _EDGE_DIST[t] > _EDGE_DIST[s]) for s in chess.SQUARES)
"""For each square, the squares farther from the edge than it (for :func:`inward`)."""


def critical_mdist(a: PieceRef, line: PieceRef, target: PieceRef) -> Feature:
    """Manhattan distance from the first piece to the critical square: the
    square diagonally next to the second piece on the third's side (file and
    rank each one step towards it; the higher one when level). The book's KRK
    approach measure, ``critical_mdist(K, R, k)``: our king heading for the
    corner of the rook's box."""
    def feature(node: Node) -> int | None:
        x, r, t = a.square(node), line.square(node), target.square(node)
        if x is None or r is None or t is None:
            return None
        (rx, ry), (tx, ty), (ax, ay) = _XY[r], _XY[t], _XY[x]
        cx = rx - 1 if tx < rx else rx + 1
        cy = ry - 1 if ty < ry else ry + 1
        return abs(ax - cx) + abs(ay - cy)
    return feature


def hanging() -> Feature:
    """Our pieces (kings aside) attacked by them and not defended by us."""
    def feature(node: Node) -> int:
        position, us = node.position, node.us
        return sum(1 for square in chess.scan_forward(_side(position, us) & ~position.kings)
                   if attackers(position, not us, square)
                   and not attackers(position, us, square))
    return feature

# ---------------------------------------------------------- predicates


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
        return (bool(attackers(node.position, not colour, square))
                and not attackers(node.position, colour, square))
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
        steps = (chess.BB_KING_ATTACKS[king] & ~_side(position, not colour)
                 & ~_side_attacks(position, colour, occupied, kings=True))
        return bool(steps & near)
    return predicate


def divides(p: PieceRef) -> Predicate:
    """The piece stands between the kings: a rook's or queen's file strictly
    between the kings' files or its rank strictly between their ranks; a
    bishop's diagonal or anti-diagonal strictly between the kings' ones."""
    if p.piece_type not in (chess.ROOK, chess.QUEEN, chess.BISHOP):
        raise TableSyntaxError(f"divides takes a rook, queen or bishop, not {p.name}")
    lines = _DIAGONAL_LINES if p.piece_type == chess.BISHOP else _STRAIGHT_LINES

    def predicate(node: Node, root: Node) -> bool:
        square = p.square(node)
        if square is None:
            return False
        ours, theirs = king_square(node.position, node.us), king_square(node.position, not node.us)
        if ours < 0 or theirs < 0:
            return False
        (a1, a2), (b1, b2), (c1, c2) = lines[ours], lines[square], lines[theirs]
        return (min(a1, c1) < b1 < max(a1, c1)) or (min(a2, c2) < b2 < max(a2, c2))
    return predicate


def opposition() -> Predicate:
    """The kings stand on one file or rank with one square between them."""
    def predicate(node: Node, root: Node) -> bool:
        a, b = king_square(node.position, chess.WHITE), king_square(node.position, chess.BLACK)
        if a < 0 or b < 0:
            return False
        (ax, ay), (bx, by) = _XY[a], _XY[b]
        return (ax == bx and abs(ay - by) == 2) or (ay == by and abs(ax - bx) == 2)
    return predicate


def edge(p: PieceRef) -> Predicate:
    """The piece stands on an edge file or rank."""
    def predicate(node: Node, root: Node) -> bool:
        square = p.square(node)
        return square is not None and _EDGE_DIST[square] == 0
    return predicate


def corner(p: PieceRef, colour: Colour = None) -> Predicate:
    """The piece stands in a corner; with a second argument, in a corner of
    that colour (``light``, ``dark``, or the colour of a piece's square)."""
    distance = corner_dist(p, colour)

    def predicate(node: Node, root: Node) -> bool:
        return distance(node) == 0
    return predicate

# ---------------------------------------------------------- generators


def _by_squares(moves: Iterator[chess.Move]) -> list[chess.Move]:
    return sorted(moves, key=lambda m: (m.from_square, m.to_square, m.promotion or 0))


KING_STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1))
"""The book's king order: diagonal steps first, then along the rank, then
along the file, each time +1 (towards h, towards the 8th rank) before -1."""


def _king_order(move: chess.Move) -> int:
    (fx, fy), (tx, ty) = _XY[move.from_square], _XY[move.to_square]
    step = (tx - fx, ty - fy)
    return KING_STEPS.index(step) if step in KING_STEPS else len(KING_STEPS)


def moves(p: PieceRef) -> Generator:
    """The piece's legal moves. A king's in the book's order: diagonal steps
    first, then along the rank, then along the file, each +1 (towards h, the
    8th rank) before -1; any other piece's by target square a1, b1, … h8
    (promotions knight, bishop, rook, queen). None when it is not its side's move,
    so us-moves must name a piece of ours and them-moves one of theirs (checked
    when the table loads)."""
    def generator(node: Node) -> list[chess.Move]:
        square = p.square(node)
        if square is None or node.position.turn != p.colour(node):
            return []
        found = _by_squares(m for m in node.successors() if m.from_square == square)
        return sorted(found, key=_king_order) if p.piece_type == chess.KING else found
    return generator


def checks() -> Generator:
    """Legal moves that give check, by the moving piece's square, then the
    target square (a1, b1, … h8)."""
    def generator(node: Node) -> list[chess.Move]:
        return _by_squares(m for m, child in node.successors().items() if is_check(child))
    return generator


def captures() -> Generator:
    """Legal captures, by the moving piece's square, then the target square."""
    def generator(node: Node) -> list[chess.Move]:
        theirs = _side(node.position, not node.position.turn)
        return _by_squares(m for m in node.successors()
                           if theirs & chess.BB_SQUARES[m.to_square])
    return generator

# ------------------------------------------------------------ registry

PIECE, KING, COLOUR = "piece", "king", "colour"


@dataclass(frozen=True)
class Entry:
    """One family of the vocabulary: its name, kind, parameters and builder."""
    name: str
    kind: str
    """``feature``, ``predicate`` or ``generator``."""
    params: tuple[str, ...]
    """The kind of each parameter: ``piece``, ``king`` (a piece that must be
    a king) or ``colour``."""
    build: Callable[..., Any]
    optional: int = 0
    """How many trailing parameters may be left out."""
    default: str | None = None
    """The piece a feature with no argument measures (``room``: their king)."""

    @property
    def signature(self) -> str:
        """``dist(piece, piece)``, optional parameters in brackets."""
        required = len(self.params) - self.optional
        words = list(self.params[:required]) + [f"[{p}]" for p in self.params[required:]]
        return f"{self.name}({', '.join(words)})" if words else self.name

    @property
    def summary(self) -> str:
        """The first paragraph of the builder's docstring, on one line."""
        doc = (self.build.__doc__ or "").strip()
        return " ".join(doc.split("\n\n")[0].split())


VOCABULARY: tuple[Entry, ...] = (
    Entry("dist", "feature", (PIECE, PIECE), dist),
    Entry("mdist", "feature", (PIECE, PIECE), mdist),
    Entry("edge_dist", "feature", (PIECE,), edge_dist),
    Entry("centre_side_dist", "feature", (PIECE, PIECE), centre_side_dist),
    Entry("corner_dist", "feature", (PIECE, COLOUR), corner_dist, optional=1),
    Entry("room", "feature", (KING,), room, optional=1, default="k"),
    Entry("area", "feature", (KING,), area, optional=1, default="k"),
    Entry("least_area", "feature", (KING,), least_area, optional=1, default="k"),
    Entry("area_corner_dist", "feature", (KING, COLOUR), area_corner_dist, optional=2,
          default="k"),
    Entry("corner_triangle", "feature", (KING, COLOUR), corner_triangle, optional=2,
          default="k"),
    Entry("diagonal_area", "feature", (KING, COLOUR), diagonal_area, optional=2, default="k"),
    Entry("wrong_way", "feature", (KING, COLOUR), wrong_way),
    Entry("triangle_corner_dist", "feature", (PIECE, KING), triangle_corner_dist),
    Entry("area_dist", "feature", (PIECE, KING), area_dist),
    Entry("mobility", "feature", (KING,), mobility, optional=1, default="k"),
    Entry("inward", "feature", (KING,), inward, optional=1, default="k"),
    Entry("critical_mdist", "feature", (PIECE, PIECE, PIECE), critical_mdist),
    Entry("hanging", "feature", (), hanging),
    Entry("lost", "predicate", (PIECE,), lost),
    Entry("attacked", "predicate", (PIECE,), attacked),
    Entry("en_prise", "predicate", (PIECE,), en_prise),
    Entry("threatened", "predicate", (PIECE,), threatened),
    Entry("divides", "predicate", (PIECE,), divides),
    Entry("opposition", "predicate", (), opposition),
    Entry("edge", "predicate", (PIECE,), edge),
    Entry("corner", "predicate", (PIECE, COLOUR), corner, optional=1),
    Entry("moves", "generator", (PIECE,), moves),
    Entry("checks", "generator", (), checks),
    Entry("captures", "generator", (), captures),
)
"""Every family, in the order the reference lists them."""

ENTRIES = {entry.name: entry for entry in VOCABULARY}


def split_call(text: str) -> tuple[str, tuple[str, ...]]:
    """``dist(K, k)`` -> ("dist", ("K", "k")); ``legal`` -> ("legal", ())."""
    if "(" not in text:
        return text, ()
    name, _, rest = text.partition("(")
    return name, tuple(arg.strip() for arg in rest.rstrip(")").split(","))


class Binder:
    """Binds calls of the vocabulary for one material, once each.

    The same call written twice (``room`` and ``room(k)``) gets the same
    function, so a memoised feature is computed once per node.
    """

    def __init__(self, material: str):
        self.material = material
        self.pieces = material_pieces(material)
        self._bound: dict[tuple[str, tuple[object, ...]], Any] = {}
        self.colours: list[str] = []
        """Calls bound with ``light`` or ``dark``: a mirror swaps them."""
        self.numbered: list[str] = []
        """Calls bound with a numbered piece (``B1``): numbered by square, so
        a mirror may swap it with its twin."""

    def bind(self, text: str, kind: str) -> Any | None:
        """The function of call ``text`` as a ``kind``; None when the
        vocabulary has no such family of that kind.

        :raises UnknownNameError: a piece the material does not have.
        :raises TableSyntaxError: the wrong number or kind of arguments.
        """
        name, args = split_call(text)
        entry = ENTRIES.get(name)
        if entry is None or entry.kind != kind:
            return None
        required = len(entry.params) - entry.optional
        if not required <= len(args) <= len(entry.params):
            count = (str(required) if not entry.optional
                     else f"{required} to {len(entry.params)}")
            raise TableSyntaxError(f"{entry.signature} takes {count} argument"
                                   f"{'' if count == '1' else 's'}, not {len(args)}: {text}")
        if not args and entry.default is not None:
            args = (entry.default,)
        resolved = tuple(self._argument(param, arg, entry)
                         for param, arg in zip(entry.params, args))
        if any(isinstance(r, bool) for r in resolved):
            self.colours.append(text)
        if any(isinstance(r, PieceRef) and r.name[-1].isdigit() for r in resolved):
            self.numbered.append(text)
        key = (name, tuple(getattr(r, "name", r) for r in resolved))
        if key not in self._bound:
            function = entry.build(*resolved)
            function.__doc__ = entry.build.__doc__
            self._bound[key] = function
        return self._bound[key]

    def _argument(self, param: str, arg: str, entry: Entry) -> object:
        if param == COLOUR and arg in ("light", "dark"):
            return arg == "light"
        piece = self.pieces.get(arg)
        if piece is None:
            names = ", ".join(self.pieces)
            also = ", light, dark" if param == COLOUR else ""
            raise UnknownNameError(f"{entry.name}: {self.material} has no piece {arg!r} "
                                   f"(its pieces: {names}{also})")
        if param == KING and piece.piece_type != chess.KING:
            raise TableSyntaxError(f"{entry.name} takes a king, not {arg}")
        return piece


def reference_markdown() -> str:
    """The vocabulary section of ``docs/language.md``: every name of the
    standard library and of this vocabulary with its docstring's summary
    (a test keeps the document equal to this)."""
    from al0.lang.library import standard_library
    standard = standard_library()
    rows = ["| name | kind | meaning |", "|---|---|---|"]
    for name in standard.predicates:
        rows.append(f"| `{name}` | predicate | {standard.describe(name)} |")
    for name in standard.generators:
        rows.append(f"| `{name}` | generator | {standard.describe(name)} |")
    for entry in VOCABULARY:
        rows.append(f"| `{entry.signature}` | {entry.kind} | {entry.summary} |")
    return "\n".join(rows)
