"""The board: al0's compact, immutable position and its moves, the board's
eight symmetries, FEN and EPD reading, and seeded position sampling.

It knows chess, not advice: nothing here imports the language, the engine or
the tablebase.

The folder's face: the material, reading FEN and EPD, checking a position
for a table, and drawing seeded samples."""

from al0.board.fen import (
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
from al0.board.material import Material
from al0.board.sampling import check_sample_size, random_positions

__all__ = [
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
]
