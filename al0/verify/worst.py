"""The exact worst case over every defence: the play loop's game graph
(states: a position at our turn and the step of the forcing tree followed
there), walked once for all starts, its values memoised across them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Callable, NamedTuple, TypeAlias

import chess

from al0.board.fen import FIFTY_MOVE_PLIES, halfmove_clock
from al0.board.moves import apply, move_generator, play
from al0.board.position import MOVES, Position, code_move, from_board, move_code
from al0.engine.plan import Plan, Planner
from al0.engine.play import Ending, ending_at, material_ending, resets_count
from al0.engine.tree import ForcingTree
from al0.errors import AL0Error
from al0.verify.game import GameRecord, limit_reached

Line: TypeAlias = "tuple[str, Line] | None"
"""A line of moves (UCI) as a linked list, (first move, the rest): a state's
line is its move and reply in front of the next state's, shared, not copied."""


Value = tuple[int, Ending, Line, int, Line]
"""(moves, ending, line, quiet, quiet line) of a state in the worst-case
analysis: our moves to its ending (mate, or the escape the defender
forces) and the line there; and for the laws' 50-move count, the most
half-moves the defender can make the game last from the state before a
capture or a pawn move (counted to the last position where the game goes
on) and the line that does."""


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


Reply = tuple[int, Position, "Ending | None", bool]
"""A reply of theirs (by :func:`move_code`), the position it reaches, the
ending that position decides (None: none) and whether it took a man or
moved a pawn (:func:`~al0.engine.play.resets_count`)."""


_MATE, _NO_PLAN, _SEARCH_LIMIT = Ending.MATE, Ending.NO_PLAN, Ending.SEARCH_LIMIT
_FIFTY = Ending.FIFTY_MOVES


_CYCLE: Value = (0, Ending.REPETITION, None, 0, None)
"""The value of a state met again on the line that reached it."""


class WorstCase:
    """The exact worst case of a table over every defence.

    A state is our turn at a position with the forcing tree being followed
    (or none); our move is then fixed by the play loop's rules, and every
    legal reply leads to a next state. The value of a state is the most moves
    to mate any defence can force; a reachable cycle (the defender repeats),
    stalemate, lost material, a missing plan or a plan whose search reached
    a limit (:func:`~al0.verify.game.limit_reached`) is an escape. The move
    counters and history are not part of a state: a cycle stands for
    repetition; the 50-move rule is counted as the laws count it, from the
    start's count, again from 0 after each capture or pawn move: a state's
    value keeps the longest stretch the defender can force from it before
    one (its *quiet*), and a stretch of 100 half-moves is an escape
    (:func:`_fifty_at`). ``max_moves`` bounds our moves, as the play loop's
    does. Values are memoised per state, so start positions share their
    work.

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
        self._moves = move_generator()
        """The board's move generation: the native core's where it runs."""
        self.on_plan: Callable[[int], None] | None = None
        """Told how many positions are planned each time a plan is made here:
        one start's analysis may need thousands, and a run in one process
        shows with it that it is moving."""

    def _ending(self, position: Position) -> Ending | None:
        try:
            return self.endings[position]
        except KeyError:
            pass
        if self._moves.has_legal_move(position):
            # A move to make: no mate, no stalemate (ending_at's first test,
            # decided by the chosen move generator): the men on the board decide.
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
            ending = self._ending
            found = self.replies[after] = [
                (move_code(reply), reached, ending(reached), resets_count(after, reached))
                for reply in self._moves.legal_moves(after)
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
                own.append((code_move(move), _uci(move), dict(key[1])))
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
            for code, reached, end, _ in self._replies(after):
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
        """The worst-case record of the start ``position`` (whose FEN is
        ``fen``: its half-move count starts the 50-move count)."""
        moves, ending, line, _, _ = _fifty_at(self._value(position, 0), halfmove_clock(fen))
        if ending in (_MATE, _FIFTY) and moves > self.max_moves:
            # The play loop stops at its move limit first.
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
        key, (uci, replies, after, moves, reset) = root, opened
        worst: Value = _NO_REPLY
        stack: list[_Frame] = []
        while True:
            for code, reached, end, reply_resets in moves:  # takes up the replies where the state left them
                if end is not None:
                    # Their move ended the game: only a loss for us (material) is possible.
                    value: Value = (0, end, None, 0, None)
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
                            stack.append((key, uci, replies, after, moves, reset, worst, code, reply_resets))
                            on_path.add(state)
                            key, (uci, replies, after, moves, reset) = state, opened
                            worst = _NO_REPLY
                            break
                        value = memo[state] = opened
                worst = _worse(worst, uci, code, value, reset, reply_resets, end is None)
            else:  # every reply taken: the state's value is known
                on_path.discard(key)
                memo[key] = value = worst
                if not stack:
                    return value
                key, uci, replies, after, moves, reset, worst, code, reply_resets = stack.pop()
                # The reply that waited for this value, as in the loop above.
                worst = _worse(worst, uci, code, value, reset, reply_resets, True)

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
                return 0, _SEARCH_LIMIT, None, 0, None
            if not step:
                return 0, _NO_PLAN, None, 0, None
        move, uci, replies = self.steps[step]
        after = play(position, move)
        assert after is not None  # the search only keeps legal moves
        end = self._ending(after)
        if end is not None:
            return 1, end, (uci, None), 0, None
        if not self._goes_on(position, after):
            replies = {}
        return _Open(uci, replies, after, iter(self._replies(after)), resets_count(position, after))


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
    resets: bool
    """Whether our move took a man or moved a pawn."""


_Frame = tuple[State, str, dict[int, int], Position, Iterator[Reply], bool, Value, int, bool]
"""A state of the walk waiting for the value after one of its replies: its
key, its :class:`_Open` fields, its worst value so far, and the code of the
reply waiting and whether that reply took a man or moved a pawn."""


_NO_REPLY: Value = (0, _MATE, None, 0, None)
"""A state's worst value before its first reply is taken."""


def _worse(
    worst: Value, uci: str, code: int, value: Value, ours_reset: bool, theirs_reset: bool, on: bool
) -> Value:
    """The worse for us of ``worst`` and the line of our move ``uci``, then
    the reply ``code``, then ``value`` (the state reached, or the game's end
    there when ``on`` is false): an escape beats any mate; among equals, the
    longer line. Its quiet is the longer stretch too: where our move or
    their reply took a man or moved a pawn (``ours_reset``,
    ``theirs_reset``), the 50-move count of ``value``'s stretch starts
    again before it (at 0 after their reply, at 1 after ours), and that
    stretch may escape by the 50-move rule (:func:`_fifty_at`)."""
    if on and (ours_reset or theirs_reset):
        value = _fifty_at(value, 0 if theirs_reset else 1)
    moves_to, ending, line, _, _ = value
    reply = _uci(code)
    if (ending != _MATE, moves_to + 1) > (worst[1] != _MATE, worst[0]):
        worst = (moves_to + 1, ending, (uci, (reply, line)), worst[3], worst[4])
    # The count after our move (1), after their reply (2), then on with the
    # state reached; a stretch that stopped before counts no further.
    if ours_reset:
        return worst
    quiet, quiet_line = (
        (2 + value[3], (uci, (reply, value[4]))) if on and not theirs_reset else (1, (uci, None))
    )
    if quiet > worst[3]:
        worst = (worst[0], worst[1], worst[2], quiet, quiet_line)
    return worst


def _fifty_at(value: Value, clock: int) -> Value:
    """``value`` of a state whose 50-move count is ``clock`` there: a mate
    its defender can put off until the count reaches 100 half-moves
    (:data:`~al0.board.fen.FIFTY_MOVE_PLIES`: its quiet line goes that far)
    is a draw by the 50-move rule, the line cut where the count reaches it."""
    moves_to, ending, line, quiet, quiet_line = value
    plies = FIFTY_MOVE_PLIES - clock
    if ending != _MATE or quiet < plies:
        return value
    cut: list[str] = []
    while len(cut) < plies and quiet_line is not None:
        uci, quiet_line = quiet_line
        cut.append(uci)
    drawn: Line = None
    for uci in reversed(cut):
        drawn = (uci, drawn)
    return ((max(plies, 0) + 1) // 2, _FIFTY, drawn, quiet, value[4])


_UCI = tuple(move.uci() for row in MOVES for move in row)
"""The UCI of every move but a promotion, by :func:`move_code`."""


def _uci(code: int) -> str:
    """The UCI of the move of ``code`` (:func:`move_code`)."""
    return _UCI[code] if code < 4096 else code_move(code).uci()


SentStep = tuple[int, tuple[tuple[int, int], ...]]
"""A step (see :data:`Step`) as a worker sends it: our move (by
:func:`move_code`) and, in order of their codes, the replies it follows on with
the worker's id of the step after each."""
