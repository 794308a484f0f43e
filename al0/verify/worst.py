"""The exact worst case over every defence: the play loop's game graph
(states: a position at our turn and the step of the forcing tree followed
there), walked once for all starts, its values memoised across them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Callable, NamedTuple, TypeAlias

import chess

from al0.board.moves import apply, legal_moves, play
from al0.board.position import MOVES, Position, from_board, piece_counts
from al0.core import native
from al0.engine.plan import Plan, Planner
from al0.engine.play import Ending, ending_at, material_ending, resets_count
from al0.engine.tree import ForcingTree
from al0.errors import AL0Error
from al0.verify.game import GameRecord, limit_reached

if TYPE_CHECKING:
    pass


Line: TypeAlias = "tuple[str, Line] | None"
"""A line of moves (UCI) as a linked list, (first move, the rest): a state's
line is its move and reply in front of the next state's, shared, not copied."""


Value = tuple[int, Ending, Line]
"""(moves, ending, line) of a state in the worst-case analysis."""


Start = tuple[str, Position, "int | None"]
"""A start position for the worst case: its FEN, its position and the
tablebase's moves to mate from it (when known)."""


State = tuple[Position, int]
"""A state of the worst-case analysis: a position (our turn) and the step
followed there (0: none, plan anew)."""


Step = tuple[chess.Move, str, dict[int, int]]
"""What following a tree does at our turn: our move (and its UCI), and after
each reply (by :func:`move_code`) the step to follow next; a reply not listed
needs a new plan."""


Reply = tuple[int, Position, "Ending | None"]
"""A reply of theirs (by :func:`move_code`), the position it reaches and
the ending that position decides (None: none)."""


_MATE, _NO_PLAN, _SEARCH_LIMIT = Ending.MATE, Ending.NO_PLAN, Ending.SEARCH_LIMIT


_CYCLE: Value = (0, Ending.REPETITION, None)
"""The value of a state met again on the line that reached it."""


class WorstCase:
    """The exact worst case of a table over every defence.

    A state is our turn at a position with the forcing tree being followed
    (or none); our move is then fixed by the play loop's rules, and every
    legal reply leads to a next state. The value of a state is the most moves
    to mate any defence can force; a reachable cycle (the defender repeats),
    stalemate, lost material, a missing plan or a plan whose search reached
    a limit (:func:`~al0.verify.game.limit_reached`) is an escape. Only endings the
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
        """Positions whose plan failed, here or in a worker (a spent budget):
        the error is met again where the analysis needs the plan, as the
        planner's would be, without searching again."""
        self.endings: dict[Position, Ending | None] = {}
        """:func:`~al0.engine.play.ending_at` (its value) of every position met:
        each is met again under many trees, and deciding it means generating
        moves."""
        self.replies: dict[Position, list[Reply]] = {}
        """:meth:`_replies` of every position after our move met."""
        self._core = native()
        """The native core, whose move generator the walks use, or None."""
        self.on_plan: Callable[[int], None] | None = None
        """Told how many positions are planned each time a plan is made here:
        one start's analysis may need thousands, and a run in one process
        shows with it that it is moving."""

    def _ending(self, position: Position) -> Ending | None:
        try:
            return self.endings[position]
        except KeyError:
            pass
        core = self._core
        if core is not None and core.legal_moves(position):
            # A move to make: no mate, no stalemate (ending_at's first test,
            # the core's move generator deciding it); the material is left.
            ending = material_ending(position, self.planner)
        else:
            ending = ending_at(position, self.planner)
        self.endings[position] = ending
        return ending

    def _replies(self, after: Position) -> list[Reply]:
        """Their replies at ``after`` (after our move), in python-chess's
        order, each with the position it reaches and the ending that
        position decides: worked out once per position (the walks meet a
        position after our move under several steps, 2.7 times on average in
        KRK's), with the core's move generator where it runs."""
        found = self.replies.get(after)
        if found is None:
            core, ending = self._core, self._ending
            moves = legal_moves(after) if core is None else [_MOVE[code] for code in core.legal_moves(after)]
            found = self.replies[after] = [
                (move_code(reply), reached, ending(reached))
                for reply in moves
                for reached in (apply(after, reply),)
            ]
        return found

    def _step(self, tree: ForcingTree) -> int:
        """The step of ``tree`` (our turn, not a leaf), made on first sight.
        After a reply the play loop follows the subtree of the tree's first
        branch for it (:meth:`~al0.engine.tree.ForcingTree.child`), or plans anew
        when there is none or it is a leaf (:func:`~al0.engine.play.descend`)."""
        move, following = tree.branches[0]
        replies: dict[int, int] = {}
        for reply, subtree in following.branches:
            code = move_code(reply)
            if code not in replies:
                replies[code] = 0 if subtree.is_leaf else self._step(subtree)
        # What the step does, in one order: a reply that needs a new plan
        # (a leaf) is as good as one the tree does not list.
        key = (move_code(move), tuple(sorted((code, step) for code, step in replies.items() if step)))
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
        try:
            plan = self.planner_at(position).plan_position(position)
        except AL0Error as error:
            self.unplannable[position] = error
            raise
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
        cache = self.planner_at(position).cache
        if plan is not None and cache is not None:
            cache[position] = plan
        self.plan_steps[position] = step

    def planner_at(self, position: Position) -> Planner:
        """The planner of the table that plays ``position`` (our turn, no
        ending there): the first table's or a successor's
        (:meth:`~al0.engine.plan.Planner.playing`)."""
        planner = self.planner.playing(position)
        assert planner is not None  # else the position has an ending
        return planner

    def planned(self, position: Position) -> bool:
        """Whether the plan at ``position`` (our turn, no ending there) is
        in its planner's cache: made or learned here."""
        cache = self.planner_at(position).cache
        return cache is not None and position in cache

    def _goes_on(self, position: Position, after: Position) -> bool:
        """Whether the tree followed at ``position`` goes on after our move
        to ``after``: not where it changed the material's table (the play
        loop plans afresh then). Only a capture or a pawn move can change it."""
        return not resets_count(position, after) or self.planner.playing(after) is self.planner.playing(
            position
        )

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
        return [(move_code(move), tuple(replies.items())) for move, _, replies in self.steps[start:]]

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
            if not self._goes_on(position, after):
                replies = {}
            for code, reached, end in self._replies(after):
                if end is not None:
                    continue
                following = replies.get(code, 0)
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
            ending = Ending.MOVE_LIMIT
        ucis = []
        while line is not None:
            uci, line = line
            ucis.append(uci)
        # Replayed only where it is read: another table may plan on it, or
        # its end is a search limit (most lines need neither).
        handed = any(
            other is not None and other is not self.planner for other in self.planner.successors.values()
        )
        positions = [position]
        if handed or ending == _SEARCH_LIMIT:
            for uci in ucis:
                positions.append(apply(positions[-1], chess.Move.from_uci(uci)))
        # Another table planned on the line where one plays a position of ours on it.
        handed_on = handed and any(
            self._ending(ours) is None and self.planner_at(ours) is not self.planner
            for ours in positions[2::2]
        )
        failure = ""
        if ending == _SEARCH_LIMIT:
            # The line ends where the plan's search reached its limit.
            failure = limit_reached(self.unplannable[positions[-1]]) or ""
        return GameRecord(fen, ending, moves, optimal, tuple(ucis), failure=failure, handed_on=handed_on)

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
        memo, on_path, open_ = self.memo, self.on_path, self._open
        opened = open_(root)
        if not isinstance(opened, _Open):
            memo[root] = opened
            return opened
        on_path.add(root)
        key, (uci, replies, after, moves) = root, opened
        worst: Value = (0, _MATE, None)
        stack: list[_Frame] = []
        while True:
            for code, reached, end in moves:  # takes up the replies where the state left them
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
        move ends the game, there is no plan or its search reached a limit,
        else the replies to take.

        :raises AL0Error: a plan's error other than a search limit.
        """
        position, step = state
        if not step:
            try:
                step = self._plan_step(position)
            except AL0Error as error:
                if limit_reached(error) is None:
                    raise
                return 0, _SEARCH_LIMIT, None
            if not step:
                return 0, _NO_PLAN, None
        move, uci, replies = self.steps[step]
        after = play(position, move)
        assert after is not None  # the search only keeps legal moves
        end = self._ending(after)
        if end is not None:
            return 1, end, (uci, None)
        if not self._goes_on(position, after):
            replies = {}
        return _Open(uci, replies, after, iter(self._replies(after)))


class _Open(NamedTuple):
    """A state of the worst-case walk whose replies are to be taken."""

    uci: str
    """Our move's UCI."""
    replies: dict[int, int]
    """The step to follow after each reply (see :data:`Step`)."""
    after: Position
    """The position after our move."""
    moves: Iterator[Reply]
    """Their replies not taken yet."""


_Frame = tuple[State, str, dict[int, int], Position, Iterator[Reply], Value, int]
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


def move_code(move: chess.Move) -> int:
    """A move of a pawnless game as one int (steps key replies by it)."""
    return move.from_square << 6 | move.to_square


_UCI = tuple(move.uci() for row in MOVES for move in row)

_MOVE = tuple(move for row in MOVES for move in row)
"""Every move of a pawnless game, by :func:`move_code`: the shared
:data:`~al0.board.position.MOVES`."""
"""The UCI of every move of a pawnless game, by :func:`move_code`."""


SentStep = tuple[int, tuple[tuple[int, int], ...]]
"""A step (see :data:`Step`) as a worker sends it: our move (by
:func:`move_code`) and, in order of their codes, the replies it follows on with
the worker's id of the step after each."""
