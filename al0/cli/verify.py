"""The ``al0 verify`` command: measure a table over the positions of its endgame."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Iterator

import chess
import click

from al0.bundled import table_path
from al0.cli.group import command_line
from al0.cli.messages import CommandError, reports_errors
from al0.cli.outputs import STDOUT, OutputPath, check_no_overwrite, write_output
from al0.cli.params import BUDGET, ENGINE_SECONDS, TABLE, DefenderParam, PositionsParam, WholeNumber
from al0.cli.terminal import build_progress
from al0.collection import settling
from al0.engine import Tablebases
from al0.lang import VERIFY_KINDS, AdviceTable, DefenderSpec, PositionsSpec
from al0.report import ReplayedGame, as_pgn, games_to_show, pgn_text, replay_all
from al0.report import html as report_html
from al0.verify import (
    WORST_KEPT,
    AttackEnd,
    Check,
    Decision,
    Estimate,
    GameRecord,
    HoldCheck,
    HoldReport,
    HoldVerdict,
    Pace,
    Planning,
    Report,
    Summary,
    Verification,
    Verifier,
    analysis_lines,
    most_wasteful_line,
    table_holds,
)

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar


LARGE_RUN = 100_000
"""Positions from which a run the model cannot time (the worst case, a UCI
engine) says it may take long, and how to sample (KBNK has 1.35 million)."""


def run_note(verification: Verification, estimate: Estimate | None) -> str | None:
    """What a run is in for, when that is long enough to say: how long by the
    model of its work (:meth:`~al0.verify.Verification.estimate`), or for a
    large run it cannot time that it may take hours; and how to sample."""
    count = len(verification.boards)
    sample = "--positions sample:1000 judges a seeded sample of 1,000"
    if estimate is None:
        return (
            f"note: {count:,} positions to judge: this may take hours; {sample}"
            if count >= LARGE_RUN
            else None
        )
    if not estimate.worth_saying:
        return None
    if verification.report.positions.kind not in ("all", "every"):
        return f"note: {count:,} positions to judge: {estimate}"
    sampled = verification.estimate(1, sample=1000)
    return f"note: {count:,} positions to judge: {estimate}; {sample}" + (
        f" in {sampled.about}" if sampled else ""
    )


def san_line(fen: str, line: Sequence[str]) -> str:
    """A game's moves (UCI, as the JSON report keeps them) in numbered SAN,
    as the HTML report and the PGN show them: ``1. Qg5 Kd1 2. Qf5 …``."""
    return chess.Board(fen).variation_san([chess.Move.from_uci(move) for move in line])


def failure_epd(record: GameRecord) -> str:
    """A failed game's start as a line of the ``--failures`` file: its
    ending as ``c0``, and for a search limit the error as ``c1`` (the
    position searched from, to replay with ``al0 plan``)."""
    board = chess.Board(record.fen)
    return (
        board.epd(c0=record.ending.value, c1=record.failure)
        if record.failure
        else board.epd(c0=record.ending.value)
    )


def summary_lines(summary: Summary) -> Iterator[str]:
    """The report as text for a person."""
    yield (
        f"{summary.games} of {summary.total} positions"
        f"{' (interrupted)' if summary.interrupted else ''}: "
        + ", ".join(f"{ending.value} {count}" for ending, count in summary.endings)
    )
    if summary.handed_on:
        yield f"games that went on with another table (a capture or a promotion): {summary.handed_on}"
    moves = summary.moves_to_mate
    if moves.count:
        line = f"moves to mate: mean {moves.mean}, median {moves.median}, max {moves.max}"
        optimal, excess = summary.optimal, summary.excess
        if optimal.count:
            line += (
                f"; optimal mean {optimal.mean}, max {optimal.max}; "
                f"excess mean {excess.mean}, max {excess.max}"
            )
        yield line
        yield "histogram (moves: games): " + " ".join(f"{k}:{v}" for k, v in moves.histogram)
    for ending, examples in summary.failure_examples:
        yield f"{ending.value}: {summary.count(ending)} — e.g."
        for example in examples:
            line = san_line(example.fen, example.line)
            yield f"  {example.fen}" + (f"  line: {line}" if line else "")
            if example.failure:
                yield f"    {example.failure}"
    if summary.plan_times is not None:
        ms = summary.plan_times
        yield (
            f"plans: {summary.plans_searched} searched, median {ms.median} ms, "
            f"p95 {ms.p95} ms, max {ms.max} ms; {ms.per_second} plans/s"
        )
    yield f"wall time: {summary.wall_seconds} s"


@click.command()
@TABLE
@click.option(
    "--positions",
    "positions_spec",
    type=PositionsParam(),
    default="all",
    show_default=True,
    metavar="all|every|sample:N|FILE.epd",
    help="Every position, one per symmetry class (White to move, won: a "
    "symmetric table plays its mirror images alike), every position "
    "with all its mirror images, a seeded sample of the classes, or the "
    "positions of an EPD file.",
)
@click.option(
    "--defender",
    type=DefenderParam(VERIFY_KINDS),
    default="tablebase",
    show_default=True,
    metavar="tablebase|random|uci:COMMAND|worst",
    help="Who defends: longest resistance by the tablebase, a seeded random "
    "mover, a UCI engine, or the exact worst case over every defence.",
)
@click.option(
    "--max-moves",
    type=WholeNumber(minimum=1),
    default=50,
    show_default=True,
    help="Our moves before a game counts as failed (the 50-move rule).",
)
@click.option(
    "--seed",
    type=WholeNumber(minimum=None),
    default=0,
    show_default=True,
    help="Seed of the random defender and of sample:N.",
)
@click.option(
    "--engine-time",
    type=ENGINE_SECONDS,
    default=0.05,
    show_default=True,
    help="Seconds per move for a UCI defender.",
)
@click.option(
    "--jobs",
    type=WholeNumber(minimum=1),
    default=None,
    help="Worker processes: at most 2 per CPU, and one per chunk of 200 "
    "positions (a note says when fewer are started). Default: one per CPU "
    "this process may use; one with a UCI defender or --scheduler, for "
    "a run of at most 2,000 positions, or for the worst case of a table whose "
    "plans the native core makes in a few dozen nodes (starting workers "
    "would cost more than they save).",
)
@click.option(
    "--scheduler",
    metavar="tcp://HOST:PORT",
    help="Judge the positions on the Dask cluster of this scheduler instead "
    "of locally (not with --defender worst).",
)
@click.option(
    "--json",
    "json_path",
    type=OutputPath("the JSON report", stdout=True),
    help="Write the full report as JSON to this file (- for standard output: "
    "the summary then goes to standard error, as for each option here).",
)
@click.option(
    "--failures",
    "failures_path",
    type=OutputPath("failures", stdout=True),
    help="Write the failing positions to this EPD file, with the kind as c0 "
    "(and, for a search limit, where and what its search spent as c1).",
)
@click.option(
    "--html",
    "html_path",
    type=OutputPath("the HTML report", stdout=True),
    help="Write the report as one self-contained HTML page: summary, chart, "
    "the table's rules and advice in its words, failures with boards and game lines.",
)
@click.option(
    "--pgn",
    "pgn_path",
    type=OutputPath("PGN", stdout=True),
    help="Write every failed game and the longest mate as PGN, with the advice "
    "and the distance to mate as comments. One output at most may be -; "
    "none may be the table, its library, --positions or another output.",
)
@click.option(
    "--analysis",
    "show_analysis",
    is_flag=True,
    help="Show where the moves go: for each rule/advice, the moves it chose, the "
    "tablebase distance to mate they took off (with the replies), the moves "
    "that took none off; then the mated games of largest excess over the "
    "optimum, each with the advice that wasted most. Needs a tablebase; "
    "with --defender worst it replays every worst line, so it is only "
    "computed when asked for.",
)
@click.option(
    "--worst",
    type=WholeNumber(minimum=0),
    default=WORST_KEPT,
    show_default=True,
    metavar="N",
    help="Games of largest excess listed by --analysis and in the JSON.",
)
@click.option(
    "--games",
    "attacker_games",
    type=WholeNumber(minimum=0),
    default=0,
    show_default=True,
    metavar="N",
    help="A table that holds: after the check of every position, play games from "
    "the first N positions against the most testing attacker (its move leaves "
    "the fewest replies that keep the draw) and report how they end.",
)
@BUDGET
@reports_errors
def verify(
    table: str,
    positions_spec: PositionsSpec,
    defender: DefenderSpec,
    max_moves: int,
    seed: int,
    engine_time: float,
    jobs: int | None,
    scheduler: str | None,
    json_path: str | None,
    failures_path: str | None,
    html_path: str | None,
    pgn_path: str | None,
    show_analysis: bool,
    worst: int,
    attacker_games: int,
    budget: int,
) -> None:
    """Play or analyse TABLE over the positions of its endgame and report
    what it does: mates, failures by kind with examples, moves against the
    optimum, time per plan.

    To improve a table that works, find where its moves are wasted: a move
    that does not bring the tablebase's mate nearer is wasted, and over a
    mated game the wasted moves of all advice add up to its excess over the
    optimum. `--analysis` lists them per rule/advice and for the worst games;
    replay one with `al0 play TABLE --fen FEN --opponent tablebase`, which
    shows the distance to mate before and after each move.

    Exits 1 when an expectation of the table's `expect:` block fails, 0 when
    all hold. An interrupted run (Ctrl-C, SIGTERM, SIGHUP, a dead engine)
    still reports and writes what it has, its expectations undecided, and
    exits 2.

    \b
    Examples:
      al0 verify krk --positions sample:500
      al0 verify krk_bratko --defender worst --json report.json
      al0 verify krk --positions sample:2000 --analysis --worst 5
    """
    check_options(defender, jobs, scheduler)
    outputs = {"--json": json_path, "--failures": failures_path, "--html": html_path, "--pgn": pgn_path}
    inputs = [str(table_path(table)), positions_spec.path]
    check_no_overwrite({"TABLE": inputs[0], "--positions": inputs[1]}, outputs)
    holding = table_holds(table)
    if holding is not None:
        verify_holding(holding, click.get_current_context().params)
        return
    if attacker_games:
        raise click.UsageError(
            "--games plays a table that holds against the most testing attacker: "
            f"{table} is the winning side's table (its games are verify's own)"
        )
    with settling() as settle:
        with Verification(
            table,
            positions_spec,
            defender,
            max_moves=max_moves,
            seed=seed,
            budget=budget,
            engine_seconds=engine_time,
            analysis=show_analysis,
            tablebases=Tablebases(build_progress()),
        ) as verification:
            verifier, boards = verification.verifier, verification.boards
            check_no_overwrite({"the table's library": verifier.table.library.path or None}, outputs)
            inputs.append(verifier.table.library.path or None)
            jobs, estimate = announce(verification, jobs, scheduler)
            report = run_with_progress(verification, jobs, scheduler, estimate)
            settle()  # what the run made stays to the end: no collection goes through it again
            # The pages show games move by move: replayed before the defender stops.
            games = games_for_pages(report, verifier, boards, html_path, pgn_path)
        summary = report.summary(verifier.table.expect, worst)
        write_outputs(report, summary, games, verifier, outputs, inputs)
        checks = print_report(
            summary, verifier, positions_spec.kind, show_analysis, json_path, STDOUT in outputs.values()
        )
        exit_for(report, checks)


def games_for_pages(
    report: Report,
    verifier: Verifier,
    boards: Sequence[chess.Board],
    html_path: str | None,
    pgn_path: str | None,
) -> list[ReplayedGame]:
    """The games the HTML and PGN reports show, replayed; none without
    either: choosing them goes through every record (about 0.35 s of CPU
    for all of KBBK, after the run, while the workers' cores stand idle)."""
    if not html_path and not pgn_path:
        return []
    return replay_all(verifier, boards, games_to_show(report, every_failure=bool(pgn_path)))


def exit_for(report: Report, checks: Sequence[Check]) -> None:
    """The run's exit: 2 (one line) when it was stopped, 1 when an
    expectation failed, else none (0)."""
    if report.stopped:
        raise CommandError(
            f"stopped after {len(report.records)} of {report.total} positions: {report.stopped}"
        )
    if any(check.decision is Decision.FAILED for check in checks):
        raise click.exceptions.Exit(1)


def announce(
    verification: Verification, jobs: int | None, scheduler: str | None
) -> tuple[int, Estimate | None]:
    """The processes the run takes and its first estimate (none on a
    cluster), each said on stderr with why."""
    jobs_chosen, why = verification.choose_jobs(jobs, scheduler)
    estimate = None if scheduler else verification.estimate(jobs_chosen)
    for note in (f"note: {why}" if why else None, run_note(verification, estimate)):
        if note:
            click.echo(note, err=True)
    return jobs_chosen, estimate


def check_options(defender: DefenderSpec, jobs: int | None, scheduler: str | None) -> None:
    """Refuse the options that do not go together.

    :raises click.UsageError: naming them.
    """
    if defender.kind == "uci" and jobs is not None and jobs > 1:
        raise click.UsageError("a UCI defender runs with --jobs 1 (one engine per run)")
    if scheduler and defender.kind == "worst":
        raise click.UsageError(
            "--defender worst explores one game graph shared by every "
            "position, so it runs locally: drop --scheduler"
        )
    if scheduler and (defender.kind == "uci" or jobs is not None and jobs > 1):
        raise click.UsageError("--scheduler runs the tablebase or random defender, without --jobs")


def write_outputs(
    report: Report,
    summary: Summary,
    games: list[ReplayedGame],
    verifier: Verifier,
    outputs: dict[str, str | None],
    inputs: list[str | None],
) -> None:
    """Write the files asked for: ``--json`` (but to standard output),
    ``--html``, ``--pgn``, ``--failures``. Before any line is printed: after
    a SIGHUP (a dropped ssh session) there may be no terminal left to print on."""
    json_path, html_path, pgn_path = outputs["--json"], outputs["--html"], outputs["--pgn"]
    if json_path and json_path != STDOUT:
        write_output(json_path, json.dumps(summary.to_json(), indent=1) + "\n", "the JSON report", inputs)
    if html_path:
        command = command_line(click.get_current_context())
        page = report_html.render(summary, report.records, games, command, verifier.table)
        write_output(html_path, page, "the HTML report", inputs)
    if pgn_path:
        write_output(pgn_path, pgn_text(as_pgn(games, verifier), verifier.tablebase), "PGN", inputs)
    if outputs["--failures"]:
        failures = "".join(failure_epd(record) + "\n" for record in report.failures)
        write_output(outputs["--failures"], failures, "failures", inputs)


def print_report(
    summary: Summary,
    verifier: Verifier,
    positions: str,
    show_analysis: bool,
    json_path: str | None,
    to_stderr: bool,
) -> list[Check]:
    """Print the report for a person (on standard error when an output goes
    to standard output, which then carries that alone) and the JSON when
    ``json_path`` is standard output; the checks of the expectations."""
    for line in summary_lines(summary):
        click.echo(line, err=to_stderr)
    table = verifier.table
    if positions in ("all", "sample") and not table.symmetric:
        click.echo(
            f"note: {table.name} is played as the board is given "
            f"(symmetric: false), and these are one orientation of each position: "
            f"a mirror image may be played differently (--positions every judges "
            f"them all)",
            err=to_stderr,
        )
    if show_analysis:
        for line in analysis_lines(summary.analysis):
            click.echo(line, err=to_stderr)
    elif (wasteful := most_wasteful_line(summary.analysis)) is not None:
        click.echo(f"{wasteful} (--analysis for every advice and the worst games)", err=to_stderr)
    if json_path == STDOUT:
        click.echo(json.dumps(summary.to_json()))
    checks = [expectation.check for expectation in summary.expectations or ()]
    for check in checks:
        click.echo(f"expect {check.claim.value}: {check.decision.value} ({check.measured})", err=to_stderr)
    if not table.expect:
        click.echo("no expectations declared (add an expect: block to the table)", err=to_stderr)
    elif not checks:
        about = ", ".join(sorted({e.defender.name if e.defender else "" for e in table.expect}))
        click.echo(
            f"no expectations about the {summary.defender.name} defender (the table's are about: {about})",
            err=to_stderr,
        )
    return checks


def verify_holding(table: AdviceTable, options: Mapping[str, Any]) -> None:
    """``al0 verify`` of a table that holds, ``options`` the command's
    parameters: no games, so the options of games (each given or not) are
    refused; ``--jobs`` processes judge the positions (see
    :meth:`HoldCheck.choose_jobs`)."""
    game_options = {
        "--defender": options["defender"].kind != "tablebase",
        "--scheduler": options["scheduler"],
        "--html": options["html_path"],
        "--pgn": options["pgn_path"],
        "--analysis": options["show_analysis"],
    }
    given = [option for option, value in game_options.items() if value]
    if given:
        raise click.UsageError(
            f"{table.name} holds (the weaker side's table): it is checked move by move "
            f"against the tablebase, with no games, so {', '.join(given)} cannot be used"
        )
    positions_spec: PositionsSpec = options["positions_spec"]
    hold_check = HoldCheck(
        table,
        positions_spec,
        seed=options["seed"],
        budget=options["budget"],
        tablebases=Tablebases(build_progress()),
    )
    jobs, why = hold_check.choose_jobs(options["jobs"])
    if why:
        click.echo(f"note: {why}", err=True)
    inputs = [table.path, positions_spec.path, table.library.path or None]
    report_hold(
        hold_check, jobs, options["attacker_games"], options["json_path"], options["failures_path"], inputs
    )


def report_hold(
    check: HoldCheck,
    jobs: int,
    games: int,
    json_path: str | None,
    failures_path: str | None,
    inputs: Sequence[str | None],
) -> None:
    """Run the hold check of a table that holds in ``jobs`` processes and
    then its ``games`` against the most testing attacker, write the JSON
    and the failures asked for and print the summary; exit as
    :func:`verify` says."""
    total = len(check.boards)
    estimate = check.estimate(jobs)
    if estimate is not None and estimate.worth_saying:
        click.echo(f"note: {total:,} drawn positions to check: {estimate}", err=True)
    if sys.stderr.isatty():
        with click.progressbar(length=total, label="checking", file=sys.stderr, show_eta=True) as bar:
            report = check.run(lambda: bar.update(1), jobs)
    else:
        report = check.run(progress_lines(Pace(total, estimate))[0], jobs)
    if games and not report.stopped:
        try:
            report.games = check.play_games(games)
        except KeyboardInterrupt:
            report.interrupted, report.stopped = True, "interrupted"
    expectations = check.table.expect
    data = report.to_json(expectations)
    if json_path and json_path != STDOUT:
        write_output(json_path, json.dumps(data, indent=1) + "\n", "the JSON report", inputs)
    if failures_path:
        write_output(
            failures_path, "".join(record.epd() + "\n" for record in report.failures), "failures", inputs
        )
    to_stderr = STDOUT in (json_path, failures_path)
    for line in hold_lines(report):
        click.echo(line, err=to_stderr)
    if json_path == STDOUT:
        click.echo(json.dumps(data))
    claims = report.checks(expectations)
    for claim in claims:
        click.echo(f"expect {claim.claim.value}: {claim.decision.value} ({claim.measured})", err=to_stderr)
    if not expectations:
        click.echo("no expectations declared (add an expect: block to the table)", err=to_stderr)
    if report.stopped:
        raise CommandError(f"stopped after {report.judged} of {report.total} positions: {report.stopped}")
    if any(claim.decision is Decision.FAILED for claim in claims):
        raise click.exceptions.Exit(1)


def hold_lines(report: HoldReport) -> Iterator[str]:
    """The hold check's report as text for a person."""
    counts = ", ".join(
        f"{verdict.value} {report.counts[verdict]}" for verdict in HoldVerdict if report.counts[verdict]
    )
    interrupted = " (interrupted)" if report.interrupted else ""
    yield f"{report.judged} of {report.total} drawn positions, the table's side to move{interrupted}: {counts}"
    for verdict, records in report.examples().items():
        yield f"{verdict.value}: {report.counts[verdict]} — e.g."
        for record in records:
            if verdict is HoldVerdict.LOST:
                what = f"{record.move} ({record.advice}) loses, mated in {record.mated_in}"
            else:
                what = record.failure
            holding = ", ".join(record.holding) or "none"
            yield f"  {record.fen}  {what}; the draw holds with {holding}"
    if report.games is not None:
        yield report.games.line()
        for game in report.games.games:
            if game.end is not AttackEnd.HELD:
                yield f"  from {game.start}: {game.end.value} after {game.moves} moves, at {game.last}"
    processes = f"{report.jobs} processes" if report.jobs > 1 else "one process"
    yield (
        f"wall time: {round(report.wall_seconds, 1)} s ({processes}); "
        f"CPU judging: {round(report.cpu_seconds, 1)} s"
    )


def run_with_progress(
    verification: Verification, jobs: int, scheduler: str | None = None, estimate: Estimate | None = None
) -> Report:
    """Run ``verification`` (see :meth:`al0.verify.Verification.run`) with a
    progress bar on a terminal, after a line counting the plans while
    workers make them (``--defender worst --jobs N``); into a log or a pipe,
    a line every :data:`PROGRESS_LINE_SECONDS`. Either shows the games a
    second and the time left (by ``estimate`` until the run's own pace
    tells). The report keeps all it got, and says why it stopped early, if
    it did."""
    pace = Pace(len(verification.boards), estimate)
    try:
        if not sys.stderr.isatty():
            return verification.run(jobs, scheduler, *progress_lines(pace))
        with contextlib.ExitStack() as stack:
            return verification.run(jobs, scheduler, *progress_bar(pace, stack))
    except ModuleNotFoundError as error:
        if not scheduler:
            raise
        raise CommandError(f"--scheduler needs Dask ({error}): pip install 'al0[cluster]'") from None


def progress_bar(pace: Pace, stack: contextlib.ExitStack) -> tuple[Callable[[], None], Planning]:
    """The ``progress`` and ``planning`` callbacks of a run for a terminal:
    a line counting the plans while they are made, then a bar with the
    games a second and the time left, redrawn at most ten times a second."""
    bars: list[ProgressBar[str | None]] = []
    counted = False
    done = 0
    drawn = 0.0

    def planning(planned: int, known: int | None) -> None:
        nonlocal counted
        if bars or known is None and planned % 100:
            # Once the bar is up it counts the starts; in one process
            # (a call per plan) every hundredth plan is enough.
            return
        counted = True
        click.echo(f"\rplanning: {_planned(planned, known)}", err=True, nl=False)

    def progress() -> None:
        nonlocal done, drawn
        if not bars:  # the first record: the plans, if counted, are all made
            if counted:
                click.echo(err=True)
            bar = click.progressbar(
                length=pace.total, label="verifying", file=sys.stderr, item_show_func=lambda item: item
            )
            bars.append(stack.enter_context(bar))
        done += 1
        now = time.monotonic()
        if now - drawn >= 0.1 or done == pace.total:
            bars[0].update(done - bars[0].pos, pace.text(done))
            drawn = now

    return progress, planning


def _planned(planned: int, known: int | None) -> str:
    """How far a worst-case run's plans are (``known``: the positions known
    to need one so far, None when one process plans as it goes)."""
    if known is None:
        return f"{planned} position{'' if planned == 1 else 's'} planned so far"
    return f"{planned} of the {known} positions found so far"


PROGRESS_LINE_SECONDS = 30.0
"""How often a run whose standard error is not a terminal (a log, a pipe)
says how far it is."""


def progress_lines(pace: Pace) -> tuple[Callable[[], None], Planning]:
    """The ``progress`` and ``planning`` callbacks of a run for a log: a
    line on standard error every :data:`PROGRESS_LINE_SECONDS`, with the
    games a second and the time left, so that a long run in a pipe or under
    CI is seen to be moving."""
    last = pace.started
    judged = 0

    def due() -> bool:
        nonlocal last
        now = time.monotonic()
        if now - last < PROGRESS_LINE_SECONDS:
            return False
        last = now
        return True

    def progress() -> None:
        nonlocal judged
        judged += 1
        if judged == 1:
            pace.now(judged)  # the pace is of the games, not the start-up before them
        if due():
            click.echo(
                f"verifying: {judged} of {pace.total} positions, "
                f"{time.monotonic() - pace.started:.0f} s, {pace.text(judged)}",
                err=True,
            )

    def planning(planned: int, known: int | None) -> None:
        if due():
            click.echo(
                f"planning: {_planned(planned, known)}, {time.monotonic() - pace.started:.0f} s", err=True
            )

    return progress, planning
