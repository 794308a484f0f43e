"""Games against the tablebase defender as chains of shared segments.

The tablebase defender always answers a position with the same move, and a
plan depends on its position only. So from a position where a game starts
a new plan, what follows until the next new plan is the same in every game
that gets there: a :class:`Segment` (the plan's moves and the defender's
replies, the tree followed as the play loop follows it). A game is a chain
of segments, and games from different starts soon run into one another's
chains: each segment is made once (:func:`make_segment`: a plan and a few
defender moves) and shared, in one process or between worker processes,
and a game's record is read off its chain by :func:`walk`.

What history decides is not in a segment: the move limit (our moves since
the start), the 50-move rule and threefold repetition, which can span the
joins; and the plan itself where its tree would lead back to a position the
game has seen after a move of ours (:mod:`al0.engine.history`): a segment
names the positions its tree's moves of ours lead to (:attr:`Segment.ours`),
and where one was seen the game goes on by segments planned with its
history (:func:`walk`'s ``again``). :func:`walk` goes through the chain half-move by half-move with
those counts, checking them where and in the order the play loop
(:func:`al0.engine.play.play_game`) does, so a record is the one the play loop
gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NamedTuple

from al0.board.moves import apply, play
from al0.board.position import Position
from al0.engine.history import our_children
from al0.engine.plan import Planner
from al0.engine.play import Ending, descend, ending_at, resets_count
from al0.engine.tree import ForcingTree
from al0.errors import AL0Error
from al0.verify.analysis import AdviceCounts, AdviceUse, qualified
from al0.verify.game import limit_reached

if TYPE_CHECKING:
    from al0.tablebase import Tablebase

Key = int
"""A position packed into one int (:func:`pack`): a third of a Position's
memory, to keep hundreds of thousands and send them between processes."""

_NO_PLAN, _FIFTY, _SEARCH_LIMIT = Ending.NO_PLAN, Ending.FIFTY_MOVES, Ending.SEARCH_LIMIT
_REPETITION, _MOVE_LIMIT = Ending.REPETITION, Ending.MOVE_LIMIT
_MASK = (1 << 64) - 1


def pack(position: Position) -> Key:
    """``position`` as one int: its bitboards side by side (the knights are
    what is left of the men); with pawns, their bitboard, the en-passant
    square (7 bits, 0 for none) and a bit set; the side to move."""
    white, black, kings, queens, rooks, bishops, _, pawns, turn, ep_square = position
    key = ((((white << 64 | black) << 64 | kings) << 64 | queens) << 64 | rooks) << 64 | bishops
    if pawns:
        # Only with pawns: a pawnless key stays as short as before.
        key = (key << 64 | pawns) << 7 | (0 if ep_square is None else ep_square + 1)
        return (key << 1 | 1) << 1 | turn
    return key << 2 | turn


def ours_hash(key: Key) -> int:
    """The hash of the position ``key`` that :attr:`Segment.ours` names it
    by: the same in every process, as segments go from one worker to
    another. A :class:`~al0.board.position.Position`'s own hash is not:
    before Python 3.12 ``hash(None)`` (a pawnless position's en-passant
    square) is its address, the same in a pool's forked workers but not in
    a Dask worker, where a game then missed the positions a segment made
    by the other worker leads back to (issue 45)."""
    return hash((key,))  # a tuple's hash mixes the bits (an int's keeps them); ints hash alike everywhere


def unpack(key: Key) -> Position:
    """The position :func:`pack` made ``key`` of."""
    turn = bool(key & 1)
    pawns, ep_square = 0, None
    with_pawns = key & 2
    key >>= 2
    if with_pawns:
        ep_square = (key & 127) - 1 if key & 127 else None
        pawns = key >> 7 & _MASK
        key >>= 71
    bishops, rooks = key & _MASK, key >> 64 & _MASK
    queens, kings = key >> 128 & _MASK, key >> 192 & _MASK
    black, white = key >> 256 & _MASK, key >> 320
    knights = (white | black) & ~(kings | queens | rooks | bishops | pawns)
    return Position(white, black, kings, queens, rooks, bishops, knights, pawns, turn, ep_square)


class Segment(NamedTuple):
    """What a game does from a position where it starts a new plan (our
    move), up to the next such position or the end of the game."""

    rule: str | None
    advice: str | None
    """The plan's rule and advice: every move of the segment is theirs."""
    dtm: int | None
    """Our moves to mate by the tablebase at the segment's position (None:
    not won): a start's optimum, where its tally begins."""
    keys: tuple[Key, ...]
    """The position after each half-move: our move, their reply, ours, …"""
    dtms: tuple[int | None, ...]
    """Our moves to mate after each half-move, for the per-advice tally."""
    resets: int
    """Bit ``i`` is set when half-move ``i`` took a man or moved a pawn
    (:func:`~al0.engine.play.resets_count`): the 50-move count and the
    positions that count for a repetition start again."""
    ending: Ending | None
    """How the game ends at the last of ``keys`` (an :class:`~al0.engine.play.Ending`
    value the position decides), or at the segment's own position when there
    are no moves: an ending there, or no plan; None when a new plan starts
    at the last of ``keys``."""
    failure: AL0Error | None = None
    """The error the plan's search raised (a spent budget, a broken
    library): where a game needs the plan, it ends the game there (a search
    limit: :func:`~al0.verify.game.limit_reached`) or is raised, as the play
    loop's would be."""
    ours: tuple[int, ...] = ()
    """The :func:`ours_hash` of each position a move of ours in the plan's tree leads to
    (as far as the planner avoids the positions seen), once each: a game
    that has seen one of them may plan otherwise here. A tuple: a frozenset
    took 270 bytes a segment, a worker's largest part of one."""
    table: str | None = None
    """The name of the table that plans here when it is not the game's
    first (a capture or a promotion handed the game on:
    :mod:`al0.engine.successors`)."""


def make_segment(
    planner: Planner, tablebase: Tablebase, position: Position, seen: frozenset[Position] = frozenset()
) -> Segment:
    """The segment from ``position`` (our move), the game having seen
    ``seen`` after its moves of ours: its plan, followed against the
    tablebase's defence as :func:`~al0.engine.play.play_game` follows it."""
    us = planner.table.us
    dtm = tablebase.dtm_at(position, us)
    end = ending_at(position, planner)
    if end is not None:
        return Segment(None, None, dtm, (), (), 0, end)
    playing = planner.playing(position)
    assert playing is not None  # else ending_at ended the game
    table = None if playing is planner else playing.table.name
    try:
        plan = playing.plan_position(position, seen=seen)
    except AL0Error as error:
        return Segment(None, None, dtm, (), (), 0, None, error, table=table)
    if plan.tree is None:
        return Segment(plan.rule, plan.advice, dtm, (), (), 0, _NO_PLAN, table=table)
    keys: list[Key] = []
    dtms: list[int | None] = []
    resets = 0
    before = position

    def add(reached: Position) -> Ending | None:
        """Note the position after a half-move; the ending it decides, if any."""
        nonlocal resets, before
        men_changed = resets_count(before, reached)
        if men_changed:
            resets |= 1 << len(keys)
        before = reached
        keys.append(pack(reached))
        dtms.append(tablebase.dtm_at(reached, us))
        return ending_at(reached, planner, men_changed)

    ours = tuple({ours_hash(pack(child)) for child in our_children(position, plan.tree)})

    def segment(ending: Ending | None) -> Segment:
        return Segment(
            plan.rule, plan.advice, dtm, tuple(keys), tuple(dtms), resets, ending, None, ours, table
        )

    tree: ForcingTree | None = plan.tree
    while tree is not None:
        move = tree.branches[0][0]
        after = play(position, move)
        assert after is not None  # the search only keeps legal moves
        ending = add(after)
        if ending is not None:
            return segment(ending)
        reply = tablebase.best_defence_at(after)
        position = apply(after, reply)
        ending = add(position)
        if ending is not None:
            return segment(ending)
        if resets >> (len(keys) - 2) and planner.playing(position) is not playing:
            # A capture or a pawn's move in the last two half-moves, and the
            # new men are another table's to plan (as the play loop does).
            break
        tree = descend(descend(tree, move, playing.table), reply, playing.table)
    return segment(None)  # a new plan at ``position``


class Outcome(NamedTuple):
    """How a game went, read off its chain of segments."""

    ending: Ending
    moves: int
    """Our moves played."""
    optimal: int | None
    """The tablebase's moves to mate from the start (None: not won)."""
    advice_uses: tuple[AdviceUse, ...]
    """The per-advice tally (empty when the start is not won)."""
    failure: str = ""
    """For a game that ended at a search limit, the error in words."""
    handed_on: bool = False
    """Whether another table planned part of the game (a capture or a
    promotion changed the material)."""


class Tail(NamedTuple):
    """The rest of a game from a segment's position (our move) when nothing
    before it counts: what a game that reaches the position does from there
    on, unless its history changes it (see :func:`_tail_fits`). Games from
    different starts join one another's chains, so a game read off its chain
    mostly ends in a tail read before, not half-move by half-move."""

    ending: Ending
    """An ending the positions decide (mate, stalemate, material lost, no
    plan): never one the history decides (50 moves, repetition, the move
    limit), which a history of its own may reach sooner or later."""
    moves: int
    """Our moves from the position to the end."""
    uses: tuple[AdviceUse, ...]
    """The per-advice tally from the position on, its DTM the segment's."""
    quiet: int
    """Half-moves from the position before the first capture or pawn move
    (all of them without one): those the 50-move count and repetitions before the
    position reach."""
    marks: int
    """A bit (:func:`_mark`) for each position of those ``quiet`` half-moves:
    a position before the tail whose bit is not set is not among them."""
    ours: int
    """A bit (:func:`_mark` of its hash) for each position its segments'
    trees lead a move of ours to (:attr:`Segment.ours`): a game that has seen
    one after a move of ours before the tail may plan otherwise in it."""
    failure: str = ""
    """For a tail that ends at a search limit, the error in words."""
    handed_on: bool = False
    """Whether a table other than the game's first plans in the tail."""


_DECIDED = frozenset(Ending) - {_FIFTY, _REPETITION, _MOVE_LIMIT}
"""Endings a position decides, whatever came before: a tail ends in one."""

_MARK_BITS = 1023
"""The bits of :attr:`Tail.marks` (as a mask): with 1,024, a tail's forty
or so positions leave most bits clear."""


def _mark(key: Key) -> int:
    """The bit of a position in :attr:`Tail.marks`."""
    return 1 << (hash((key,)) & _MARK_BITS)  # a tuple's hash mixes the bits (an int's keeps them)


def _tail_fits(
    tail: Tail,
    key: Key,
    moves: int,
    clock: int,
    max_moves: int,
    seen: dict[Key, int],
    segment: Callable[[Key], Segment],
    after_ours: dict[int, Key] | None = None,
) -> bool:
    """Whether a game at the position ``key`` with ``moves`` played, its
    50-move count at ``clock`` and the positions ``seen`` since the last
    capture or pawn move ends as ``tail`` does from there: the move limit
    and the 50-move rule are not reached on the way, and no position of the
    tail before its first capture or pawn move came before (but ``key``
    itself, once), so no count of a repetition differs. The tail's marks rule most positions out at once;
    where they cannot, its chain is read, segment by segment. Nor may a
    position the game had after a move of ours (``after_ours``, by hash) be
    one a tree of the tail leads back to (then a plan there may differ):
    told by the marks alone, so a tail whose mark is set is not used."""
    if moves + tail.moves >= max_moves or clock + tail.quiet >= 100 or seen.get(key) != 1:
        return False
    if after_ours and any(tail.ours & _mark(h) for h in after_ours):
        return False
    marks = 0
    for before in seen:
        if before != key:
            marks |= _mark(before)
    if not marks & tail.marks:
        return True
    del seen[key]
    try:
        left, at = tail.quiet, key
        while left > 0:
            keys = segment(at).keys
            if not seen.keys().isdisjoint(keys if len(keys) <= left else keys[:left]):
                return False
            left -= len(keys)
            at = keys[-1]
        return True
    finally:
        seen[key] = 1


def _segment_uses(current: Segment) -> tuple[int, int, int, int]:
    """The tally (moves, progress, stalled, lost) of a segment read to its
    end, its DTM the segment's: as :class:`~al0.verify.analysis.AdviceCounts`
    counts each of our moves, after the reply or after our move when it
    ended the game."""
    before, dtms = current.dtm, current.dtms
    last = len(dtms) - 1
    ends = list(range(1, len(dtms), 2))  # each of our moves, after the reply
    if last % 2 == 0 and current.ending is not None:  # our move ended the game
        ends.append(last)
    progress = stalled = lost = 0
    for index in ends:
        after = dtms[index]
        if before is not None and after is None:
            lost += 1
        elif before is not None and after is not None:
            progress += before - after
            stalled += before <= after
        before = after
    return len(ends), progress, stalled, lost


_use = AdviceUse._make


def _advice(segment: Segment) -> tuple[str | None, str | None]:
    """The segment's (rule, advice), as the per-advice tally names them."""
    return qualified(segment.table, segment.rule), segment.advice


def _remember(
    tails: dict[Key, Tail],
    walked: list[tuple[Key, Segment, int, int]],
    resets: list[int],
    ending: Ending,
    moves: int,
    halfmoves: int,
    tail: Tail | None,
    failure: str = "",
    handed_on: bool = False,
) -> None:
    """Note the tail from each position where the game just read (ending in
    ``ending``, a decided one, after ``moves`` of our moves and
    ``halfmoves`` half-moves, the captures and pawn moves at ``resets``)
    read a segment: ``walked`` holds each such segment with its position, our moves and the
    half-moves before it; ``tail`` is the tail the game ended in, if any;
    ``failure``, the words of a search limit the game ended at;
    ``handed_on``, whether another table planned where the game ended.
    Less history can only delay the endings history decides, so the rest of
    the game from any of them, with none, ends the same."""
    if tail is not None:
        uses, quiet_end, marks, ours = list(tail.uses), halfmoves + tail.quiet, tail.marks, tail.ours
        handed_on = tail.handed_on
    else:
        uses, quiet_end, marks, ours = [], halfmoves, 0, 0
    for key, current, played, before in reversed(walked):
        handed_on = handed_on or current.table is not None
        for child in current.ours:
            ours |= _mark(child)
        keys = current.keys
        first = next((at for at in resets if at >= before), None) if resets else None
        if first is not None and first < before + len(keys):  # a capture or pawn move: the marks start again
            marks = 0
            keys = keys[: first - before]
        for reached in keys:
            marks |= _mark(reached)
        quiet = (first - before) if first is not None else quiet_end - before
        # This segment's advice is the first used from its position on.
        rule, advice = _advice(current)
        counts = _segment_uses(current)
        for index, use in enumerate(uses):
            if use.rule == rule and use.advice == advice:
                del uses[index]
                counts = tuple(a + b for a, b in zip(counts, use[2:]))  # type: ignore[assignment]
                break
        uses.insert(0, _use((rule, advice, *counts)))
        if key not in tails:
            tails[key] = Tail(ending, moves - played, tuple(uses), quiet, marks, ours, failure, handed_on)


def walk(
    start: Key,
    clock: int,
    max_moves: int,
    segment: Callable[[Key], Segment],
    tails: dict[Key, Tail] | None = None,
    again: Callable[[Key, frozenset[Key]], Segment] | None = None,
) -> Outcome:
    """The game from the position ``start`` (our move), its 50-move count
    at ``clock`` half-moves, through the segments ``segment`` gives (it may
    raise, e.g. KeyError for one not made yet): its ending, our moves and
    the per-advice tally, as the play loop with ``max_moves`` would end it.
    With ``tails`` (kept between the games of a run) the game ends in the
    tail of a position where a game read before went on, where that tail
    fits (:func:`_tail_fits`), and notes its own tails there. Once a
    segment's tree leads a move of ours back to a position the game has had
    after one (:attr:`Segment.ours`), the game goes on by the segments
    ``again`` gives, planned with those positions, and notes no tails (they
    hold for a game without history).

    A plan's search that reached a limit ends the game there
    (:func:`~al0.verify.game.limit_reached`).

    :raises AL0Error: any other error of a plan the game needs.
    """
    current = segment(start)
    optimal = current.dtm
    counts = AdviceCounts(optimal) if optimal is not None else None
    walked: list[tuple[Key, Segment, int, int]] = []
    """Each segment walked here: its position, the segment, our moves and
    the half-moves before it."""
    resets: list[int] = []
    """The half-moves (counted from 0) that took a man or moved a pawn."""
    halfmoves = 0
    handed_on = False
    """Whether a segment walked so far was planned by another table."""
    by_history = False
    """Whether the game plans with its history from here on."""

    def outcome(ending: Ending, tail: Tail | None = None, failure: str = "") -> Outcome:
        last = current.table is not None
        if tail is not None:
            failure, last = tail.failure, tail.handed_on
        if tails is not None and ending in _DECIDED and not by_history:
            _remember(tails, walked, resets, ending, moves, halfmoves, tail, failure, last)
            # The game from the start is the tail from it: its tally too.
            if counts is not None and start in tails:
                return Outcome(ending, moves, optimal, tails[start].uses, failure, handed_on or last)
        uses = () if counts is None else counts.uses()
        return Outcome(ending, moves, optimal, uses, failure, handed_on or last)

    moves = 0
    # The play loop checks an ending at every position: the one the position
    # decides, then the 50-move rule, then repetition; at our turn then the
    # move limit, before it plans.
    if not current.keys and current.ending not in (None, _NO_PLAN):
        return outcome(current.ending)
    if clock >= 100:
        return outcome(_FIFTY)
    seen = {start: 1}
    """Times each position came since the last capture or pawn move
    (python-chess's repetitions do not look back past one)."""
    after_ours: dict[int, Key] = {}
    """The positions seen after our moves since the last capture or pawn
    move, by :func:`ours_hash`."""
    at = start
    while True:
        if tails is not None:
            tail = None if by_history else tails.get(at)
            if tail is not None and _tail_fits(tail, at, moves, clock, max_moves, seen, segment, after_ours):
                moves += tail.moves
                return outcome(tail.ending, tail)
        if moves >= max_moves:
            return outcome(_MOVE_LIMIT)
        if current.failure is not None:
            failure = limit_reached(current.failure)
            if failure is None:
                raise current.failure
            return outcome(_SEARCH_LIMIT, failure=failure)
        keys = current.keys
        if not keys:
            return outcome(_NO_PLAN)
        walked.append((at, current, moves, halfmoves))
        handed_on = handed_on or current.table is not None
        advice = _advice(current)
        last = len(keys) - 1
        for index, key in enumerate(keys):
            halfmoves += 1
            ours = not index & 1
            if ours:
                if index and moves >= max_moves:
                    return outcome(_MOVE_LIMIT)
                moves += 1
            if current.resets >> index & 1:
                clock = 0
                seen.clear()
                after_ours.clear()
                resets.append(halfmoves - 1)
            else:
                clock += 1
            times = seen[key] = seen.get(key, 0) + 1
            if ours and again is not None:
                after_ours[ours_hash(key)] = key
            if not ours and counts is not None:
                counts.count(advice, current.dtms[index])  # after their reply
            ending = (
                current.ending
                if index == last and current.ending is not None
                else _FIFTY
                if clock >= 100
                else _REPETITION
                if times >= 3
                else None
            )
            if ending is not None:
                if ours and counts is not None:
                    counts.count(advice, current.dtms[index])  # our move ended the game
                return outcome(ending)
        at = keys[-1]
        if not by_history:
            current = segment(at)
            by_history = again is not None and not after_ours.keys().isdisjoint(current.ours)
        if by_history:
            assert again is not None
            current = again(at, frozenset(after_ours.values()))
