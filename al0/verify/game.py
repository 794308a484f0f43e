"""One game of a table against a defender, played with the real play loop,
and the record a report keeps of it; and which errors of a plan end only
the game that needs it (:func:`limit_reached`), not the run."""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any, Callable

import chess

from al0.engine.plan import Planner
from al0.engine.play import Ending, GameEnd, OurMove, play_game
from al0.errors import AL0Error, SearchBudgetExceeded, one_line
from al0.verify.analysis import AdviceTally, AdviceUse


@dataclass(frozen=True)
class GameRecord:
    """How one start position fared."""

    fen: str
    ending: Ending
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
    failure: str = ""
    """For a game that ended at a search limit, the error in words: the
    advice, what its search spent and the position it searched from (replay
    it with ``al0 plan TABLE --fen FEN``); '' otherwise."""
    handed_on: bool = False
    """Whether the game went on with another table after a capture or a
    promotion changed the material (:mod:`al0.engine.successors`)."""

    @property
    def mated(self) -> bool:
        """Whether the game ended as the table means it to: in mate."""
        return self.ending is Ending.MATE


PackedRecords = tuple[
    list[str],
    bytes,
    "array[int]",
    "array[int]",
    dict[int, tuple[str, ...]],
    list[tuple[AdviceUse, ...]],
    dict[int, str],
    bytes,
]
"""Records as a worker sends them (:func:`pack_records`): a column per field,
the rare ones (lines, failures) by index, so a chunk of games crosses
between processes as a few objects, not a few per game."""

_ENDINGS = tuple(Ending)


def pack_records(records: list[GameRecord]) -> PackedRecords:
    """``records`` as columns (:data:`PackedRecords`)."""
    codes = {ending: code for code, ending in enumerate(_ENDINGS)}
    return (
        [record.fen for record in records],
        bytes(codes[record.ending] for record in records),
        array("i", [record.moves for record in records]),
        array("i", [-1 if record.optimal is None else record.optimal for record in records]),
        {index: record.line for index, record in enumerate(records) if record.line},
        [record.advice_uses for record in records],
        {index: record.failure for index, record in enumerate(records) if record.failure},
        bytes(record.handed_on for record in records),
    )


def unpack_records(packed: PackedRecords) -> list[GameRecord]:
    """The records :func:`pack_records` packed."""
    fens, codes, moves, optimal, lines, uses, failures, handed_on = packed
    return [
        GameRecord(
            fen,
            _ENDINGS[code],
            played,
            None if best < 0 else best,
            lines.get(index, ()),
            used,
            failures.get(index, ""),
            bool(on),
        )
        for index, (fen, code, played, best, used, on) in enumerate(
            zip(fens, codes, moves, optimal, uses, handed_on)
        )
    ]


def limit_reached(error: BaseException) -> str | None:
    """The words of a plan's ``error`` when it ends only the game that needs
    the plan, as :attr:`~al0.engine.play.Ending.SEARCH_LIMIT`: a search that
    reached its node budget or memory limit (the table's failure there, as
    no plan is; the planner itself never takes it for "no tree"). None for
    any other error (a broken library, a dead engine), which stops the run.
    The one place every way of judging a game (the play loop, chains of
    segments, the worst case; in one process, workers or a cluster) asks."""
    return one_line(error) if isinstance(error, SearchBudgetExceeded) else None


def play_one(
    planner: Planner,
    board: chess.Board,
    defender: Callable[[chess.Board], chess.Move | None],
    max_moves: int,
    optimal: int | None,
    tablebase: Any | None = None,
) -> GameRecord:
    """Play one game with the real loop and record how it ended (and, with
    the ``tablebase``, each advice's moves and progress); a search that
    reaches a limit ends it (:func:`limit_reached`)."""
    fen = board.fen()
    moves = 0
    end: GameEnd | None = None
    game = board.copy()
    us = planner.table.us
    tally = (
        AdviceTally(lambda board: tablebase.dtm(board, us), optimal, planner.table.name)
        if tablebase is not None and optimal is not None
        else None
    )
    handed_on = False
    try:
        for event in play_game(planner, game, defender, max_moves, notation=False):
            if tally is not None:
                tally.observe(event, game)
            if isinstance(event, OurMove):
                moves += 1
                handed_on = handed_on or event.table is not planner.table
            elif isinstance(event, GameEnd):
                end = event
    except AL0Error as error:
        failure = limit_reached(error)
        if failure is None:
            raise
        uses = tally.uses() if tally is not None else ()
        return GameRecord(
            fen, Ending.SEARCH_LIMIT, moves, optimal, advice_uses=uses, failure=failure, handed_on=handed_on
        )
    assert end is not None  # play_game always ends with a GameEnd
    uses = tally.uses() if tally is not None else ()
    return GameRecord(fen, end.ending, moves, optimal, advice_uses=uses, handed_on=handed_on)
