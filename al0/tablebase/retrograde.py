"""The retrograde build of a tablebase: on the native core
(``al0/core/retrograde.c``) where it runs, else its twin here, vectorised
with numpy (the same bytes: ``tests/tablebase/test_retrograde.py``).

An entry is a position's value for the side to move, in plies (half-moves)
to mate with best play by both sides: even for a loss (0: mated now), odd
for a win; :data:`DRAW` for a legal position that neither side can win, and
:data:`ILLEGAL` for an index that is no legal position.

Only one index per symmetry class (the least, see
:meth:`~al0.tablebase.geometry.Layout.canonical`) takes part in the
build; the others copy it at the end. Level by level: a position is a win in
``d`` plies when some move reaches a loss in ``d - 1`` (found by un-moving
from those losses); it is a loss in ``d`` when its last move has just been
found to reach a win of the opponent (a counter of unresolved moves per
position). Captures and promotions (exits) lead into other tables, so
their values are known from the start and act at the level they decide; a
pawn's push is un-moved by a step back. A position whose side to move may
take en passant has an entry of its own, the pawn that stepped twice
coded on its own first rank (:func:`on_board`). Un-moving from a class's one index
reaches each predecessor class ``|Stab(P)| / |Stab(Q)|`` times per move
between them, so the counters are kept in units of ``1/|G|`` moves: a move
of P is worth ``|G| / |Stab(P)|``, an un-move from Q ``|G| / |Stab(Q)|``
(``G``: the 8 symmetries, or the file mirror with pawns, times the two
orders of a pair of like pieces).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import chess
import numpy as np
import numpy.typing as npt

from al0.board import Material
from al0.core import native
from al0.tablebase.geometry import (
    BIT,
    MOVES,
    OFF,
    PAWN_TOUCH,
    STEP,
    Indices,
    Layout,
    Mask,
    Squares,
    attacked,
    occupancy,
)
from al0.tablebase.material import PROMOTIONS, exits

Values = npt.NDArray[np.uint8]
"""A table: shape (2, size), row 0 the first side to move, row 1 the second."""

DRAW = 254
ILLEGAL = 255
MAX_PLIES = 253
"""The longest distance an entry can hold (every 4-man ending is far shorter)."""

PASS_POSITIONS = 1 << 18
"""Positions handled per numpy pass where a pass covers the whole table, to
bound the memory of the temporaries (a few hundred bytes per position)."""

_NEVER = np.int32(1 << 30)
"""Counter of a position that can never be lost (a move draws or wins)."""

Progress = Callable[[str], None]


def moves(
    material: Material, mover: int, squares: list[Squares], captures: bool
) -> Iterator[tuple[int, Squares, Indices, int]]:
    """The pseudo-legal moves of side ``mover`` in every position: for each
    piece, direction and distance, ``(slot, destinations, positions,
    captured)``, where ``positions`` selects the positions that have the move
    and ``captured`` is the slot taken (-1 for a quiet move). Kings are never
    captured (a legal position has the other king out of check). Reversed,
    a quiet move is its own un-move, so this also generates predecessors.
    Pawns move by :func:`pawn_moves`."""
    types, sides = material.types, material.sides
    count = len(squares[0])
    targets = (
        [s for s in range(len(types)) if sides[s] != mover and types[s] != chess.KING] if captures else []
    )
    for slot in [s for s in range(len(types)) if sides[s] == mover and types[s] != chess.PAWN]:
        directions, slides = MOVES[types[slot]]
        for direction in directions:
            alive = np.arange(count)
            current = squares[slot]
            for _ in range(7 if slides else 1):
                current = STEP[direction][current]
                on_board = current != OFF
                alive, current = alive[on_board], current[on_board]
                if not len(alive):
                    break
                occupant = np.full(len(alive), -1)
                for other in range(len(types)):
                    if other != slot:
                        occupant[squares[other][alive] == current] = other
                empty = occupant < 0
                yield slot, current[empty], alive[empty], -1
                for target in targets:
                    taken = occupant == target
                    if taken.any():
                        yield slot, current[taken], alive[taken], target
                alive, current = alive[empty], current[empty]


def _start_rank(side: int) -> int:
    """The rank (0-7) a pawn of ``side`` starts on: the first side's go up."""
    return 1 if side == 0 else 6


def _empty(squares: list[Squares], selected: Indices, square: Squares, but: int) -> Mask:
    """Whether no man but slot ``but`` stands on ``square`` in the positions ``selected``."""
    free = np.ones(len(selected), dtype=bool)
    for slot, on in enumerate(squares):
        if slot != but:
            free &= on[selected] != square
    return free


def pawn_moves(
    material: Material, mover: int, squares: list[Squares]
) -> Iterator[tuple[int, Squares, Indices, int, bool]]:
    """The pseudo-legal moves of side ``mover``'s pawns in every position, as
    :func:`moves` gives a piece's, with whether they promote: ``(slot,
    destinations, positions, captured, promotes)``: a step forward to an
    empty square, two from the start rank over an empty one, a capture on a
    diagonal forward."""
    types, sides = material.types, material.sides
    count, step = len(squares[0]), 8 if mover == 0 else -8
    last = 7 if mover == 0 else 0
    targets = [s for s in range(len(types)) if sides[s] != mover and types[s] != chess.KING]
    for slot in [s for s in range(len(types)) if sides[s] == mover and types[s] == chess.PAWN]:
        every = np.arange(count)
        start = squares[slot]
        one = start + step
        pushed = _empty(squares, every, one, slot)
        found: list[tuple[Squares, Indices, int]] = [(one[pushed], every[pushed], -1)]
        two = start + 2 * step
        double = pushed & (start >> 3 == _start_rank(mover)) & _empty(squares, every, two, slot)
        found.append((two[double], every[double], -1))
        for target in targets:
            hit = PAWN_TOUCH[mover, start, squares[target]]
            found.append((squares[target][hit], every[hit], target))
        for destination, selected, captured in found:
            promotes = destination >> 3 == last
            yield slot, destination[~promotes], selected[~promotes], captured, False
            yield slot, destination[promotes], selected[promotes], captured, True


def pawn_unmoves(
    material: Material, mover: int, squares: list[Squares]
) -> Iterator[tuple[int, Squares, Indices, bool]]:
    """The quiet un-moves of side ``mover``'s pawns: ``(slot, origins,
    positions, double)``, a step back, or two to the start rank over an
    empty square (``double``)."""
    types, sides = material.types, material.sides
    count, step = len(squares[0]), 8 if mover == 0 else -8
    for slot in [s for s in range(len(types)) if sides[s] == mover and types[s] == chess.PAWN]:
        every = np.arange(count)
        start = squares[slot]
        back = start - step
        free = (start >> 3 != _start_rank(mover)) & _empty(squares, every, back, slot)
        yield slot, back[free], every[free], False
        two = start - 2 * step
        double = (
            free & (start >> 3 == _start_rank(mover) + 2 * (step // 8)) & _empty(squares, every, two, slot)
        )
        yield slot, two[double], every[double], True


def _passant(material: Material) -> bool:
    """Whether both sides have pawns: only then may one take en passant."""
    return {side for piece, side in zip(material.types, material.sides) if piece == chess.PAWN} == {0, 1}


def passant_target(material: Material, squares: list[Squares], mover: int) -> Indices:
    """Per position, the slot of the pawn of the side not to move that
    ``mover`` could take en passant had it just stepped twice (on its fourth
    rank, the two squares it passed empty, a pawn of ``mover`` beside it),
    else -1: ``passant_target`` in ``retrograde.c``, whose comment says how
    a table indexes such a position."""
    count = len(squares[0])
    found = np.full(count, -1, dtype=np.int64)
    if not _passant(material):
        return found
    types, sides = material.types, material.sides
    occupied = occupancy(squares)
    step = 8 if mover == 0 else -8
    takers = [s for s in range(len(types)) if types[s] == chess.PAWN and sides[s] == mover]
    for slot in reversed([s for s in range(len(types)) if types[s] == chess.PAWN and sides[s] != mover]):
        square = squares[slot]
        ok = square >> 3 == (3 if mover else 4)
        passed = np.where(ok, square + step, OFF)
        further = np.where(ok, square + 2 * step, OFF)
        ok &= ((BIT[passed] | BIT[further]) & occupied) == 0
        beside = np.zeros(count, dtype=bool)
        for taker in takers:
            beside |= (squares[taker] >> 3 == square >> 3) & (np.abs(squares[taker] - square) == 1)
        found = np.where(ok & beside, slot, found)  # the least slot, as the core's loop
    return found


def _coded(material: Material, squares: list[Squares], slot: int) -> list[Squares]:
    """``squares`` with the pawn in ``slot``, just stepped twice, where the
    index holds it: on its own first rank, three squares behind."""
    coded = list(squares)
    coded[slot] = squares[slot] + (-24 if material.sides[slot] == 0 else 24)
    return coded


def on_board(material: Material, squares: list[Squares], side: int) -> tuple[list[Squares], Indices, Mask]:
    """The squares on the board of the entries at ``squares`` with ``side``
    to move, the slot of the pawn it may take en passant in each (-1:
    none), and whether the entry stands for a position at all (not a pawn
    of the side to move on its first rank, nor one coded as just stepped
    twice where no en passant is open): ``on_board`` in ``retrograde.c``."""
    types, sides = material.types, material.sides
    board = list(squares)
    passant = np.full(len(squares[0]), -1, dtype=np.int64)
    valid = np.ones(len(squares[0]), dtype=bool)
    for slot in [s for s in range(len(types)) if types[s] == chess.PAWN]:
        coded = squares[slot] >> 3 == (0 if sides[slot] == 0 else 7)
        if sides[slot] == side or not _passant(material):
            valid &= ~coded
            continue
        valid &= ~(coded & (passant >= 0))
        passant = np.where(coded, slot, passant)
        board[slot] = np.where(coded, squares[slot] + (24 if sides[slot] == 0 else -24), squares[slot])
    opened = passant >= 0
    if opened.any():
        valid &= ~opened | (passant_target(material, board, side) == passant)
    return board, passant, valid


class _Classes:
    """Per-index facts the build needs: legality for each side to move,
    check, and whether the index is its class's one index, with the size of
    its stabiliser."""

    def __init__(self, layout: Layout):
        size = layout.size
        material = layout.material
        types, sides = material.types, material.sides
        kings = material.kings
        self.legal = np.zeros((2, size), dtype=bool)
        self.check = np.zeros((2, size), dtype=bool)
        self.canonical = np.zeros(size, dtype=bool)
        self.stabiliser = np.zeros(size, dtype=np.int32)
        slots = [[s for s in range(len(types)) if sides[s] == side] for side in (0, 1)]
        for start in range(0, size, PASS_POSITIONS):
            index = np.arange(start, min(size, start + PASS_POSITIONS))
            squares = layout.decode(index)
            for side in (0, 1):
                board, _, distinct = on_board(material, squares, side)
                for i in range(len(board)):
                    for j in range(i + 1, len(board)):
                        distinct &= board[i] != board[j]
                    if types[i] == chess.PAWN:  # never on the first or last rank
                        distinct &= (board[i] >> 3 != 0) & (board[i] >> 3 != 7)
                occupied = occupancy(board)
                own_king, their_king = board[kings[side]], board[kings[1 - side]]
                # Legal with ``side`` to move: the other king is not in check.
                self.legal[side, index] = distinct & ~attacked(
                    types, slots[side], board, their_king, occupied, sides
                )
                self.check[side, index] = attacked(types, slots[1 - side], board, own_king, occupied, sides)
            least = np.ones(len(index), dtype=bool)
            fixed = np.zeros(len(index), dtype=np.int32)
            for image in layout.images(squares):
                least &= (image < 0) | (image >= index)
                fixed += image == index
            self.canonical[index] = least
            self.stabiliser[index] = fixed


def build(material: Material, smaller: Mapping[str, Values], progress: Progress | None = None) -> Values:
    """The table of ``material``, given the tables of every material a
    capture leads to (by name, as :meth:`Material.without` names them):
    built on the native core where it runs, else by :func:`build_twin`."""
    core = native()
    if core is None:
        return build_twin(material, smaller, progress)
    return _build_native(core, material, smaller, progress)


def _threads() -> int:
    """The processors this process may run on (a build shares its levels among them)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def _build_native(
    core: Any, material: Material, smaller: Mapping[str, Values], progress: Progress | None
) -> Values:
    """:func:`build` on the native core: the exits (captures, promotions)
    as the core reads them, each with the table it leads to."""
    size = Layout(material).size
    if progress:
        progress(f"{material.name}: building {2 * size:,} indices on the native core")
    leaving = [
        (
            taken,
            promoted,
            piece,
            after.types,
            after.sides,
            mapping,
            swapped,
            np.ascontiguousarray(smaller[after.name]),
        )
        for taken, promoted, piece, after, mapping, swapped in exits(material)
    ]
    values = np.empty((2, size), dtype=np.uint8)
    core.retrograde(material.types, material.sides, leaving, _threads(), values)
    return values


def build_twin(material: Material, smaller: Mapping[str, Values], progress: Progress | None = None) -> Values:
    """:func:`build` in numpy: the native core's reference twin."""
    layout = Layout(material)
    size = layout.size
    group = len(layout.symmetries) * (2 if material.pair is not None else 1)
    if progress:
        progress(f"{material.name}: classifying {2 * size:,} indices")
    classes = _Classes(layout)
    legal = classes.legal
    weight = np.zeros(size, dtype=np.int32)
    weight[classes.canonical] = group // classes.stabiliser[classes.canonical]

    values = np.full((2, size), ILLEGAL, dtype=np.uint8)
    values[legal] = DRAW
    counter = np.zeros((2, size), dtype=np.int32)
    win_at = np.full((2, size), 255, dtype=np.uint8)  # a capture wins in this many plies
    lose_at = np.full((2, size), 255, dtype=np.uint8)  # lost in this many plies, once known
    captured_at = np.zeros((2, size), dtype=np.uint8)  # the longest a losing capture lasts
    frontier: list[Indices] = []
    last_scheduled = 0
    for side in (0, 1):
        if progress:
            progress(f"{material.name}: counting moves, {'first' if side == 0 else 'second'} side to move")
        live = np.flatnonzero(classes.canonical & legal[side])
        mated: list[Indices] = []
        for start in range(0, len(live), PASS_POSITIONS):
            index = live[start : start + PASS_POSITIONS]
            quiet, escape, losing, won, worst = _count_moves(layout, side, index, legal, smaller)
            counter[side, index] = np.where(escape, _NEVER, quiet * weight[index])
            win_at[side, index] = won
            captured_at[side, index] = worst
            none_quiet = (quiet == 0) & ~escape
            lost_by_captures = none_quiet & (losing > 0)
            lose_at[side, index[lost_by_captures]] = worst[lost_by_captures]
            mated.append(index[none_quiet & (losing == 0) & (won == 255) & classes.check[side, index]])
            last_scheduled = max(
                last_scheduled,
                int(np.max(np.where(won < 255, won, 0), initial=0)),
                int(np.max(np.where(losing > 0, worst, 0), initial=0)),
            )
        frontier.append(np.concatenate(mated))
        values[side, frontier[side]] = 0

    level = 0
    while level < MAX_PLIES and (any(len(f) for f in frontier) or level < last_scheduled):
        level += 1
        if progress and level % 10 == 0:
            progress(f"{material.name}: {level} plies")
        reached = []
        for side in (0, 1):
            predecessors, weights = _unmove(layout, side, frontier[1 - side], legal, weight)
            unresolved = values[side] == DRAW
            # Marks on a bitmap, not np.unique: a pass over the table is
            # cheaper than sorting or hashing millions of predecessors.
            touched = np.zeros(size, dtype=bool)
            touched[predecessors] = True
            if level % 2:
                found = np.flatnonzero((touched | (win_at[side] == level)) & unresolved)
            else:
                np.subtract.at(counter[side], predecessors, weights)
                done = np.flatnonzero(touched & (counter[side] == 0) & unresolved)
                # Lost now, or when its longest losing capture is mated if that is later.
                lose_at[side, done] = np.maximum(level, captured_at[side, done])
                found = np.flatnonzero((lose_at[side] == level) & unresolved)
            reached.append(found)
        for side in (0, 1):
            values[side, reached[side]] = level
        frontier = reached

    if progress:
        progress(f"{material.name}: copying values to symmetric indices")
    for start in range(0, size, PASS_POSITIONS):
        index = np.arange(start, min(size, start + PASS_POSITIONS))
        canonical = layout.canonical(layout.decode(index))
        values[:, index] = values[:, canonical]
    return values


def _unmove(
    layout: Layout, side: int, frontier: Indices, legal: npt.NDArray[np.bool_], weight: npt.NDArray[np.int32]
) -> tuple[Indices, npt.NDArray[np.int32]]:
    """The classes (canonical indices) with ``side`` to move that reach a
    class of ``frontier`` by a quiet move, once per un-move, with each
    un-move's worth in counter units."""
    found: list[Indices] = []
    worth: list[npt.NDArray[np.int32]] = []
    material = layout.material
    for start in range(0, len(frontier), PASS_POSITIONS):
        chunk = frontier[start : start + PASS_POSITIONS]
        # A position reached by a double step that opened en passant has
        # that step as its only un-move.
        squares, passant, _ = on_board(material, layout.decode(chunk), 1 - side)
        plain = passant < 0
        opened = passant_target(material, squares, 1 - side)
        unmoves: list[tuple[int, Squares, Indices]] = []
        for slot, to, selected, _ in moves(material, side, squares, False):
            keep = plain[selected]
            unmoves.append((slot, to[keep], selected[keep]))
        for slot, back, selected, double in pawn_unmoves(material, side, squares):
            # A double step that opened en passant led to the other index.
            keep = (passant[selected] == slot) if double else plain[selected]
            if double:
                keep |= plain[selected] & (opened[selected] != slot)
            unmoves.append((slot, back[keep], selected[keep]))
        for slot, destination, selected in unmoves:
            before = [square[selected] for square in squares]
            before[slot] = destination
            # The same position with ``side`` free to take en passant, had
            # the other side's pawn just stepped twice: that move reaches
            # this one too.
            target = passant_target(material, before, side)
            images = [(before, np.arange(len(selected)))]
            for pawn in np.unique(target[target >= 0]).tolist():
                chosen = np.flatnonzero(target == pawn)
                images.append((_coded(material, [s[chosen] for s in before], pawn), chosen))
            for image, chosen in images:
                index = layout.canonical(image, king_placed=slot != 0)
                ok = legal[side, index]
                found.append(index[ok])
                worth.append(weight[chunk[selected[chosen[ok]]]])
    if not found:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)
    return np.concatenate(found), np.concatenate(worth)


def _count_moves(
    layout: Layout, side: int, index: Indices, legal: npt.NDArray[np.bool_], smaller: Mapping[str, Values]
) -> tuple[
    npt.NDArray[np.int32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.int32],
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint8],
]:
    """For positions with ``side`` to move: legal quiet moves, whether a
    capture draws or wins (an escape from losing), captures that lose, the
    fewest plies a winning capture mates in (255: none), and the most plies
    a losing capture is mated in."""
    material = layout.material
    squares, passant, _ = on_board(material, layout.decode(index), side)
    count = len(index)
    quiet = np.zeros(count, dtype=np.int32)
    escape = np.zeros(count, dtype=bool)
    losing = np.zeros(count, dtype=np.int32)
    won = np.full(count, 255, dtype=np.uint8)
    worst = np.zeros(count, dtype=np.uint8)
    leaving = {
        (taken, promoted, piece): (rest, mapping, swapped)
        for taken, promoted, piece, rest, mapping, swapped in exits(material)
    }
    pieces = [
        (slot, to, selected, captured, False)
        for slot, to, selected, captured in moves(material, side, squares, True)
    ]
    # En passant: a pawn beside the one that stepped twice takes it on the
    # square it passed.
    passing: list[tuple[int, Squares, Indices, int, bool]] = []
    forward = 8 if side == 0 else -8
    for pawn in np.unique(passant[passant >= 0]).tolist():
        for taker in [s for s in range(len(material.types)) if material.types[s] == chess.PAWN]:
            if material.sides[taker] != side:
                continue
            beside = (passant == pawn) & (squares[taker] >> 3 == squares[pawn] >> 3)
            beside &= np.abs(squares[taker] - squares[pawn]) == 1
            selected = np.flatnonzero(beside)
            passing.append((taker, squares[pawn][selected] + forward, selected, pawn, False))
    for slot, destination, selected, captured, promotes in [
        *pieces,
        *pawn_moves(material, side, squares),
        *passing,
    ]:
        after = [square[selected] for square in squares]
        after[slot] = destination
        if captured < 0 and not promotes:
            # The positions are canonical: their first king is on a least square.
            successor = layout.canonical(after, king_placed=slot != 0)
            quiet[selected] += legal[1 - side, successor]  # a position has each move once
            continue
        for piece in PROMOTIONS if promotes else (0,):
            rest, mapping, swapped = leaving[captured, slot if promotes else -1, piece]
            small = Layout(rest)
            # Its first side our second: the ranks flipped, so that the pawns
            # of its first side go up the board (no pawnless value changes).
            flip = 56 if swapped else 0
            value = smaller[rest.name][
                (1 - side) ^ int(swapped), small.canonical([after[s] ^ flip for s in mapping])
            ]
            plies = value.astype(np.int32) + 1
            lost = (value % 2 == 0) & (value < DRAW)  # the opponent is mated: we win
            escape[selected[(value == DRAW) | lost]] = True
            won[selected[lost]] = np.minimum(won[selected[lost]], plies[lost])
            against = (value % 2 == 1) & (value < DRAW)
            losing[selected[against]] += 1
            worst[selected[against]] = np.maximum(worst[selected[against]], plies[against])
    return quiet, escape, losing, won, worst
