"""The engine: forcing trees (``tree``), the AND/OR search that builds them
(``search``), choosing a plan from a table (``plan``), playing a game from
it (``play``), the computer defenders a game is played against
(``defenders``), the tablebases a process has loaded (``tablebases``) and a
table ready to play (``match``, the entry of play, practice and uci).

The folder's face: the names its clients use, each imported from its
module when first asked for (see :mod:`al0.faces`), so that a command
that only needs the budget's default does not load the search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face

if TYPE_CHECKING:
    from al0.engine.defenders import (
        Defender,
        MostTestingAttacker,
        RandomDefender,
        TablebaseDefender,
        make_defender,
    )
    from al0.engine.limits import SearchLimits
    from al0.engine.match import Match
    from al0.engine.native import table_core
    from al0.engine.plan import DEFAULT_BUDGET, Plan, Planner
    from al0.engine.play import Ending, Event, GameEnd, Opponent, OurMove, TheirMove, descend, play_game
    from al0.engine.successors import bundled_table, successor_table
    from al0.engine.tablebases import Tablebases
    from al0.engine.tree import ForcingTree, principal_line, tree_lines

_HOMES = {
    "Defender": "defenders",
    "RandomDefender": "defenders",
    "TablebaseDefender": "defenders",
    "MostTestingAttacker": "defenders",
    "make_defender": "defenders",
    "SearchLimits": "limits",
    "Match": "match",
    "table_core": "native",
    "DEFAULT_BUDGET": "plan",
    "Plan": "plan",
    "Planner": "plan",
    "Ending": "play",
    "Event": "play",
    "GameEnd": "play",
    "Opponent": "play",
    "OurMove": "play",
    "TheirMove": "play",
    "descend": "play",
    "play_game": "play",
    "bundled_table": "successors",
    "successor_table": "successors",
    "Tablebases": "tablebases",
    "ForcingTree": "tree",
    "principal_line": "tree",
    "tree_lines": "tree",
}
"""Each name of the face and the module it lives in."""

__all__ = [
    "DEFAULT_BUDGET",
    "Defender",
    "Ending",
    "Event",
    "ForcingTree",
    "GameEnd",
    "Match",
    "MostTestingAttacker",
    "Opponent",
    "OurMove",
    "Plan",
    "Planner",
    "RandomDefender",
    "SearchLimits",
    "TablebaseDefender",
    "Tablebases",
    "TheirMove",
    "bundled_table",
    "descend",
    "make_defender",
    "play_game",
    "principal_line",
    "successor_table",
    "table_core",
    "tree_lines",
]

__getattr__ = lazy_face(__name__, _HOMES)
