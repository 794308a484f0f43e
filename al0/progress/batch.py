"""A feature's values and a goal's truth at many positions of an ending at
once: on the native core, one call for a whole column, where it runs and
knows the names; else position by position with the vocabulary, its
reference twin (``AL0_CORE=python``), with the same values.

``al0 progress`` evaluates its terms at every position of an ending (a
million and more for four men): a Python call for each cost about 50 µs a
position, most of a KBNK analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import chess
import numpy as np
import numpy.typing as npt

from al0.engine.native import Unsupported, feature_code, goal_code
from al0.lang.model import Call, Goal
from al0.lang.node import Node, node_at
from al0.tablebase.geometry import Indices
from al0.tablebase.graph import MoveGraph

NO_VALUE = np.iinfo(np.int64).min
"""A feature column's entry where the feature has no value (a piece it
measures is gone), as the core writes it."""

Feature = Callable[[Node], int | None]
GoalFunction = Callable[[Node, Node], bool]


class Batch:
    """Features and goals over positions of ``graph``'s ending, our pieces White."""

    def __init__(self, graph: MoveGraph):
        self.graph = graph
        self.material = graph.table.material

    def nodes(self, indices: Indices, side: int, depth: int = 0) -> Iterator[Node]:
        """A search node at ``depth`` at each of ``indices``, ``side`` to move."""
        for position in self.graph.positions(indices, side):
            yield node_at(position, depth, chess.WHITE)

    def feature(self, call: Call, twin: Feature, indices: Indices) -> npt.NDArray[np.int64]:
        """Feature ``call`` (``twin`` is its Python function) at each of
        ``indices``, us to move: :data:`NO_VALUE` where it has none."""
        try:
            core, number, args = feature_code(self.material, call)
        except Unsupported:
            values = (twin(node) for node in self.nodes(indices, 0))
            return np.fromiter((NO_VALUE if v is None else v for v in values), np.int64, len(indices))
        column = np.empty(len(indices), dtype=np.int64)
        core.feature_column(number, *args, True, True, self.graph.boards(indices), column)
        return column

    def goal(
        self, goal: Goal, twin: GoalFunction, indices: Indices, side: int, depth: int
    ) -> npt.NDArray[np.bool_]:
        """``goal`` (``twin`` is its Python function) at each of ``indices``,
        ``side`` to move, at ``depth``, each node its own root."""
        try:
            core, program = goal_code(self.material, goal)
        except Unsupported:
            truths = (twin(node, node) for node in self.nodes(indices, side, depth))
            return np.fromiter(truths, bool, len(indices))
        column = np.empty(len(indices), dtype=np.uint8)
        core.goal_column(program, True, depth, side == 0, self.graph.boards(indices), column)
        return column.astype(bool)
