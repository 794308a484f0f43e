"""A verify run's settings (:class:`VerifySpec`) and the :class:`Verifier`
that judges start positions with them: one table, one planner for every
game (a position planned once is never searched again), the defender, and
the tablebase that gives the optimal distances.

Games are played with the real play loop (:mod:`al0.verify.game`); the
exact worst case over every defence walks that loop's game graph
(:mod:`al0.verify.worst`); :mod:`al0.verify.tally` adds the records up and
checks the table's claims.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable

import chess

from al0.board.position import Position, from_board
from al0.board.position import fen as position_fen
from al0.engine.defenders import Defender, TablebaseDefender, make_defender
from al0.engine.plan import DEFAULT_BUDGET, Planner
from al0.engine.tablebases import Tablebases
from al0.lang.loader import load_table
from al0.lang.specs import DefenderError, DefenderSpec
from al0.verify.game import GameRecord, play_one
from al0.verify.segments import Key, Segment, Tail, make_segment, unpack, walk
from al0.verify.sources import ChainStart, chain_start
from al0.verify.worst import Start, WorstCase


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


class Verifier:
    """Judges start positions for one :class:`VerifySpec`. One planner serves
    every game, so a position planned once is never searched again. The
    tablebase comes from ``tablebases`` (a front end's, which says how a
    build goes; a new one otherwise).

    :raises DefenderError: when the defender cannot be made.
    """

    def __init__(self, spec: VerifySpec, tablebases: Tablebases | None = None):
        self.spec = spec
        self.table = load_table(spec.table_path)
        self.planner = Planner(self.table, spec.budget)
        self.worst = WorstCase(self.planner, spec.max_moves) if spec.defender.kind == "worst" else None
        # One defender for every game, except a random one: it is made per
        # position (see judge).
        self.tablebase = (tablebases or Tablebases()).get(self.table.material)
        self.fixed: Defender | None = None
        if spec.defender.kind in ("tablebase", "uci"):
            self.fixed = make_defender(
                spec.defender, self.table.material, spec.seed, spec.engine_seconds, self.tablebase
            )
        elif spec.defender.kind not in ("random", "worst"):
            raise DefenderError(f"verify cannot use the {spec.defender.name!r} defender")
        self.segments: dict[Key, Segment] | None = (
            {} if isinstance(self.fixed, TablebaseDefender) and self.tablebase is not None else None
        )
        """Against the tablebase defender, the segment from every position
        where a game here started a new plan: the games share them (see
        :mod:`al0.verify.segments`)."""
        self.tails: dict[Key, Tail] = {}
        """The rest of the games read here from each position where one
        started a new plan (see :func:`al0.verify.segments.walk`)."""
        self.again: dict[tuple[Key, frozenset[Key]], Segment] = {}
        """The segments made for a game's history (:meth:`segment_again`)."""
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
        return play_one(
            self.planner,
            board,
            self.defender_for(index),
            self.spec.max_moves,
            self.optimal(board),
            self.tablebase,
        )

    def segment(self, key: Key) -> Segment:
        """The segment from the position ``key``, made here the first time."""
        assert self.segments is not None and self.tablebase is not None  # the tablebase defender's
        found = self.segments.get(key)
        if found is None:
            found = self.segments[key] = make_segment(self.planner, self.tablebase, unpack(key))
        return found

    def segment_again(self, key: Key, seen: frozenset[Key]) -> Segment:
        """The segment from the position ``key`` in a game that has seen the
        positions ``seen`` after its moves of ours, made here (see
        :func:`al0.verify.segments.walk`)."""
        assert self.segments is not None and self.tablebase is not None  # the tablebase defender's
        found = self.again.get((key, seen))
        if found is None:
            found = make_segment(self.planner, self.tablebase, unpack(key), frozenset(map(unpack, seen)))
            self.again[key, seen] = found
        return found

    def chain_record(self, start: ChainStart, segment: Callable[[Key], Segment]) -> GameRecord:
        """The record of the game from ``start`` against the tablebase
        defender, read off the segments ``segment`` gives (see
        :func:`al0.verify.segments.walk`): the record :func:`play_one` gives.

        :raises KeyError: from ``segment``, for a segment not there yet.
        :raises AL0Error: the error of a plan the game needs, but a search
            limit (which ends the game: see :func:`al0.verify.game.limit_reached`).
        """
        key, clock, fen = start
        outcome = walk(key, clock, self.spec.max_moves, segment, self.tails, self.segment_again)
        return GameRecord(
            position_fen(unpack(key)) if fen is None else fen,
            outcome.ending,
            outcome.moves,
            outcome.optimal,
            advice_uses=outcome.advice_uses,
            failure=outcome.failure,
            handed_on=outcome.handed_on,
        )

    def start(self, board: chess.Board) -> Start:
        """What the worst case needs of a start position, read from its board."""
        position = from_board(board)
        # board.fen() reads all 64 squares; a start has three or four men.
        fen = (
            position_fen(position) if (board.halfmove_clock, board.fullmove_number) == (0, 1) else board.fen()
        )
        return fen, position, self.optimal(board)

    def start_at(self, position: Position) -> Start:
        """:meth:`start` of a position of the tablebase's listing (a won
        class or its image: legal by the table, so no board is made or
        validated), its move counters at 0 and 1."""
        optimal = None
        if self.tablebase is not None:
            result = self.tablebase.result_at(position)
            optimal = result.moves if result.winner == self.table.us else None
        return position_fen(position), position, optimal

    def judge_start(self, start: Start, board: Callable[[], chess.Board]) -> GameRecord:
        """The worst-case record of ``start``; ``board`` gives its board,
        needed only to replay the worst line."""
        assert self.worst is not None  # only with the worst defender
        record = self.worst.record(*start)
        if not self.spec.replay_worst_lines:
            return record
        # The worst line replayed through the play loop: its per-advice breakdown.
        replies = iter(chess.Move.from_uci(uci) for uci in record.line[1::2])
        replay = play_one(
            self.planner,
            board(),
            lambda _: next(replies, None),
            self.spec.max_moves,
            start[2],
            self.tablebase,
        )
        return dataclasses.replace(record, advice_uses=replay.advice_uses)

    def defender_for(self, index: int) -> Defender:
        """The defender of start position number ``index``: the run's one
        defender, or a random one seeded per position, so that results do not
        depend on how positions are split between jobs (and a replay meets
        the same moves)."""
        return self.fixed or make_defender(self.spec.defender, self.table.material, self.spec.seed + index)

    def new_plan_seconds(self) -> list[float]:
        """Search times of the plans made since the last call."""
        times = self.planner.search_seconds[self.plans_reported :]
        self.plans_reported = len(self.planner.search_seconds)
        return times

    def close(self) -> None:
        """Stop the defender (a UCI engine's process)."""
        if self.fixed is not None:
            self.fixed.close()
