"""The ``al0 tables`` command: the bundled advice tables and the libraries
a table can name, so a user can play one by name (``al0 play kqk``)."""

from __future__ import annotations

import importlib.metadata
import json
from typing import Any, Iterator

import click

from al0.bundled import LIBRARY_DIR, bundled_tables
from al0.cli.messages import reports_errors
from al0.errors import AL0Error, one_line
from al0.lang import ENTRY_POINT_GROUP, load_table


def listing() -> dict[str, Any]:
    """The bundled tables (name, path, material, library, description; or
    the one-line error of one that does not load) and the libraries, as
    JSON-ready data."""
    tables: list[dict[str, Any]] = []
    for path in bundled_tables():
        entry: dict[str, Any] = {"name": path.stem, "path": str(path)}
        try:
            table = load_table(path)
        except AL0Error as error:
            entry["error"] = one_line(error)
        else:
            entry.update(
                material=table.material.name,
                description=table.description,
                library=table.library.name if table.library.path else None,
            )
        tables.append(entry)
    libraries: list[dict[str, str]] = [
        {"name": path.stem, "source": "bundled", "path": str(path)}
        for path in sorted(LIBRARY_DIR.glob("*.py"))
    ]
    libraries += [
        {"name": point.name, "source": "installed", "module": point.value}
        for point in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name)
    ]
    return {"tables": tables, "libraries": libraries}


def listing_lines(data: dict[str, Any]) -> Iterator[str]:
    """The listing as text for a person: a row per table, a line per library."""
    rows = []
    for table in data["tables"]:
        if "error" in table:
            rows.append((table["name"], "", "", f"(does not load: {table['error']})"))
            continue
        python = "Python library " + table["library"] if table["library"] else "no Python"
        rows.append((table["name"], table["material"], python, table["description"]))
    yield "tables:"
    widths = [max((len(row[column]) for row in rows), default=0) for column in range(3)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths)] + [row[3]]
        yield "  " + "  ".join(cells)
    yield "libraries:"
    for library in data["libraries"]:
        if library["source"] == "bundled":
            yield f"  {library['name']:<12} bundled: {library['path']}"
        else:
            yield f"  {library['name']:<12} installed: {library['module']} ({ENTRY_POINT_GROUP})"


@click.command()
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON object: tables (name, path, material, library, "
    "description, or error) and libraries (name, source: bundled with its "
    "path or installed with its module).",
)
@reports_errors
def tables(as_json: bool) -> None:
    """List the bundled advice tables (play one with `al0 play NAME`) and
    the libraries tables can name: bundled, or installed by a package
    through the 'al0.libraries' entry-point group."""
    data = listing()
    if as_json:
        click.echo(json.dumps(data))
        return
    for line in listing_lines(data):
        click.echo(line)
