"""The tables that hold, krkb_hold.yaml, krkn_hold.yaml and kpk_hold.yaml
(standard vocabulary, the weaker side's): on a fixed sample of drawn
positions, how many their move loses, so a change that loses more (or,
better, fewer) is seen. Every position is a documented command
(docs/results/holds.md, docs/results/kpk.md): some ten minutes of CPU a
table. kpk_hold's sample is smaller (its plans cost ten times the rook
endings' tables'; over all 35,210 drawn classes it loses 26)."""

from __future__ import annotations

import pytest

from al0.verify import HoldVerdict, verify_hold


@pytest.mark.slow
@pytest.mark.parametrize(
    "table, size, lost", [("krkb_hold", 1000, 1), ("krkn_hold", 300, 7), ("kpk_hold", 300, 0)]
)
def test_a_holding_table_keeps_what_it_kept(table, size, lost):
    report = verify_hold(table, f"sample:{size}")
    assert (report.judged, report.counts[HoldVerdict.LOST], report.counts[HoldVerdict.NO_PLAN]) == (
        size,
        lost,
        0,
    )
    for record in report.failures:
        assert record.move and record.move not in record.holding and record.holding
