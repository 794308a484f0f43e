"""Games played as a table lowering a potential would play them, against
the tablebase's defence: does the forced fall, kept up, end in mate, and in
how many moves against the optimum?"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import chess
import chess.polyglot
import numpy as np

from al0.progress.columns import INF, MATE, PerPosition
from al0.tablebase.geometry import Mask
from al0.tablebase.graph import MoveGraph

Phase = tuple[PerPosition, PerPosition, list[PerPosition], PerPosition]
"""A phase's potential, depths, replies (from :func:`~al0.progress.minmax.depths`)
and the values where its plans end."""


class WalkEnd(enum.Enum):
    """How a walked game ends, in the words the counts are written with."""

    MATE = "mate"
    TARGET = "target"
    """It reached the next phase."""
    NO_PLAN = "no plan"
    NO_PLAN_IN_DRIVE = "no plan in the drive"
    MOVE_LIMIT = "over 50 moves"
    REPETITION = "threefold repetition"
    REPETITION_IN_DRIVE = "threefold repetition in a drive plan"


STOPS = tuple(end for end in WalkEnd if end not in (WalkEnd.MATE, WalkEnd.TARGET))
"""How a game that neither mates nor reaches the target ends."""


@dataclass
class Walked:
    """What the games of a walk came to."""

    games: int = 0
    mated: int = 0
    moves: int = 0
    """Our moves played in the games that mated."""
    optimal: int = 0
    """The tablebase's moves to mate from the starts of those games."""
    reached: int = 0
    """Games that reached the target (the next phase)."""
    reached_moves: int = 0
    stopped: dict[WalkEnd, int] = field(default_factory=lambda: dict.fromkeys(STOPS, 0))
    exits: list[str] = field(default_factory=list)
    """One line per plan that left the closure (with ``closure`` and ``keeping``)."""

    def text(self) -> str:
        """``N of M mated in x moves on average (optimal y), …``."""
        text = f"{self.mated} of {self.games} mated"
        if self.mated:
            text += f" in {self.moves / self.mated:.1f} moves on average (optimal {self.optimal / self.mated:.1f})"
        if self.reached:
            text += f", {self.reached} reached the target in {self.reached_moves / self.reached:.1f} moves on average"
        return text + "".join(f", {count} {end.value}" for end, count in self.stopped.items() if count)

    def summary(self) -> dict[str, object]:
        """The counts, for JSON (exits left out)."""
        return {
            "games": self.games,
            "mated": self.mated,
            "moves": self.moves,
            "optimal": self.optimal,
            "reached": self.reached,
            "reached_moves": self.reached_moves,
            "stopped": {end.value: count for end, count in self.stopped.items() if count},
        }


@dataclass(frozen=True)
class Walker:
    """How the games choose their moves: by default the first (python-chess's
    order) that forces the fall in the fewest moves. ``greedy``: one that
    forces the lowest value (a mate first), as advice trying the most
    significant term's fall first would. ``fastest``: each plan gets the
    whole depth and takes, of the moves that keep the fall forced, the one
    the tablebase rates best — about the best any table lowering this
    potential could do, so games that stay long even so show the potential
    itself is slow; with ``greedy`` too, of the moves forcing the lowest
    value, the tablebase's best. ``avoid_seen``: of the moves that keep the
    fall forced, those leading to a position the game has had after a move
    of ours are passed over while another remains, as al0's plan choice
    passes over trees that come back (docs/language.md, *Playing*)."""

    graph: MoveGraph
    greedy: bool = False
    fastest: bool = False
    avoid_seen: bool = False
    prefer: PerPosition | None = None
    """When given, of the moves that keep the fall forced, those whose
    worst reply leaves the least of these values (us to move) are played:
    a choice a table could state, tried before any of the above."""

    def walk(
        self,
        potential: PerPosition,
        found: PerPosition,
        replies: list[PerPosition],
        boards: list[chess.Board],
        counted: Mask | None = None,
        closure: Mask | None = None,
        keeping: tuple[PerPosition, list[PerPosition]] | None = None,
        next_phase: Mask | None = None,
        drive: tuple[Mask, Phase] | None = None,
    ) -> Walked:
        """Plays each board, plan by plan (``found`` and ``replies`` from
        :func:`~al0.progress.minmax.depths`), against the tablebase's
        defence. A plan ends where the value falls at a position of
        ``counted`` (when given, as the depths counted it). With ``closure``
        and ``keeping`` (the depths counting only the closure), each plan
        that starts inside the closure and ends outside it is described. A
        game that reaches ``next_phase`` (the target) ends there, counted
        apart. ``drive`` (where the phase above holds; the drive's phase) is
        a first phase: a plan from outside it lowers the drive's potential
        instead. A position met a third time ends the game (a threefold
        repetition, as in al0's games); so does a 50th move."""
        table = self.graph.table
        met = potential if counted is None else np.where(counted, potential, INF)
        walked = Walked(games=len(boards))
        phase: Phase = (potential, found, replies, met)
        for board in boards:
            board = board.copy()
            start_dtm = table.dtm(board) or 0
            moves_played, end = 0, None
            seen: set[int] = set()  # positions after our moves (no capture happens)
            while end is None:
                root = self.graph.index(board)
                if next_phase is not None and next_phase[root]:
                    end = WalkEnd.TARGET
                    break
                in_drive = drive is not None and not drive[0][root]
                if drive is not None:  # the drive until the phase above holds
                    phase = drive[1] if in_drive else (potential, found, replies, met)
                values, level_depths, level_replies, reached_at = phase
                level = len(level_replies) if self.fastest else int(level_depths[root])
                if int(level_depths[root]) == 0:
                    end = WalkEnd.NO_PLAN_IN_DRIVE if in_drive else WalkEnd.NO_PLAN
                    break
                target = values[root]
                before, plan = board.fen(), []
                while True:
                    move = self._choose(board, level_replies[level - 1], target, seen)
                    plan.append(board.san(move))
                    board.push(move)
                    seen.add(chess.polyglot.zobrist_hash(board))
                    moves_played += 1
                    if board.is_checkmate():
                        end = WalkEnd.MATE
                        break
                    if moves_played >= 50:
                        end = WalkEnd.MOVE_LIMIT
                        break
                    reply = table.best_defence(board)
                    plan.append(board.san(reply))
                    board.push(reply)
                    if board.is_repetition(3):
                        end = WalkEnd.REPETITION_IN_DRIVE if in_drive else WalkEnd.REPETITION
                        break
                    if reached_at[self.graph.index(board)] < target:
                        break
                    level -= 1
                if (
                    closure is not None
                    and keeping is not None
                    and end is None
                    and closure[root]
                    and not closure[self.graph.index(board)]
                ):
                    walked.exits.append(self._exit(chess.Board(before), potential, plan, keeping))
            if end is WalkEnd.MATE:
                walked.mated += 1
                walked.moves += moves_played
                walked.optimal += start_dtm
            elif end is WalkEnd.TARGET:
                walked.reached += 1
                walked.reached_moves += moves_played
            else:
                walked.stopped[end] += 1
        return walked

    def _choose(self, board: chess.Board, reply: PerPosition, target: np.int64, seen: set[int]) -> chess.Move:
        """The move to play: one that forces the value below ``target``
        (with ``avoid_seen``, not to a position of ``seen`` where it can)."""
        forcing = [m for m in board.legal_moves if self._forces(board, m, reply, target)]
        if self.avoid_seen:
            forcing = [m for m in forcing if self._after(board, m) not in seen] or forcing
        if self.prefer is not None:
            worst = {m: self._worst_reply(board, m, self.prefer) for m in forcing}
            least = min(worst.values())
            forcing = [m for m in forcing if worst[m] == least]
        if self.fastest and self.greedy:
            return min(forcing, key=lambda m: (self._value(board, m, reply), self._rating(board, m)))
        if self.fastest:
            return min(forcing, key=lambda m: self._rating(board, m))
        if self.greedy:
            return min(forcing, key=lambda m: self._value(board, m, reply))
        return forcing[0]

    def _exit(
        self,
        board: chess.Board,
        potential: PerPosition,
        plan: list[str],
        keeping: tuple[PerPosition, list[PerPosition]],
    ) -> str:
        """One line on a plan that left the closure: the position, the plan
        played and the first move that keeps the progress inside it."""
        found, replies = keeping
        level = int(found[self.graph.index(board)])
        target = potential[self.graph.index(board)]
        inside = (
            next((m for m in board.legal_moves if self._forces(board, m, replies[level - 1], target)), None)
            if level
            else None
        )
        return (
            f"{board.fen()}: played {' '.join(plan)}; keeps the closure: "
            f"{board.san(inside) if inside else 'none'} (in {level})"
        )

    def _worst_reply(self, board: chess.Board, move: chess.Move, values: PerPosition) -> int:
        """The greatest of ``values`` their replies to ``move`` leave (a
        mate the least of all)."""
        board.push(move)
        try:
            if board.is_checkmate():
                return int(MATE)
            worst = int(MATE)
            for reply in board.legal_moves:
                board.push(reply)
                worst = max(worst, int(values[self.graph.index(board)]))
                board.pop()
            return worst
        finally:
            board.pop()

    @staticmethod
    def _after(board: chess.Board, move: chess.Move) -> int:
        """The position after ``move``, as a Zobrist hash."""
        board.push(move)
        try:
            return chess.polyglot.zobrist_hash(board)
        finally:
            board.pop()

    def _value(self, board: chess.Board, move: chess.Move, reply: PerPosition) -> int:
        """The value ``move`` forces (MATE for a mate)."""
        board.push(move)
        try:
            return int(MATE) if board.is_checkmate() else int(reply[self.graph.index(board)])
        finally:
            board.pop()

    def _rating(self, board: chess.Board, move: chess.Move) -> int:
        """The tablebase's distance to mate after ``move`` (-1 for a mate,
        worst of all for a draw)."""
        board.push(move)
        try:
            if board.is_checkmate():
                return -1
            distance = self.graph.table.dtm(board)
            return int(INF) if distance is None else int(distance)
        finally:
            board.pop()

    def _forces(self, board: chess.Board, move: chess.Move, reply: PerPosition, target: np.int64) -> bool:
        """Whether ``move`` mates or keeps the value forced below ``target``."""
        board.push(move)
        try:
            return board.is_checkmate() or bool(reply[self.graph.index(board)] < target)
        finally:
            board.pop()
