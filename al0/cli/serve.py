"""The ``al0 serve`` command: the plan and practice on a local web page."""

from __future__ import annotations

import ipaddress
import webbrowser
from pathlib import Path

import chess
import click

from al0.board import epd_positions
from al0.cli.messages import CommandError, reports_errors
from al0.cli.params import BUDGET
from al0.cli.terminal import build_progress, prepare_tablebase
from al0.engine import Tablebases
from al0.errors import PositionError
from al0.lang import load_table
from al0.serve import Api, Server, Tables, named_material, read_games, tablebase_probe
from al0.teach import check_record, record_path


def _loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (``localhost``, 127.x, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _named_host(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--host`` as given, refused when empty: the system takes no name
    for every interface (a shell's unset ``--host "$HOST"`` would serve the
    network, its warning naming no host)."""
    if not value.strip():
        raise click.BadParameter("an empty host listens on every interface: give 0.0.0.0 to mean that")
    return value


@click.command()
@click.argument("table", required=False)
@click.option(
    "--host",
    callback=_named_host,
    default="127.0.0.1",
    show_default=True,
    help="The interface to listen on; any other than this machine's own is "
    "reachable by others on the network (a warning says so).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="The port (0: a free one, printed).",
)
@click.option("--no-browser", "no_browser", is_flag=True, help="Do not open the page in a browser.")
@click.option(
    "--epd",
    type=click.Path(dir_okay=False),
    help="Positions of TABLE to go through on the page, one by one: exercises, "
    "or a verify --failures file with the plan at each.",
)
@click.option(
    "--pgn",
    type=click.Path(dir_okay=False),
    help="Games to review: each move's position, comment (practice's verdict, "
    "its ?/?? mark), arrows and squares, the moves taken back as variations, "
    "and the distance to mate of every ply ([%eval #N], else the tablebase) as a graph.",
)
@BUDGET
@reports_errors
def serve(
    table: str | None, host: str, port: int, no_browser: bool, epd: str | None, pgn: str | None, budget: int
) -> None:
    """Serve a local web page on which TABLE's plans are a tree you can
    click and its ending can be practised move by move, with the teaching
    engine's verdicts, explanations and hints (the bundled tables are there
    too). TABLE may be a material in capitals (KQKR): then it is practised
    with the tablebase alone, as al0 practice KQKR. The page needs no
    network; Ctrl-C stops the server.
    """
    record = record_path()
    check_record(record)  # before serving: the page's exercises must count somewhere
    positions = None
    if table is not None:
        material = named_material(table)
        if material is not None:  # practised from the tablebase alone, as al0 practice KQKR
            from al0 import tablebase  # lazily: numpy

            tablebase.parse_material(table)  # one it has no tablebase for stops here
            us = chess.WHITE
        else:
            loaded = load_table(table)  # a broken table stops here, with its file:line:col
            material, us = loaded.material, loaded.us
        if epd is not None:
            boards = epd_positions(epd, material, us)
            if not boards:
                raise PositionError(f"{epd}: no positions in it (only blank lines and comments)")
            positions = (Path(epd).name, boards)
        prepare_tablebase(material, build_progress())
    elif epd is not None:
        raise click.UsageError("--epd needs a TABLE: the positions are that table's")
    # The plies with no [%eval] (the start, the replies) from the tablebases on disk.
    games = (Path(pgn).name, read_games(pgn, tablebase_probe(Tablebases()))) if pgn is not None else None
    if not _loopback(host):
        click.echo(
            f"warning: serving on {host}: anyone who can reach this machine can use "
            f"the page (and its searches)",
            err=True,
        )
    try:
        server = Server(Api(Tables(table), budget, positions, games, record), host, port)
    except OSError as error:
        raise CommandError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    try:
        click.echo(f"al0 serves {server.url} (Ctrl-C stops it)")
        if not no_browser:
            webbrowser.open(server.url)
        server.serve_forever()
    finally:
        server.server_close()
