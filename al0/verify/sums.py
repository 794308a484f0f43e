"""What a run's records add up to, as counts that add (:class:`Sums`): a
worker counts the records of each chunk it judges, the run's process adds
the counts as the answers come, and the summary at the end reads them. All
of KBBK has 313,000 records, and the summary went through every one of
them again, several times, in one process after the workers were done
(about 1.2 s of CPU while both their cores stood idle)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from al0.engine.play import Ending
from al0.verify.analysis import AdviceUse
from al0.verify.game import GameRecord

_MATE = Ending.MATE


@dataclass
class Sums:
    """The counts of some records (see :meth:`count`). Not their endings:
    a report lists equal counts of endings in the order each first came,
    which counts added as the answers come do not keep (see
    :meth:`~al0.verify.tally.Report.endings`)."""

    games: int = 0
    moves: Counter[int] = field(default_factory=Counter)
    """Our moves in each mated game."""
    optimal: Counter[int] = field(default_factory=Counter)
    """The tablebase's moves to mate of each mated game that has them."""
    excess: Counter[int] = field(default_factory=Counter)
    """The moves over that optimum of each of those games."""
    uses: Counter[AdviceUse] = field(default_factory=Counter)
    """Each advice's use in a game, of the games measured (see
    :func:`~al0.verify.analysis.advice_totals`)."""
    measured: int = 0
    """The games with advice uses (none without a tablebase)."""
    measured_mated: int = 0
    """Of those, the games mated with a known optimum."""
    handed_on: int = 0
    """The games that went on with another table."""

    @classmethod
    def of(cls, records: Sequence[GameRecord]) -> Sums:
        """The counts of ``records``."""
        sums = cls()
        sums.count(records)
        return sums

    def count(self, records: Sequence[GameRecord]) -> None:
        """Count ``records`` in too (each pass in C where it can be)."""
        self.games += len(records)
        mated = [record for record in records if record.ending is _MATE]
        self.moves.update(record.moves for record in mated)
        known = [(record.moves, record.optimal) for record in mated if record.optimal is not None]
        self.optimal.update(optimal for _, optimal in known)
        self.excess.update(moves - optimal for moves, optimal in known)
        measured = [record for record in records if record.advice_uses]
        self.measured += len(measured)
        self.measured_mated += sum(
            1 for record in measured if record.ending is _MATE and record.optimal is not None
        )
        self.uses.update(itertools.chain.from_iterable(record.advice_uses for record in measured))
        self.handed_on += sum(record.handed_on for record in records)

    def add(self, other: Sums) -> None:
        """Add the counts of ``other`` (of other records) to these."""
        self.games += other.games
        self.moves.update(other.moves)
        self.optimal.update(other.optimal)
        self.excess.update(other.excess)
        self.uses.update(other.uses)
        self.measured += other.measured
        self.measured_mated += other.measured_mated
        self.handed_on += other.handed_on
