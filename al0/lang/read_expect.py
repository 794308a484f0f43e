"""Reading a table's ``expect:`` block: the claims ``al0 verify`` checks.

Split from :mod:`al0.lang.loader`: these keys describe a verification run
(how many games may end in stalemate, which positions and defender the
figures were measured with), not the advice.
"""

from __future__ import annotations

import re
from typing import Any

from al0.board.fen import file_in_folder
from al0.errors import AL0Error
from al0.lang.model import Expectations
from al0.lang.specs import DefenderSpec, PositionsSpec
from al0.lang.yaml_reader import Reader, SequenceNode, YamlNode

EXPECT_KEYS = {
    "mates-all": "mates_all",
    "stalemates": "max_stalemates",
    "material-lost": "max_material_lost",
    "no-plan": "max_no_plan",
    "search-limit": "max_search_limit",
    "max-moves": "max_moves",
    "mean-moves": "mean_moves",
    "positions": "positions",
    "defender": "defender",
    "lost": "max_lost",
}


WINNING_KEYS = ("mates-all", "stalemates", "material-lost", "max-moves", "mean-moves")
"""Claims about mates: a table that holds (its side the weaker) makes none."""


def read_expect_blocks(reader: Reader, node: YamlNode, holds: bool = False) -> tuple[Expectations, ...]:
    """One ``expect:`` block, or a list of them (claims about different
    defenders or positions). A table that ``holds`` (the weaker side's) may
    claim ``lost`` and no mates; a winning table, no ``lost``."""
    if isinstance(node, SequenceNode):
        blocks = reader.sequence(node, "expect")
        if not blocks:
            raise reader.error(node, "expect is an empty list: give at least one block")
        return tuple(_read_expect(reader, block, holds) for block in blocks)
    return (_read_expect(reader, node, holds),)


def _read_expect(reader: Reader, node: YamlNode, holds: bool) -> Expectations:
    fields: dict[str, Any] = {}
    for key, (key_node, value_node) in reader.mapping(node, "expect", EXPECT_KEYS).items():
        if holds and key in WINNING_KEYS:
            raise reader.error(
                key_node, f"expect {key} is a claim about mates: a table of the weaker side claims lost"
            )
        if not holds and key == "lost":
            raise reader.error(
                key_node, "expect lost is a claim of a table that holds (the weaker side's, e.g. KNKR)"
            )
        if key == "mates-all":
            fields[EXPECT_KEYS[key]] = reader.boolean(value_node, f"expect {key}")
        elif key == "mean-moves":
            fields[EXPECT_KEYS[key]] = _read_mean(reader, value_node)
        elif key == "positions":
            fields[EXPECT_KEYS[key]] = _read_positions(reader, value_node)
        elif key == "defender":
            fields[EXPECT_KEYS[key]] = _read_defender(reader, value_node)
        else:
            fields[EXPECT_KEYS[key]] = reader.integer(value_node, f"expect {key}")
    return Expectations(**fields)


def _read_mean(reader: Reader, node: YamlNode) -> float:
    text = reader.scalar_text(node, "expect mean-moves").strip()
    if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,9})?", text):
        raise reader.error(node, f"expect mean-moves must be a number >= 0 such as 13.0, not {text!r}")
    return float(text)


def _read_positions(reader: Reader, node: YamlNode) -> PositionsSpec:
    """The ``positions`` the claims were measured over: ``all``, ``every``,
    ``sample:N`` or an EPD file in the table's folder."""
    text = reader.string(node, "expect positions")
    try:
        spec = PositionsSpec.parse(text)
    except AL0Error as error:
        raise reader.error(node, f"expect positions {error}") from None
    if spec.path is not None:
        try:
            file_in_folder(spec.path, reader.folder)
        except AL0Error as error:
            raise reader.error(node, str(error)) from None
    return spec


def _read_defender(reader: Reader, node: YamlNode) -> DefenderSpec:
    """The ``defender`` the claims were measured against: one built in (a
    table starts no program)."""
    text = reader.string(node, "expect defender")
    try:
        return DefenderSpec.from_file(text)
    except AL0Error as error:
        raise reader.error(node, str(error)) from None
