"""The ``al0 tablebase`` command: statistics and probes of a DTM tablebase.

Kept apart from :mod:`al0.cli` so the group there only has to register it;
like the rest of the CLI layer it is the only kind of module that prints.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import chess
import click

from al0 import tablebase as tb
from al0.board import FIFTY_MOVE_PLIES, Material
from al0.cli.messages import CommandError
from al0.cli.params import MaterialParam
from al0.errors import AL0Error


def _stats_text(stats: tb.Stats, material: Material) -> str:
    """The stats of ``material``'s table as a table: one row per distance, a
    column per side to move and result."""
    name = material.name
    strong, weak = material.side_names
    stronger, weaker = stats["stronger"], stats["weaker"]
    lines = [
        f"{name}: {stronger['legal']} legal positions with {strong} to move, "
        f"{weaker['legal']} with {weak} to move",
        f"longest mate: {stats['max_dtm']} moves" if stats["max_dtm"] is not None else "no mate at all",
        f"{'moves':>5} {strong + ' mates':>12} {strong + ' is mated':>12} "
        f"{weak + ' mates':>12} {weak + ' is mated':>12}   (side to move)",
    ]
    columns = [
        stronger["wins_by_dtm"],
        stronger["losses_by_dtm"],
        weaker["wins_by_dtm"],
        weaker["losses_by_dtm"],
    ]
    for moves in range(max(len(column) for column in columns)):
        counts = [column[moves] if moves < len(column) else 0 for column in columns]
        lines.append(f"{moves:>5} " + " ".join(f"{count:>12}" for count in counts))
    lines.append(f"{'draw':>5} {stronger['draws']:>12} {'':>12} {weaker['draws']:>12}")
    return "\n".join(lines)


def _probe(table: tb.Tablebase, board: chess.Board) -> dict[str, Any]:
    """The result of ``board`` and the best moves of the side to move (UCI and SAN)."""
    result = table.result(board)
    data: dict[str, Any] = {
        "fen": board.fen(),
        "winner": None if result.winner is None else chess.COLOR_NAMES[result.winner],
        "moves": result.moves,
        "plies": result.plies,
        "dtm": table.dtm(board),
    }
    data["fifty_move_rule"] = _fifty_move_rule(board, result.plies if result.winner is not None else None)
    if result.winner == board.turn:
        moves = table.best_moves(board)
        data["best_moves"] = [move.uci() for move in moves]
        data["best_moves_san"] = [board.san(move) for move in moves]
    elif any(board.legal_moves):
        move = table.best_defence(board)
        data["best_defence"] = move.uci()
        data["best_defence_san"] = board.san(move)
    return data


def _fifty_move_rule(board: chess.Board, plies: int | None) -> str | None:
    """What the 50-move rule says of ``board``'s distance to mate (``plies``,
    None in a draw), which the tablebase counts with no clock: the game
    already ended by it, or its mate longer than the half-moves the rule
    leaves; None where it says nothing."""
    clock = board.halfmove_clock
    if clock >= FIFTY_MOVE_PLIES and not board.is_checkmate():
        return f"the half-move clock is {clock}: the 50-move rule has ended the game (a draw by the laws)"
    if plies is not None and clock + plies > FIFTY_MOVE_PLIES:
        return (
            f"the mate takes {plies} half-moves and the half-move clock is {clock}: past the "
            f"50-move rule unless a capture or a pawn's move comes first"
        )
    return None


def _probe_text(probe: dict[str, Any]) -> str:
    """The probe as a few ``key: value`` lines."""
    if probe["winner"] is None:
        verdict = "draw" if "best_defence_san" in probe else "draw: stalemate"
    elif probe["plies"] == 0:
        verdict = f"{probe['winner']} has mated"
    else:
        verdict = f"{probe['winner']} mates in {probe['moves']}"
    lines = [f"fen: {probe['fen']}", f"result: {verdict}"]
    if "best_moves_san" in probe:
        lines.append("best moves: " + " ".join(probe["best_moves_san"]))
    if "best_defence_san" in probe:
        # In a draw the move keeps it (any move, where no side can mate): no defence.
        label = "a drawing move" if probe["winner"] is None else "best defence"
        lines.append(f"{label}: {probe['best_defence_san']}")
    if probe["fifty_move_rule"]:
        lines.append(f"note: {probe['fifty_move_rule']}")
    return "\n".join(lines)


@click.command("tablebase")
@click.argument("material", type=MaterialParam())
@click.option(
    "--stats", "show_stats", is_flag=True, help="Count legal positions by distance to mate (the default)."
)
@click.option("--fen", help="Probe this position: who mates in how many moves, and the best moves.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of text.")
def tablebase(material: Material, show_stats: bool, fen: str | None, as_json: bool) -> None:
    """Exact distance-to-mate tablebase for MATERIAL: any ending up to four
    men (KRK, KQK, KBNK, KBBK, KQKR, KRKN, KRKB, KQKQ, …), pawns included
    (KPK, KPKP, KPPK, KQKP, KRPK, …), either colour holding either side's
    pieces, either side to move.

    Distances are moves of the side that mates, with best play by both sides
    (a draw when neither can force mate). A table is built on first use (a
    second or a few for four men on the native core, with the smaller tables
    its captures and promotions lead to)
    and cached under $AL0_CACHE_DIR, else the platform's cache folder
    ($XDG_CACHE_HOME/al0 or ~/.cache/al0 on Linux, ~/Library/Caches/al0 on
    macOS, %LOCALAPPDATA%\\al0\\Cache on Windows).
    """
    if show_stats and fen is not None:
        raise click.UsageError("give either --stats or --fen, not both")
    board = None
    if fen is not None:
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise click.BadParameter(f"{fen!r}: {error}", param_hint="--fen") from error

    def progress(message: str) -> None:
        click.echo(message, err=True)

    data: tb.Stats | dict[str, Any]
    try:
        table = tb.load(material.name, progress=progress if sys.stderr.isatty() else None)
        if board is None:
            data = table.stats()
            text = _stats_text(data, table.material)
        else:
            data = _probe(table, board)
            text = _probe_text(data)
    except AL0Error as error:
        raise CommandError(str(error)) from error
    click.echo(json.dumps(data) if as_json else text)
