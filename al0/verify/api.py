"""The entry to verification for Python users, the pytest plugin and the
command line: :func:`verify` in one call, or a :class:`Verification` made
ready first (table, defender and tablebase loaded, start positions listed)
and then run, for a front end that looks at the positions before the run
and replays games after it. Either returns the
:class:`~al0.verify.tally.Report`, whose
:meth:`~al0.verify.tally.Report.to_json` checks the table's claims."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from types import TracebackType

import chess

from al0.bundled import table_path
from al0.engine.plan import DEFAULT_BUDGET
from al0.engine.tablebases import Tablebases
from al0.errors import PositionError
from al0.lang.specs import VERIFY_KINDS, DefenderSpec, PositionsSpec
from al0.verify.deal import CHUNK
from al0.verify.estimate import Estimate, Pilot, load_average, run_pilot
from al0.verify.run import SMALL_RUN, Planning, default_jobs, plans_are_cheap, run, usable_cpus, useful_jobs
from al0.verify.sources import start_positions
from al0.verify.tally import Report
from al0.verify.verifier import Verifier, VerifySpec


class Verification:
    """One verify run, ready to go: the table (a file, or a bundled table's
    name), its defender and tablebase loaded, and the start positions that
    ``positions`` names (``all``, ``every``, ``sample:N`` or an EPD file;
    with ``positions_folder``, a file in that folder only, as for a spec a
    table gives). Close it (or use it as a context manager) to stop the
    defender. ``tablebases``: where the tablebase is loaded (a front end's,
    which says how a build goes).

    :raises AL0Error: for a table, defender or positions that cannot be
        used (one line, naming the file and place or the value).
    """

    def __init__(
        self,
        table: str | os.PathLike[str],
        positions: str | PositionsSpec = "all",
        defender: str | DefenderSpec = "tablebase",
        *,
        max_moves: int = 50,
        seed: int = 0,
        budget: int = DEFAULT_BUDGET,
        engine_seconds: float = 0.05,
        analysis: bool = False,
        positions_folder: str | None = None,
        tablebases: Tablebases | None = None,
    ):
        if isinstance(defender, str):
            defender = DefenderSpec.parse(defender, VERIFY_KINDS)
        if isinstance(positions, str):
            positions = PositionsSpec.parse(positions)
        # Another seed draws another sample: a claim about sample:N is not about it.
        positions = positions.drawn_with(seed)
        # A bundled table's name (krk) is resolved here: workers get a path.
        self.spec = VerifySpec(
            os.path.abspath(table_path(os.fspath(table))),
            defender,
            max_moves,
            seed,
            budget,
            engine_seconds,
            replay_worst_lines=analysis,
        )
        self.tablebases = tablebases
        self.verifier = Verifier(self.spec, tablebases)
        try:
            if self.verifier.table.holds:
                raise PositionError(
                    f"{self.verifier.table.name} holds (the weaker side's table): it is judged by "
                    f"the draws it keeps, with al0.verify.verify_hold, not by games"
                )
            self.boards: Sequence[chess.Board] = start_positions(
                positions, self.verifier.table, self.verifier.tablebase, relative_to=positions_folder
            )
            if not self.boards:
                raise PositionError(f"{positions}: no positions to verify")
        except BaseException:
            self.verifier.close()
            raise
        self.report = Report(self.verifier.table.name, defender, positions, len(self.boards))
        self._pilot: Pilot | None = None

    def choose_jobs(self, asked: int | None = None, scheduler: str | None = None) -> tuple[int, str]:
        """The worker processes to run with, and why fewer than ``asked``
        ('' when not). ``asked`` is lowered past two workers per CPU and,
        but for the worst case (whose workers share plans, not starts), past
        one per chunk of :data:`~al0.verify.deal.CHUNK` positions. Not asked
        (None), one per CPU this process may use, but one process with a UCI
        defender (one engine a run), on a cluster (its workers do the work),
        for a small run, and for the worst case of a table whose plans are
        cheap (see :func:`~al0.verify.run.default_jobs`)."""
        kind, count, cpus = self.spec.defender.kind, len(self.boards), usable_cpus()
        if asked is not None:
            jobs, why = useful_jobs(asked, count, kind == "worst", cpus) if asked > 1 else (1, "")
            return jobs, f"--jobs {asked} lowered to {jobs}: {why}" if why else ""
        cheap = (
            kind == "worst"
            and not scheduler
            and count > CHUNK
            and plans_are_cheap(self.verifier, self.boards)
        )
        return default_jobs(kind, scheduler, count, cpus, cheap), ""

    def estimate(self, jobs: int = 1, sample: int | None = None) -> Estimate | None:
        """How long the run will take with ``jobs`` processes (or a seeded
        ``sample`` of its positions would), by the model of
        :mod:`al0.verify.estimate` (its pilot judged once, the first time
        it is asked); None for a run of at most
        :data:`~al0.verify.run.SMALL_RUN` positions, and for a UCI
        defender or the worst case, which are not modelled."""
        if len(self.boards) <= SMALL_RUN or self.spec.defender.kind in ("uci", "worst"):
            return None
        if self._pilot is None:
            self._pilot = run_pilot(self.spec, self.boards, self.tablebases)
        count = sample or len(self.boards)
        plans = self._pilot.plans_for(count, not sample and self.report.positions.kind in ("all", "every"))
        return self._pilot.estimate(count, plans, jobs)

    def run(
        self,
        jobs: int = 1,
        scheduler: str | None = None,
        progress: Callable[[], None] = lambda: None,
        planning: Planning = lambda planned, known: None,
    ) -> Report:
        """Judge every start position with ``jobs`` worker processes or on
        the Dask cluster of ``scheduler``; ``progress`` is called after each
        position, ``planning`` while a worst-case run's workers make its
        plans. A run that stops early (Ctrl-C, a dead engine or worker, a
        broken library) returns what it has: the report is marked interrupted
        and its ``stopped`` says why.

        :raises ModuleNotFoundError: for ``scheduler`` without Dask installed.
        """
        self.report.stopped = run(
            self.spec, self.verifier, self.boards, jobs, self.report, scheduler, progress, planning
        )
        return self.report

    def close(self) -> None:
        """Stop the defender (a UCI engine's process)."""
        self.verifier.close()

    def __enter__(self) -> Verification:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


def verify(
    table: str | os.PathLike[str],
    positions: str | PositionsSpec = "all",
    defender: str | DefenderSpec = "tablebase",
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    max_moves: int = 50,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    engine_seconds: float = 0.05,
    analysis: bool = False,
    positions_folder: str | None = None,
    progress: Callable[[], None] = lambda: None,
    planning: Planning = lambda planned, known: None,
) -> Report:
    """Verify ``table`` over ``positions`` against ``defender`` (see
    :class:`Verification`) and return the report (see
    :meth:`Verification.run`)."""
    with Verification(
        table,
        positions,
        defender,
        max_moves=max_moves,
        seed=seed,
        budget=budget,
        engine_seconds=engine_seconds,
        analysis=analysis,
        positions_folder=positions_folder,
    ) as verification:
        return verification.run(jobs, scheduler, progress, planning)
