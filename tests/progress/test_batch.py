"""A batch of positions on the native core gives the twin's columns: every
feature a material can name and goals of each kind, at seeded positions of
its ending, with either side to move and at each depth ``al0 progress``
reads a condition."""

from __future__ import annotations

import numpy as np
import pytest

from al0.core import native
from al0.lang.expr import parse_call
from al0.lang.vocabulary.binding import Binder
from al0.progress.batch import NO_VALUE, Batch
from al0.progress.columns import Terms
from al0.tablebase import load
from al0.tablebase.graph import MoveGraph
from conftest import vocabulary_calls

core = native()
pytestmark = pytest.mark.skipif(core is None, reason="the native core is not running")

CONDITIONS = [
    "mate or stalemate or edge(k) and dist(K, k) = 2",
    "check or opposition or dist(R, k) < 3",
    "divides(R) or edge(k)",
    "room(k) < root.room(k) + 2 and not threatened(R)",
    "3*dist(K, k) + mobility >= 2*edge_dist(k) + 14",
]


def sample(graph: MoveGraph, side: int, count: int = 300) -> np.ndarray:
    """Seeded canonical positions with ``side`` to move (ours, then theirs: every move's end)."""
    pool = graph.roots if side == 0 else np.concatenate([end for _, end in graph.ours])
    return np.random.default_rng(side).choice(pool, count)


@pytest.fixture(scope="module", params=["KRK", "KQK", pytest.param("KBNK", marks=pytest.mark.slow)])
def graph(request) -> MoveGraph:
    return MoveGraph(load(request.param))


def test_every_feature_column_is_the_twins(graph, monkeypatch):
    material, indices = graph.table.name, sample(graph, 0)
    binder, batch = Binder(graph.table.material), Batch(graph)
    calls = vocabulary_calls(material, "feature", core.FEATURES)
    on_core = [
        batch.feature(parse_call(call), binder.bind(parse_call(call), "feature"), indices) for call in calls
    ]
    monkeypatch.setenv("AL0_CORE", "python")
    for call, column in zip(calls, on_core):
        twin = batch.feature(parse_call(call), binder.bind(parse_call(call), "feature"), indices)
        assert np.array_equal(column, twin), call
    assert any((column == NO_VALUE).any() for column in on_core) is False  # every piece is on the board


@pytest.fixture(scope="module")
def krk() -> MoveGraph:
    """KRK's graph: the conditions name its rook."""
    return MoveGraph(load("KRK"))


@pytest.mark.parametrize("side, depth", [(0, 0), (1, 1), (0, 2)])
def test_goal_columns_are_the_twins(krk, monkeypatch, side, depth):
    terms, indices = Terms(krk), sample(krk, side)
    goals = [terms.goal(condition, "test") for condition in CONDITIONS]
    on_core = [terms.batch.goal(goal, twin, indices, side, depth) for goal, twin in goals]
    monkeypatch.setenv("AL0_CORE", "python")
    for condition, (goal, twin), column in zip(CONDITIONS, goals, on_core):
        assert np.array_equal(column, terms.batch.goal(goal, twin, indices, side, depth)), condition
    assert all(0 < column.sum() < len(indices) for column in on_core)  # neither always nor never
