"""Verification: play a table from many start positions and report what it
achieves against the claims of its ``expect:`` block, in one process, a
process pool or on a Dask cluster; ``analysis`` says where the moves go.

``al0.verify.verify(table, positions=..., defender=..., jobs=...)`` is the
one call for Python users (see :mod:`al0.verify.api`). The folder's face
also holds what the front ends read: the :class:`Report`, its
:class:`GameRecord`\\ s and the :class:`Summary` they add up to, the run's :class:`Verifier` and start positions,
one game (:func:`play_one`), how many workers a run is worth, and the
analysis as lines of text; and the check of a table that holds
(:class:`HoldCheck`, :func:`verify_hold`: every drawn position kept drawn).
"""

from al0.verify.analysis import WORST_KEPT, analysis_lines, most_wasteful_line
from al0.verify.api import Verification, check_cluster, verify
from al0.verify.game import GameRecord, play_one
from al0.verify.hold import HoldCheck, HoldRecord, HoldReport, HoldVerdict, table_holds, verify_hold
from al0.verify.run import CHUNK, INTERRUPTED, plans_are_cheap, usable_cpus, useful_jobs
from al0.verify.sources import start_positions
from al0.verify.summary import Check, Claim, Decision, Expectation, Summary
from al0.verify.tally import EXAMPLES_KEPT, Report, percentile
from al0.verify.verifier import Verifier, VerifySpec

__all__ = [
    "CHUNK",
    "EXAMPLES_KEPT",
    "Check",
    "Claim",
    "Decision",
    "Summary",
    "Expectation",
    "INTERRUPTED",
    "WORST_KEPT",
    "GameRecord",
    "HoldCheck",
    "HoldRecord",
    "HoldReport",
    "HoldVerdict",
    "Report",
    "Verification",
    "Verifier",
    "VerifySpec",
    "analysis_lines",
    "check_cluster",
    "most_wasteful_line",
    "percentile",
    "play_one",
    "start_positions",
    "table_holds",
    "plans_are_cheap",
    "usable_cpus",
    "useful_jobs",
    "verify",
    "verify_hold",
]
