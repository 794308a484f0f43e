"""What a table file declares of the game it plays, its ``material:`` and
``side:``, read without loading the table (its library, its goals): enough
to know which material it plays for which colour, where loading it would
import its library or find a cycle of tables naming one another.

Which tables play a material after a capture or a promotion
(:mod:`al0.engine.successors`) and the checks of ``successors:`` when a
table loads (:mod:`al0.lang.read_successors`) both ask this."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import chess

from al0.board import Material
from al0.errors import AL0Error


@dataclass(frozen=True)
class Declared:
    """A table's material (ours first) and the colour it plays."""

    material: Material
    us: chess.Color

    def plays(self, material: Material, us: chess.Color) -> bool:
        """Whether the table plays ``material`` (ours first) for ``us``: our
        men its own, theirs its own or fewer (a table may be written to
        play on after a capture of theirs)."""
        return (
            self.us == us
            and material.first == self.material.first
            and not Counter(material.second) - Counter(self.material.second)
        )

    def __str__(self) -> str:
        return f"{self.material} for {'White' if self.us == chess.WHITE else 'Black'}"


def declared(path: Path) -> Declared | None:
    """What the table file at ``path`` declares; None where it declares no
    material that reads, or no side (white or black), or cannot be read:
    loading it says where and why."""
    import yaml  # here: the UCI handshake, which imports the game loop, reads no YAML

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
        material = Material.parse(str(data["material"]).strip().upper())
        side = str(data.get("side", "white")).strip().lower()
    except (OSError, UnicodeError, ValueError, yaml.YAMLError, TypeError, KeyError, AttributeError, AL0Error):
        return None
    if side not in ("white", "black"):
        return None
    return Declared(material, side == "white")
