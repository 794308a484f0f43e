"""The ``al0 check`` command: validate a table and summarise it."""

from __future__ import annotations

import json
from typing import Any, Iterator

import chess
import click

from al0.cli.messages import reports_errors
from al0.cli.params import TABLE
from al0.cli.positions import not_playable_why, unfit_start_verdict
from al0.engine import Tablebases, successor_table, table_core
from al0.lang import AdviceTable, load_table, table_warnings


def summary(table: AdviceTable) -> dict[str, Any]:
    """What ``al0 check`` says of a valid table, as JSON-ready data."""
    library = table.library

    def described(names: list[str]) -> dict[str, str]:
        return {name: library.describe(name) for name in names}

    return {
        "name": table.name,
        "material": table.material.name,
        "plays": chess.COLOR_NAMES[table.us],
        "description": table.description,
        "library": str(library.path) if library.path else None,
        "reads": sorted(
            {e.positions.path for e in table.expect if e.positions and e.positions.path is not None}
        ),
        "symmetric": table.symmetric,
        "successors": {entry.material.name: entry.table for entry in table.successors},
        "rules": [
            {"name": rule.name, "if": rule.source, "then": list(rule.advice), "description": rule.description}
            for rule in table.rules
        ],
        "advice": {
            advice.name: ({"description": advice.description} if advice.description else {})
            | {key: " ".join(text.split()) for key, text in advice.source.items()}
            for advice in table.advice.values()
        },
        "predicates": described(table.predicates_used()),
        "features": described(table.features_used()),
        "generators": described(table.generators_used()),
        "core": table_core(table),
        "warnings": [str(warning) for warning in table_warnings(table)] + start_warnings(table),
    }


def start_warnings(table: AdviceTable) -> list[str]:
    """A warning when the table's ``start:`` is not what the table is for,
    by its material's tablebase where one is cached (none is built for
    it): a position its side does not win, or, for a table that holds, one
    already lost; or one whose half-move clock leaves no mate possible.
    ``al0 play`` with no --fen begins there."""
    if table.start_fen is None:
        return []
    where = f"{table.start_location}: " if table.start_location else ""
    board = chess.Board(table.start_fen)
    why = not_playable_why(table, board)
    if why is not None:
        return [f"{where}warning: start: {why}"]
    tablebase = Tablebases().cached(table.material)
    verdict = None if tablebase is None else unfit_start_verdict(table, board, tablebase)
    if verdict is None:
        return []
    wanted = "a draw or a win" if table.holds else "a win"
    return [f"{where}warning: start is {verdict} by the tablebase, not {wanted} for the table's side"]


def summary_lines(path: str, data: dict[str, Any]) -> Iterator[str]:
    """The summary as text for a person."""
    yield (f"{path}: ok — table {data['name']!r}, {data['material']}, plays {data['plays'].title()}")
    if data["description"]:
        yield f"  {data['description']}"
    # What the table can make al0 run or read: the whole list (docs/trust.md).
    if data["library"]:
        yield (
            f"library: {data['library']} — Python: loading the table imported it and "
            f"ran its code, which can do anything you can; the table starts no program"
        )
    else:
        yield ("library: none — standard vocabulary only: this table runs no Python and starts no program")
    if data["reads"]:
        yield (
            f"reads: {', '.join(data['reads'])} — the start positions of its expect: "
            f"claims (a table may name files in its own folder only)"
        )
    if data["successors"]:
        yield (
            "successors: "
            + ", ".join(f"{material} → {table}" for material, table in data["successors"].items())
            + " — a game that reaches the material goes on with that table (loaded by this check, and by a game when it gets there)"
        )
    if data["symmetric"]:
        yield "symmetric: yes — mirror images are played alike (one orientation per class)"
    else:
        yield ("symmetric: no — played as the board is given; verify judges one orientation of each position")
    yield f"rules ({len(data['rules'])}):"
    for rule in data["rules"]:
        yield f"  {rule['name']}: if {rule['if']} then {', '.join(rule['then'])}"
        if rule["description"]:
            yield f"    description: {rule['description']}"
    yield f"advice ({len(data['advice'])}):"
    for name, parts in data["advice"].items():
        yield f"  {name}:"
        for key, text in parts.items():
            yield f"    {key}: {text}"
    for key, title in (
        ("predicates", "predicates used"),
        ("features", "features compared"),
        ("generators", "move generators used"),
    ):
        if data[key] or key != "features":
            yield f"{title}:"
        for name, meaning in data[key].items():
            yield f"  {name}: {meaning}"
    yield f"core: {data['core']}"


@click.command()
@TABLE
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the summary as one JSON object: name, material, plays, "
    "description, library (its file, or null), reads (the files its expect: "
    "claims read), symmetric, rules and advice (each with its "
    "description), and the predicates, features and generators used with "
    "their meaning, and warnings (each FILE:LINE:COL: warning: MESSAGE).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Exit 1 when there is a warning (a goal that can never or always "
    "hold, advice no rule reaches), as in a test or CI.",
)
@reports_errors
def check(table: str, as_json: bool, strict: bool) -> None:
    """Validate TABLE and summarise it: rules, advice, vocabulary.

    Exits 2 with FILE:LINE:COL: MESSAGE when the table is not valid, or a
    table its successors: names is not (loaded here, not first when a game
    gets there). Warns
    (on stderr, exit 0; 1 with --strict) for what a valid table probably
    gets wrong: a distance of a piece to itself, a feature of our own king
    meant for theirs, a term compared with itself, advice no rule reaches.
    """
    loaded = load_table(table)
    for entry in loaded.successors:
        successor_table(loaded, entry.material)
    data = summary(loaded)
    if as_json:
        click.echo(json.dumps(data))
    else:
        for line in summary_lines(table, data):
            click.echo(line)
        for warning in data["warnings"]:
            click.echo(warning, err=True)
    if strict and data["warnings"]:
        raise click.exceptions.Exit(1)
