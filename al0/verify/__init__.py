"""Verification: play a table from many start positions and report what it
achieves against the claims of its ``expect:`` block, in one process, a
process pool or on a Dask cluster; ``analysis`` says where the moves go.

``al0.verify.verify(table, positions=..., defender=..., jobs=...)`` is the
one call for Python users (see :mod:`al0.verify.api`). The folder's face
also holds what the front ends read: the :class:`Report`, its
:class:`GameRecord`\\ s and the :class:`Summary` they add up to, the
run's :class:`Verifier`, how long it will take (:class:`Estimate`, and its
:class:`Pace` as it goes), and the analysis as lines of text; and the
check of a table that holds (:class:`HoldCheck`, :func:`verify_hold`:
every drawn position kept drawn) and its games against the most testing
attacker (:class:`AttackGames`).
"""

from al0.verify.analysis import WORST_KEPT, analysis_lines, most_wasteful_line
from al0.verify.api import Verification, verify
from al0.verify.estimate import Estimate, Pace
from al0.verify.game import GameRecord
from al0.verify.hold import HoldCheck, HoldRecord, HoldReport, HoldVerdict, table_holds, verify_hold
from al0.verify.hold_games import AttackEnd, AttackGame, AttackGames
from al0.verify.run import INTERRUPTED, Planning
from al0.verify.summary import Check, Claim, Decision, Expectation, Summary
from al0.verify.tally import EXAMPLES_KEPT, Report, percentile
from al0.verify.verifier import Verifier, VerifySpec

__all__ = [
    "AttackEnd",
    "AttackGame",
    "AttackGames",
    "EXAMPLES_KEPT",
    "Check",
    "Claim",
    "Decision",
    "Estimate",
    "Summary",
    "Expectation",
    "INTERRUPTED",
    "WORST_KEPT",
    "GameRecord",
    "HoldCheck",
    "HoldRecord",
    "HoldReport",
    "HoldVerdict",
    "Pace",
    "Planning",
    "Report",
    "Verification",
    "Verifier",
    "VerifySpec",
    "analysis_lines",
    "most_wasteful_line",
    "percentile",
    "table_holds",
    "verify",
    "verify_hold",
]
