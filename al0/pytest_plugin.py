"""A pytest plugin: a repository of advice tables tests itself with ``pytest``.

Installed with al0 (entry point ``pytest11``), it makes every YAML table
with an ``expect:`` block a test item that runs ``al0 verify`` on it and
fails, naming each broken expectation and example positions, when a claim
does not hold; where the block's positions are an EPD file, the table's
move at each line with ``bm`` or ``am`` must be one of the ``bm`` and none
of the ``am``. The block may say which positions and defender the claims are
about (``positions: sample:500``, ``defender: worst``); otherwise the ini
options ``al0_positions`` (default ``sample:100``, a fixed seeded sample) and
``al0_defender`` (default ``tablebase``) apply.

Files (a table, an ini file) name built-in defenders only: a UCI engine,
which is a program to start, comes only from the person running pytest, as
``--al0-defender uci:COMMAND`` or the environment variable ``AL0_DEFENDER``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import pytest

from al0.board import epd_lines, file_in_folder
from al0.engine import Planner
from al0.errors import AL0Error, one_line
from al0.files import read_regular_file
from al0.lang import MAX_TABLE_BYTES, VERIFY_KINDS, DefenderSpec, PositionsSpec, load_table
from al0.verify import INTERRUPTED, Check, HoldReport, Summary, verify, verify_hold

if TYPE_CHECKING:
    from al0.lang.model import Expectations

DEFAULT_POSITIONS = "sample:100"
DEFAULT_DEFENDER = "tablebase"
DEFENDER_VARIABLE = "AL0_DEFENDER"
"""The environment variable that gives the defender (an engine too), as
``--al0-defender`` does: for a CI job, where options are less handy."""
RUNNERS_DEFENDER = pytest.StashKey[DefenderSpec]()
"""The defender of blocks that name none, as the session was configured."""
TOP_LEVEL_EXPECT = re.compile(r"^expect\s*:", re.M)
"""An ``expect:`` key at the start of a line: a table's top level."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "al0_positions",
        default=DEFAULT_POSITIONS,
        help="al0: start positions for tables whose expect: block names none "
        "(all, every, sample:N or an EPD file relative to the table)",
    )
    parser.addini(
        "al0_defender",
        default=DEFAULT_DEFENDER,
        help="al0: defender for tables whose expect: block names none "
        "(tablebase, random or worst: a file names no engine)",
    )
    parser.getgroup("al0").addoption(
        "--al0-defender",
        metavar="DEFENDER",
        help=f"defender for tables whose expect: block names none: tablebase, random, "
        f"worst or uci:COMMAND (a UCI engine, which only this option and the "
        f"environment variable {DEFENDER_VARIABLE} can give); default: the ini "
        f"option al0_defender",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Read the defender of blocks that name none, once: the command line's,
    else the environment's (either may be an engine), else the ini file's
    (built in only, as in a table).

    :raises pytest.UsageError: for a bad spec, saying where it came from.
    """
    given = [
        (config.getoption("al0_defender", None), "--al0-defender"),
        (os.environ.get(DEFENDER_VARIABLE), DEFENDER_VARIABLE),
    ]
    try:
        for text, where in given:
            if text:
                config.stash[RUNNERS_DEFENDER] = DefenderSpec.parse(text, VERIFY_KINDS)
                return
        where = "the ini option al0_defender"
        config.stash[RUNNERS_DEFENDER] = DefenderSpec.from_file(config.getini("al0_defender"))
    except AL0Error as error:
        raise pytest.UsageError(f"al0: {where}: {error}") from None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A table file with an ``expect:`` block; anything else is left alone."""
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    try:
        text = read_regular_file(file_path, MAX_TABLE_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not TOP_LEVEL_EXPECT.search(text) or not re.search(r"^rules\s*:", text, re.M):
        return None
    return TableFile.from_parent(parent, path=file_path)


class TableFile(pytest.File):
    """An advice table: one test item per ``expect:`` block, its verification."""

    def collect(self) -> Iterator[pytest.Item]:
        try:
            blocks = len(load_table(self.path.resolve()).expect)
        except AL0Error:
            blocks = 1  # the item reports why the table does not load
        if blocks == 1:
            yield TableItem.from_parent(self, name="expect", block=0)
        else:
            for block in range(blocks):
                yield TableItem.from_parent(self, name=f"expect[{block + 1}]", block=block)


class ExpectationsBroken(Exception):
    """The table's claims do not hold: the lines that say which, and where."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


class TableItem(pytest.Item):
    """Verifies one table against one of its ``expect:`` blocks."""

    def __init__(self, *, block: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.block = block

    def runtest(self) -> None:
        path = self.path.resolve()
        try:
            table = load_table(path)
            expect = table.expect[self.block]
            positions = expect.positions or PositionsSpec.parse(self.config.getini("al0_positions"))
            if table.holds:
                self._check_hold(verify_hold(path, positions, positions_folder=str(path.parent)), expect)
                return
            defender = expect.defender or self.config.stash[RUNNERS_DEFENDER]
            report = verify(path, positions, defender, positions_folder=str(path.parent))
        except AL0Error as error:
            raise ExpectationsBroken([one_line(error)]) from None
        if report.stopped == INTERRUPTED:
            raise KeyboardInterrupt  # Ctrl-C stops pytest, not this one item
        if report.stopped:
            raise ExpectationsBroken([one_line(report.stopped)])
        summary = report.summary([expect])
        broken = [
            expectation.check for expectation in summary.expectations or () if not expectation.check.holds
        ]
        lines = describe(summary, broken) if broken else []
        if positions.path is not None:
            try:
                lines += moves_against_the_file(path, str(file_in_folder(positions.path, path.parent)))
            except AL0Error as error:
                lines.append(one_line(error))
        if lines:
            raise ExpectationsBroken(lines)

    @staticmethod
    def _check_hold(report: HoldReport, expect: Expectations) -> None:
        """The claims of a table that holds, on its hold check's ``report``."""
        if report.stopped == INTERRUPTED:
            raise KeyboardInterrupt
        if report.stopped:
            raise ExpectationsBroken([" ".join(report.stopped.split())])
        broken = [check for check in report.check(expect) if not check.holds]
        if broken:
            lines = [
                f"al0 verify {report.table}: {len(broken)} expectation(s) broken over "
                f"{report.judged} drawn positions ({report.positions.name})"
            ]
            lines += [f"  expect {check.claim.value}: {check.measured}" for check in broken]
            for verdict, records in report.examples().items():
                lines.append(f"  {verdict.value}: {report.counts[verdict]} positions, e.g.")
                lines += [f"    {record.fen}  {record.move}".rstrip() for record in records]
            raise ExpectationsBroken(lines)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ExpectationsBroken):
            return "\n".join(excinfo.value.lines)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"al0 verify {self.path.name}"


def moves_against_the_file(table_path: Path, epd: str) -> list[str]:
    """Where the table's move disagrees with the EPD file's ``bm`` (the move
    it holds best) or ``am`` (a move to avoid), one line each: ``at this FEN
    the table plays Kd4, the file's bm is Rd3``; none when it agrees or the
    file names no moves."""
    table = load_table(table_path)
    planner = Planner(table)
    lines = []
    for line in epd_lines(epd, table.material, table.us):
        if not line.best and not line.avoid:
            continue
        board = line.board
        plan = planner.plan(board)
        move = plan.tree.branches[0][0] if plan.tree is not None and plan.tree.branches else None
        played = board.san(move) if move is not None else "nothing (no plan)"
        where = f"{epd}:{line.number}: at {board.fen()} the table plays {played}"
        if line.best and move not in line.best:
            lines.append(f"{where}, the file's bm is {', '.join(board.san(best) for best in line.best)}")
        if move is not None and move in line.avoid:
            lines.append(f"{where}, which the file's am avoids")
    if lines:
        lines.insert(0, f"al0 {table.name}: {len(lines)} move(s) against the bm/am of {Path(epd).name}")
    return lines


def describe(summary: Summary, broken: list[Check]) -> list[str]:
    """The failure message: what was verified, each broken expectation with
    what was measured, and example positions of each kind of failure."""
    lines = [
        f"al0 verify {summary.table}: {len(broken)} expectation(s) broken over "
        f"{summary.games} positions ({summary.positions.name}) against the "
        f"{summary.defender.name} defender"
    ]
    lines += [f"  expect {check.claim.value}: {check.measured}" for check in broken]
    for ending, examples in summary.failure_examples:
        lines.append(f"  {ending.value}: {summary.count(ending)} games, e.g.")
        for example in examples:
            line = " ".join(example.line)
            lines.append(f"    {example.fen}" + (f"  line: {line}" if line else ""))
            if example.failure:
                lines.append(f"      {example.failure}")
    return lines
