"""The ``al0 progress`` command: can a potential be forced lower against
every defence, from which positions, in how many moves — before any advice
is written (:mod:`al0.progress`)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from al0.board import Material
from al0.cli.messages import reports_errors
from al0.cli.outputs import OutputPath, write_output
from al0.cli.params import MaterialParam, WholeNumber
from al0.cli.terminal import build_progress

DEPTH = WholeNumber(minimum=1, maximum=20)
COUNT = WholeNumber(minimum=0, maximum=1_000_000)


@click.command(context_settings={"ignore_unknown_options": True})  # a TERM may begin with a minus
@click.argument("material", type=MaterialParam())
@click.argument("terms", nargs=-1, required=True, metavar="TERM...")
@click.option(
    "--depth",
    type=DEPTH,
    default=3,
    show_default=True,
    help="Our moves allowed for each fall (the advice's depth).",
)
@click.option(
    "--pre",
    metavar="EXPR",
    help="A phase's precondition: measure over the won positions where it holds (us to move).",
)
@click.option(
    "--target",
    metavar="EXPR",
    help="A next phase: positions where it holds (us to move) count as lower than every value.",
)
@click.option(
    "--hold",
    metavar="EXPR",
    help="A holding-goal: must hold after each of our moves and their replies on the way.",
)
@click.option(
    "--closure",
    "with_closure",
    is_flag=True,
    help="Also count the positions from which the progress can be kept up until mate.",
)
@click.option(
    "--drive",
    multiple=True,
    metavar="TERM",
    help="With --closure: a term (repeatable) of a second potential whose falls lead into the "
    "closure (a first phase).",
)
@click.option(
    "--drive-depth", type=DEPTH, metavar="D", help="With --drive: our moves allowed to it (default --depth)."
)
@click.option(
    "--switch",
    metavar="EXPR",
    help="With --drive and --walk: play the second phase where EXPR holds (as a table's rule "
    "would), not where the closure does.",
)
@click.option(
    "--walk",
    type=COUNT,
    default=0,
    metavar="N",
    help="Also play N won positions (al0 verify's sample:N, seed 0) by the first progressing move, "
    "against the tablebase's defence (their side a lone king).",
)
@click.option("--greedy", is_flag=True, help="Walk by the move that forces the lowest value.")
@click.option(
    "--fastest",
    is_flag=True,
    help="Walk by the tablebase's best move among those that keep the fall forced: about "
    "the best any table on this potential can do.",
)
@click.option(
    "--avoid-seen",
    is_flag=True,
    help="Walk as al0's plan choice does: of the moves that keep the fall forced, pass over those "
    "leading to a position the game has had after a move of ours, where another remains.",
)
@click.option(
    "--prefer",
    multiple=True,
    metavar="TERM",
    help="Walk by the progressing move whose worst reply leaves the least value of these terms "
    "(repeatable, a lexicographic tuple as the potential's): a choice among plans a table could "
    "state; ties as the other options choose.",
)
@click.option(
    "--exits",
    type=COUNT,
    default=0,
    metavar="N",
    help="With --closure and --walk: print the first N plans that left the closure.",
)
@click.option(
    "--stuck",
    type=COUNT,
    default=0,
    metavar="N",
    help="With --hold: print N positions where it holds and the value cannot fall.",
)
@click.option(
    "--memo",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Keep each term's and condition's values in DIR, so later runs reuse them.",
)
@click.option(
    "--failures",
    "failures_path",
    type=OutputPath("failures", stdout=False),
    metavar="FILE",
    help="With --closure: write the positions (of the phase) outside the closure to FILE, one EPD "
    "line each, with why (c0) and the moves to mate (dm).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@reports_errors
def progress(
    material: Material,
    terms: tuple[str, ...],
    depth: int,
    pre: str | None,
    target: str | None,
    hold: str | None,
    with_closure: bool,
    drive: tuple[str, ...],
    drive_depth: int | None,
    switch: str | None,
    walk: int,
    greedy: bool,
    fastest: bool,
    avoid_seen: bool,
    prefer: tuple[str, ...],
    exits: int,
    stuck: int,
    memo: str | None,
    failures_path: str | None,
    as_json: bool,
) -> None:
    """Whether a potential can be forced lower against every defence, over
    every won position of MATERIAL (pawnless: KRK, KQK, KBNK, KQKR, …),
    before any advice is written.

    A potential is what a table's forced progress lowers (advice with
    better-goal P < root.P): a lexicographic tuple of TERMs, the first most
    significant, each a sum of vocabulary features with whole weights
    ("3*corner_dist(k, B) + edge_dist(k)") or conditions [EXPR], 1 where the
    goal expression holds. For each won position (one per symmetry class, us
    to move) it finds the least number of our moves, up to --depth, in
    which the value can be forced lower whatever they reply, looking at
    every legal move (a min-max over the tablebase): mate, or their piece
    taken into a position still won, counts as lower than any value; a
    stalemate or a lost piece as failure. "none" counts the positions from
    which no table on this potential can progress.

    \b
    Example (KRK, seconds):
      al0 progress KRK "room(k)" "critical_mdist(K, R, k)" --depth 2 --closure --walk 100

    Each feature is evaluated position by position (a minute or two for a
    four-man ending: --memo keeps them). The reference, with every option
    and its output, is docs/progress.md.
    """
    _check_options(click.get_current_context().params)
    from al0.progress import Options, analyse, warnings  # lazily: numpy and the tablebase

    options = Options(
        material,
        terms,
        depth=depth,
        pre=pre,
        target=target,
        hold=hold,
        closure=with_closure,
        drive=drive,
        drive_depth=drive_depth,
        switch=switch,
        walk=walk,
        exits=exits,
        stuck=stuck,
        greedy=greedy,
        fastest=fastest,
        avoid_seen=avoid_seen,
        prefer=prefer,
        memo=None if memo is None else Path(memo),
        failures=failures_path is not None,
    )
    for warning in warnings(options):  # before the minutes the run takes
        click.echo(f"warning: {warning}", err=True)
    result = analyse(options, build_progress())
    if failures_path is not None:
        write_output(failures_path, "".join(line + "\n" for line in result.failures), "failures")
    click.echo(json.dumps(result.data) if as_json else "\n".join(result.lines))


def _check_options(params: Mapping[str, Any]) -> None:
    """Refuse an option that would change nothing with the others given
    (``--drive`` without ``--closure`` …) or that is empty, by the
    command's parameters (click's names)."""
    for term in params["terms"]:
        if term.startswith("--"):  # no term begins so: a misspelt option
            raise click.NoSuchOption(term.split("=")[0])
    memo, pre, target, hold, switch = (params[name] for name in ("memo", "pre", "target", "hold", "switch"))
    drive, with_closure, drive_depth = params["drive"], params["with_closure"], params["drive_depth"]
    walk, exits, stuck, failures_path = (
        params["walk"],
        params["exits"],
        params["stuck"],
        params["failures_path"],
    )
    greedy, fastest, avoid_seen, prefer = (
        params[name] for name in ("greedy", "fastest", "avoid_seen", "prefer")
    )
    if memo is not None and (not memo.strip() or os.path.exists(memo) and not os.path.isdir(memo)):
        raise click.UsageError(f"--memo {memo!r} is not a folder: give a folder to keep the columns in")
    for option, condition in (("--pre", pre), ("--target", target), ("--hold", hold), ("--switch", switch)):
        if condition is not None and not condition.strip():
            raise click.UsageError(f"{option} is empty: give a goal expression")
    if drive and not with_closure:
        raise click.UsageError("--drive needs --closure (the drive leads into the closure)")
    if drive_depth is not None and not drive:
        raise click.UsageError("--drive-depth needs --drive")
    if switch is not None and not (drive and walk):
        raise click.UsageError("--switch needs --drive and --walk")
    if exits and not (with_closure and walk):
        raise click.UsageError("--exits needs --closure and --walk")
    if stuck and hold is None:
        raise click.UsageError("--stuck needs --hold")
    if failures_path is not None and not with_closure:
        raise click.UsageError("--failures needs --closure (it lists the positions outside it)")
    if (greedy or fastest or avoid_seen or prefer) and not walk:
        flag = "greedy" if greedy else "fastest" if fastest else "avoid-seen" if avoid_seen else "prefer"
        raise click.UsageError(f"--{flag} needs --walk N")
