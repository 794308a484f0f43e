"""The ``al0 check`` command: validate a table and summarise it."""

from __future__ import annotations

import chess
import click

from al0.cli.common import TABLE, reports_errors
from al0.lang.loader import load_table


@click.command()
@TABLE
@reports_errors
def check(table: str) -> None:
    """Validate TABLE and summarise it: rules, advice, vocabulary.

    Exits 2 with FILE:LINE:COL: MESSAGE when the table is not valid.
    """
    loaded = load_table(table)
    side = "White" if loaded.us == chess.WHITE else "Black"
    click.echo(f"{table}: ok — table {loaded.name!r}, {loaded.material}, plays {side}")
    if loaded.description:
        click.echo(f"  {loaded.description}")
    # What the table can make al0 run or read: the whole list (docs/trust.md).
    if loaded.library.path:
        click.echo(f"library: {loaded.library.path} — Python: loading the table imported "
                   f"it and ran its code, which can do anything you can; the table "
                   f"starts no program")
    else:
        click.echo("library: none — standard vocabulary only: this table runs no Python "
                   "and starts no program")
    files = sorted({e.positions for e in loaded.expect if e.positions
                    and e.positions not in ("all", "every")
                    and not e.positions.startswith("sample:")})
    if files:
        click.echo(f"reads: {', '.join(files)} — the start positions of its expect: "
                   f"claims (a table may name files in its own folder only)")
    if loaded.symmetric:
        click.echo("symmetric: yes — mirror images are played alike (one orientation per class)")
    else:
        click.echo("symmetric: no — played as the board is given; verify judges one "
                   "orientation of each position")
    click.echo(f"rules ({len(loaded.rules)}):")
    for rule in loaded.rules:
        click.echo(f"  {rule.name}: if {rule.source} then {', '.join(rule.advice)}")
    click.echo(f"advice ({len(loaded.advice)}):")
    for advice in loaded.advice.values():
        click.echo(f"  {advice.name}:")
        for key, text in advice.source.items():
            click.echo(f"    {key}: {' '.join(text.split())}")
    click.echo("predicates used:")
    for name in loaded.predicates_used():
        click.echo(f"  {name}: {loaded.library.describe(name)}")
    if loaded.features_used():
        click.echo("features compared:")
        for name in loaded.features_used():
            click.echo(f"  {name}: {loaded.library.describe(name)}")
    click.echo("move generators used:")
    for name in loaded.generators_used():
        click.echo(f"  {name}: {loaded.library.describe(name)}")
