"""One game of a table against a defender, played with the real play loop,
and the record a report keeps of it; and which errors of a plan end only
the game that needs it (:func:`limit_reached`), not the run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import chess

from al0.engine.plan import Planner
from al0.engine.play import Ending, GameEnd, OurMove, play_game
from al0.errors import AL0Error, SearchBudgetExceeded
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

    @property
    def mated(self) -> bool:
        """Whether the game ended as the table means it to: in mate."""
        return self.ending is Ending.MATE


def limit_reached(error: BaseException) -> str | None:
    """The words of a plan's ``error`` when it ends only the game that needs
    the plan, as :attr:`~al0.engine.play.Ending.SEARCH_LIMIT`: a search that
    reached its node budget or memory limit (the table's failure there, as
    no plan is; the planner itself never takes it for "no tree"). None for
    any other error (a broken library, a dead engine), which stops the run.
    The one place every way of judging a game (the play loop, chains of
    segments, the worst case; in one process, workers or a cluster) asks."""
    return " ".join(str(error).split()) if isinstance(error, SearchBudgetExceeded) else None


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
        AdviceTally(lambda board: tablebase.dtm(board, us), optimal)
        if tablebase is not None and optimal is not None
        else None
    )
    try:
        for event in play_game(planner, game, defender, max_moves, notation=False):
            if tally is not None:
                tally.observe(event, game)
            if isinstance(event, OurMove):
                moves += 1
            elif isinstance(event, GameEnd):
                end = event
    except AL0Error as error:
        failure = limit_reached(error)
        if failure is None:
            raise
        uses = tally.uses() if tally is not None else ()
        return GameRecord(fen, Ending.SEARCH_LIMIT, moves, optimal, advice_uses=uses, failure=failure)
    assert end is not None  # play_game always ends with a GameEnd
    return GameRecord(fen, end.ending, moves, optimal, advice_uses=tally.uses() if tally is not None else ())
