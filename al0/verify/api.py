"""The one call that verifies a table, for Python users and the pytest
plugin: :func:`verify` loads the table, its defender and tablebase, lists
the start positions, runs the games (here, in a process pool or on a Dask
cluster) and returns the :class:`~al0.verify.report.Report`, whose
:meth:`~al0.verify.report.Report.to_json` checks the table's claims."""

from __future__ import annotations

import os
from collections.abc import Callable

from al0.board.fen import sample_size
from al0.bundled import table_path
from al0.engine.plan import DEFAULT_BUDGET
from al0.lang.specs import VERIFY_KINDS, DefenderSpec
from al0.verify.report import Report
from al0.verify.run import Planning, run
from al0.verify.sources import start_positions
from al0.verify.verifier import Verifier, VerifySpec


def verify(table: str | os.PathLike[str], positions: str = "all",
           defender: str | DefenderSpec = "tablebase", *, jobs: int = 1,
           scheduler: str | None = None, max_moves: int = 50, seed: int = 0,
           budget: int = DEFAULT_BUDGET, engine_seconds: float = 0.05,
           analysis: bool = False, positions_folder: str | None = None,
           progress: Callable[[], None] = lambda: None,
           planning: Planning = lambda planned, known: None) -> Report:
    """Verify ``table`` (a file, or a bundled table's name) over
    ``positions`` (``all``, ``every``, ``sample:N`` or an EPD file; with
    ``positions_folder``, a file in that folder only, as for a spec a table
    gives) against ``defender`` (``tablebase``, ``random``, ``worst`` or a
    :class:`DefenderSpec`), with ``jobs`` worker processes or on the Dask
    cluster of ``scheduler``. ``analysis`` replays each worst line for the
    per-advice analysis. ``progress`` is called after each position,
    ``planning`` while a worst-case run's workers make its plans.

    A run that stops early (Ctrl-C, a dead engine or worker, a spent
    budget) returns what it has: the report is marked interrupted and its
    ``stopped`` says why.

    :raises AL0Error: for a table, defender or positions that cannot be
        used (one line, naming the file and place or the value).
    """
    if isinstance(defender, str):
        defender = DefenderSpec.parse(defender, VERIFY_KINDS)
    spec = VerifySpec(os.path.abspath(table_path(os.fspath(table))), defender, max_moves, seed,
                      budget, engine_seconds, replay_worst_lines=analysis)
    verifier = Verifier(spec)
    try:
        boards = start_positions(positions, verifier.table, verifier.tablebase, seed,
                                 relative_to=positions_folder)
        # Another seed draws another sample: a claim about sample:N is not about it.
        named = positions if sample_size(positions) is None or seed == 0 else \
            f"{positions} (seed {seed})"
        report = Report(verifier.table.name, defender.name, named, len(boards))
        report.stopped = run(spec, verifier, boards, jobs, report, scheduler, progress, planning)
    finally:
        verifier.close()
    return report
