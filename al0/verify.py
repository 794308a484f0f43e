"""Measuring an advice table over the positions of its endgame.

Games are played with the real play loop (:func:`al0.play.play_game`) against
a defender; the exact worst case over every defence is computed on the game
graph of that same loop (:class:`WorstCase`). A :class:`Report` gathers the
outcome and checks the table's declared expectations.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, overload

import chess

from al0.analysis import WORST_KEPT, AdviceTally, AdviceUse, analysis
from al0.defenders import (VERIFY_KINDS, Defender, DefenderError, DefenderSpec,
                           TablebaseDefender, make_defender)
from al0.errors import PositionError
from al0.loader import load_table
from al0.model import AdviceTable, Expectations
from al0.play import Ending, GameEnd, OurMove, descend, ending_at, play_game
from al0.plan import DEFAULT_BUDGET, Planner
from al0.position import Position, from_board, play, successors
from al0.positions import epd_positions
from al0.tree import ForcingTree

if TYPE_CHECKING:
    from al0.tablebase import PositionClass, Tablebase

Outcome = tuple[int, str, tuple[str, ...]]
"""(moves, ending, line) of a state in the worst-case analysis."""

EXAMPLES_KEPT = 5
"""Example FENs kept per kind of failure in a report."""


# ------------------------------------------------------------ positions

def start_positions(spec: str, table: AdviceTable, tablebase: Tablebase | None, seed: int = 0,
                    relative_to: str | None = None) -> Sequence[chess.Board]:
    """The start positions ``spec`` names: ``all`` (one position per
    symmetry class of the table's material, the table's side to move, won
    for it by the tablebase), ``sample:N`` (N of those classes, drawn
    uniformly and seeded) or an EPD file, read relative to the folder
    ``relative_to`` when given.

    :raises PositionError: for a bad spec, a material with no tablebase to
        list its positions, or a bad EPD file.
    """
    if spec == "all" or spec.startswith("sample:"):
        count = spec[len("sample:"):]
        if spec != "all" and (not count.isdigit() or int(count) < 1):
            raise PositionError(f"{spec!r}: use sample:N with N >= 1")
        if tablebase is None:
            raise PositionError(f"no tablebase for {table.material}, so no list of all its "
                                f"positions: give an EPD file")
        from al0.tablebase import stronger_colour  # lazily, as the tablebase itself
        classes = tablebase.positions(table.us, stronger=stronger_colour(table.material, table.us),
                                      won=True)
        if spec == "all":
            return LazyBoards(classes)
        chosen = random.Random(seed).sample(classes, min(int(count), len(classes)))
        return [position.board() for position in chosen]
    path = os.path.join(relative_to, spec) if relative_to is not None else spec
    return epd_positions(path, table)


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
        return self._classes[item].board()


# ---------------------------------------------------------------- games

@dataclass(frozen=True)
class GameRecord:
    """How one start position fared."""
    fen: str
    ending: str
    """An :class:`~al0.play.Ending` value (``mate``, ``stalemate``, …)."""
    moves: int
    """Our moves played (to mate, or until the failure)."""
    optimal: int | None
    """The tablebase's moves to mate, when known."""
    line: tuple[str, ...] = ()
    """For the worst case: the moves (UCI) of the line that ends so."""
    advice_uses: tuple[AdviceUse, ...] = ()
    """Moves and tablebase progress per piece of advice (see
    :mod:`al0.analysis`); empty when there is no tablebase or the start is
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
    tally = AdviceTally(tablebase.dtm, optimal) if tablebase is not None and optimal is not None else None
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
    """

    def __init__(self, planner: Planner, max_moves: int):
        self.planner = planner
        self.max_moves = max_moves
        self.memo: dict[tuple[Position, int], Outcome] = {}
        self.on_path: set[tuple[Position, int]] = set()
        self.trees: dict[int, ForcingTree] = {}  # keeps every tree in a key alive
        self.endings: dict[Position, Ending | None] = {}
        """:func:`~al0.play.ending_at` of every position met: each is met
        again under many trees, and deciding it means generating moves."""

    def _ending(self, position: Position) -> Ending | None:
        try:
            return self.endings[position]
        except KeyError:
            ending = self.endings[position] = ending_at(position, self.planner)
            return ending

    def analyse(self, board: chess.Board, optimal: int | None) -> GameRecord:
        moves, ending, line = self._value(from_board(board), None)
        if ending == Ending.MATE.value and moves > self.max_moves:
            ending = Ending.MOVE_LIMIT.value
        return GameRecord(board.fen(), ending, moves, optimal, line)

    def _value(self, position: Position, tree: ForcingTree | None) -> Outcome:
        """(moves, ending, line) from our turn at ``position`` following
        ``tree``: moves to mate against the worst defence and ending
        ``mate``, or the moves to an escape, its kind and the line that
        reaches it."""
        key = (position, id(tree))
        if key in self.memo:
            return self.memo[key]
        if key in self.on_path:
            return 0, Ending.REPETITION.value, ()
        if tree is not None:
            self.trees[id(tree)] = tree
        self.on_path.add(key)
        try:
            result = self._expand(position, tree)
        finally:
            self.on_path.discard(key)
        self.memo[key] = result
        return result

    def _expand(self, position: Position, tree: ForcingTree | None) -> Outcome:
        planner = self.planner
        if tree is None:
            plan = planner.plan_position(position)
            if plan.tree is None:
                return 0, Ending.NO_PLAN.value, ()
            tree = plan.tree
        move = tree.branches[0][0]
        tree = descend(tree, move)
        after = play(position, move)
        assert after is not None  # the search only keeps legal moves
        end = self._ending(after)
        if end is not None:
            return 1, end.value, (move.uci(),)
        worst: Outcome = (0, Ending.MATE.value, ())
        worst_escapes = False
        for reply, reached in successors(after):
            subtree = descend(tree, reply)
            end = self._ending(reached)
            if end is not None:
                # Their move ended the game: only a loss for us (material) is possible.
                result: Outcome = (0, end.value, ())
            else:
                result = self._value(reached, subtree)
            moves, ending, line = result
            escapes = ending != Ending.MATE.value
            # An escape beats any mate; among equals, the longer line.
            if (escapes, moves + 1) > (worst_escapes, worst[0]):
                worst = (moves + 1, ending, (move.uci(), reply.uci()) + line)
                worst_escapes = escapes
        return worst


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

    def applies(self, expect: Expectations) -> bool:
        """Whether a block's claims are about this run's defender: a block
        naming no defender is about any, and one about the worst defence
        bounds every single defence too."""
        if expect.defender is None or expect.defender == "worst":
            return True
        return DefenderSpec.parse(expect.defender, VERIFY_KINDS).name == self.defender

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
            checks.append(self._check_mean(expect.mean_moves, expect.positions, mated))
        if self.interrupted:
            # Part of the positions says nothing of the whole run's claims.
            return [(name, None, f"{measured}; the run was interrupted")
                    for name, _, measured in checks]
        return checks

    def _check_mean(self, limit: float, positions: str | None,
                    mated: list[int]) -> tuple[str, bool | None, str]:
        """A mean over other positions than the claim's says nothing of it
        (a sample's mean can lie either side), so it is then undecided."""
        mean = statistics.fmean(mated) if mated else 0.0
        measured = (f"mean {mean:.2f} moves over {len(mated)} mated games "
                    f"(at most {limit} expected, against the {self.defender} defender)")
        if positions is not None and positions != self.positions:
            return ("mean-moves", None,
                    f"{measured}; the claim is about positions {positions}, not {self.positions}")
        return "mean-moves", mean <= limit, measured

    def to_json(self, expectations: Sequence[Expectations] = (),
                worst: int = WORST_KEPT) -> dict[str, Any]:
        """The report as plain data, with the claims of the ``expectations``
        blocks about this run's defender checked; ``worst``: games of largest
        excess kept in its ``analysis``."""
        mated = [r for r in self.records if r.ending == Ending.MATE.value]
        known = [r for r in mated if r.optimal is not None]
        times = sorted(self.plan_seconds)
        examples: dict[str, list[dict[str, Any]]] = {}
        for record in self.failures:
            kept = examples.setdefault(record.ending, [])
            if len(kept) < EXAMPLES_KEPT:
                kept.append({"fen": record.fen, "moves": record.moves, "line": list(record.line)})
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


def load_tablebase(material: str) -> Tablebase | None:
    """The tablebase of ``material``, or None when there is none for it."""
    from al0 import tablebase  # lazily: it may build a table (seconds)
    try:
        return tablebase.load(material)
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
        optimal = self.optimal(board)
        if self.worst is not None:
            record = self.worst.analyse(board, optimal)
            if not self.spec.replay_worst_lines:
                return record
            # The worst line replayed through the play loop: its per-advice breakdown.
            replies = iter(chess.Move.from_uci(uci) for uci in record.line[1::2])
            replay = play_one(self.planner, board, lambda _: next(replies, None),
                              self.spec.max_moves, optimal, self.tablebase)
            return dataclasses.replace(record, advice_uses=replay.advice_uses)
        return play_one(self.planner, board, self.defender_for(index), self.spec.max_moves,
                        optimal, self.tablebase)

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


ChunkResult = tuple[list[GameRecord], list[float]]
"""What a worker sends back for a chunk: its records and its plans' search times."""


def judge_chunk(spec: VerifySpec, chunk: list[tuple[int, str]]) -> ChunkResult:
    """Run in a worker process: the records of ``chunk`` (index, FEN) and the
    search times of the plans it made."""
    verifier = _worker_verifier(spec)
    records = [verifier.judge(index, chess.Board(fen)) for index, fen in chunk]
    return records, verifier.new_plan_seconds()
