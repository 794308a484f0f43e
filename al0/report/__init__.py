"""What al0 writes for people and other programs: a plan as text, JSON, DOT
or SVG (``render``), verify's games replayed (``replay``) and written as
PGN (``pgn``) or one self-contained HTML page (``html``).

The folder's face holds what the commands call; the HTML page is
``al0.report.html.render``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face

if TYPE_CHECKING:
    from al0.report.pgn import PgnGame, distance_note, pgn_text, players
    from al0.report.render import clear_board_svgs, plan_dot, plan_json, plan_lines, plan_svg, write_board_svg
    from al0.report.replay import ReplayedGame, as_pgn, games_to_show, replay_all

_HOMES = {
    "PgnGame": "pgn",
    "distance_note": "pgn",
    "pgn_text": "pgn",
    "players": "pgn",
    "clear_board_svgs": "render",
    "plan_dot": "render",
    "plan_json": "render",
    "plan_lines": "render",
    "plan_svg": "render",
    "write_board_svg": "render",
    "ReplayedGame": "replay",
    "as_pgn": "replay",
    "games_to_show": "replay",
    "replay_all": "replay",
}
"""Each name of the face and the module it lives in."""

__all__ = [
    "PgnGame",
    "ReplayedGame",
    "as_pgn",
    "clear_board_svgs",
    "distance_note",
    "games_to_show",
    "pgn_text",
    "plan_dot",
    "plan_json",
    "plan_lines",
    "plan_svg",
    "players",
    "replay_all",
    "write_board_svg",
]

__getattr__ = lazy_face(__name__, _HOMES)
