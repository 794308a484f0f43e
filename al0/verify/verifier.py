"""Measuring an advice table over the positions of its endgame.

Games are played with the real play loop (:func:`al0.engine.play.play_game`) against
a defender; the exact worst case over every defence is computed on the game
graph of that same loop (:class:`WorstCase`). A :class:`Report` gathers the
outcome and checks the table's declared expectations.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
import os
import random
import signal
import statistics
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, TypeAlias, overload

import chess

from al0.verify.analysis import WORST_KEPT, AdviceTally, AdviceUse, analysis
from al0.engine.defenders import Defender, TablebaseDefender, make_defender
from al0.lang.specs import DefenderError, DefenderSpec
from al0.errors import AL0Error, PositionError
from al0.lang.loader import load_table
from al0.lang.model import AdviceTable, Expectations
from al0.engine.play import Ending, GameEnd, OurMove, ending_at, play_game
from al0.engine.plan import DEFAULT_BUDGET, Plan, Planner
from al0.board.moves import apply, legal_moves, play
from al0.board.position import MOVES, Position, from_board, to_board
from al0.board.fen import epd_positions, file_in_folder, sample_size
from al0.board.sampling import check_sample_size
from al0.board.symmetry import class_key, transform_position
from al0.engine.tree import LEAF, ForcingTree
from al0.verify.segments import Key, Segment, make_segment, pack, unpack, walk

if TYPE_CHECKING:
    from types import FrameType

    from al0.tablebase import PositionClass, Tablebase

Line: TypeAlias = "tuple[str, Line] | None"
"""A line of moves (UCI) as a linked list, (first move, the rest): a state's
line is its move and reply in front of the next state's, shared, not copied."""

Value = tuple[int, str, Line]
"""(moves, ending, line) of a state in the worst-case analysis."""

Start = tuple[str, Position, "int | None"]
"""A start position for the worst case: its FEN, its position and the
tablebase's moves to mate from it (when known)."""

State = tuple[Position, int]
"""A state of the worst-case analysis: a position (our turn) and the step
followed there (0: none, plan anew)."""

Step = tuple[chess.Move, str, dict[int, int]]
"""What following a tree does at our turn: our move (and its UCI), and after
each reply (by :func:`_code`) the step to follow next; a reply not listed
needs a new plan."""

_MATE, _NO_PLAN = Ending.MATE.value, Ending.NO_PLAN.value
_CYCLE: Value = (0, Ending.REPETITION.value, None)
"""The value of a state met again on the line that reached it."""

EXAMPLES_KEPT = 5
"""Example FENs kept per kind of failure in a report."""


# ------------------------------------------------------------ positions

def start_positions(spec: str, table: AdviceTable, tablebase: Tablebase | None, seed: int = 0,
                    relative_to: str | None = None) -> Sequence[chess.Board]:
    """The start positions ``spec`` names: ``all`` (one position per
    symmetry class of the table's material, the table's side to move, won
    for it by the tablebase), ``every`` (every such position: each class
    with all its mirror images), ``sample:N`` (N of the classes, drawn
    uniformly and seeded) or an EPD file; with ``relative_to`` (a spec a
    file gave: a table's ``expect:`` block, an ini option) one in that
    folder only (see :func:`al0.board.fen.file_in_folder`).

    :raises PositionError: for a bad spec, a material with no tablebase to
        list its positions, or a bad EPD file.
    """
    count = sample_size(spec)
    if spec in ("all", "every") or count is not None:
        if tablebase is None:
            raise PositionError(f"no tablebase for {table.material}, so no list of all its "
                                f"positions: give an EPD file")
        from al0.tablebase import stronger_colour  # lazily, as the tablebase itself
        classes = tablebase.positions(table.us, stronger=stronger_colour(table.material, table.us),
                                      won=True)
        if spec == "all":
            return LazyBoards(classes)
        if spec == "every":
            return EveryOrientation(classes)
        assert count is not None  # the other specs are all and every
        check_sample_size(repr(spec), count, len(classes),
                          f"won {table.material} start positions (one per symmetry class)",
                          "use all")
        chosen = random.Random(seed).sample(classes, count)
        return [position.board() for position in chosen]
    path = str(file_in_folder(spec, relative_to)) if relative_to is not None else spec
    return epd_positions(path, table.material, table.us)


class LazyBoards(Sequence[chess.Board]):
    """Every position of an ending as boards made one at a time: a four-man
    ending has a million or more, and a board each would take gigabytes."""

    def __init__(self, classes: Sequence[PositionClass]):
        self._classes = classes

    def __len__(self) -> int:
        return len(self._classes)

    @overload
    def __getitem__(self, item: int) -> chess.Board: ...

    @overload
    def __getitem__(self, item: slice) -> list[chess.Board]: ...

    def __getitem__(self, item: int | slice) -> chess.Board | list[chess.Board]:
        if isinstance(item, slice):
            return [self[i] for i in range(*item.indices(len(self)))]
        return self._board(item)

    def _board(self, item: int) -> chess.Board:
        return self._classes[item].board()

    def chain_starts(self, start: int, stop: int) -> list[ChainStart]:
        """:func:`chain_starts` of positions ``start`` to ``stop``, made from
        the classes without a board (a board costs more than the rest of
        what a start needs in a run's main process)."""
        return [(pack(class_position(position)), 0, None)
                for position in self._classes[start:stop]]


class EveryOrientation(LazyBoards):
    """Every position of an ending, made one at a time: each class's
    distinct mirror images (its ``size`` of them), class after class."""

    def __init__(self, classes: Sequence[PositionClass]):
        super().__init__(classes)
        self._ends = list(itertools.accumulate(position.size for position in classes))
        """Where each class's images end in the sequence."""

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def _board(self, item: int) -> chess.Board:
        if not -len(self) <= item < len(self):
            raise IndexError(item)
        item %= len(self)
        index = bisect.bisect_right(self._ends, item)
        offset = item - (self._ends[index - 1] if index else 0)
        return to_board(mirror_images(from_board(self._classes[index].board()))[offset])

    def chain_starts(self, start: int, stop: int) -> list[ChainStart]:
        return [chain_start(board) for board in self[start:stop]]


ChainStart = tuple[Key, int, "str | None"]
"""A start position for a game read off its chain of segments: the
position (packed), its 50-move count (half-moves) and its FEN when it is
not the position's with the move counters at 0 and 1 (:func:`position_fen`)."""


def chain_start(board: chess.Board) -> ChainStart:
    """The :data:`ChainStart` of ``board``."""
    counters = (board.halfmove_clock, board.fullmove_number)
    fen = None if counters == (0, 1) else board.fen()
    return pack(from_board(board)), board.halfmove_clock, fen


def chain_starts(boards: Sequence[chess.Board], start: int, stop: int) -> list[ChainStart]:
    """The :data:`ChainStart` of ``boards[start:stop]``."""
    if isinstance(boards, LazyBoards):
        return boards.chain_starts(start, stop)
    return [chain_start(board) for board in boards[start:stop]]


def class_position(position: PositionClass) -> Position:
    """The position of a tablebase's class, without making its board."""
    masks = [0] * 7  # white, black, then by piece type from the king down
    for square, piece in position.placement:
        bit = 1 << square
        masks[0 if piece.color else 1] |= bit
        masks[8 - piece.piece_type] |= bit
    white, black, kings, queens, rooks, bishops, knights = masks
    return Position(white, black, kings, queens, rooks, bishops, knights, position.turn)


def mirror_images(position: Position) -> list[Position]:
    """``position`` and its distinct mirror images, in the order of
    :data:`al0.board.symmetry.SQUARE_MAPS` (``position`` first)."""
    return list(dict.fromkeys(transform_position(position, symmetry) for symmetry in range(8)))


def position_fen(position: Position) -> str:
    """The FEN of ``position`` with the move counters at 0 and 1: what
    ``to_board(position).fen()`` gives (a pawnless position without castling
    rights has no en-passant square either), from its few men, not from every
    square."""
    white, black, kings, queens, rooks, bishops, knights, turn = position
    occupied = white | black
    ranks = []
    for rank in range(56, -8, -8):
        if not occupied >> rank & 255:
            ranks.append("8")
            continue
        text, empty = "", 0
        for square in range(rank, rank + 8):
            bit = 1 << square
            if not occupied & bit:
                empty += 1
                continue
            symbol = ("k" if kings & bit else "q" if queens & bit else "r" if rooks & bit
                      else "b" if bishops & bit else "n")
            text += (str(empty) if empty else "") + (symbol.upper() if white & bit else symbol)
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    return f"{'/'.join(ranks)} {'w' if turn else 'b'} - - 0 1"


# ---------------------------------------------------------------- games

@dataclass(frozen=True)
class GameRecord:
    """How one start position fared."""
    fen: str
    ending: str
    """An :class:`~al0.engine.play.Ending` value (``mate``, ``stalemate``, …)."""
    moves: int
    """Our moves played (to mate, or until the failure)."""
    optimal: int | None
    """The tablebase's moves to mate, when known."""
    line: tuple[str, ...] = ()
    """For the worst case: the moves (UCI) of the line that ends so."""
    advice_uses: tuple[AdviceUse, ...] = ()
    """Moves and tablebase progress per piece of advice (see
    :mod:`al0.verify.analysis`); empty when there is no tablebase or the start is
    not won."""


def play_one(planner: Planner, board: chess.Board,
             defender: Callable[[chess.Board], chess.Move | None], max_moves: int,
             optimal: int | None, tablebase: Any | None = None) -> GameRecord:
    """Play one game with the real loop and record how it ended (and, with
    the ``tablebase``, each advice's moves and progress)."""
    fen = board.fen()
    moves = 0
    end: GameEnd | None = None
    game = board.copy()
    us = planner.table.us
    tally = (AdviceTally(lambda board: tablebase.dtm(board, us), optimal)
             if tablebase is not None and optimal is not None else None)
    for event in play_game(planner, game, defender, max_moves, notation=False):
        if tally is not None:
            tally.observe(event, game)
        if isinstance(event, OurMove):
            moves += 1
        elif isinstance(event, GameEnd):
            end = event
    assert end is not None  # play_game always ends with a GameEnd
    return GameRecord(fen, end.ending.value, moves, optimal,
                      advice_uses=tally.uses() if tally is not None else ())


class WorstCase:
    """The exact worst case of a table over every defence.

    A state is our turn at a position with the forcing tree being followed
    (or none); our move is then fixed by the play loop's rules, and every
    legal reply leads to a next state. The value of a state is the most moves
    to mate any defence can force; a reachable cycle (the defender repeats),
    stalemate, lost material or a missing plan is an escape. Only endings the
    position decides are used (the move counters and history are not part of
    a state): a cycle stands for repetition, and ``max_moves`` for the
    50-move rule. Values are memoised per state, so start positions share
    their work.

    A tree enters a state as its *step* (see :meth:`_step`): an id standing
    for what following the tree does — our move, and after each reply the
    step to follow next or a new plan. Two trees that play alike are one
    step, whichever search built them, so the states (and with them the
    values, the lines and where a cycle is met) depend on the positions and
    the plans alone: the same whether the plans were made here, on demand,
    or by worker processes beforehand and handed over (:meth:`learn`).
    """

    def __init__(self, planner: Planner, max_moves: int):
        self.planner = planner
        self.max_moves = max_moves
        self.memo: dict[State, Value] = {}
        self.on_path: set[State] = set()
        self.steps: list[Step] = [(chess.Move.null(), "0000", {})]
        """Step id -> (our move, its UCI, reply code -> the next step, 0 for a
        new plan); id 0 stands for no tree (a new plan is needed) and is
        never followed."""
        self.step_ids: dict[tuple[int, tuple[tuple[int, int], ...]], int] = {}
        """What a step does -> its id: trees that play alike share it."""
        self.plan_steps: dict[Position, int] = {}
        """The first step of the plan of every position planned (0: no plan)."""
        self.unplannable: dict[Position, AL0Error] = {}
        """Positions whose plan failed in a worker (a spent budget): the error
        is raised where the analysis needs the plan, as it would be here."""
        self.endings: dict[Position, str | None] = {}
        """:func:`~al0.engine.play.ending_at` (its value) of every position met:
        each is met again under many trees, and deciding it means generating
        moves."""
        self.on_plan: Callable[[int], None] | None = None
        """Told how many positions are planned each time a plan is made here:
        one start's analysis may need thousands, and a run in one process
        shows with it that it is moving."""

    def _ending(self, position: Position) -> str | None:
        try:
            return self.endings[position]
        except KeyError:
            ending = ending_at(position, self.planner)
            value = self.endings[position] = None if ending is None else ending.value
            return value

    def _step(self, tree: ForcingTree) -> int:
        """The step of ``tree`` (our turn, not a leaf), made on first sight.
        After a reply the play loop follows the subtree of the tree's first
        branch for it (:meth:`~al0.engine.tree.ForcingTree.child`), or plans anew
        when there is none or it is a leaf (:func:`~al0.engine.play.descend`)."""
        move, following = tree.branches[0]
        replies: dict[int, int] = {}
        for reply, subtree in following.branches:
            code = _code(reply)
            if code not in replies:
                replies[code] = 0 if subtree.is_leaf else self._step(subtree)
        # What the step does, in one order: a reply that needs a new plan
        # (a leaf) is as good as one the tree does not list.
        key = (_code(move), tuple(sorted((code, step) for code, step in replies.items() if step)))
        step = self.step_ids.get(key)
        if step is None:
            step = self.step_ids[key] = len(self.steps)
            self.steps.append((move, move.uci(), dict(key[1])))
        return step

    def _plan_step(self, position: Position) -> int:
        """The first step of the plan at ``position``, 0 when it has none.

        :raises AL0Error: the planner's (or a worker's) error for it.
        """
        try:
            return self.plan_steps[position]
        except KeyError:
            pass
        if position in self.unplannable:
            raise self.unplannable[position]
        plan = self.planner.plan_position(position)
        step = self.plan_steps[position] = 0 if plan.tree is None else self._step(plan.tree)
        if self.on_plan is not None:
            self.on_plan(len(self.plan_steps))
        return step

    def learn(self, position: Position, step: int | AL0Error, plan: Plan | None = None) -> None:
        """Take the plan at ``position`` made elsewhere as if the planner had
        made it here: its first step (our id, see :meth:`learn_steps`) or
        the error its search raised; ``plan`` itself, when given, goes to
        the planner's cache (the --analysis replay plays with it)."""
        if isinstance(step, AL0Error):
            self.unplannable[position] = step
            return
        if plan is not None and self.planner.cache is not None:
            self.planner.cache[position] = plan
        self.plan_steps[position] = step

    def learn_steps(self, steps: Sequence[SentStep], ids: list[int]) -> None:
        """Take steps another :class:`WorstCase` made (a worker's), sent in
        the order it made them, so that a step's replies' steps come before
        it. ``ids`` maps its step ids to ours (``ids[0]`` is 0, no step) and
        grows by one per step taken. Steps that play alike are one step
        here too, whichever worker made them."""
        step_ids, own = self.step_ids, self.steps
        for move, replies in steps:
            key = (move, tuple((code, ids[step]) for code, step in replies))
            step = step_ids.get(key)
            if step is None:
                step = step_ids[key] = len(own)
                own.append((MOVES[move >> 6][move & 63], _UCI[move], dict(key[1])))
            ids.append(step)

    def sent_steps(self, start: int) -> list[SentStep]:
        """The steps made from id ``start`` on, as :meth:`learn_steps` takes
        them (a reply's code keeps its order: the keys' order, by code)."""
        return [(_code(move), tuple(replies.items())) for move, _, replies in self.steps[start:]]

    def replans(self, position: Position) -> list[Position]:
        """Where following the plan of ``position`` needs new plans: the
        positions (our turn, no ending) after a reply its tree does not
        follow on. With the start positions, these close the set of
        positions the analysis plans at, so worker processes can make all the
        plans before it runs (see :func:`plan_chunk`).

        :raises AL0Error: when the plan's search fails.
        """
        found: dict[Position, None] = {}
        start = (position, self._plan_step(position))
        stack = [start] if start[1] else []
        seen = set(stack)
        steps, ending = self.steps, self._ending
        while stack:
            position, step = stack.pop()
            move, _, replies = steps[step]
            after = play(position, move)
            assert after is not None  # the search only keeps legal moves
            if ending(after) is not None:
                continue
            for reply in legal_moves(after):
                reached = apply(after, reply)
                if ending(reached) is not None:
                    continue
                following = replies.get(_code(reply), 0)
                if not following:
                    found[reached] = None
                elif (reached, following) not in seen:
                    seen.add((reached, following))
                    stack.append((reached, following))
        return list(found)

    def analyse(self, board: chess.Board, optimal: int | None) -> GameRecord:
        return self.record(board.fen(), from_board(board), optimal)

    def record(self, fen: str, position: Position, optimal: int | None) -> GameRecord:
        """The worst-case record of the start ``position`` (whose FEN is ``fen``)."""
        moves, ending, line = self._value(position, 0)
        if ending == _MATE and moves > self.max_moves:
            ending = Ending.MOVE_LIMIT.value
        ucis = []
        while line is not None:
            uci, line = line
            ucis.append(uci)
        return GameRecord(fen, ending, moves, optimal, tuple(ucis))

    def _value(self, position: Position, step: int) -> Value:
        """(moves, ending, line) from our turn at ``position`` following
        ``step`` (0: none): moves to mate against the worst defence and
        ending ``mate``, or the moves to an escape, its kind and the line
        that reaches it.

        A depth-first walk of the states on a stack of its own, not
        Python's: a table that wanders hundreds of moves before it mates
        or repeats gets its report, not a RecursionError. A state's
        replies are taken in order and its value is memoised once the last
        is done; a state met again on the path to it is a cycle."""
        key = (position, step)
        found = self.memo.get(key)
        if found is not None:
            return found
        try:
            return self._walk(key)
        finally:
            self.on_path.clear()  # empty unless a plan failed half way

    def _walk(self, root: State) -> Value:
        """The value of ``root`` (not memoised yet): see :meth:`_value`."""
        memo, on_path, endings, ending_of, open_ = (self.memo, self.on_path, self.endings,
                                                    self._ending, self._open)
        opened = open_(root)
        if not isinstance(opened, _Open):
            memo[root] = opened
            return opened
        on_path.add(root)
        key, (uci, replies, after, moves) = root, opened
        worst: Value = (0, _MATE, None)
        stack: list[_Frame] = []
        while True:
            for reply in moves:  # takes up the replies where the state left them
                reached = apply(after, reply)
                try:
                    end = endings[reached]
                except KeyError:
                    end = ending_of(reached)
                code = reply.from_square << 6 | reply.to_square  # _code, inlined
                if end is not None:
                    # Their move ended the game: only a loss for us (material) is possible.
                    value: Value = (0, end, None)
                else:
                    state = (reached, replies.get(code, 0))
                    found = memo.get(state)
                    if found is not None:
                        value = found
                    elif state in on_path:
                        value = _CYCLE
                    else:
                        opened = open_(state)
                        if isinstance(opened, _Open):  # its replies first, then this one's
                            stack.append((key, uci, replies, after, moves, worst, code))
                            on_path.add(state)
                            key, (uci, replies, after, moves) = state, opened
                            worst = (0, _MATE, None)
                            break
                        value = memo[state] = opened
                worst = _worse(worst, uci, code, value)
            else:  # every reply taken: the state's value is known
                on_path.discard(key)
                memo[key] = value = worst
                if not stack:
                    return value
                key, uci, replies, after, moves, worst, code = stack.pop()
                # The reply that waited for this value, as in the loop above.
                worst = _worse(worst, uci, code, value)

    def _open(self, state: State) -> Value | _Open:
        """What is known of ``state`` before its replies: its value when our
        move ends the game or there is no plan, else the replies to take."""
        position, step = state
        if not step:
            step = self._plan_step(position)
            if not step:
                return 0, _NO_PLAN, None
        move, uci, replies = self.steps[step]
        after = play(position, move)
        assert after is not None  # the search only keeps legal moves
        end = self._ending(after)
        if end is not None:
            return 1, end, (uci, None)
        return _Open(uci, replies, after, iter(legal_moves(after)))


class _Open(NamedTuple):
    """A state of the worst-case walk whose replies are to be taken."""
    uci: str
    """Our move's UCI."""
    replies: dict[int, int]
    """The step to follow after each reply (see :data:`Step`)."""
    after: Position
    """The position after our move."""
    moves: Iterator[chess.Move]
    """Their legal moves not taken yet."""


_Frame = tuple[State, str, dict[int, int], Position, Iterator[chess.Move], Value, int]
"""A state of the walk waiting for the value after one of its replies: its
key, its :class:`_Open` fields, its worst value so far and the code of the
reply waiting."""


def _worse(worst: Value, uci: str, code: int, value: Value) -> Value:
    """The worse for us of ``worst`` and the line of our move ``uci``, then
    the reply ``code``, then ``value``: an escape beats any mate; among
    equals, the longer line."""
    moves_to, ending, line = value
    if (ending != _MATE, moves_to + 1) > (worst[1] != _MATE, worst[0]):
        return (moves_to + 1, ending, (uci, (_UCI[code], line)))
    return worst


def _code(move: chess.Move) -> int:
    """A move of a pawnless game as one int (steps key replies by it)."""
    return move.from_square << 6 | move.to_square


_UCI = tuple(move.uci() for row in MOVES for move in row)
"""The UCI of every move of a pawnless game, by :func:`_code`."""


# --------------------------------------------------------------- report

def _summary(values: list[int]) -> dict[str, Any]:
    if not values:
        return {"count": 0}
    ordered = sorted(values)
    return {"count": len(values), "mean": round(statistics.fmean(values), 3),
            "median": statistics.median(values), "max": ordered[-1],
            "histogram": dict(sorted(Counter(values).items()))}


def percentile(ordered: list[float], fraction: float) -> float:
    """The value at ``fraction`` (0..1) of an ascending list."""
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


_WIDER = {"every": 2, "all": 1}
"""How many positions a run stands for: every orientation of every class,
one orientation of every class; a sample or a file stands for fewer."""


def scoped_verdict(holds: bool | None, claimed: str, run: str,
                   existential: bool | None) -> bool | None:
    """The verdict on a claim about positions ``claimed`` that held
    (``holds``) over a run's positions ``run``, or None where the run cannot
    decide it. A claim that every game does something (at most N failures,
    at most N moves) can only break as positions are added: a run over more
    positions than the claim's (``all`` against a sample, ``every`` against
    either) decides it only when it holds, a run over part of them (a sample
    against ``all``, ``all`` against ``every``) only when it fails.
    ``existential`` (``mates-all: false``: some game fails) is the other way
    round. None (a mean: a sample's can lie either side of the whole's) and
    other positions (another sample, an EPD file) decide nothing."""
    if claimed == run:
        return holds
    if existential is None or claimed not in _WIDER and not claimed.startswith("sample:"):
        return None  # a mean, or an EPD file whose positions are not known here
    covers = _WIDER.get(run, 0) > _WIDER.get(claimed, 0)
    within = ((run in _WIDER or run.startswith("sample:"))
              and _WIDER.get(claimed, 0) > _WIDER.get(run, 0))
    if covers and holds != existential or within and holds == existential:
        return holds
    return None


@dataclass
class Report:
    """The outcome of a verify run, filled in game by game."""
    table: str
    defender: str
    positions: str
    total: int
    records: list[GameRecord] = field(default_factory=list)
    plan_seconds: list[float] = field(default_factory=list)
    wall_seconds: float = 0.0
    interrupted: bool = False

    def add(self, record: GameRecord) -> None:
        self.records.append(record)

    @property
    def endings(self) -> Counter[str]:
        return Counter(record.ending for record in self.records)

    @property
    def failures(self) -> list[GameRecord]:
        return [r for r in self.records if r.ending != Ending.MATE.value]

    def failure_examples(self) -> dict[str, list[GameRecord]]:
        """Up to :data:`EXAMPLES_KEPT` failures of each kind, in the order
        played, each of a symmetry class of its own: mirror images of one
        position (a symmetric table plays them alike) would show one
        failure several times."""
        examples: dict[str, list[GameRecord]] = {}
        classes: set[tuple[str, Position]] = set()
        for record in self.failures:
            kept = examples.setdefault(record.ending, [])
            if len(kept) == EXAMPLES_KEPT:
                continue
            key = (record.ending, class_key(from_board(chess.Board(record.fen))))
            if key not in classes:
                classes.add(key)
                kept.append(record)
        return examples

    def applies(self, expect: Expectations) -> bool:
        """Whether a block's claims are about this run's defender: a block
        naming no defender is about any, and one about the worst defence
        bounds every single defence too."""
        if expect.defender is None or expect.defender == "worst":
            return True
        return DefenderSpec.from_file(expect.defender).name == self.defender

    def check(self, expect: Expectations) -> list[tuple[str, bool | None, str]]:
        """Each declared expectation as (name, holds, what was measured);
        holds is None where this run cannot decide it."""
        endings = self.endings
        mated = [r.moves for r in self.records if r.ending == Ending.MATE.value]
        checks: list[tuple[str, bool | None, str]] = []
        if expect.mates_all is not None:
            failed = len(self.records) - endings[Ending.MATE.value]
            checks.append(("mates-all", (failed == 0) == expect.mates_all,
                           f"{failed} of {len(self.records)} games not mated"))
        for name, limit, ending in (("stalemates", expect.max_stalemates, Ending.STALEMATE),
                                    ("material-lost", expect.max_material_lost,
                                     Ending.MATERIAL_LOST),
                                    ("no-plan", expect.max_no_plan, Ending.NO_PLAN)):
            if limit is not None:
                checks.append((name, endings[ending.value] <= limit,
                               f"{endings[ending.value]} (at most {limit} expected)"))
        if expect.max_moves is not None:
            longest = max(mated, default=0)
            over = endings[Ending.MOVE_LIMIT.value]
            checks.append(("max-moves", longest <= expect.max_moves and not over,
                           f"longest mate {longest} moves, {over} games over the move limit "
                           f"(at most {expect.max_moves} expected, against the "
                           f"{self.defender} defender)"))
        if expect.mean_moves is not None:
            mean = statistics.fmean(mated) if mated else 0.0
            checks.append(("mean-moves", mean <= expect.mean_moves,
                           f"mean {mean:.2f} moves over {len(mated)} mated games (at most "
                           f"{expect.mean_moves} expected, against the {self.defender} defender)"))
        checks = [self._scoped(check, expect.positions,
                               existential=None if check[0] == "mean-moves"
                               else check[0] == "mates-all" and expect.mates_all is False)
                  for check in checks]
        if self.interrupted:
            # Part of the positions says nothing of the whole run's claims.
            return [(name, None, f"{measured}; the run was interrupted")
                    for name, _, measured in checks]
        return checks

    def _scoped(self, check: tuple[str, bool | None, str], positions: str | None,
                existential: bool | None) -> tuple[str, bool | None, str]:
        """``check`` as this run can decide it: see :func:`scoped_verdict`."""
        name, holds, measured = check
        if positions is None or positions == self.positions:
            return check
        verdict = scoped_verdict(holds, positions, self.positions, existential)
        if verdict is None:
            return name, None, (f"{measured}; the claim is about positions {positions}, "
                                f"not {self.positions}")
        return name, verdict, measured

    def to_json(self, expectations: Sequence[Expectations] = (),
                worst: int = WORST_KEPT) -> dict[str, Any]:
        """The report as plain data, with the claims of the ``expectations``
        blocks about this run's defender checked; ``worst``: games of largest
        excess kept in its ``analysis``."""
        mated = [r for r in self.records if r.ending == Ending.MATE.value]
        known = [r for r in mated if r.optimal is not None]
        times = sorted(self.plan_seconds)
        examples = {kind: [{"fen": r.fen, "moves": r.moves, "line": list(r.line)} for r in kept]
                    for kind, kept in self.failure_examples().items()}
        data: dict[str, Any] = {
            "table": self.table, "defender": self.defender, "positions": self.positions,
            "games": len(self.records), "total": self.total, "interrupted": self.interrupted,
            "endings": dict(self.endings.most_common()),
            "failure_examples": examples,
            "moves_to_mate": _summary([r.moves for r in mated]),
            "optimal": _summary([r.optimal for r in known]),  # type: ignore[misc]
            "excess": _summary([r.moves - r.optimal for r in known]),  # type: ignore[operator]
            "plans_searched": len(times),
            "plan_ms": ({"median": round(statistics.median(times) * 1000, 3),
                         "p95": round(percentile(times, 0.95) * 1000, 3),
                         "max": round(times[-1] * 1000, 3)} if times else {}),
            "wall_seconds": round(self.wall_seconds, 2),
            "plans_per_second": round(len(times) / sum(times), 1) if times else None,
            "analysis": analysis(self.records, worst),
        }
        if expectations:
            data["expectations"] = [
                {"name": name, "holds": holds, "measured": measured,
                 "defender": expect.defender or self.defender}
                for expect in expectations if self.applies(expect)
                for name, holds, measured in self.check(expect)]
        return data


@dataclass(frozen=True)
class VerifySpec:
    """Everything a verify run's games depend on (picklable, for --jobs)."""
    table_path: str
    defender: DefenderSpec
    """``tablebase``, ``random``, ``uci:COMMAND`` or ``worst``."""
    max_moves: int = 50
    seed: int = 0
    budget: int = DEFAULT_BUDGET
    engine_seconds: float = 0.05
    replay_worst_lines: bool = True
    """With the ``worst`` defender: replay each worst line through the play
    loop for its per-advice analysis. The replay costs about as much as the
    analysis itself, so a run that shows no analysis leaves it out."""


def load_tablebase(material: str, progress: Callable[[str], None] | None = None
                   ) -> Tablebase | None:
    """The tablebase of ``material``, or None when there is none for it;
    ``progress`` hears how a build goes, when the table must be built."""
    from al0 import tablebase  # lazily: it may build a table (seconds)
    try:
        return tablebase.load(material, progress=progress)
    except PositionError:
        return None


class Verifier:
    """Judges start positions for one :class:`VerifySpec`. One planner serves
    every game, so a position planned once is never searched again.

    :raises DefenderError: when the defender cannot be made.
    """

    def __init__(self, spec: VerifySpec):
        self.spec = spec
        self.table = load_table(spec.table_path)
        self.planner = Planner(self.table, spec.budget)
        self.worst = WorstCase(self.planner, spec.max_moves) if spec.defender.kind == "worst" else None
        # One defender for every game, except a random one: it is made per
        # position (see judge).
        self.fixed: Defender | None = None
        if spec.defender.kind in ("tablebase", "uci"):
            self.fixed = make_defender(spec.defender, self.table.material, spec.seed,
                                       spec.engine_seconds)
        elif spec.defender.kind not in ("random", "worst"):
            raise DefenderError(f"verify cannot use the {spec.defender.name!r} defender")
        self.tablebase = (self.fixed.table if isinstance(self.fixed, TablebaseDefender)
                          else load_tablebase(self.table.material))
        self.segments: dict[Key, Segment] | None = (
            {} if isinstance(self.fixed, TablebaseDefender) else None)
        """Against the tablebase defender, the segment from every position
        where a game here started a new plan: the games share them (see
        :mod:`al0.verify.segments`)."""
        self.plans_reported = 0

    def optimal(self, board: chess.Board) -> int | None:
        """Our fewest moves to mate from ``board``, when the tablebase knows
        the material and we win."""
        if self.tablebase is None:
            return None
        result = self.tablebase.result(board)
        return result.moves if result.winner == self.table.us else None

    def judge(self, index: int, board: chess.Board) -> GameRecord:
        """The record of start position number ``index``."""
        if self.worst is not None:
            return self.judge_start(self.start(board), lambda: board)
        if self.segments is not None:
            return self.chain_record(chain_start(board), self.segment)
        return play_one(self.planner, board, self.defender_for(index), self.spec.max_moves,
                        self.optimal(board), self.tablebase)

    def segment(self, key: Key) -> Segment:
        """The segment from the position ``key``, made here the first time."""
        assert self.segments is not None and self.tablebase is not None  # the tablebase defender's
        found = self.segments.get(key)
        if found is None:
            found = self.segments[key] = make_segment(self.planner, self.tablebase, unpack(key))
        return found

    def chain_record(self, start: ChainStart, segment: Callable[[Key], Segment]) -> GameRecord:
        """The record of the game from ``start`` against the tablebase
        defender, read off the segments ``segment`` gives (see
        :func:`al0.verify.segments.walk`): the record :func:`play_one` gives.

        :raises KeyError: from ``segment``, for a segment not there yet.
        :raises AL0Error: the error of a plan the game needs.
        """
        key, clock, fen = start
        outcome = walk(key, clock, self.spec.max_moves, segment)
        return GameRecord(position_fen(unpack(key)) if fen is None else fen, outcome.ending,
                          outcome.moves, outcome.optimal, advice_uses=outcome.advice_uses)

    def start(self, board: chess.Board) -> Start:
        """What the worst case needs of a start position, read from its board."""
        position = from_board(board)
        # board.fen() reads all 64 squares; a start has three or four men.
        fen = (position_fen(position) if (board.halfmove_clock, board.fullmove_number) == (0, 1)
               else board.fen())
        return fen, position, self.optimal(board)

    def judge_start(self, start: Start, board: Callable[[], chess.Board]) -> GameRecord:
        """The worst-case record of ``start``; ``board`` gives its board,
        needed only to replay the worst line."""
        assert self.worst is not None  # only with the worst defender
        record = self.worst.record(*start)
        if not self.spec.replay_worst_lines:
            return record
        # The worst line replayed through the play loop: its per-advice breakdown.
        replies = iter(chess.Move.from_uci(uci) for uci in record.line[1::2])
        replay = play_one(self.planner, board(), lambda _: next(replies, None),
                          self.spec.max_moves, start[2], self.tablebase)
        return dataclasses.replace(record, advice_uses=replay.advice_uses)

    def defender_for(self, index: int) -> Defender:
        """The defender of start position number ``index``: the run's one
        defender, or a random one seeded per position, so that results do not
        depend on how positions are split between jobs (and a replay meets
        the same moves)."""
        return self.fixed or make_defender(self.spec.defender, self.table.material,
                                           self.spec.seed + index)

    def new_plan_seconds(self) -> list[float]:
        """Search times of the plans made since the last call."""
        times = self.planner.search_seconds[self.plans_reported:]
        self.plans_reported = len(self.planner.search_seconds)
        return times

    def close(self) -> None:
        """Stop the defender (a UCI engine's process)."""
        if self.fixed is not None:
            self.fixed.close()


@functools.lru_cache(maxsize=1)
def _worker_verifier(spec: VerifySpec) -> Verifier:
    """The verifier of a worker process, made once per process and spec so
    that its plans are reused across the chunks the process is given."""
    return Verifier(spec)


SegmentsResult = tuple[list[Segment], list[float]]
"""What a worker sends back for a chunk of positions to make segments from:
the segments, in order (fewer when it was asked to stop), and its plans'
search times."""


def segment_chunk(spec: VerifySpec, keys: list[Key]) -> SegmentsResult:
    """Run in a worker process: the segment from each position of ``keys``
    (see :mod:`al0.verify.segments`)."""
    verifier = _worker_verifier(spec)
    assert verifier.tablebase is not None  # segments are the tablebase defender's
    segments = []
    for key in keys:
        if stop_requested():
            break
        segments.append(make_segment(verifier.planner, verifier.tablebase, unpack(key)))
    return segments, verifier.new_plan_seconds()


ChunkResult = tuple[list[GameRecord], list[float]]
"""What a worker sends back for a chunk: its records and its plans' search times."""


def judge_chunk(spec: VerifySpec, chunk: list[tuple[int, str]]) -> ChunkResult:
    """Run in a worker process: the records of ``chunk`` (index, FEN) and the
    search times of the plans it made; fewer records when the worker was
    asked to stop (:class:`StopRequest`)."""
    verifier = _worker_verifier(spec)
    records = []
    for index, fen in chunk:
        if stop_requested():
            break
        records.append(verifier.judge(index, chess.Board(fen)))
    return records, verifier.new_plan_seconds()


class StopRequest:
    """The handler of a worker process for Ctrl-C (SIGINT), SIGTERM and
    SIGHUP: it only notes the request, and the chunk the worker is on stops
    before its next position and answers with what it has. A worker stopped
    any other way (killed) may be stopped while it sends an answer, and the
    main process would wait forever for the rest of it."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signal_number: int, frame: FrameType | None) -> None:
        self.requested = True


def stop_requested() -> bool:
    """Whether this process was asked to stop: its SIGINT handler is a
    :class:`StopRequest` (a worker of :mod:`al0.verify.run`) that got one.
    The handler is the process's own state, so no global is needed."""
    handler = signal.getsignal(signal.SIGINT)
    return isinstance(handler, StopRequest) and handler.requested


# ------------------------------------------------ plans made in workers

EncodedPlan = tuple[str | None, str | None, tuple[str, ...], tuple[int, ...] | None, int, float]
"""A :class:`~al0.engine.plan.Plan` without its position, compact to send between
processes: rule, advice, advice tried, the tree (:func:`encode_tree`),
nodes and seconds."""

SentStep = tuple[int, tuple[tuple[int, int], ...]]
"""A step (see :data:`Step`) as a worker sends it: our move (by
:func:`_code`) and, in order of their codes, the replies it follows on with
the worker's id of the step after each."""

PlanAnswer = tuple[int | AL0Error, tuple[Position, ...]]
"""A worker's answer for one position: the first step of its plan (the
worker's id, 0 for no plan) or the error its search raised, and the
positions where following the plan needs new plans, less those the worker
has reported or planned before."""


@dataclass(frozen=True)
class PlanChunkResult:
    """A worker's answer for a chunk of positions."""
    worker: int
    """The worker's process id: its step ids are its own."""
    first_step: int
    """The worker's id of the first of ``steps``."""
    steps: list[SentStep]
    """The steps the worker made since its last answer."""
    answers: list[PlanAnswer]
    """An answer per position of the chunk, in order; fewer when the worker
    was asked to stop (:class:`StopRequest`)."""
    seconds: list[float]
    """The search times of the plans it made."""
    plans: list[EncodedPlan | None] | None
    """The plans themselves, when the analysis replays worst lines
    (:attr:`VerifySpec.replay_worst_lines`); None for a failed search."""


def encode_tree(tree: ForcingTree) -> tuple[int, ...]:
    """``tree`` in preorder as ints: each node's height and number of
    branches, then each branch's move (as :func:`_code`) and subtree."""
    code: list[int] = []

    def put(node: ForcingTree) -> None:
        code.append(node.height)
        code.append(len(node.branches))
        for move, subtree in node.branches:
            code.append(_code(move))
            put(subtree)

    put(tree)
    return tuple(code)


def decode_tree(code: Sequence[int]) -> ForcingTree:
    """The tree of :func:`encode_tree`; leaves are :data:`~al0.engine.tree.LEAF`
    and moves the shared :data:`~al0.board.position.MOVES`, as a search makes them."""
    at = 0

    def take() -> ForcingTree:
        nonlocal at
        height, count = code[at], code[at + 1]
        at += 2
        if not count:
            return LEAF if not height else ForcingTree(height)
        branches = []
        for _ in range(count):
            move = code[at]
            at += 1
            branches.append((MOVES[move >> 6][move & 63], take()))
        return ForcingTree(height, tuple(branches))

    return take()


def encode_plan(plan: Plan) -> EncodedPlan:
    return (plan.rule, plan.advice, plan.tried,
            None if plan.tree is None else encode_tree(plan.tree), plan.nodes, plan.seconds)


def decode_plan(position: Position, encoded: EncodedPlan) -> Plan:
    rule, advice, tried, tree, nodes, seconds = encoded
    return Plan(position, rule, advice, tried, None if tree is None else decode_tree(tree),
                nodes, seconds)


class PlanWorker:
    """What a worker process keeps between the chunks it plans: the planner
    (in a worst case, for :meth:`WorstCase.replans` and the steps), whose
    plans and shared search memos serve every chunk; how many of its steps
    it has sent; and the positions it has reported."""

    def __init__(self, spec: VerifySpec):
        self.spec = spec
        self.worst = WorstCase(Planner(load_table(spec.table_path), spec.budget), spec.max_moves)
        self.steps_sent = 1  # step 0 (no step) is every worker's
        self.reported: set[Position] = set()

    def plan(self, positions: list[Position]) -> PlanChunkResult:
        """The plan of each of ``positions`` and where following it needs
        new plans (see :meth:`WorstCase.replans`). A search that fails (a
        spent budget) is answered with its error: the analysis raises it
        only if and where it needs that plan."""
        worst, reported = self.worst, self.reported
        planner = worst.planner
        made = len(planner.search_seconds)
        cache = planner.cache
        assert cache is not None  # a planner caches by default
        answers: list[PlanAnswer] = []
        plans: list[EncodedPlan | None] | None = [] if self.spec.replay_worst_lines else None
        for position in positions:
            if stop_requested():
                break
            try:
                replans = worst.replans(position)
            except AL0Error as error:
                answers.append((error, ()))
                if plans is not None:
                    plans.append(None)
                continue
            # A position planned or reported here is known to the main
            # process already: it sent it, or had it from this worker.
            new = tuple(replan for replan in replans
                        if replan not in reported and replan not in cache)
            reported.update(new)
            answers.append((worst.plan_steps[position], new))
            if plans is not None:
                plans.append(encode_plan(cache[position]))
        first, self.steps_sent = self.steps_sent, len(worst.steps)
        return PlanChunkResult(os.getpid(), first, worst.sent_steps(first), answers,
                               planner.search_seconds[made:], plans)


@functools.lru_cache(maxsize=1)
def _plan_worker(spec: VerifySpec, process: int) -> PlanWorker:
    """The state of a worker process, made once per process and spec. Keyed
    by the process id too: a process forked from one that planned starts
    afresh, or it would leave out steps and positions its parent sent."""
    return PlanWorker(spec)


def plan_chunk(spec: VerifySpec, positions: list[Position]) -> PlanChunkResult:
    """Run in a worker process: :meth:`PlanWorker.plan` of ``positions``."""
    return _plan_worker(spec, os.getpid()).plan(positions)
