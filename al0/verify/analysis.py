"""Where a table's moves go: each piece of advice against the tablebase.

For each of our moves the play loop tells which rule and piece of advice
chose it; the tablebase tells how far mate was before that move and after
the reply. The drop in distance to mate (DTM) over a move and its reply is
the move's *progress*: against a perfect defender a perfect move makes 1, a
move that makes 0 or less is a move spent without bringing mate nearer. A
move's *waste* is 1 minus its progress, so over a mated game the waste of
all its advice adds up exactly to the game's excess over the optimum
(moves played minus the start's DTM): the breakdown says which advice the
excess comes from.

:class:`AdviceTally` turns one game's events into that breakdown (a few
small tuples, cheap to send back from a worker process); :func:`analysis`
sums it over a run and picks the games with the largest excess;
:func:`analysis_lines` writes it for a person.
"""

from __future__ import annotations

import heapq
import itertools
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, NamedTuple, Protocol, Sequence

import chess

from al0.engine.play import Ending, Event, GameEnd, OurMove, TheirMove

if TYPE_CHECKING:
    from al0.verify.sums import Sums

WORST_KEPT = 10
"""Games with the largest excess kept in a report, by default."""


class AdviceUse(NamedTuple):
    """What one piece of advice (of one rule) did in one game.

    Invariant: ``stalled + lost <= moves``; ``moves - progress`` is what it
    wasted.
    """

    rule: str | None
    advice: str | None
    moves: int
    """Our moves it chose."""
    progress: int
    """The DTM those moves and the replies took off (moves after which the
    position was still won only)."""
    stalled: int
    """Its moves that took nothing off: the DTM after the reply was not lower."""
    lost: int
    """Its moves after which the position was no longer won (stalemate, a
    piece lost)."""


class AnalysedGame(Protocol):
    """What the analysis reads of a game's record (:class:`al0.verify.game.GameRecord`)."""

    @property
    def fen(self) -> str: ...
    @property
    def ending(self) -> Ending: ...
    @property
    def mated(self) -> bool: ...
    @property
    def moves(self) -> int: ...
    @property
    def optimal(self) -> int | None: ...
    @property
    def advice_uses(self) -> tuple[AdviceUse, ...]: ...


def qualified(table: str | None, rule: str | None) -> str | None:
    """A rule's name in the tally: as it is for the game's first table,
    ``kqk:tight`` for a table a capture or a promotion handed the game
    to (``table``), whose rules may share the first's names."""
    return rule if table is None or rule is None else f"{table}:{rule}"


def _wasted(use: AdviceUse) -> int:
    return use.moves - use.progress


class AdviceCounts:
    """Each advice's moves and progress over one game, one move at a time:
    :meth:`count` each of our moves with the DTM after it (after the reply,
    or after our move when it ended the game); :meth:`uses` gives the
    breakdown, in the order the advice was first used."""

    def __init__(self, start_dtm: int | None):
        self._before = start_dtm
        """The DTM at our turn, before the move being counted."""
        self._counts: dict[tuple[str | None, str | None], list[int]] = {}
        """(rule, advice) → [moves, progress, stalled, lost]."""

    def count(self, advice: tuple[str | None, str | None], after: int | None) -> None:
        """One move of ``advice`` (rule, advice), the DTM ``after`` it."""
        counts = self._counts.setdefault(advice, [0, 0, 0, 0])
        counts[0] += 1
        if self._before is not None and after is None:
            counts[3] += 1
        elif self._before is not None and after is not None:
            counts[1] += self._before - after
            counts[2] += self._before <= after
        # A move from a position that was not won is counted, with no progress.
        self._before = after

    def uses(self) -> tuple[AdviceUse, ...]:
        return tuple(AdviceUse(rule, advice, *counts) for (rule, advice), counts in self._counts.items())


class AdviceTally(AdviceCounts):
    """Follows one game's events and counts each advice's moves and progress.

    Feed it every event of :func:`al0.engine.play.play_game` with the board the
    loop plays on (the board after the event).
    """

    def __init__(
        self, dtm: Callable[[chess.Board], int | None], start_dtm: int | None, first: str | None = None
    ):
        super().__init__(start_dtm)
        self._dtm = dtm
        self._first = first
        """The name of the game's first table (its rules are named as they are)."""
        self._pending: tuple[str | None, str | None] | None = None
        """The (rule, advice) of our last move, until its reply is known."""

    def observe(self, event: Event, board: chess.Board) -> None:
        if isinstance(event, OurMove):
            table = None if event.table.name == self._first else event.table.name
            self._pending = (qualified(table, event.plan.rule), event.plan.advice)
        elif self._pending is not None and isinstance(event, (TheirMove, GameEnd)):
            # After the reply, or after our move when it ended the game (mate
            # is DTM 0, stalemate not won) or the opponent quit.
            self.count(self._pending, self._dtm(board))
            self._pending = None


@dataclass(frozen=True)
class AdviceTotal:
    """One piece of advice over a whole run."""

    rule: str | None
    advice: str | None
    games: int
    moves: int
    progress: int
    stalled: int
    lost: int

    @property
    def wasted(self) -> int:
        return self.moves - self.progress

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "advice": self.advice,
            "games": self.games,
            "moves": self.moves,
            "progress": self.progress,
            "stalled": self.stalled,
            "lost": self.lost,
            "wasted": self.wasted,
            "progress_per_move": round(self.progress / self.moves, 3) if self.moves else None,
        }


def advice_totals(uses: Counter[AdviceUse]) -> list[AdviceTotal]:
    """Every (rule, advice) over the games whose advice ``uses`` are
    counted, the most moves wasted first."""
    sums: dict[tuple[str | None, str | None], list[int]] = {}
    # Games use the same advice alike again and again: each use counted
    # once, in C (a run of all KBBK has 700,000 uses), then added up.
    for (rule, advice, moves, progress, stalled, lost), times in uses.items():
        row = sums.get((rule, advice))
        if row is None:
            row = sums[rule, advice] = [0, 0, 0, 0, 0]
        row[0] += times
        row[1] += moves * times
        row[2] += progress * times
        row[3] += stalled * times
        row[4] += lost * times
    totals = [AdviceTotal(rule, advice, *row) for (rule, advice), row in sums.items()]
    # Names break ties, so the order does not depend on how --jobs split the run.
    return sorted(totals, key=lambda t: (-t.wasted, -t.moves, str(t.rule), str(t.advice)))


def worst_games(games: Iterable[AnalysedGame], count: int) -> list[AnalysedGame]:
    """The ``count`` mated games with the largest excess over the optimum,
    largest first (ties by FEN, so the order does not depend on --jobs)."""
    mated = [g for g in games if g.mated and g.optimal is not None and g.advice_uses]
    if count <= 0:
        return []
    if len(mated) > count:
        # Only games whose excess reaches the count-th largest can be kept:
        # the rest need not be sorted (nor their FENs compared).
        least = heapq.nlargest(count, [g.moves - g.optimal for g in mated])[-1]  # type: ignore[operator]
        mated = [g for g in mated if g.moves - g.optimal >= least]  # type: ignore[operator]
    mated.sort(key=lambda g: (-(g.moves - g.optimal), g.fen))  # type: ignore[operator]
    return mated[:count]


def _use_json(use: AdviceUse) -> dict[str, Any]:
    return {**use._asdict(), "wasted": _wasted(use)}


def analysis(games: Sequence[AnalysedGame], sums: Sums, worst: int = WORST_KEPT) -> dict[str, Any] | None:
    """The analysis of a run as plain data (for the JSON report), or None
    when no game could be measured (no tablebase for the material).

    ``advice``: every (rule, advice), most moves wasted first; ``worst``:
    the ``worst`` mated games of largest excess, each with its per-advice
    breakdown in the order the advice was first used and the advice that
    wasted most (the first of equals). ``sums``: the counts of ``games``.
    """
    if not sums.measured:
        return None
    worst_list = []
    for game in worst_games(games, worst):
        assert game.optimal is not None  # worst_games keeps games with an optimum
        most = max(game.advice_uses, key=_wasted)
        worst_list.append(
            {
                "fen": game.fen,
                "moves": game.moves,
                "optimal": game.optimal,
                "excess": game.moves - game.optimal,
                "most_wasted": {"rule": most.rule, "advice": most.advice, "wasted": _wasted(most)},
                "advice": [_use_json(use) for use in game.advice_uses],
            }
        )
    return {
        "games": sums.measured,
        "mated_with_optimum": sums.measured_mated,
        "advice": [total.to_json() for total in advice_totals(sums.uses)],
        "worst": worst_list,
    }


def _name(entry: dict[str, Any]) -> str:
    return f"{entry['rule']}/{entry['advice']}"


def analysis_lines(data: dict[str, Any] | None) -> Iterator[str]:
    """The analysis (as :func:`analysis` gives it) as text for a table author."""
    if data is None:
        yield "advice analysis: needs a tablebase for the table's material"
        return
    rows = data["advice"]
    width = max(len(_name(row)) for row in rows)
    yield (
        f"moves by advice over {data['games']} games (progress: DTM taken off by the move "
        f"and the reply; wasted = moves - progress):"
    )
    yield (
        f"  {'rule/advice':<{width}}  {'games':>6}  {'moves':>7}  {'progress':>8}  "
        f"{'stalled':>7}  {'lost':>4}  {'per move':>8}  {'wasted':>7}"
    )
    for row in rows:
        per_move = "-" if row["progress_per_move"] is None else f"{row['progress_per_move']:.3f}"
        yield (
            f"  {_name(row):<{width}}  {row['games']:>6}  {row['moves']:>7}  "
            f"{row['progress']:>8}  {row['stalled']:>7}  {row['lost']:>4}  "
            f"{per_move:>8}  {row['wasted']:>7}"
        )
    if not data["worst"]:
        return
    yield (
        f"largest excess over the optimum ({len(data['worst'])} of {data['mated_with_optimum']} mated games):"
    )
    for game in data["worst"]:
        most = game["most_wasted"]
        yield (f"  +{game['excess']}: {game['moves']} moves, optimal {game['optimal']}: {game['fen']}")
        uses = game["advice"]
        width = max(len(_name(use)) for use in uses)
        for use in uses:
            mark = (
                "  <- most wasted" if (use["rule"], use["advice"]) == (most["rule"], most["advice"]) else ""
            )
            yield (
                f"    {_name(use):<{width}}  {use['moves']:>3} moves  progress "
                f"{use['progress']:>3}  stalled {use['stalled']:>3}  wasted "
                f"{use['wasted']:>3}" + ("  lost the win" if use["lost"] else "") + mark
            )


def most_wasteful_line(data: dict[str, Any] | None) -> str | None:
    """One line naming the advice that wasted most moves, for the summary."""
    if data is None or not data["advice"]:
        return None
    top = data["advice"][0]
    text = (
        f"most moves wasted: {_name(top)}, {top['wasted']} in its {top['moves']} moves "
        f"({top['stalled']} made no progress"
    )
    if top["progress"] < 0:
        # More wasted than played: the moves put the mate further away.
        text += f"; together they put the mate {-top['progress']} moves further away"
    return text + ")"
