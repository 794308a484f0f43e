"""The registry is the one list of the vocabulary: the core's numbers and
names (``al0/core/names.h``) are written from it, the built core holds
them, and each entry the registry says the core runs it runs as the twin
does (features and predicates: tests/engine/test_native.py; generators
here)."""

from __future__ import annotations

import itertools

import pytest

from al0.board import Material
from al0.board.moves import successors
from al0.board.position import from_board
from al0.board.sampling import random_positions
from al0.core import native
from al0.engine.compiled import compile_advice
from al0.engine.native import compile_native
from al0.lang.loader import parse_table
from al0.lang.node import node_at
from al0.lang.vocabulary.registry import KINDS, c_names, core_names
from conftest import ROOT, TABLES

core = native()
on_core = pytest.mark.skipif(core is None, reason="the native core is not running")


def test_the_cores_numbering_is_written_from_the_registry() -> None:
    written = (ROOT / "al0" / "core" / "names.h").read_text()
    assert written == c_names(), "al0/core/names.h is stale: write it anew (registry.c_names says how)"


@on_core
@pytest.mark.parametrize("kind", list(KINDS))
def test_the_built_core_numbers_what_the_registry_says_it_runs(kind: str) -> None:
    assert getattr(core, f"{kind.upper()}S") == core_names(kind)


GENERATOR_CASES = [
    ("legal", "legal"),
    ("nomove", "nomove"),
    ("moves(R)", "moves(n)"),
    ("moves(K)", "moves(k)"),
    ("checks", "checks"),
    ("captures", "captures"),
]
"""A constraint of each generator the core runs: ours and theirs."""


def test_a_case_for_every_generator_the_core_runs() -> None:
    assert {ours.split("(")[0] for ours, _ in GENERATOR_CASES} == set(core_names("generator"))


@on_core
@pytest.mark.parametrize("generator, theirs", GENERATOR_CASES)
def test_every_generator_the_core_runs_allows_the_twins_moves(generator: str, theirs: str) -> None:
    table = parse_table(
        "name: t\nmaterial: KRKN\nrules:\n  - {name: r, if: true, then: [a]}\nadvice:\n"
        f"  a: {{better-goal: mate, holding-goal: true, us-moves: {{'< 3': {generator}}},"
        f" them-moves: {{'< 3': {theirs}}}}}\n",
        "t.yaml",
        TABLES,
    )
    advice = table.advice["a"]
    compiled = compile_advice(advice, table.library)
    made = compile_native(advice, compiled, table)
    seen = 0
    for board in random_positions(Material.parse("KRKN"), 6, seed=44):
        start = from_board(board)
        for position in [start, *(child for _, child in itertools.islice(successors(start), 0, 30, 5))]:
            ours = position.turn == table.us
            moves = (compiled.us_moves if ours else compiled.them_moves)(node_at(position, 1, table.us))
            expected = [m.from_square << 6 | m.to_square for segment, _ in moves for m in segment]
            assert list(made.core.allowed(position, table.us, 1, ours)) == expected, (generator, position)
            seen += len(expected)
    assert seen or generator == "nomove"
