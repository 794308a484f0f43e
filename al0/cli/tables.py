"""The ``al0 tables`` command: the bundled advice tables and the libraries
a table can name, so a user can play one by name (``al0 play kqk``)."""

from __future__ import annotations

import importlib.metadata

import click

from al0.bundled import LIBRARY_DIR, bundled_tables
from al0.cli.common import reports_errors
from al0.errors import AL0Error
from al0.lang.library import ENTRY_POINT_GROUP
from al0.lang.loader import load_table


@click.command()
@reports_errors
def tables() -> None:
    """List the bundled advice tables (play one with `al0 play NAME`) and
    the libraries tables can name: bundled, or installed by a package
    through the 'al0.libraries' entry-point group."""
    rows = []
    for path in bundled_tables():
        try:
            table = load_table(path)
        except AL0Error as error:
            rows.append((path.stem, "", "", f"(does not load: {' '.join(str(error).split())})"))
            continue
        python = "Python library " + table.library.name if table.library.path else "no Python"
        rows.append((path.stem, table.material, python, table.description))
    click.echo("tables:")
    widths = [max((len(row[column]) for row in rows), default=0) for column in range(3)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths)] + [row[3]]
        click.echo("  " + "  ".join(cells))
    click.echo("libraries:")
    for path in sorted(LIBRARY_DIR.glob("*.py")):
        click.echo(f"  {path.stem:<12} bundled: {path}")
    for point in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP),
                        key=lambda p: p.name):
        click.echo(f"  {point.name:<12} installed: {point.value} ({ENTRY_POINT_GROUP})")
