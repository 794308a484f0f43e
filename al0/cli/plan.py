"""The ``al0 plan`` command: the rule, advice and forcing tree a table
chooses at given positions."""

from __future__ import annotations

import json
from functools import partial
from typing import Iterator

import chess
import click

from al0.board import epd_positions
from al0.cli.messages import reports_errors
from al0.cli.params import BUDGET, TABLE
from al0.cli.positions import plannable, position_for
from al0.engine import Planner
from al0.lang import AdviceTable, load_table
from al0.report import plan_dot, plan_json, plan_lines, plan_svg
from al0.teach import refutation_lines, refutations


@click.command()
@TABLE
@click.option("--fen", "fens", multiple=True, metavar="FEN", help="A position to plan for (repeatable).")
@click.option("--epd", type=click.Path(dir_okay=False), help="Plan for every position of this EPD file.")
@click.option(
    "--format",
    "form",
    type=click.Choice(["text", "json", "dot", "svg"]),
    default="text",
    show_default=True,
    help="The tree as indented SAN, JSON (one object a line), Graphviz DOT "
    "(one digraph a position) or SVG (one position: the board, and the "
    "planned line as a strip of boards, one per ply).",
)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option(
    "--why",
    is_flag=True,
    help="For each advice tried and failed, why: after which of our moves "
    "and which of their replies which conjunct of its better- or "
    "holding-goal fails (text, or each passed_over entry's refutations in JSON).",
)
@BUDGET
@reports_errors
def plan(
    table: str, fens: tuple[str, ...], epd: str | None, form: str, as_json: bool, why: bool, budget: int
) -> None:
    """Show the plan TABLE makes at each position: the rule that applies,
    the advice tried in order, the one chosen and its forcing tree.

    With --format json each line is an object with fen, rule, advice (null
    when there is no plan), tried, passed_over (why each tried advice was
    passed over), failure, tree (each node with to_move and side), nodes
    and ms.
    """
    if as_json and form not in ("text", "json"):
        raise click.UsageError(f"--json is --format json: give one of --json and --format {form}")
    loaded = load_table(table)
    boards = [plannable(loaded, position_for(loaded, fen)) for fen in fens]
    if epd:
        boards += epd_positions(epd, loaded.material, loaded.us, check=lambda board: plannable(loaded, board))
    if not boards:
        raise click.UsageError("give a position with --fen FEN or --epd FILE")
    form = "json" if as_json else form
    if why and form not in ("text", "json"):
        raise click.UsageError(f"--why is told in text or JSON, not --format {form}")
    if form == "svg" and len(boards) > 1:
        raise click.UsageError(f"--format svg draws one position, not {len(boards)}")
    planner = Planner(loaded, budget)
    for board in boards:
        result = planner.plan(board)
        if form == "json":
            data = plan_json(result, loaded)
            if why:
                for entry in data["passed_over"]:
                    found = refutations(loaded, entry["advice"], board, budget)
                    entry["refutations"] = [refutation.to_json() for refutation in found]
            click.echo(json.dumps(data))
        elif form == "dot":
            click.echo(plan_dot(result, loaded), nl=False)
        elif form == "svg":
            click.echo(plan_svg(result), nl=False)
        else:
            told = partial(_told, loaded, board, budget) if why else None
            click.echo("\n".join(plan_lines(result, board, loaded, told)))


def _told(table: AdviceTable, board: chess.Board, budget: int, advice: str) -> Iterator[str]:
    """``--why``'s lines for one advice tried at ``board``."""
    return refutation_lines(refutations(table, advice, board, budget))
