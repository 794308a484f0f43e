"""Reading an advice's move constraints (``us-moves``, ``them-moves``).

A constraint is the book's text form or a mapping from depth guards to
move generators; either way it must be bounded in depth, and each
generator must be known and, for the vocabulary's ``moves(p)``, move a
piece of the side whose moves it gives.
"""

from __future__ import annotations

from typing import Iterable

from al0.lang.expr import parse_constraint, parse_depth_spec, parse_generators
from al0.lang.library import Library
from al0.lang.model import Alternative, Call, MoveConstraint
from al0.lang.names import check_vocabulary, offset_of
from al0.lang.yaml_reader import MappingNode, Reader, ScalarNode, YamlNode


def read_constraint(
    reader: Reader, node: YamlNode, what: str, library: Library, ours: bool
) -> MoveConstraint:
    """A move constraint: the book's text form, or a mapping from depth guard
    (``0``, ``< 3``, ``1..4``) to generators (``legal``, ``rookmove and checkmove``).
    ``ours``: whether it gives our side's moves (us-moves) or theirs."""
    if isinstance(node, MappingNode):
        alternatives = []
        for key, (key_node, value_node) in reader.mapping(node, what, ()).items():
            depths = reader.expression(key_node, f"{what} depth guard", parse_depth_spec)
            generators = reader.expression(value_node, what, parse_generators)
            alternatives.append(Alternative(depths, generators))
            _check_generators(reader, value_node, generators, library, what, ours)
        if not alternatives:
            raise reader.error(node, f"{what} is empty (write nomove for no moves)")
        constraint = MoveConstraint(tuple(alternatives))
    else:
        constraint = reader.expression(node, what, parse_constraint)
        for alternative in constraint.alternatives:
            _check_generators(reader, node, alternative.generators, library, what, ours)
    if constraint.horizon() is None:
        raise reader.error(
            node,
            f"{what} allows moves at every depth, so a forcing tree "
            f"could be endless: bound it, e.g. '< 3: legal'",
        )
    return constraint


def _check_generators(
    reader: Reader, node: YamlNode, calls: Iterable[Call], library: Library, what: str, ours: bool
) -> None:
    """Every name must be a move generator of the library or the vocabulary,
    and the vocabulary's ``moves(p)`` must name a piece of the side whose
    moves the constraint gives (else it never gives a move).

    :raises TableSyntaxError: ``moves(k)`` in us-moves, ``moves(R)`` in them-moves.
    """
    check_vocabulary(reader, node, calls, library, "generator")
    assert reader.binder is not None  # set before any expression is read
    for call in calls:
        name, family, args = call.text, call.family, call.args
        if family != "moves" or name in library.generators:
            continue
        piece = reader.binder.pieces[args[0]]
        if piece.ours != ours:
            text = reader.scalar_text(node, "") if isinstance(node, ScalarNode) else ""
            whose, side = ("their", "our") if ours else ("our", "their")
            raise reader.error(
                node,
                f"{what}: {name} moves {whose} piece {args[0]}, so it never "
                f"gives a move on {side} turn (ours are written in upper case, "
                f"theirs in lower case)",
                offset=offset_of(text, call),
            )
