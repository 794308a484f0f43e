"""Practice: a person plays the winning side against the tablebase's
defence, with a verdict on every move, and may ask what to play and why;
or, with a table that holds (the weaker side's: ``krkb_hold``), defends a
drawn position against the most testing attacker
(:class:`~al0.engine.defenders.MostTestingAttacker`), the table the coach.

With a table (a :class:`~al0.engine.plan.Planner`), the hint is the move of
the plan al0 would be following, so a hint given after a hint followed
continues the same forcing tree, as ``al0 play`` would; with none, the hint
is the tablebase's fastest move. Every move of the person gets a verdict
(:mod:`al0.teach`), and any move can be taken back, the one that ended the
game too. Nothing here reads or prints; the CLI does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from al0.board import Material
from al0.board.fen import FIFTY_MOVE_PLIES
from al0.board.position import from_board
from al0.engine.defenders import MostTestingAttacker
from al0.engine.plan import Plan, Planner
from al0.engine.play import Ending, GameEnd, descend, game_ending
from al0.engine.tree import ForcingTree
from al0.errors import PositionError
from al0.teach.record import Attempt
from al0.teach.verdict import Grade, Judge, Verdict, ended_by_fifty_moves, fastest_moves, holding_moves

if TYPE_CHECKING:
    from al0.tablebase import Tablebase


HOLD_MOVES = 50
"""The moves a defence of a draw is practised for: the 50-move rule's,
which a game with no capture reaches."""


def _ours(board: chess.Board, us: chess.Color) -> str:
    """Our side's part of the material, ``KQ`` of ``KQKR``."""
    return Material.of(board, us).side_names[0]


@dataclass(frozen=True)
class Hint:
    """What al0 advises at the current position: the plan it follows (made
    here when ``new_plan``, else earlier and still followed; None with no
    table), the forcing tree from here, and the move (None: no move to
    advise)."""

    plan: Plan | None
    tree: ForcingTree | None
    new_plan: bool
    fastest: tuple[chess.Move, ...] = ()
    """The tablebase's fastest moves (the hint when there is no plan)."""

    @property
    def move(self) -> chess.Move | None:
        """The hinted move: the tree's, else the tablebase's fastest."""
        if self.tree is not None and self.tree.branches:
            return self.tree.branches[0][0]
        return self.fastest[0] if self.fastest else None

    @property
    def advice(self) -> str | None:
        """The name of the advice followed (None: no table or no plan)."""
        return None if self.plan is None or self.tree is None else self.plan.advice


@dataclass(frozen=True)
class Turn:
    """One move of the person, its verdict and the defence's reply (None
    when the person's move ended the game), with the tablebase's distance
    to mate for the person's side before the move and after the reply
    (None: no forced mate)."""

    move: chess.Move
    san: str
    reply: chess.Move | None
    reply_san: str | None
    before: int | None
    after: int | None
    verdict: Verdict
    hinted: bool = False
    """Whether a hint was asked for before the move."""


@dataclass(frozen=True)
class _Undo:
    """What taking back one move of the person restores: the game's length
    before it and the plan and tree al0 followed there (and where that plan
    was made)."""

    plies: int
    plan: Plan | None
    tree: ForcingTree | None
    planned_at: int


class Practice:
    """A practice game from ``board`` (mutated as the game goes): the person
    plays the table's side (with no table, the side the tablebase says is
    stronger), the tablebase defends by its longest resistance. With a
    table that holds (:attr:`holds`), the person defends a draw and the
    tablebase attacks, by its most testing move.

    :raises PositionError: when the game is already over, or the person's
        side cannot force mate from ``board`` (there is nothing to practise);
        with a table that holds, when ``board`` is not a draw.
    """

    def __init__(self, tablebase: Tablebase, board: chess.Board, planner: Planner | None = None):
        self.first = planner
        """The planner of the table the game began with (see :attr:`planner`)."""
        self.tablebase = tablebase
        self.board = board
        self.us: chess.Color = planner.table.us if planner is not None else tablebase.stronger(board)
        self.holds = planner is not None and planner.table.holds
        """Whether the person defends a draw (a table that holds) rather than mates."""
        self.attacker = (
            MostTestingAttacker(Material.of(board, self.us).name, tablebase) if self.holds else None
        )
        self.material = _ours(board, self.us)
        """Our pieces at the start (``KQ``): losing one ends the game."""
        self._judges: dict[int, Judge] = {}
        """A judge for each planner the game has had (:attr:`judge`)."""
        self._undo: list[_Undo] = []
        ended = self.ending()
        if ended is not None:
            raise PositionError(f"{board.fen()!r}: the game is already over ({ended.detail})")
        self.optimal: int = self._goal(board)
        """The tablebase's distance to mate from the start, in our moves;
        for a defence, the moves to hold (:data:`HOLD_MOVES`)."""
        self.opening_reply: str | None = None
        """The other side's first move in SAN when the start was its turn."""
        if board.turn != self.us:
            reply = self._reply()
            self.opening_reply = board.san(reply)
            board.push(reply)
        self.start = board.copy()
        """The first position the person moves from."""
        self._plan: Plan | None = None
        self._tree: ForcingTree | None = None
        self._planned_at = 0
        """The length of the game when ``_plan`` was made."""
        self.turns: list[Turn] = []
        """The person's moves in the game as it stands."""
        self.taken_back: list[tuple[int, str, Turn]] = []
        """Each move taken back, with its place among :attr:`turns` and the
        position it was played in as FEN (for the game's record: a coach
        shows the slip beside the move kept)."""
        self._hinted = False
        self.hints = 0
        """Hints asked for in this exercise (taken-back moves' included)."""
        self.given: dict[Grade, int] = dict.fromkeys(Grade, 0)
        """The verdicts given in this exercise, taken-back moves' included."""

    def _goal(self, board: chess.Board) -> int:
        """The moves the exercise asks for: the mate's, or the defence's.

        :raises PositionError: when there is nothing to practise.
        """
        if self.holds:
            result = self.tablebase.result(board)
            if result.winner is not None:
                side = chess.COLOR_NAMES[result.winner].title()
                raise PositionError(
                    f"{board.fen()!r}: {side} mates in {result.moves} here, so there is no draw to hold"
                )
            return HOLD_MOVES
        optimal = self.tablebase.dtm(board, self.us)
        if optimal is None:
            raise PositionError(
                f"{board.fen()!r}: the side to play cannot force mate here, so there is no win to practise"
            )
        return optimal

    def _reply(self) -> chess.Move:
        """The other side's move: the most testing attack on a defence,
        else the tablebase's longest resistance."""
        if self.attacker is not None:
            return self.attacker(self.board)
        return self.tablebase.best_defence(self.board)

    @property
    def planner(self) -> Planner | None:
        """The planner of the table playing now: the first table's, or the
        one a capture or a promotion handed the game to
        (:meth:`~al0.engine.plan.Planner.playing`); None with no table."""
        if self.first is None:
            return None
        return self.first.playing(from_board(self.board)) or self.first

    @property
    def judge(self) -> Judge:
        """The judge of the person's moves, by the table playing now."""
        planner = self.planner
        found = self._judges.get(id(planner))
        if found is None:
            found = self._judges[id(planner)] = Judge(self.tablebase, self.us, planner)
        return found

    @property
    def moves_played(self) -> int:
        """The person's moves in the game as it stands (taken-back ones not counted)."""
        return len(self._undo)

    def ending(self) -> GameEnd | None:
        """How the game has ended (mate, stalemate, material lost, the 50-move
        rule, repetition), or None while it goes on."""
        board = self.board
        if self.first is not None:
            end = game_ending(board, self.first)
            if end is None and self.holds and board.is_insufficient_material():
                return GameEnd(Ending.MATERIAL_LOST, "too little left to mate: a draw", dead=True)
            if end is None and self.holds and self.moves_played >= HOLD_MOVES and board.turn == self.us:
                return GameEnd(Ending.MOVE_LIMIT, f"the draw held for {HOLD_MOVES} moves", dead=True)
            return end
        if board.is_checkmate():
            mated = "they are" if board.turn != self.us else "we are"
            return GameEnd(Ending.MATE, f"checkmate: {mated} mated", winner=not board.turn)
        if board.is_stalemate():
            return GameEnd(Ending.STALEMATE, "stalemate: a draw")
        if _ours(board, self.us) != self.material:
            return GameEnd(
                Ending.MATERIAL_LOST, f"material lost: {_ours(board, self.us)} instead of {self.material}"
            )
        if board.halfmove_clock >= FIFTY_MOVE_PLIES:
            return GameEnd(Ending.FIFTY_MOVES, "50 moves without capture or pawn move: a draw")
        if board.is_repetition(3):
            return GameEnd(Ending.REPETITION, "the position came three times: a draw")
        return None

    def solved(self) -> bool:
        """Whether the person has mated; in a defence, held the draw to the
        game's end (a draw by the rules, or :data:`HOLD_MOVES` moves)."""
        end = self.ending()
        if self.holds:
            return end is not None and end.winner is None and (end.dead or end.ending.is_draw)
        return end is not None and end.ending is Ending.MATE and self.board.turn != self.us

    def attempt(self, material: str) -> Attempt:
        """The exercise as the person leaves it, for the progress record
        (``material``: the ending it is counted under)."""
        return Attempt(
            material,
            self.start.fen(),
            self.solved(),
            self.moves_played,
            self.optimal,
            self.hints,
            self.given[Grade.MISTAKE],
            self.given[Grade.BLUNDER],
        )

    def distance(self) -> int | None:
        """The tablebase's moves to mate for the person's side now; None
        when it has no forced mate (any more), the 50-move rule's end
        included."""
        if ended_by_fifty_moves(self.board):
            return None
        try:
            return self.tablebase.dtm(self.board, self.us)
        except PositionError:  # material lost: the board is not of this ending
            return None

    def advice(self) -> Hint:
        """What al0 plays here: the move of the tree it is following, or a
        new plan when it follows none (which it then follows); with no
        table, the tablebase's fastest moves."""
        fastest = tuple(self.best_moves())
        if self.planner is None:
            return Hint(None, None, True, fastest)
        if self._tree is None or self._plan is None:
            self._plan = self.planner.plan(self.board)
            self._tree = self._plan.tree
            self._planned_at = len(self.board.move_stack)
        return Hint(
            self._plan, self._tree, new_plan=self._planned_at == len(self.board.move_stack), fastest=fastest
        )

    def hint(self) -> Hint:
        """:meth:`advice`, counted as a hint asked for."""
        self._hinted = True
        self.hints += 1
        return self.advice()

    def best_moves(self) -> list[chess.Move]:
        """The tablebase's fastest mating moves here (empty: no forced mate);
        in a defence, the moves that keep the draw (empty: none does)."""
        try:
            if self.holds:
                return holding_moves(self.tablebase, self.board)
            return fastest_moves(self.tablebase, self.board)
        except PositionError:
            return []

    def judge_move(self, move: chess.Move) -> Verdict:
        """The verdict on ``move`` here, without playing it."""
        advice = self.advice()
        fresh = advice.plan if advice.new_plan and advice.tree is not None else None
        return self.judge.judge(self.board, move, advice.advice, advice.tree, fresh)

    def play(self, move: chess.Move) -> Turn:
        """Play the person's ``move`` (legal, their turn) and the defence's
        reply, unless the move ends the game. al0 keeps following its tree
        while the moves are the tree's."""
        verdict = self.judge_move(move)
        self.given[verdict.grade] += 1
        self._undo.append(_Undo(len(self.board.move_stack), self._plan, self._tree, self._planned_at))
        before = self.distance()
        san = self.board.san(move)
        hinted, self._hinted = self._hinted, False
        playing = self.planner
        self._tree = descend(self._tree, move, playing.table) if playing is not None else None
        self.board.push(move)
        reply = reply_san = None
        if self.ending() is None:
            reply = self._reply()
            reply_san = self.board.san(reply)
            self._tree = descend(self._tree, reply, playing.table) if playing is not None else None
            self.board.push(reply)
        if self.planner is not playing:
            self._tree = None  # another table plans now (the material changed)
        turn = Turn(move, san, reply, reply_san, before, self.distance(), verdict, hinted)
        self.turns.append(turn)
        return turn

    def undo(self) -> bool:
        """Take back the person's last move and the reply to it (the game's
        end included); False when there is none to take back."""
        if not self._undo:
            return False
        last = self._undo.pop()
        while len(self.board.move_stack) > last.plies:
            self.board.pop()
        self.taken_back.append((len(self.turns) - 1, self.board.fen(), self.turns.pop()))
        self._plan, self._tree, self._planned_at = last.plan, last.tree, last.planned_at
        return True

    def over_optimum(self) -> int:
        """Moves played beyond the tablebase's optimum from the start."""
        return max(0, self.moves_played - self.optimal)
