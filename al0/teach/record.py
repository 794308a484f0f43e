"""The student's progress record: a small JSON file in the platform's data
folder for al0 (``$AL0_DATA_DIR`` overrides it, as the tests do), counting
exercises tried and solved, moves over the optimum and hints, by ending."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from al0.errors import AL0Error

FILE_NAME = "progress.json"
VERSION = 1
COUNTS = ("tried", "solved", "moves", "over_optimum", "hints", "mistakes", "blunders")
"""What the record counts for each ending."""


def record_path() -> Path:
    """``$AL0_DATA_DIR/progress.json``, else the platform's data folder for al0."""
    explicit = os.environ.get("AL0_DATA_DIR")
    folder = Path(explicit) if explicit else Path(platformdirs.user_data_dir("al0",
                                                                             appauthor=False))
    return folder / FILE_NAME


@dataclass(frozen=True)
class Attempt:
    """One exercise as the student left it."""
    material: str
    fen: str
    solved: bool
    moves: int
    optimal: int
    hints: int
    mistakes: int
    blunders: int


def read_record(path: Path) -> dict[str, Any]:
    """The record at ``path`` (an empty one when there is no file yet).

    :raises AL0Error: a file that is not a record of this version.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"version": VERSION, "endings": {}}
    except (OSError, ValueError) as error:
        raise AL0Error(f"{path}: cannot read the progress record: {error}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION \
            or not isinstance(data.get("endings"), dict):
        raise AL0Error(f"{path}: not a progress record of al0 (version {VERSION})")
    return data


def add_attempt(path: Path, attempt: Attempt) -> dict[str, Any]:
    """Count ``attempt`` in the record at ``path`` (made with its folder if
    needed) and return the record.

    :raises AL0Error: the file cannot be read or written.
    """
    data = read_record(path)
    counts = data["endings"].setdefault(attempt.material, dict.fromkeys(COUNTS, 0))
    counts["tried"] += 1
    counts["solved"] += attempt.solved
    counts["hints"] += attempt.hints
    counts["mistakes"] += attempt.mistakes
    counts["blunders"] += attempt.blunders
    if attempt.solved:
        counts["moves"] += attempt.moves
        counts["over_optimum"] += max(0, attempt.moves - attempt.optimal)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n",
                             encoding="utf-8")
        temporary.replace(path)
    except OSError as error:
        raise AL0Error(f"{path}: cannot write the progress record: {error.strerror}") from None
    return data


def record_lines(data: dict[str, Any]) -> list[str]:
    """The record as text, one line an ending."""
    if not data["endings"]:
        return ["no exercises recorded yet"]
    lines = []
    for material, counts in sorted(data["endings"].items()):
        solved = counts["solved"]
        over = (f", {counts['over_optimum'] / solved:.1f} moves over the optimum a mate"
                if solved else "")
        lines.append(f"{material}: {solved} of {counts['tried']} exercises solved{over}; "
                     f"{counts['hints']} hints, {counts['mistakes']} mistakes, "
                     f"{counts['blunders']} blunders")
    return lines
