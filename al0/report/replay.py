"""Replaying the games of a verify run, move by move, for the reports that
show them (``--html``, ``--pgn``).

Verify keeps only how each game ended; a game is played again with the same
planner and the same defender (the tablebase's, or the random one seeded for
that start position), so it is the very game that was judged. The worst case
is replayed along the escaping line it recorded. A UCI engine may answer
differently the second time: its replays are games of the same engine, not
necessarily the judged ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess

from al0.engine.play import Ending, GameEnd, Opponent, OurMove, TheirMove, play_game
from al0.errors import AL0Error, one_line
from al0.report.pgn import PgnGame, players
from al0.report.render import why_passed_over
from al0.verify.game import GameRecord, limit_reached
from al0.verify.tally import Report
from al0.verify.verifier import Verifier


@dataclass(frozen=True)
class ReplayedGame:
    """A judged game with its moves: each ``(move, comment)``, the comment
    naming the rule and advice of our moves ('' for theirs)."""

    record: GameRecord
    moves: tuple[tuple[chess.Move, str], ...]
    result: str
    note: str = ""
    """Why the replay stopped short of the recorded ending, if it did."""
    end: GameEnd | None = None
    """How the replay ended, when it reached the recorded ending (its
    words, and for ``no plan`` the plan that failed)."""
    passed_over: tuple[tuple[str, str], ...] = ()
    """For a game that ended with no plan: each piece of advice tried, with
    why it was passed over."""

    def san_line(self) -> str:
        """The moves in numbered SAN: ``1. Re3 Kc1 2. Kd3 …``."""
        return chess.Board(self.record.fen).variation_san([move for move, _ in self.moves])


class _Line:
    """A defender that plays their moves of a recorded line (UCI, ours
    first) and quits where the line ends."""

    def __init__(self, start: chess.Board, line: tuple[str, ...]):
        self.plies = len(start.move_stack)
        self.line = line

    def __call__(self, board: chess.Board) -> chess.Move | None:
        ply = len(board.move_stack) - self.plies
        return chess.Move.from_uci(self.line[ply]) if ply < len(self.line) else None


def replay(verifier: Verifier, index: int, record: GameRecord) -> ReplayedGame:
    """The game of start position number ``index``, played again."""
    board = chess.Board(record.fen)
    defender: Opponent
    if record.line or verifier.spec.defender.kind == "worst":
        # The worst case's own line; empty when the game ended before their move.
        defender = _Line(board, record.line)
    else:
        defender = verifier.defender_for(index)
    moves: list[tuple[chess.Move, str]] = []
    end: GameEnd | None = None
    try:
        for event in play_game(verifier.planner, board, defender, verifier.spec.max_moves):
            if isinstance(event, OurMove):
                table = "" if event.table is verifier.table else f"{event.table.name}: "
                moves.append((event.move, f"{table}{event.plan.rule}: {event.plan.advice}"))
            elif isinstance(event, TheirMove):
                moves.append((event.move, ""))
            else:
                end = event
    except AL0Error as error:
        failure = limit_reached(error)
        if failure is None or record.ending is not Ending.SEARCH_LIMIT:
            # An engine that died on the second run, or a search that failed only now.
            return ReplayedGame(record, tuple(moves), "*", one_line(error))
        end = GameEnd(Ending.SEARCH_LIMIT, f"search limit: {failure}")
    if end is not None and end.ending is record.ending:
        passed_over = (
            tuple(
                (why["advice"], why["why"]) for why in why_passed_over(end.plan, end.table or verifier.table)
            )
            if end.plan is not None
            else ()
        )
        return ReplayedGame(record, tuple(moves), end.result, end=end, passed_over=passed_over)
    # The worst case's line stops where it escapes (a repetition, the move limit).
    result = "1/2-1/2" if record.ending.is_draw else "*"
    return ReplayedGame(record, tuple(moves), result)


def games_to_show(report: Report, every_failure: bool) -> list[GameRecord]:
    """The games the reports show: every failure (or, without
    ``every_failure``, the examples the JSON report keeps of each kind), then
    the longest mate as the example of a won game (none when nothing was
    mated)."""
    games = (
        list(report.failures)
        if every_failure
        else [record for kept in report.failure_examples().values() for record in kept]
    )
    mated = [r for r in report.records if r.mated]
    if mated:
        games.append(max(mated, key=lambda r: (r.moves, r.fen)))
    return games


def replay_all(
    verifier: Verifier, boards: Sequence[chess.Board], records: list[GameRecord]
) -> list[ReplayedGame]:
    """Each of ``records`` replayed; ``boards`` (the run's start positions,
    in order) gives each its index, which seeds a random defender."""
    index: dict[str, int] = {}
    for number, board in enumerate(boards):
        index.setdefault(board.fen(), number)
    return [replay(verifier, index[record.fen], record) for record in records]


def as_pgn(games: list[ReplayedGame], verifier: Verifier) -> list[PgnGame]:
    """The replayed games as PGN games, each ending named in its headers
    and, in words, after its last move."""
    table = verifier.table
    white, black = players(table.us, f"al0 ({table.name})", verifier.spec.defender.name)
    return [
        PgnGame(
            chess.Board(game.record.fen),
            game.moves,
            game.result,
            game.record.ending,
            f"al0 verify {table.name}",
            white,
            black,
            table.us,
            game.end.detail if game.end is not None else game.note,
        )
        for game in games
    ]
