"""A run's counts (:class:`Sums`), made per chunk and added, give the
summary what the records themselves give."""

from __future__ import annotations

import statistics
from collections import Counter

import pytest

from al0.engine.play import Ending
from al0.verify.analysis import AdviceUse
from al0.verify.game import GameRecord
from al0.verify.summary import counted_mean, counted_median
from al0.verify.sums import Sums


@pytest.mark.parametrize(
    "values",
    [[7], [3, 1], [1, 1, 2], [5, 2, 9, 2], [4, 4, 4, 4], [1, 2, 2, 3, 40, 41], list(range(101)), [2, 9] * 50],
)
def test_the_mean_and_median_of_counts_are_statistics_own(values):
    counts = Counter(values)
    assert counted_mean(counts) == statistics.fmean(values)
    median = counted_median(counts)
    assert median == statistics.median(values) and type(median) is type(statistics.median(values))


NET = AdviceUse("net", "mate_in_2", 2, 2, 0, 0)
CUT = AdviceUse("drive", "cut", 3, 1, 2, 0)
RECORDS = [
    GameRecord("a", Ending.MATE, 5, 3, advice_uses=(CUT, NET)),
    GameRecord("b", Ending.NO_PLAN, 2, 6, advice_uses=(CUT,)),
    GameRecord("c", Ending.MATE, 2, 2, advice_uses=(NET,), handed_on=True),
    GameRecord("d", Ending.MATE, 4, None),
    GameRecord("e", Ending.STALEMATE, 9, 8, advice_uses=(CUT, CUT)),
]


@pytest.mark.parametrize("cut", range(len(RECORDS) + 1))
def test_counts_of_chunks_added_are_the_counts_of_all(cut):
    added = Sums.of(RECORDS[cut:])
    added.add(Sums.of(RECORDS[:cut]))
    assert added == Sums.of(RECORDS)
    assert (added.games, added.measured, added.measured_mated, added.handed_on) == (5, 4, 2, 1)
    assert added.moves == Counter([5, 2, 4]) and added.excess == Counter([2, 0])
    assert added.uses == Counter({CUT: 4, NET: 2})
