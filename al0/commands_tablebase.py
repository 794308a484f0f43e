"""The ``al0 tablebase`` command: statistics and probes of a DTM tablebase.

Kept apart from :mod:`al0.cli` so the group there only has to register it;
like the rest of the CLI layer it is the only kind of module that prints.
"""

from __future__ import annotations

import json
from typing import Any

import chess
import click

from al0 import tablebase as tb
from al0.clitools import CommandError
from al0.errors import AL0Error


def _stats_text(stats: tb.Stats) -> str:
    """The stats as a table: one row per DTM, one column per side to move."""
    white, black = stats["white"], stats["black"]
    lines = [
        f"{stats['material']}: {white['legal']} legal positions with White to move, "
        f"{black['legal']} with Black to move",
        f"{'DTM':>5} {'White to move':>14} {'Black to move':>14}",
    ]
    depth = max(len(white["by_dtm"]), len(black["by_dtm"]))
    for dtm in range(depth):
        counts = [part["by_dtm"][dtm] if dtm < len(part["by_dtm"]) else 0 for part in (white, black)]
        lines.append(f"{dtm:>5} {counts[0]:>14} {counts[1]:>14}")
    lines.append(f"{'draw':>5} {white['draws']:>14} {black['draws']:>14}")
    return "\n".join(lines)


def _probe(table: tb.Tablebase, board: chess.Board) -> dict[str, Any]:
    """DTM of ``board`` and the optimal moves of the side to move (UCI and SAN)."""
    dtm = table.dtm(board)
    result: dict[str, Any] = {"fen": board.fen(), "dtm": dtm}
    if board.turn == chess.WHITE:
        moves = table.best_moves(board)
        result["best_moves"] = [move.uci() for move in moves]
        result["best_moves_san"] = [board.san(move) for move in moves]
    elif any(board.legal_moves):
        move = table.best_defence(board)
        result["best_defence"] = move.uci()
        result["best_defence_san"] = board.san(move)
    return result


def _probe_text(probe: dict[str, Any]) -> str:
    """The probe as a few ``key: value`` lines."""
    dtm = probe["dtm"]
    lines = [f"fen: {probe['fen']}", "dtm: " + ("none (White cannot force mate)" if dtm is None else str(dtm))]
    if "best_moves_san" in probe:
        moves = probe["best_moves_san"]
        lines.append("best moves: " + (" ".join(moves) if moves else "none"))
    if "best_defence_san" in probe:
        lines.append(f"best defence: {probe['best_defence_san']}")
    return "\n".join(lines)


@click.command("tablebase")
@click.argument("material")
@click.option("--stats", "show_stats", is_flag=True, help="Count legal positions by DTM (the default).")
@click.option("--fen", help="Probe this position: its DTM and the best moves.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of text.")
def tablebase(material: str, show_stats: bool, fen: str | None, as_json: bool) -> None:
    """Exact distance-to-mate tablebase for MATERIAL (KRK, KQK, KBK, KNK).

    DTM counts White moves to mate with best play by both sides. The table is
    built on first use (a few seconds) and cached under $AL0_CACHE_DIR, else
    $XDG_CACHE_HOME/al0, else ~/.cache/al0.
    """
    if show_stats and fen is not None:
        raise click.UsageError("give either --stats or --fen, not both")
    board = None
    if fen is not None:
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise click.BadParameter(f"{fen!r}: {error}", param_hint="--fen") from error
    data: tb.Stats | dict[str, Any]
    try:
        table = tb.load(material)
        if board is None:
            data = table.stats()
            text = _stats_text(data)
        else:
            data = _probe(table, board)
            text = _probe_text(data)
    except AL0Error as error:
        raise CommandError(str(error)) from error
    click.echo(json.dumps(data) if as_json else text)
