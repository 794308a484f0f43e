"""The board: al0's compact, immutable position and its moves, the board's
eight symmetries, FEN and EPD reading, and seeded position sampling.

It knows chess, not advice: nothing here imports the language, the engine or
the tablebase.

The folder's face: the material (and which materials captures and
promotions can make of it), reading FEN and EPD, checking a position for a
table, and drawing seeded samples."""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face

if TYPE_CHECKING:
    from al0.board.fen import (
        FIFTY_MOVE_PLIES,
        EpdLine,
        canonical_material,
        check_not_over,
        check_playable,
        epd_lines,
        epd_positions,
        file_in_folder,
        material_of,
        parse_fen,
        played_by,
    )
    from al0.board.material import Material, reachable
    from al0.board.sampling import check_sample_size, random_positions

_HOMES = {
    "FIFTY_MOVE_PLIES": "fen",
    "EpdLine": "fen",
    "canonical_material": "fen",
    "check_not_over": "fen",
    "check_playable": "fen",
    "epd_lines": "fen",
    "epd_positions": "fen",
    "file_in_folder": "fen",
    "material_of": "fen",
    "parse_fen": "fen",
    "played_by": "fen",
    "Material": "material",
    "reachable": "material",
    "check_sample_size": "sampling",
    "random_positions": "sampling",
}
"""Each name of the face and the module it lives in."""

__all__ = [
    "FIFTY_MOVE_PLIES",
    "EpdLine",
    "Material",
    "canonical_material",
    "check_not_over",
    "check_playable",
    "check_sample_size",
    "epd_lines",
    "epd_positions",
    "file_in_folder",
    "material_of",
    "parse_fen",
    "played_by",
    "random_positions",
    "reachable",
]

__getattr__ = lazy_face(__name__, _HOMES)
